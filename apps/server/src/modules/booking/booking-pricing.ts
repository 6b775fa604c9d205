import {
  type AdminOverrides,
  type EnergySample,
  fromSatang,
  type PlanSnapshot,
  type PriceBreakdown,
  priceSession,
} from '@ev/shared';
import { asc, eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import {
  chargingSessions,
  meterValues,
  priceOverrides,
  priceOverrideWeekdays,
  prices,
} from '../../db/schema/index.ts';
import { energyRegisterWh, type MeterValue } from '../../ocpp/transactions.ts';
import type { BookingChange, BookingRow, Tx } from './lifecycle.ts';

/** The plan as it is now, to be kept on a booking when its charging starts. */
export async function planSnapshot(db: Db | Tx, priceId: number | null): Promise<PlanSnapshot | null> {
  if (priceId === null) return null;
  const [plan] = await db.select().from(prices).where(eq(prices.id, priceId));
  if (!plan) return null;
  const weekdays = await db
    .select()
    .from(priceOverrideWeekdays)
    .where(eq(priceOverrideWeekdays.priceId, priceId))
    .orderBy(asc(priceOverrideWeekdays.id));
  const dated = await db
    .select()
    .from(priceOverrides)
    .where(eq(priceOverrides.priceId, priceId))
    .orderBy(asc(priceOverrides.id));
  return {
    method: plan.method,
    calculateMethod: plan.calculateMethod,
    bahtPerKwh: Number(plan.bahtPerKwh),
    bahtPerHour: Number(plan.bahtPerHour),
    penaltyBahtPerMin: Number(plan.penaltyBahtPerMin),
    penaltyDCFullBahtPerMin: Number(plan.penaltyDcFullBahtPerMin),
    penaltyDCFullDelayMin: plan.penaltyDcFullDelayMin,
    overrideWeekdays: weekdays.map((row) => ({
      dayOfWeek: row.dayOfWeek,
      validTimeFrom: row.validTimeFrom.slice(0, 5),
      validTimeTo: row.validTimeTo.slice(0, 5),
      bahtPerKwh: Number(row.bahtPerKwh),
      bahtPerHour: Number(row.bahtPerHour),
    })),
    overrides: dated.map((row) => ({
      validFrom: row.validFrom.slice(0, 16),
      validTo: row.validTo.slice(0, 16),
      bahtPerKwh: Number(row.bahtPerKwh),
      bahtPerHour: Number(row.bahtPerHour),
    })),
  };
}

/** The session's energy register over time, as energy delivered since it started. */
export async function energySamples(db: Db | Tx, sessionId: number | null): Promise<EnergySample[]> {
  if (sessionId === null) return [];
  const [session] = await db
    .select({ meterStartWh: chargingSessions.meterStartWh })
    .from(chargingSessions)
    .where(eq(chargingSessions.id, sessionId));
  if (!session) return [];
  const { meterStartWh } = session;
  const rows = await db
    .select({ takenAt: meterValues.takenAt, sampledValue: meterValues.sampledValue })
    .from(meterValues)
    .where(eq(meterValues.sessionId, sessionId))
    .orderBy(asc(meterValues.takenAt), asc(meterValues.id));
  const samples: EnergySample[] = [];
  for (const row of rows) {
    const register = energyRegisterWh([
      { timestamp: row.takenAt.toISOString(), sampledValue: row.sampledValue as MeterValue['sampledValue'] },
    ]);
    if (register) samples.push({ at: row.takenAt.getTime(), wh: Math.max(0, register.wh - meterStartWh) });
  }
  return samples;
}

const bahtOrNull = (value: string | null) => (value === null ? null : Number(value));

export const overridesOf = (row: BookingRow): AdminOverrides => ({
  priceByPower: bahtOrNull(row.adminPriceByPower),
  priceByDuration: bahtOrNull(row.adminPriceByDuration),
  priceByPenalty: bahtOrNull(row.adminPriceByPenalty),
  adminAmount: bahtOrNull(row.adminAmount),
});

const ms = (date: Date | null) => (date ? date.getTime() : null);

/**
 * How long an EV's pause (SuspendedEV, on a charger that reports no SoC) must last, unbroken to the stop, to
 * count as a full battery: a car that pauses and charges again (battery heating, a schedule) is not full, and
 * a pause of a minute or two before the driver stops is not worth a penalty.
 */
export const FULL_PAUSE_MS = 5 * 60_000;

/** The pause's start when it counts as full at `end` (the stop, or now while charging), else null. */
export function pauseFullAt(row: Pick<BookingRow, 'suspendedAt'>, end: number): Date | null {
  const paused = row.suspendedAt;
  return paused && end - paused.getTime() >= FULL_PAUSE_MS ? paused : null;
}

/**
 * fullAt as pricing sees it: as reported (SoC 100, or a pause confirmed at the stop), else a pause that has
 * lasted FULL_PAUSE_MS by the stop (or by now, while charging).
 */
export function effectiveFullAt(row: BookingRow, now: number | undefined): Date | null {
  return row.fullAt ?? pauseFullAt(row, row.stopTime?.getTime() ?? now ?? Date.now());
}

/**
 * The booking's price from its snapshot. `samples` split the energy between rate windows (the list's live
 * estimate goes without them and spreads the energy evenly); `now` runs a session still in progress.
 */
export function priceOf(
  row: BookingRow,
  options: { samples?: EnergySample[]; now?: number; overrides?: AdminOverrides } = {},
): PriceBreakdown | null {
  const plan = row.priceSnapshot as PlanSnapshot | null;
  if (!plan || !row.startTime) return null;
  return priceSession(
    plan,
    {
      startTime: ms(row.startTime),
      stopTime: ms(row.stopTime),
      avaliableAt: ms(row.avaliableAt),
      fullAt: ms(effectiveFullAt(row, options.now)),
      energyWh: row.energyWh,
      samples: options.samples,
      connectorTypeId: row.connectorTypeId,
    },
    { now: options.now, overrides: options.overrides ?? overridesOf(row) },
  );
}

/** What pricing writes on a booking: the computed parts, what they counted, and the total owed. */
export function priceColumns(breakdown: PriceBreakdown | null, overrides: AdminOverrides): BookingChange {
  if (!breakdown) {
    const total = overrides.adminAmount ?? 0;
    return {
      priceByPower: '0.00',
      priceByDuration: '0.00',
      priceByPenalty: '0.00',
      priceDetail: null,
      totalAmount: total.toFixed(2),
    };
  }
  const { computed, billed } = breakdown;
  return {
    priceByPower: fromSatang(computed.byPower),
    priceByDuration: fromSatang(computed.byDuration),
    priceByPenalty: fromSatang(computed.byPenalty),
    priceDetail: { overstay: computed.overstay, dcFull: computed.dcFull, ...billed },
    totalAmount: fromSatang(breakdown.total),
  };
}

/** Prices a booking whose times are final (or as `change` makes them), from the meter values of its session. */
export async function pricedChange(
  db: Db | Tx,
  row: BookingRow,
  change: BookingChange,
): Promise<BookingChange> {
  const next = { ...row, ...change } as BookingRow;
  const samples = await energySamples(db, next.sessionId);
  return { ...change, ...priceColumns(priceOf(next, { samples }), overridesOf(next)) };
}
