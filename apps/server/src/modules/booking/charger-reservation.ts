/**
 * Reservations at the charger (issue 32 §4; docs/decisions.md, Reservations at the charger): a member's
 * reservation for now is sent to its charger (ReserveNow), so the connector shows Reserved and nobody else
 * takes it; a cancelled, expired or deleted one is taken back (CancelReservation) where the charger had
 * accepted it. Both are sent after the booking's own transaction has committed, never inside one, and both
 * answers are recorded as booking events. Whatever the charger says (Rejected, Occupied, NotSupported,
 * offline…), the booking stands: the reservation is ours, the charger's is a courtesy to the member.
 */
import { MEMBER_LIMITS } from '@ev/shared';
import { and, desc, eq, inArray } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { bookingEvents, bookings, connectors } from '../../db/schema/index.ts';
import {
  type ChargerCommands,
  type CommandOutcome,
  cancelReservation,
  reserveNow,
} from '../../ocpp/commands.ts';
import { memberTag } from '../member/member.service.ts';
import { recordEvent } from './lifecycle.ts';

/** What the calls need: run them in `Background` (lib/background.ts), after the booking has committed. */
export interface ReservationContext {
  db: Db;
  commands: ChargerCommands;
}

/** How a charger's answer is recorded: its own word, or what became of the call. */
export function answerWord(outcome: CommandOutcome): string {
  switch (outcome.status) {
    case 'answered':
      return String(outcome.response.status);
    case 'offline':
      return 'Offline';
    case 'timeout':
      return 'Timeout';
    case 'error':
      return outcome.code === 'NotImplemented' || outcome.code === 'NotSupported'
        ? 'NotSupported'
        : `Error ${outcome.code}`;
  }
}

/** A reservation is for now when its slot starts within the check-in window (15 minutes) or has begun. */
export const isForNow = (slotStart: Date, now: number) =>
  slotStart.getTime() <= now + MEMBER_LIMITS.checkInEarlyMs;

async function bookingOf(db: Db, bookingId: number) {
  const [row] = await db
    .select({
      status: bookings.status,
      deletedAt: bookings.deletedAt,
      userId: bookings.userId,
      chargerId: bookings.chargerId,
      slotStart: bookings.slotStart,
      slotEnd: bookings.slotEnd,
      connectorId: connectors.ocppConnectorId,
    })
    .from(bookings)
    .innerJoin(connectors, eq(connectors.id, bookings.connectorId))
    .where(eq(bookings.id, bookingId));
  return row ?? null;
}

async function record(
  db: Db,
  bookingId: number,
  event: 'charger-reserve' | 'charger-cancel-reservation',
  detail: Record<string, unknown>,
): Promise<void> {
  const [row] = await db.select({ status: bookings.status }).from(bookings).where(eq(bookings.id, bookingId));
  if (!row) return;
  await recordEvent(db, {
    bookingId,
    event,
    from: row.status,
    to: row.status,
    actor: { kind: 'system' },
    detail,
  });
}

/** A reservation not yet charging, cancelled or deleted. */
const reservable = (row: { status: string; deletedAt: Date | null }) =>
  (row.status === 'created' || row.status === 'started') && row.deletedAt === null;

/**
 * ReserveNow for a member's reservation for now: the connector, until the slot's end, for the member's app
 * tag, with the booking id as reservationId. Answers the charger's word (null: nothing was sent, the
 * reservation is for later or no longer open). An Accepted reservation cancelled meanwhile is taken back.
 */
export async function reserveAtCharger(
  context: ReservationContext,
  bookingId: number,
  now = Date.now(),
): Promise<string | null> {
  const { db, commands } = context;
  const row = await bookingOf(db, bookingId);
  if (!row || row.userId === null || !row.slotStart || !row.slotEnd || !reservable(row)) return null;
  if (!isForNow(row.slotStart, now) || row.slotEnd.getTime() <= now) return null;
  const idTag = await memberTag(db, row.userId);
  const expiryDate = row.slotEnd.toISOString();
  const answer = answerWord(
    await reserveNow(commands, row.chargerId, {
      connectorId: row.connectorId,
      expiryDate,
      idTag,
      reservationId: bookingId,
    }),
  );
  await record(db, bookingId, 'charger-reserve', { answer, connectorId: row.connectorId, expiryDate });
  if (answer === 'Accepted') {
    const after = await bookingOf(db, bookingId);
    if (after && !reservable(after) && after.status !== 'charging')
      await cancelAtCharger(context, bookingId, after.deletedAt ? 'deleted' : 'cancelled');
  }
  return answer;
}

/**
 * CancelReservation, when the charger may hold the booking's reservation (its last ReserveNow answer was
 * Accepted, or none came in time, and it was not taken back since). Answers the charger's word; null when
 * nothing was sent.
 */
export async function cancelAtCharger(
  context: ReservationContext,
  bookingId: number,
  reason: 'cancelled' | 'expired' | 'deleted',
): Promise<string | null> {
  const { db, commands } = context;
  const [last] = await db
    .select({ event: bookingEvents.event, detail: bookingEvents.detail })
    .from(bookingEvents)
    .where(
      and(
        eq(bookingEvents.bookingId, bookingId),
        inArray(bookingEvents.event, ['charger-reserve', 'charger-cancel-reservation']),
      ),
    )
    .orderBy(desc(bookingEvents.at), desc(bookingEvents.id))
    .limit(1);
  // Accepted; or no answer in time, which the charger may have taken all the same (a Rejected tells us not).
  const answer = (last?.detail as { answer?: string } | null)?.answer;
  if (last?.event !== 'charger-reserve' || (answer !== 'Accepted' && answer !== 'Timeout')) return null;
  const row = await bookingOf(db, bookingId);
  if (!row) return null;
  const word = answerWord(await cancelReservation(commands, row.chargerId, bookingId));
  await record(db, bookingId, 'charger-cancel-reservation', { answer: word, reason });
  return word;
}
