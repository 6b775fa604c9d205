/**
 * What chargers tell us, applied to bookings (issue 12): StartTransaction links a session to the member's
 * booking on that connector (or makes a walk-in booking), MeterValues update energy and state of charge,
 * a full battery sets fullAt, StopTransaction ends charging, and the connector back to Available (cable
 * removed) puts the booking to payment, priced. The charging session itself is recorded before any of this
 * (ocpp/transactions.ts), so a failure here never loses what the charger reported.
 */
import { and, desc, eq, inArray, isNull } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { bookings, chargers, chargingSessions, connectors, idTags } from '../../db/schema/index.ts';
import { planSnapshot, pricedChange } from './booking-pricing.ts';
import { type Actor, applyEvent, recordEvent } from './lifecycle.ts';

const chargerActor = (chargerId: string): Actor => ({ kind: 'charger', chargerId });

/** The member an id tag belongs to, if any. */
export async function memberOfTag(db: Db, idTag: string): Promise<number | null> {
  const [tag] = await db.select({ userId: idTags.userId }).from(idTags).where(eq(idTags.idTag, idTag));
  return tag?.userId ?? null;
}

export async function onStartTransaction(
  db: Db,
  chargerId: string,
  start: {
    sessionId: number;
    idTag: string;
    startedAt: Date;
    connectorRowId: number | null;
    priceId: number | null;
  },
): Promise<void> {
  if (start.connectorRowId === null) return;
  const userId = await memberOfTag(db, start.idTag);
  if (userId === null) return;
  const snapshot = await planSnapshot(db, start.priceId);
  const charging = {
    sessionId: start.sessionId,
    idTag: start.idTag,
    startTime: start.startedAt,
    priceId: start.priceId,
    priceSnapshot: snapshot,
    energyWh: 0,
  };
  // The member's reservation on this connector, checked in or not.
  const [booking] = await db
    .select({ id: bookings.id })
    .from(bookings)
    .where(
      and(
        eq(bookings.connectorId, start.connectorRowId),
        eq(bookings.userId, userId),
        inArray(bookings.status, ['created', 'started']),
        isNull(bookings.deletedAt),
      ),
    )
    .orderBy(desc(bookings.createdAt))
    .limit(1);
  if (booking) {
    await applyEvent(db, booking.id, 'charger-start', chargerActor(chargerId), () => charging, {
      at: start.startedAt,
      detail: { transactionId: start.sessionId },
    });
    return;
  }
  // A member's card or app tag with no booking: a walk-in.
  const [place] = await db
    .select({
      merchantId: chargers.merchantId,
      landlordId: chargers.landlordId,
      connectorTypeId: connectors.connectorTypeId,
    })
    .from(connectors)
    .innerJoin(chargers, eq(chargers.id, connectors.chargerId))
    .where(eq(connectors.id, start.connectorRowId));
  if (!place) return;
  await db.transaction(async (tx) => {
    const [created] = await tx
      .insert(bookings)
      .values({
        ...charging,
        ...place,
        userId,
        chargerId,
        connectorId: start.connectorRowId!,
        status: 'charging',
        createdAt: start.startedAt,
      })
      .returning({ id: bookings.id });
    await recordEvent(tx, {
      bookingId: created!.id,
      event: 'walk-in',
      from: null,
      to: 'charging',
      actor: chargerActor(chargerId),
      at: start.startedAt,
      detail: { transactionId: start.sessionId },
    });
  });
}

/** MeterValues of a session: the booking's energy, its state of charge, and fullAt when the battery is full. */
export async function onMeterValues(
  db: Db,
  chargerId: string,
  meter: { sessionId: number; energyWh: number | null; soc: number | null; at: Date },
): Promise<void> {
  const set: { energyWh?: number; soc?: number } = {};
  if (meter.energyWh !== null) set.energyWh = Math.max(0, meter.energyWh);
  if (meter.soc !== null) set.soc = Math.min(100, Math.max(0, Math.round(meter.soc)));
  if (Object.keys(set).length === 0) return;
  const [booking] = await db
    .update(bookings)
    .set({ ...set, updatedAt: new Date() })
    .where(and(eq(bookings.sessionId, meter.sessionId), eq(bookings.status, 'charging')))
    .returning({ id: bookings.id, fullAt: bookings.fullAt });
  if (booking && booking.fullAt === null && set.soc === 100)
    await markFull(db, chargerId, booking.id, meter.at);
}

async function markFull(db: Db, chargerId: string, bookingId: number, at: Date): Promise<void> {
  await applyEvent(
    db,
    bookingId,
    'full',
    chargerActor(chargerId),
    (row) => (row.fullAt ? {} : { fullAt: at }),
    {
      at,
    },
  ).catch(() => undefined /* no longer charging: nothing to mark */);
}

/** StopTransaction: charging ends (charged); after a force stop or a delete it is recorded only. */
export async function onStopTransaction(
  db: Db,
  chargerId: string,
  stop: { sessionId: number; stoppedAt: Date; energyWh: number; reason: string },
): Promise<void> {
  const [booking] = await db
    .select({ id: bookings.id, status: bookings.status, deletedAt: bookings.deletedAt })
    .from(bookings)
    .where(eq(bookings.sessionId, stop.sessionId));
  if (!booking) return;
  const detail = { transactionId: stop.sessionId, energyWh: stop.energyWh, reason: stop.reason };
  if (booking.status === 'charging' && !booking.deletedAt) {
    await applyEvent(
      db,
      booking.id,
      'charger-stop',
      chargerActor(chargerId),
      () => ({ stopTime: stop.stoppedAt, energyWh: Math.max(0, stop.energyWh) }),
      { at: stop.stoppedAt, detail },
    );
    return;
  }
  // The booking went on without the charger (force stopped, deleted): keep what the charger said.
  await recordEvent(db, {
    bookingId: booking.id,
    event: 'late-stop',
    from: booking.status,
    to: booking.status,
    actor: chargerActor(chargerId),
    at: stop.stoppedAt,
    detail: { ...detail, stoppedAt: stop.stoppedAt.toISOString() },
  });
}

/**
 * A connector's status: SuspendedEV while charging means the battery is full; Available after charging means
 * the cable was removed, which puts the booking to payment, priced with the overstay up to now.
 */
export async function onConnectorStatus(
  db: Db,
  chargerId: string,
  report: { ocppConnectorId: number; status: string; at: Date },
): Promise<void> {
  if (report.status !== 'Available' && report.status !== 'SuspendedEV') return;
  const wanted = report.status === 'Available' ? 'charged' : 'charging';
  const [booking] = await db
    .select({ id: bookings.id, fullAt: bookings.fullAt })
    .from(bookings)
    .innerJoin(connectors, eq(connectors.id, bookings.connectorId))
    .where(
      and(
        eq(connectors.chargerId, chargerId),
        eq(connectors.ocppConnectorId, report.ocppConnectorId),
        eq(bookings.status, wanted),
        isNull(bookings.deletedAt),
      ),
    )
    .limit(1);
  if (!booking) return;
  if (report.status === 'SuspendedEV') {
    if (booking.fullAt === null) await markFull(db, chargerId, booking.id, report.at);
    return;
  }
  await applyEvent(
    db,
    booking.id,
    'connector-available',
    chargerActor(chargerId),
    (row, tx) => pricedChange(tx, row, { avaliableAt: report.at }),
    { at: report.at },
  );
}

/** The session's meter start, to turn a register reading into the session's energy. */
export async function meterStartOf(db: Db, sessionId: number): Promise<number | null> {
  const [session] = await db
    .select({ meterStartWh: chargingSessions.meterStartWh })
    .from(chargingSessions)
    .where(eq(chargingSessions.id, sessionId));
  return session?.meterStartWh ?? null;
}
