/**
 * What chargers tell us, applied to bookings (issues 12 and 20): StartTransaction (charger-start.ts) links a
 * session to the member's booking on that connector (or makes a walk-in booking), MeterValues update energy
 * and state of charge, a full battery sets fullAt, StopTransaction ends charging, and the connector back to
 * Available (cable removed) puts the booking to payment, priced. OCPP 1.6 orders only the transaction
 * messages: an Available may come before the StopTransaction it follows, and is then kept on the booking and
 * applied when the stop comes. The charging session itself is recorded before any of this
 * (ocpp/transactions.ts), so a failure here never loses what the charger reported.
 */
import { and, eq, inArray, isNull, lt } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { bookings, connectors } from '../../db/schema/index.ts';
import type { ConnectorStatusReport } from '../../ocpp/events.ts';
import { correctionDetail, type MeterReading, type StoppedSession } from '../../ocpp/transactions.ts';
import { pauseFullAt, pricedChange } from './booking-pricing.ts';
import { type Actor, applyEvent, applyEventIn, type BookingRow, recordEvent, type Tx } from './lifecycle.ts';

const chargerActor = (chargerId: string): Actor => ({ kind: 'charger', chargerId });

/**
 * MeterValues of a session: the booking's energy and state of charge; SoC 100 marks the battery full. A
 * charger that reports SoC is judged by it alone: an EV's pause (SuspendedEV) no longer counts.
 */
export async function onMeterValues(db: Db, chargerId: string, meter: MeterReading): Promise<void> {
  const set: { energyWh?: number; soc?: number; suspendedAt?: null } = {};
  if (meter.energyWh !== null) set.energyWh = Math.max(0, meter.energyWh);
  if (meter.soc !== null) {
    set.soc = Math.min(100, Math.max(0, Math.round(meter.soc)));
    set.suspendedAt = null;
  }
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
    { at, detail: { by: 'SoC 100' } },
  ).catch(() => undefined /* no longer charging: nothing to mark */);
}

/** The cable came out at `cableOutAt`, never before the stop: the booking goes to payment, priced. */
function cableRemoved(tx: Tx, bookingId: number, chargerId: string, cableOutAt: Date, detail?: object) {
  return applyEventIn(
    tx,
    bookingId,
    'connector-available',
    chargerActor(chargerId),
    (row, inner) =>
      pricedChange(inner, row, {
        avaliableAt: row.stopTime && row.stopTime > cableOutAt ? row.stopTime : cableOutAt,
        cableOutAt: null,
      }),
    { at: cableOutAt, detail: detail ? { ...detail } : null },
  );
}

/**
 * StopTransaction: charging ends (charged), with the battery full if the EV's last pause lasted to the stop.
 * When the cable was already reported out (an Available that came first), or `cableOutAt` says so (a newer
 * transaction started on the connector), the booking goes on to payment in the same transaction. After a
 * force stop or a delete, or for a session closed before, it is recorded only.
 */
export async function onStopTransaction(
  db: Db,
  chargerId: string,
  stop: Omit<StoppedSession, 'wasOpen'> & { wasOpen?: boolean },
  options: { cableOutAt?: Date } = {},
): Promise<void> {
  const [booking] = await db
    .select({ id: bookings.id, status: bookings.status, deletedAt: bookings.deletedAt })
    .from(bookings)
    .where(eq(bookings.sessionId, stop.sessionId));
  if (!booking) return;
  const stoppedAt = stop.stop.at;
  const detail = {
    transactionId: stop.sessionId,
    energyWh: stop.energyWh,
    reason: stop.reason,
    ...correctionDetail(stop.stop),
  };
  if (booking.status === 'charging' && !booking.deletedAt && stop.wasOpen !== false) {
    await db.transaction(async (tx) => {
      const actor = chargerActor(chargerId);
      const [current] = await tx.select().from(bookings).where(eq(bookings.id, booking.id)).for('update');
      const paused = current && !current.fullAt ? pauseFullAt(current, stoppedAt.getTime()) : null;
      if (paused) {
        await applyEventIn(tx, booking.id, 'full', actor, () => ({ fullAt: paused }), {
          at: paused,
          detail: { by: 'the EV paused (SuspendedEV) until the stop', suspendedAt: paused.toISOString() },
        });
      }
      const charged = await applyEventIn(
        tx,
        booking.id,
        'charger-stop',
        actor,
        () => ({ stopTime: stoppedAt, energyWh: Math.max(0, stop.energyWh), suspendedAt: null }),
        { at: stoppedAt, detail },
      );
      const cableOutAt = charged.cableOutAt ?? options.cableOutAt;
      if (cableOutAt) {
        await cableRemoved(tx, booking.id, chargerId, cableOutAt, {
          cableOutAt: cableOutAt.toISOString(),
          ...(charged.cableOutAt ? { note: 'reported Available before the stop' } : { reason: stop.reason }),
        });
      }
    });
    return;
  }
  // A session closed before (this stop was sent again) of a booking still charged: nothing new.
  if (booking.status === 'charged' && stop.wasOpen === false) return;
  if (booking.status === 'charging' && booking.deletedAt === null) return;
  // The booking went on without the charger (force stopped, deleted): keep what the charger said.
  await recordEvent(db, {
    bookingId: booking.id,
    event: 'late-stop',
    from: booking.status,
    to: booking.status,
    actor: chargerActor(chargerId),
    at: stoppedAt,
    detail: { ...detail, stoppedAt: stoppedAt.toISOString() },
  });
}

/**
 * A new transaction started on a connector whose booking is still Charged (its cable never reported out): the
 * cable came out before, so the booking goes to payment, with the overstay only to a removal the charger
 * reported (none otherwise: we bill no time we can't prove).
 */
export async function releaseCharged(
  db: Db,
  chargerId: string,
  connectorRowId: number,
  transactionId: number,
) {
  const waiting = await db
    .select({ id: bookings.id, stopTime: bookings.stopTime, cableOutAt: bookings.cableOutAt })
    .from(bookings)
    .where(
      and(
        eq(bookings.connectorId, connectorRowId),
        eq(bookings.status, 'charged'),
        isNull(bookings.deletedAt),
      ),
    );
  for (const booking of waiting) {
    const out = booking.cableOutAt ?? booking.stopTime ?? new Date();
    await db.transaction((tx) =>
      cableRemoved(tx, booking.id, chargerId, out, {
        reason: `transaction ${transactionId} started on the connector`,
      }),
    );
  }
}

/** The open booking (charging or charged, cable in) on a charger's connector, by its OCPP number. */
async function openBookingOn(db: Db, chargerId: string, ocppConnectorId: number): Promise<BookingRow | null> {
  const [row] = await db
    .select({ booking: bookings })
    .from(bookings)
    .innerJoin(connectors, eq(connectors.id, bookings.connectorId))
    .where(
      and(
        eq(connectors.chargerId, chargerId),
        eq(connectors.ocppConnectorId, ocppConnectorId),
        inArray(bookings.status, ['charging', 'charged']),
        isNull(bookings.deletedAt),
      ),
    )
    .limit(1);
  return row?.booking ?? null;
}

/**
 * A connector's status, for its open booking:
 * - Available: the cable is out. A charged booking goes to payment, priced with the overstay from the stop to
 *   this time (never negative). A booking still charging keeps the time (its StopTransaction is still on the
 *   way) unless the status predates its start (an old queued status).
 * - SuspendedEV on a charger that reports no SoC: the EV paused; kept, and counted as full only if the pause
 *   lasts to the stop (booking-pricing.ts, pauseFullAt). Charging again ends the pause.
 */
export async function onConnectorStatus(
  db: Db,
  chargerId: string,
  report: ConnectorStatusReport,
): Promise<void> {
  if (!['Available', 'SuspendedEV', 'Charging'].includes(report.status)) return;
  const booking = await openBookingOn(db, chargerId, report.ocppConnectorId);
  if (!booking) return;
  const { at } = report;
  if (report.status === 'Available') {
    if (booking.status === 'charged') {
      await db.transaction((tx) => cableRemoved(tx, booking.id, chargerId, at));
    } else if (booking.startTime && at >= booking.startTime && booking.cableOutAt === null) {
      await applyEvent(
        db,
        booking.id,
        'cable-out',
        chargerActor(chargerId),
        (row) => (row.cableOutAt ? {} : { cableOutAt: at }),
        { at },
      ).catch(() => undefined /* stopped meanwhile: the Available is handled as above next time */);
    }
    return;
  }
  if (booking.status !== 'charging' || !booking.startTime) return;
  if (report.status === 'SuspendedEV') {
    if (booking.soc !== null || booking.suspendedAt !== null || at < booking.startTime) return;
    await db
      .update(bookings)
      .set({ suspendedAt: at })
      .where(and(eq(bookings.id, booking.id), eq(bookings.status, 'charging'), isNull(bookings.suspendedAt)));
    return;
  }
  // Charging again: the pause is over.
  if (booking.suspendedAt !== null && at > booking.suspendedAt) {
    await db
      .update(bookings)
      .set({ suspendedAt: null })
      .where(and(eq(bookings.id, booking.id), lt(bookings.suspendedAt, at)));
  }
}
