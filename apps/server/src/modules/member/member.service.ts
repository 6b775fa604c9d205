import { randomBytes } from 'node:crypto';
import { BOOKING_MESSAGES, type BookingItem, MEMBER_LIMITS, type ReserveBody } from '@ev/shared';
import { and, desc, eq, gt, inArray, isNull, lt, or } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { bookings, chargers, connectors, idTags, landlords } from '../../db/schema/index.ts';
import { Conflict, Forbidden, Invalid, NotFound } from '../../lib/errors.ts';
import { requireAccepted } from '../../ocpp/accepted.ts';
import { type ChargerCommands, remoteStartTransaction, remoteStopTransaction } from '../../ocpp/commands.ts';
import { fromBookings, toBookingItem } from '../booking/booking-query.ts';
import { type Actor, applyEvent, checkedNext, recordEvent } from '../booking/lifecycle.ts';
import { isPrivateSite, isSiteMember, PRIVATE_STATION } from '../promotion/private-station.ts';

const member = (userId: number): Actor => ({ kind: 'member', userId });
export const ownBooking = (userId: number) => eq(bookings.userId, userId);

/** The member's app id tag (made on first use): RemoteStartTransaction sends it, StartTransaction names it. */
export async function memberTag(db: Db, userId: number): Promise<string> {
  const [existing] = await db
    .select({ idTag: idTags.idTag })
    .from(idTags)
    .where(and(eq(idTags.userId, userId), eq(idTags.kind, 'app')));
  if (existing) return existing.idTag;
  // OCPP id tags are at most 20 characters: APP + 16 hex digits.
  const idTag = `APP${randomBytes(8).toString('hex').toUpperCase()}`;
  await db.insert(idTags).values({ idTag, userId, kind: 'app' }).onConflictDoNothing();
  return memberTag(db, userId);
}

export async function memberBooking(db: Db, userId: number, id: number): Promise<BookingItem> {
  const [row] = await fromBookings(db).where(
    and(eq(bookings.id, id), ownBooking(userId), isNull(bookings.deletedAt)),
  );
  if (!row) throw new NotFound(BOOKING_MESSAGES.notFound);
  return toBookingItem(row);
}

export async function memberBookings(db: Db, userId: number): Promise<BookingItem[]> {
  const rows = await fromBookings(db)
    .where(and(ownBooking(userId), isNull(bookings.deletedAt)))
    .orderBy(desc(bookings.createdAt), desc(bookings.id))
    .limit(50);
  return rows.map((row) => toBookingItem(row));
}

const OPEN = ['created', 'started', 'charging', 'charged', 'stopped'] as const;

/**
 * Reserves a connector for a slot at most 1 day ahead (terms) and at most 4 hours long. One open booking per
 * member (an unpaid one included), and no two reservations of one connector whose slots overlap.
 */
export async function reserve(db: Db, userId: number, body: ReserveBody, now = Date.now()): Promise<number> {
  const start = body.slotStart.getTime();
  const end = body.slotEnd.getTime();
  if (start < now - MEMBER_LIMITS.startGraceMs) throw new Invalid('body.slotStart: must not be in the past');
  if (start > now + MEMBER_LIMITS.aheadMs) throw new Invalid('body.slotStart: at most 1 day ahead');
  if (end <= start) throw new Invalid('body.slotEnd: must be after the slot start');
  if (end - start > MEMBER_LIMITS.slotMaxMs) throw new Invalid('body.slotEnd: a slot lasts at most 4 hours');
  const [place] = await db
    .select({
      chargerId: connectors.chargerId,
      connectorTypeId: connectors.connectorTypeId,
      merchantId: chargers.merchantId,
      landlordId: chargers.landlordId,
      chargerActive: chargers.active,
      siteActive: landlords.active,
    })
    .from(connectors)
    .innerJoin(chargers, eq(chargers.id, connectors.chargerId))
    .innerJoin(landlords, eq(landlords.id, chargers.landlordId))
    .where(eq(connectors.id, body.connectorId));
  if (!place) throw new NotFound('No connector found');
  if (!place.chargerActive || !place.siteActive) {
    throw new Conflict('This connector is not open for booking');
  }
  // A private station (its cluster Internal Used) takes its site's members only (issue 21).
  if ((await isPrivateSite(db, place.landlordId)) && !(await isSiteMember(db, userId, place.landlordId))) {
    throw new Forbidden(PRIVATE_STATION);
  }
  return db.transaction(async (tx) => {
    // Reservations of one connector queue here, so two members never get one slot.
    await tx
      .select({ id: connectors.id })
      .from(connectors)
      .where(eq(connectors.id, body.connectorId))
      .for('update');
    const [mine] = await tx
      .select({ id: bookings.id, status: bookings.status })
      .from(bookings)
      .where(and(ownBooking(userId), inArray(bookings.status, [...OPEN]), isNull(bookings.deletedAt)))
      .limit(1);
    if (mine) {
      throw new Conflict(
        mine.status === 'stopped'
          ? `Pay booking ${mine.id} before booking again`
          : `You already have booking ${mine.id} in progress`,
      );
    }
    const [taken] = await tx
      .select({ id: bookings.id })
      .from(bookings)
      .where(
        and(
          eq(bookings.connectorId, body.connectorId),
          isNull(bookings.deletedAt),
          or(
            inArray(bookings.status, ['charging', 'charged']),
            and(
              inArray(bookings.status, ['created', 'started']),
              lt(bookings.slotStart, body.slotEnd),
              gt(bookings.slotEnd, body.slotStart),
            ),
          ),
        ),
      )
      .limit(1);
    if (taken) throw new Conflict('This connector is booked for that time');
    const [created] = await tx
      .insert(bookings)
      .values({
        userId,
        chargerId: place.chargerId,
        connectorId: body.connectorId,
        merchantId: place.merchantId,
        landlordId: place.landlordId,
        connectorTypeId: place.connectorTypeId,
        status: 'created',
        slotStart: body.slotStart,
        slotEnd: body.slotEnd,
      })
      .returning({ id: bookings.id });
    await recordEvent(tx, {
      bookingId: created!.id,
      event: 'reserve',
      from: null,
      to: 'created',
      actor: member(userId),
      detail: { slotStart: body.slotStart.toISOString(), slotEnd: body.slotEnd.toISOString() },
    });
    return created!.id;
  });
}

/** Check in on the parking: from 15 minutes before the slot to its end. */
export async function checkIn(db: Db, userId: number, id: number, now = Date.now()): Promise<void> {
  await applyEvent(
    db,
    id,
    'check-in',
    member(userId),
    (row) => {
      const start = row.slotStart?.getTime() ?? now;
      const end = row.slotEnd?.getTime() ?? now;
      if (now < start - MEMBER_LIMITS.checkInEarlyMs) {
        throw new Conflict('Check-in opens 15 minutes before the slot');
      }
      if (now > end) throw new Conflict('The slot has ended');
      return { checkedInAt: new Date(now) };
    },
    { where: ownBooking(userId) },
  );
}

/** Start: asks the charger to start with the member's tag; its StartTransaction makes the booking charging. */
export async function startCharging(db: Db, commands: ChargerCommands, userId: number, id: number) {
  const [row] = await db
    .select({
      status: bookings.status,
      chargerId: bookings.chargerId,
      ocppConnectorId: connectors.ocppConnectorId,
    })
    .from(bookings)
    .innerJoin(connectors, eq(connectors.id, bookings.connectorId))
    .where(and(eq(bookings.id, id), ownBooking(userId), isNull(bookings.deletedAt)));
  if (!row) throw new NotFound(BOOKING_MESSAGES.notFound);
  checkedNext(row.status, 'remote-start', 'member');
  const idTag = await memberTag(db, userId);
  // Dated when it is sent: the charger's start can't be earlier (charger-start.ts bounds it by this).
  const requestedAt = new Date();
  const outcome = await remoteStartTransaction(commands, row.chargerId, {
    connectorId: row.ocppConnectorId,
    idTag,
    // A 2.0.1 charger names it in its TransactionEvent: the session is this booking's (1.6 is not sent it).
    remoteStartId: id,
  });
  requireAccepted(outcome, 'remote start');
  await recordEvent(db, {
    bookingId: id,
    event: 'remote-start',
    from: row.status,
    to: row.status,
    actor: member(userId),
    at: requestedAt,
  });
}

/** Stop from the app: as the staff's Stop, a RemoteStopTransaction. */
export async function stopCharging(db: Db, commands: ChargerCommands, userId: number, id: number) {
  const [row] = await db
    .select({ status: bookings.status, chargerId: bookings.chargerId, sessionId: bookings.sessionId })
    .from(bookings)
    .where(and(eq(bookings.id, id), ownBooking(userId), isNull(bookings.deletedAt)));
  if (!row) throw new NotFound(BOOKING_MESSAGES.notFound);
  checkedNext(row.status, 'stop', 'member');
  if (row.sessionId === null) throw new Conflict('The charger has no transaction open for this booking');
  requireAccepted(await remoteStopTransaction(commands, row.chargerId, row.sessionId), 'remote stop');
  await recordEvent(db, {
    bookingId: id,
    event: 'stop',
    from: row.status,
    to: row.status,
    actor: member(userId),
  });
}

export async function cancelReservation(db: Db, userId: number, id: number): Promise<void> {
  await applyEvent(db, id, 'cancel', member(userId), () => ({}), { where: ownBooking(userId) });
}

/** A reservation whose slot ended this long ago, unused (never charged), is cancelled by the server. */
export const EXPIRY_GRACE_MS = 15 * 60_000;

/**
 * Cancels the reservations (created or started) whose slot ended more than EXPIRY_GRACE_MS ago: the member
 * may book again, and the history says the server did it. Answers how many it cancelled.
 */
export async function expireReservations(
  db: Db,
  now = Date.now(),
  /** Each reservation cancelled here, once committed (the charger's reservation is taken back). */
  onCancelled?: (bookingId: number) => void,
): Promise<number> {
  const stale = await db
    .select({ id: bookings.id })
    .from(bookings)
    .where(
      and(
        inArray(bookings.status, ['created', 'started']),
        isNull(bookings.deletedAt),
        lt(bookings.slotEnd, new Date(now - EXPIRY_GRACE_MS)),
      ),
    )
    .limit(500);
  let cancelled = 0;
  for (const { id } of stale) {
    // A charger may start it meanwhile: then the transition is refused and the booking goes on.
    await applyEvent(db, id, 'cancel', { kind: 'system' }, () => ({}), {
      detail: { reason: 'slot ended unused' },
    })
      .then(() => {
        cancelled++;
        onCancelled?.(id);
      })
      .catch(() => undefined);
  }
  return cancelled;
}
