import {
  type AuditAction,
  BOOKING_MESSAGES,
  type BookingActor,
  type BookingEvent,
  type BookingStatus,
  BookingTransitionError,
  nextStatus,
} from '@ev/shared';
import { and, eq, isNull, type SQL } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import { bookingEvents, bookings, paymentOperations } from '../../db/schema/index.ts';
import { Conflict, NotFound } from '../../lib/errors.ts';
import type { Bind } from '../../lib/list-query.ts';
import { type DataScope, siteScopeOn } from '../../plugins/scope.ts';
import { type AuditActor, audit } from '../audit/audit.ts';

export type { Tx };
export type BookingRow = typeof bookings.$inferSelect;
export type BookingChange = Partial<typeof bookings.$inferInsert>;

/** Who made a transition. */
export interface Actor {
  kind: BookingActor;
  /** The member or staff user. */
  userId?: number | null;
  chargerId?: string | null;
}

/** The bookings a staff scope may see: by the site and cluster copied onto each booking. */
export const bookingScope = (scope: DataScope, bind?: Bind): SQL | undefined =>
  siteScopeOn(scope, { merchantId: bookings.merchantId, landlordId: bookings.landlordId }, bind);

export async function recordEvent(
  db: Db | Tx,
  entry: {
    bookingId: number;
    event: BookingEvent;
    from: BookingStatus | null;
    to: BookingStatus;
    actor: Actor;
    at?: Date;
    detail?: Record<string, unknown> | null;
  },
): Promise<void> {
  await db.insert(bookingEvents).values({
    bookingId: entry.bookingId,
    event: entry.event,
    fromStatus: entry.from,
    toStatus: entry.to,
    actor: entry.actor.kind,
    actorUserId: entry.actor.userId ?? null,
    actorChargerId: entry.actor.chargerId ?? null,
    at: entry.at ?? new Date(),
    detail: entry.detail ?? null,
  });
}

export interface ApplyOptions {
  /** Narrows where the booking may be found (a staff scope, a member's own bookings); outside it is a 404. */
  where?: SQL;
  /** A deleted booking still takes charger events (a late stop). */
  includeDeleted?: boolean;
  detail?: Record<string, unknown> | null;
  at?: Date;
  /**
   * A staff user's action: its audit entry is written in the transaction once the transition is allowed, before
   * the booking changes (so the change is captured into it; a refused one writes none).
   */
  audit?: { actor: AuditActor; action: AuditAction; details?: Record<string, unknown> };
}

/**
 * The one way a booking's status changes: the row is locked, the event checked against the transition table
 * (409 with its message when the status does not allow it), `change` computed from the locked row, and the
 * event recorded, all in one transaction. Two staff acting on one booking at once: the second waits for the
 * lock, then finds the new status and gets the 409.
 */
export async function applyEvent(
  db: Db,
  bookingId: number,
  event: BookingEvent,
  actor: Actor,
  change: (row: BookingRow, tx: Tx) => BookingChange | Promise<BookingChange>,
  options: ApplyOptions = {},
): Promise<BookingRow> {
  return db.transaction((tx) => applyEventIn(tx, bookingId, event, actor, change, options));
}

/** The booking, locked for the rest of the transaction; outside `where` (or deleted) a 404. */
export async function lockBooking(
  tx: Tx,
  bookingId: number,
  options: Pick<ApplyOptions, 'where' | 'includeDeleted'> = {},
): Promise<BookingRow> {
  const conditions = [eq(bookings.id, bookingId)];
  if (!options.includeDeleted) conditions.push(isNull(bookings.deletedAt));
  if (options.where) conditions.push(options.where);
  const [row] = await tx
    .select()
    .from(bookings)
    .where(and(...conditions))
    .for('update');
  if (!row) throw new NotFound(BOOKING_MESSAGES.notFound);
  return row;
}

/** applyEvent inside the caller's transaction: several events of one booking commit together or not at all. */
export async function applyEventIn(
  tx: Tx,
  bookingId: number,
  event: BookingEvent,
  actor: Actor,
  change: (row: BookingRow, tx: Tx) => BookingChange | Promise<BookingChange>,
  options: ApplyOptions = {},
): Promise<BookingRow> {
  const row = await lockBooking(tx, bookingId, options);
  const to = checkedNext(row.status, event, actor.kind);
  if (options.audit) {
    const { actor: staff, action, details } = options.audit;
    await audit(tx, staff, { entity: 'booking', entityId: bookingId, action, details });
  }
  const set = await change(row, tx);
  const [updated] = await tx
    .update(bookings)
    .set({ ...set, status: to, updatedAt: new Date() })
    .where(eq(bookings.id, bookingId))
    .returning();
  await recordEvent(tx, {
    bookingId,
    event,
    from: row.status,
    to,
    actor,
    at: options.at,
    detail: options.detail,
  });
  return updated!;
}

/** nextStatus, with a refusal as a 409. */
export function checkedNext(status: BookingStatus, event: BookingEvent, actor: BookingActor): BookingStatus {
  try {
    return nextStatus(status, event, actor);
  } catch (error) {
    if (error instanceof BookingTransitionError) throw new Conflict(error.message);
    throw error;
  }
}

/**
 * A booking whose payment is with the provider (a pending charge) must not change what it owes or how it ends
 * until the provider answers: Set amount, Cancel payment and a second Pay are refused (409).
 */
export async function refuseWhilePaying(tx: Tx | Db, bookingId: number): Promise<void> {
  const [pending] = await tx
    .select({ id: paymentOperations.id })
    .from(paymentOperations)
    .where(
      and(
        eq(paymentOperations.bookingId, bookingId),
        eq(paymentOperations.kind, 'charge'),
        eq(paymentOperations.status, 'pending'),
      ),
    )
    .limit(1);
  if (pending) throw new Conflict(BOOKING_MESSAGES.paymentPending);
}
