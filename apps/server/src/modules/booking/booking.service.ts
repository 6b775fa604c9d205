import {
  BOOKING_MESSAGES,
  type BookingAmountBody,
  type BookingItem,
  type BookingListQuery,
  can,
  fromSatang,
  toSatang,
} from '@ev/shared';
import { and, asc, desc, eq, fillPlaceholders, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { bookingEvents, bookings, chargingSessions, users } from '../../db/schema/index.ts';
import type { Background } from '../../lib/background.ts';
import { Conflict, Forbidden, NotFound } from '../../lib/errors.ts';
import { type Bind, bindValue, countAll, ordering, paging } from '../../lib/list-query.ts';
import { requireAccepted } from '../../ocpp/accepted.ts';
import { type ChargerCommands, remoteStopTransaction } from '../../ocpp/commands.ts';
import type { AuthUser } from '../../plugins/auth.ts';
import { type DataScope, scopeOf } from '../../plugins/scope.ts';
import { type AuditActor, audit } from '../audit/audit.ts';
import { commandAnswer } from '../charger/command-audit.ts';
import { overridesOf, pauseFullAt, pricedChange } from './booking-pricing.ts';
import { BOOKING_SORTS_SQL, bookingWhere, fromBookings, toBookingItem } from './booking-query.ts';
import { cancelAtCharger } from './charger-reservation.ts';
import {
  type Actor,
  applyEvent,
  type BookingRow,
  bookingScope,
  checkedNext,
  recordEvent,
  refuseWhilePaying,
} from './lifecycle.ts';

/**
 * Newest first by default. The id breaks ties in the sort's own direction, so a date sort walks the
 * (created_at, id) index either way instead of sorting the whole range.
 */
export function bookingOrder(query: Pick<BookingListQuery, 'sort' | 'order'>) {
  const direction = (query.order ?? (query.sort ? 'asc' : 'desc')) === 'desc' ? desc : asc;
  if (!query.sort) return [direction(bookings.createdAt), direction(bookings.id)];
  // ordering() checks the key against the list's own.
  const [first] = ordering({ sort: query.sort, order: query.order }, BOOKING_SORTS_SQL, []);
  return [first!, direction(bookings.id)];
}

/** The two statements of a list page: the count and the page itself. */
function listQueries(db: Db, scope: DataScope, query: BookingListQuery, now: number, bind: Bind = bindValue) {
  const where = bookingWhere(scope, query, now, bind);
  // Both statements stay on bookings: the member search is a subquery on users (memberMatches).
  const count = db.select({ total: countAll() }).from(bookings).where(where);
  // The page's ids first (an index walk, however deep the page), then their rows with names and payment:
  // joined before OFFSET, a page 5,000 deep joined 50,000 rows to throw them away (4.8 s at 1M bookings).
  const { limit, offset } = paging(query);
  const ids = db
    .select({ id: bookings.id })
    .from(bookings)
    .where(where)
    .orderBy(...bookingOrder(query))
    .limit(bind('limit', limit))
    .offset(bind('offset', offset));
  const page = fromBookings(db)
    .where(inArray(bookings.id, ids))
    .orderBy(...bookingOrder(query));
  return { count, page };
}

const placeholder: Bind = (name) => sql.placeholder(name) as never;

/**
 * The list's two statements for one shape of query (which filters, the scope's kind, the sort), built once
 * with placeholders and kept: building them (drizzle's SQL text and field lists) was a third of a list
 * call's own time on the server's thread. They run as unnamed statements, as a freshly built query does, so
 * the database plans each call with its values, as before. A handful of shapes are in use at a time; past
 * SHAPES the cache starts again.
 */
const SHAPES = 200;
const prepared = new WeakMap<Db, Map<string, ReturnType<typeof prepareList>>>();

function prepareList(db: Db, scope: DataScope, query: BookingListQuery, now: number) {
  const { count, page } = listQueries(db, scope, query, now, placeholder);
  return { count: count.prepare(''), page: page.prepare('') };
}

/** The statements of the query's shape, and the values of this call by placeholder name. */
function listStatements(db: Db, scope: DataScope, query: BookingListQuery, now: number) {
  const values: Record<string, unknown> = {};
  const names: string[] = [];
  const record: Bind = (name, value) => {
    names.push(name);
    // A placeholder's value reaches the driver as it is (no column mapping): instants as ISO text.
    values[name] = value instanceof Date ? value.toISOString() : value;
    return value;
  };
  // The same builder records the names and values (its conditions are cheap; the statements are not).
  bookingWhere(scope, query, now, record);
  const { limit, offset } = paging(query);
  record('limit', limit);
  record('offset', offset);
  const key = [scope.kind, query.sort ?? '', query.order ?? '', ...names].join('|');
  let shapes = prepared.get(db);
  if (!shapes) {
    shapes = new Map();
    prepared.set(db, shapes);
  }
  let statements = shapes.get(key);
  if (!statements) {
    if (shapes.size >= SHAPES) shapes.clear();
    statements = prepareList(db, scope, query, now);
    shapes.set(key, statements);
  }
  return { statements, values };
}

export async function listBookings(
  db: Db,
  scope: DataScope,
  query: BookingListQuery,
): Promise<{ total: number; bookings: BookingItem[] }> {
  const now = Date.now();
  const { statements, values } = listStatements(db, scope, query, now);
  // Both at once: on PostgreSQL they run on two pooled connections (PGlite runs them one after the other).
  const [[counts], rows] = await Promise.all([
    statements.count.execute(values),
    statements.page.execute(values),
  ]);
  return { total: counts?.total ?? 0, bookings: rows.map((row) => toBookingItem(row, now)) };
}

/** The SQL a list call runs, with this call's values (for the benchmark, which runs it raw through the driver). */
export function listBookingsStatements(db: Db, scope: DataScope, query: BookingListQuery) {
  const { statements, values } = listStatements(db, scope, query, Date.now());
  return [statements.count, statements.page].map((statement) => {
    const { sql: text, params } = statement.getQuery();
    return { sql: text, params: fillPlaceholders(params, values) };
  });
}

/** One booking with its history, oldest first. Outside the caller's scope it is a 404. */
export async function getBooking(db: Db, scope: DataScope, id: number) {
  const [row] = await fromBookings(db).where(
    and(eq(bookings.id, id), sql`${bookings.deletedAt} is null`, bookingScope(scope)),
  );
  if (!row) throw new NotFound(BOOKING_MESSAGES.notFound);
  const history = await db
    .select({
      event: bookingEvents.event,
      fromStatus: bookingEvents.fromStatus,
      toStatus: bookingEvents.toStatus,
      actor: bookingEvents.actor,
      actorChargerId: bookingEvents.actorChargerId,
      firstName: users.firstName,
      lastName: users.lastName,
      email: users.email,
      at: bookingEvents.at,
      detail: bookingEvents.detail,
    })
    .from(bookingEvents)
    .leftJoin(users, eq(users.id, bookingEvents.actorUserId))
    .where(eq(bookingEvents.bookingId, id))
    .orderBy(asc(bookingEvents.at), asc(bookingEvents.id));
  return {
    booking: toBookingItem(row),
    history: history.map((event) => ({
      event: event.event,
      fromStatus: event.fromStatus,
      toStatus: event.toStatus,
      actor: event.actor,
      actorName:
        event.actor === 'charger'
          ? event.actorChargerId
          : event.email
            ? `${event.firstName ?? ''} ${event.lastName ?? ''}`.trim() || event.email
            : null,
      at: event.at.toISOString(),
      detail: (event.detail as Record<string, unknown> | null) ?? null,
    })),
  };
}

export interface StaffContext {
  db: Db;
  user: AuthUser;
  commands: ChargerCommands;
  /** The staff user's audit identity: each action is an entry (in the change's transaction). */
  actor: AuditActor;
}

const staff = (user: AuthUser): Actor => ({ kind: 'staff', userId: user.id });
const inScope = (user: AuthUser) => bookingScope(scopeOf(user));

/** The booking as the caller may see it (404 outside the scope). */
async function scopedBooking(db: Db, user: AuthUser, id: number): Promise<BookingRow> {
  const [row] = await db
    .select()
    .from(bookings)
    .where(and(eq(bookings.id, id), sql`${bookings.deletedAt} is null`, inScope(user)));
  if (!row) throw new NotFound(BOOKING_MESSAGES.notFound);
  return row;
}

/** The OCPP transaction id of a charging booking. */
async function transactionOf(db: Db, row: BookingRow): Promise<number | null> {
  if (row.sessionId === null) return null;
  const [session] = await db
    .select({ id: chargingSessions.id, status: chargingSessions.status })
    .from(chargingSessions)
    .where(eq(chargingSessions.id, row.sessionId));
  return session?.status === 'ACTIVE' ? session.id : null;
}

/**
 * Stop: asks the charger to end the transaction (RemoteStopTransaction). The booking becomes charged when
 * the charger's StopTransaction arrives, as for a stop at the charger.
 */
export async function stopBooking({ db, user, commands, actor }: StaffContext, id: number): Promise<void> {
  const row = await scopedBooking(db, user, id);
  checkedNext(row.status, 'stop', 'staff');
  const transactionId = await transactionOf(db, row);
  if (transactionId === null) throw new Conflict('The charger has no transaction open for this booking');
  const outcome = await remoteStopTransaction(commands, row.chargerId, transactionId);
  // The charger's answer is in the entry: a stop it did not take (offline, silent, refused) is one too.
  const entry = {
    entity: 'booking',
    entityId: id,
    action: 'stop',
    details: { chargerId: row.chargerId, transactionId, ...commandAnswer(outcome) },
  } as const;
  try {
    requireAccepted(outcome, 'remote stop', BOOKING_MESSAGES.offline);
  } catch (error) {
    await audit(db, actor, entry);
    throw error;
  }
  // The StopTransaction may already have made it charged: the request is history either way.
  await db.transaction(async (tx) => {
    await audit(tx, actor, entry);
    await recordEvent(tx, {
      bookingId: id,
      event: 'stop',
      from: row.status,
      to: row.status,
      actor: staff(user),
      detail: { transactionId },
    });
  });
}

/** Best effort: the charger is told to stop, without waiting (the booking no longer depends on it). */
function tellChargerToStop(ctx: StaffContext, row: BookingRow, log: (message: string) => void): void {
  void transactionOf(ctx.db, row)
    .then((transactionId) =>
      transactionId === null ? null : remoteStopTransaction(ctx.commands, row.chargerId, transactionId),
    )
    .then((outcome) => {
      if (outcome && outcome.status !== 'answered')
        log(`remote stop of booking ${row.id}: ${outcome.status}`);
    })
    .catch((error: unknown) => log(`remote stop of booking ${row.id} failed: ${String(error)}`));
}

/**
 * Force stop (admin, callcenter): to the payment stage at once, priced now with the energy known so far
 * (no overstay: the staff ended it). The charger is asked to stop too; its late StopTransaction is recorded.
 */
export async function forceStopBooking(
  ctx: StaffContext,
  id: number,
  log: (m: string) => void,
): Promise<void> {
  await scopedBooking(ctx.db, ctx.user, id);
  const now = new Date();
  const row = await applyEvent(
    ctx.db,
    id,
    'force-stop',
    staff(ctx.user),
    (locked, tx) =>
      pricedChange(tx, locked, {
        stopTime: now,
        avaliableAt: now,
        fullAt: locked.fullAt ?? pauseFullAt(locked, now.getTime()),
        suspendedAt: null,
        cableOutAt: null,
      }),
    { audit: { actor: ctx.actor, action: 'force-stop' } },
  );
  tellChargerToStop(ctx, row, log);
}

/** Avaliable: skips the cable removal; the overstay counts up to now. */
export async function avaliableBooking(ctx: StaffContext, id: number): Promise<void> {
  await scopedBooking(ctx.db, ctx.user, id);
  const now = new Date();
  await applyEvent(
    ctx.db,
    id,
    'avaliable',
    staff(ctx.user),
    (locked, tx) => pricedChange(tx, locked, { avaliableAt: now }),
    { audit: { actor: ctx.actor, action: 'avaliable' } },
  );
}

const bahtText = (value: number | null) => (value === null ? null : fromSatang(toSatang(value)));

/** Set amount: staff overrides of the parts or the total; the total owed follows. */
export async function setBookingAmount(
  ctx: StaffContext,
  id: number,
  body: BookingAmountBody,
): Promise<void> {
  await scopedBooking(ctx.db, ctx.user, id);
  await applyEvent(
    ctx.db,
    id,
    'set-amount',
    staff(ctx.user),
    async (locked, tx) => {
      await refuseWhilePaying(tx, locked.id);
      const set: Partial<BookingRow> = {};
      if (body.amount !== undefined) set.adminAmount = bahtText(body.amount);
      if (body.priceByPower !== undefined) set.adminPriceByPower = bahtText(body.priceByPower);
      if (body.priceByDuration !== undefined) set.adminPriceByDuration = bahtText(body.priceByDuration);
      if (body.priceByPenalty !== undefined) set.adminPriceByPenalty = bahtText(body.priceByPenalty);
      const next = { ...locked, ...set };
      // The parts stay as priced; only the total owed follows the new overrides.
      return { ...set, totalAmount: fromSatang(storedTotal(next)) };
    },
    { detail: body as Record<string, unknown>, audit: { actor: ctx.actor, action: 'set-amount' } },
  );
}

/**
 * The total from the parts as they were priced (stored) and the overrides: adminAmount, else each part's
 * override or its priced value. Stored parts are used so a later change of meter data never reprices.
 */
export function storedTotal(row: BookingRow): number {
  const overrides = overridesOf(row);
  if (overrides.adminAmount != null) return toSatang(overrides.adminAmount);
  const part = (override: number | null | undefined, priced: string | null) =>
    override != null ? toSatang(override) : toSatang(priced ?? '0');
  return (
    part(overrides.priceByPower, row.priceByPower) +
    part(overrides.priceByDuration, row.priceByDuration) +
    part(overrides.priceByPenalty, row.priceByPenalty)
  );
}

/**
 * Cancel payment: the member owes nothing; the booking is cancelled. Its priced parts stay (what was waived);
 * the total owed becomes 0. Refused while a payment is with the provider.
 */
export async function cancelBookingPayment(ctx: StaffContext, id: number): Promise<void> {
  await scopedBooking(ctx.db, ctx.user, id);
  await applyEvent(
    ctx.db,
    id,
    'cancel-payment',
    staff(ctx.user),
    async (locked, tx) => {
      await refuseWhilePaying(tx, locked.id);
      return { totalAmount: '0.00' };
    },
    { audit: { actor: ctx.actor, action: 'cancel-payment' } },
  );
}

/**
 * Delete (created or started; admin also while charging): a soft delete, the row and its history are kept.
 * A charging booking's charger is told to stop; its late StopTransaction is recorded on the deleted booking.
 */
export async function deleteBooking(
  ctx: StaffContext,
  id: number,
  log: (m: string) => void,
  background: Background,
): Promise<void> {
  const current = await scopedBooking(ctx.db, ctx.user, id);
  if (current.status === 'charging' && !can(ctx.user.adminRole, 'booking.delete-charging')) {
    throw new Forbidden('Only an admin can delete a booking that is charging');
  }
  const row = await applyEvent(ctx.db, id, 'delete', staff(ctx.user), () => ({ deletedAt: new Date() }), {
    audit: { actor: ctx.actor, action: 'delete' },
  });
  if (row.status === 'charging') tellChargerToStop(ctx, row, log);
  // A reservation the charger holds is taken back (CancelReservation), once the delete has committed.
  else background.run(`CancelReservation of booking ${id}`, () => cancelAtCharger(ctx, id, 'deleted'));
}
