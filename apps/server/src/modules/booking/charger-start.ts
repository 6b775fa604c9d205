/**
 * StartTransaction and Authorize, as real chargers send them (issue 20): the same StartTransaction sent twice
 * opens one transaction; the charger's start time is bounded by what we know; a member who owes money, or is
 * locked, or charges on another connector, is refused (Blocked / ConcurrentTx) at the charger as in the app;
 * an older transaction left open on the connector is closed. Id tags (issue 32 §4): a tag no member holds is
 * Invalid unless OCPP_UNKNOWN_TAGS=accept; a blocked card is Blocked, one past its expiry Expired.
 */
import { idTagState } from '@ev/shared';
import { and, desc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { bookingEvents, bookings, chargers, connectors, users } from '../../db/schema/index.ts';
import type { EventGuard, IdTagInfo, IdTagStatus, StartAnswer } from '../../ocpp/events.ts';
import {
  type BoundedTime,
  boundedTime,
  closeSuperseded,
  correctionDetail,
  knownStart,
  type LowerBound,
  type StartedSession,
  type StartRequest,
  startTransaction,
} from '../../ocpp/transactions.ts';
import { appTagOf, findTag, type KnownTag } from '../id-tag/id-tag.service.ts';
import { isSiteMember, privateSiteOfCharger } from '../promotion/private-station.ts';
import { planSnapshot } from './booking-pricing.ts';
import { onStopTransaction, releaseCharged } from './charger-events.ts';
import { type Actor, applyEvent, recordEvent } from './lifecycle.ts';

/** How far back a walk-in's start may be dated: a charger queues at most this long offline (decisions.md). */
export const WALK_IN_LOOKBACK_MS = 48 * 3_600_000;

const chargerActor = (chargerId: string): Actor => ({ kind: 'charger', chargerId });

/** What the operator chose for id tags no member holds (OCPP_UNKNOWN_TAGS). */
export interface TagRules {
  unknownTags: 'invalid' | 'accept';
}

/** The member an id tag belongs to, if any (in any case: OCPP compares id tags without regard to it). */
export async function memberOfTag(db: Db, idTag: string): Promise<number | null> {
  return (await findTag(db, idTag))?.userId ?? null;
}

/**
 * Whether a member may charge, by the member API's own rule (one open booking per member, an unpaid one
 * included): a locked account or an Unpaid booking is Blocked; a session charging (or charged, cable in) on
 * another connector is ConcurrentTx. Authorize names no connector: it is refused only what is Blocked.
 */
export async function tagVerdict(
  db: Db,
  userId: number,
  connectorRowId: number | null,
  at: 'authorize' | 'start',
): Promise<IdTagStatus> {
  const [user] = await db.select({ active: users.active }).from(users).where(eq(users.id, userId));
  if (!user?.active) return 'Blocked';
  const open = await db
    .select({ status: bookings.status, connectorId: bookings.connectorId })
    .from(bookings)
    .where(
      and(
        eq(bookings.userId, userId),
        inArray(bookings.status, ['stopped', 'charging', 'charged']),
        isNull(bookings.deletedAt),
      ),
    );
  if (open.some((booking) => booking.status === 'stopped')) return 'Blocked';
  if (at === 'start' && open.some((booking) => booking.connectorId !== connectorRowId)) return 'ConcurrentTx';
  return 'Accepted';
}

/**
 * A tag at a private station (its site's cluster Internal Used): Invalid unless the tag is a member's who is
 * one of the site's members (issue 21); null where the station is public or the member belongs.
 */
async function privateVerdict(db: Db, chargerId: string, userId: number | null): Promise<IdTagStatus | null> {
  const site = await privateSiteOfCharger(db, chargerId);
  if (site === null) return null;
  return userId !== null && (await isSiteMember(db, userId, site)) ? null : 'Invalid';
}

/** A card's expiry and parent (the member's app tag), as IdTagInfo gives them. */
async function cardInfo(db: Db, tag: KnownTag): Promise<Omit<IdTagInfo, 'status'>> {
  const info: Omit<IdTagInfo, 'status'> = {};
  if (tag.expiresAt) info.expiryDate = tag.expiresAt.toISOString();
  if (tag.kind === 'rfid') {
    const parent = await appTagOf(db, tag.userId);
    if (parent) info.parentIdTag = parent;
  }
  return info;
}

/**
 * The answer to a tag, at Authorize (no connector) or StartTransaction: a private station takes its members
 * only (Invalid); an unknown tag is Invalid, or Accepted with OCPP_UNKNOWN_TAGS=accept (a session with no
 * booking); a blocked card is Blocked, one past its expiry Expired; then the member's own state (tagVerdict).
 */
async function verdictOf(
  db: Db,
  rules: TagRules,
  chargerId: string,
  idTag: string,
  connectorRowId: number | null,
  at: 'authorize' | 'start',
): Promise<{ info: IdTagInfo; userId: number | null }> {
  const tag = await findTag(db, idTag);
  const userId = tag?.userId ?? null;
  const refused = await privateVerdict(db, chargerId, userId);
  if (refused) return { info: { status: refused }, userId };
  if (!tag) return { info: { status: rules.unknownTags === 'accept' ? 'Accepted' : 'Invalid' }, userId };
  const extra = await cardInfo(db, tag);
  const state = idTagState(tag);
  const status = state === 'Accepted' ? await tagVerdict(db, tag.userId, connectorRowId, at) : state;
  return { info: { status, ...extra }, userId };
}

/** Authorize: may this tag charge here? (verdictOf) */
export async function authorizeTag(
  db: Db,
  rules: TagRules,
  chargerId: string,
  idTag: string,
): Promise<IdTagInfo> {
  return (await verdictOf(db, rules, chargerId, idTag, null, 'authorize')).info;
}

/**
 * The member's reservation on this connector (checked in or not): the one the charger names first
 * (StartTransaction's reservationId, the booking id ReserveNow sent), else the newest.
 */
async function reservationOf(db: Db, userId: number, connectorRowId: number, named?: number) {
  const byName = named !== undefined && Number.isInteger(named) && named > 0 && named <= 2_147_483_647;
  const [booking] = await db
    .select({ id: bookings.id, createdAt: bookings.createdAt, checkedInAt: bookings.checkedInAt })
    .from(bookings)
    .where(
      and(
        eq(bookings.connectorId, connectorRowId),
        eq(bookings.userId, userId),
        inArray(bookings.status, ['created', 'started']),
        isNull(bookings.deletedAt),
      ),
    )
    .orderBy(...(byName ? [desc(sql`${bookings.id} = ${named}`)] : []), desc(bookings.createdAt))
    .limit(1);
  return booking ?? null;
}

/**
 * The earliest a reserved session may have started: the latest of the reservation, the check-in and the
 * member's request to start (RemoteStartTransaction) that we know of.
 */
async function reservationBound(
  db: Db,
  reservation: NonNullable<Awaited<ReturnType<typeof reservationOf>>>,
): Promise<LowerBound> {
  const [request] = await db
    .select({ at: bookingEvents.at })
    .from(bookingEvents)
    .where(and(eq(bookingEvents.bookingId, reservation.id), eq(bookingEvents.event, 'remote-start')))
    .orderBy(desc(bookingEvents.at))
    .limit(1);
  const bounds: LowerBound[] = [{ at: reservation.createdAt, what: 'the reservation' }];
  if (reservation.checkedInAt) bounds.push({ at: reservation.checkedInAt, what: 'the check-in' });
  if (request) bounds.push({ at: request.at, what: 'our request to start' });
  return bounds.reduce((latest, bound) => (bound.at > latest.at ? bound : latest));
}

/**
 * StartTransaction from a charger. The session is stored first (so a failure while updating a booking never
 * loses what the charger reported, and the charger is never made to retry); `guard` runs each booking step,
 * logging a failure instead of failing the call.
 */
export async function chargerStart(
  db: Db,
  rules: TagRules,
  chargerId: string,
  request: StartRequest,
  guard: EventGuard,
  receivedAt = new Date(),
): Promise<StartAnswer> {
  const known = await knownStart(db, chargerId, request);
  if (known) return repeated(db, chargerId, known, guard);

  const [connector] = await db
    .select({ id: connectors.id })
    .from(connectors)
    .where(and(eq(connectors.chargerId, chargerId), eq(connectors.ocppConnectorId, request.connectorId)));
  const { info, userId } = await verdictOf(
    db,
    rules,
    chargerId,
    request.idTag,
    connector?.id ?? null,
    'start',
  );
  const idTagStatus = info.status;
  const reservation =
    idTagStatus === 'Accepted' && userId !== null && connector
      ? await reservationOf(db, userId, connector.id, request.reservationId)
      : null;
  const lower = reservation
    ? await reservationBound(db, reservation)
    : { at: new Date(receivedAt.getTime() - WALK_IN_LOOKBACK_MS), what: '48 hours before it reached us' };
  const start = boundedTime(request.timestamp, receivedAt, lower);

  const session = await startTransaction(db, chargerId, request, { ...start, idTagStatus });
  if (session.duplicate) return repeated(db, chargerId, session, guard);

  await guard('StartTransaction (older transaction)', async () => {
    for (const stopped of await closeSuperseded(db, chargerId, request.connectorId, session.id)) {
      await onStopTransaction(db, chargerId, stopped, { cableOutAt: stopped.stop.at });
    }
    if (session.connectorRowId !== null)
      await releaseCharged(db, chargerId, session.connectorRowId, session.id);
  });
  if (idTagStatus === 'Accepted' && userId !== null && session.connectorRowId !== null) {
    await guard('StartTransaction', () =>
      linkBooking(db, chargerId, {
        session,
        userId,
        idTag: request.idTag,
        start,
        reservationId: reservation?.id,
        chargerReservationId: request.reservationId,
      }),
    );
  }
  return {
    transactionId: session.id,
    idTagStatus,
    refused: idTagStatus !== 'Accepted',
    ...(info.expiryDate ? { expiryDate: info.expiryDate } : {}),
    ...(info.parentIdTag ? { parentIdTag: info.parentIdTag } : {}),
  };
}

/**
 * A StartTransaction we already stored: the same answer. If its booking could not be made the first time (a
 * failure logged then), it is made now.
 */
async function repeated(
  db: Db,
  chargerId: string,
  session: StartedSession,
  guard: EventGuard,
): Promise<StartAnswer> {
  const answer = {
    transactionId: session.id,
    idTagStatus: session.idTagStatus,
    refused: session.idTagStatus !== 'Accepted',
  };
  if (answer.refused || session.connectorRowId === null) return answer;
  const [linked] = await db
    .select({ id: bookings.id })
    .from(bookings)
    .where(eq(bookings.sessionId, session.id));
  if (linked) return answer;
  await guard('StartTransaction (sent again)', async () => {
    const userId = await memberOfTag(db, session.idTag);
    if (userId === null) return;
    const reservation = await reservationOf(db, userId, session.connectorRowId!);
    await linkBooking(db, chargerId, {
      session,
      userId,
      idTag: session.idTag,
      start: { at: session.startedAt, reported: null, correction: null },
      reservationId: reservation?.id,
    }).catch(async (error: unknown) => {
      // The first copy linked it meanwhile (the reservation is charging now): nothing left to do.
      const [now] = await db
        .select({ id: bookings.id })
        .from(bookings)
        .where(eq(bookings.sessionId, session.id));
      if (!now) throw error;
    });
  });
  return answer;
}

/** The member's reservation on the connector starts charging; or, with none, a walk-in booking. */
async function linkBooking(
  db: Db,
  chargerId: string,
  link: {
    session: StartedSession;
    userId: number;
    idTag: string;
    start: BoundedTime;
    reservationId?: number;
    /** The reservationId the charger's StartTransaction carried (ReserveNow's), for the history. */
    chargerReservationId?: number;
  },
): Promise<void> {
  const { session, start } = link;
  const charging = {
    sessionId: session.id,
    idTag: link.idTag,
    startTime: session.startedAt,
    priceId: session.priceId,
    priceSnapshot: await planSnapshot(db, session.priceId),
    energyWh: 0,
  };
  const detail = {
    transactionId: session.id,
    ...(link.chargerReservationId !== undefined ? { reservationId: link.chargerReservationId } : {}),
    ...correctionDetail(start),
  };
  if (link.reservationId !== undefined) {
    await applyEvent(db, link.reservationId, 'charger-start', chargerActor(chargerId), () => charging, {
      at: session.startedAt,
      detail,
    });
    return;
  }
  const [place] = await db
    .select({
      merchantId: chargers.merchantId,
      landlordId: chargers.landlordId,
      connectorTypeId: connectors.connectorTypeId,
    })
    .from(connectors)
    .innerJoin(chargers, eq(chargers.id, connectors.chargerId))
    .where(eq(connectors.id, session.connectorRowId!));
  if (!place) return;
  await db.transaction(async (tx) => {
    const [created] = await tx
      .insert(bookings)
      .values({
        ...charging,
        ...place,
        userId: link.userId,
        chargerId,
        connectorId: session.connectorRowId!,
        status: 'charging',
        createdAt: session.startedAt,
      })
      // Two copies of one StartTransaction at once: the session's booking is made once.
      .onConflictDoNothing()
      .returning({ id: bookings.id });
    if (!created) return;
    await recordEvent(tx, {
      bookingId: created.id,
      event: 'walk-in',
      from: null,
      to: 'charging',
      actor: chargerActor(chargerId),
      at: session.startedAt,
      detail,
    });
  });
}
