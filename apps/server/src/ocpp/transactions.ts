import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { chargingSessions, connectors, meterValues } from '../db/schema/index.ts';

/** OCPP 1.6 MeterValue: a time and its sampled values (kept as the charger sent them). */
export interface MeterValue {
  timestamp: string;
  sampledValue: Array<{ value: string; measurand?: string; unit?: string; context?: string }>;
}

/** A charger's clock may be wrong: a time more than 5 minutes ahead of ours is taken as now. */
export function chargerTime(text: string | undefined, now = new Date()): Date {
  const at = text ? new Date(text) : now;
  if (Number.isNaN(at.getTime()) || at.getTime() > now.getTime() + 5 * 60_000) return now;
  return at;
}

/** The energy register in Wh, from the last MeterValue that has one (Wh or kWh). */
export function energyRegisterWh(values: MeterValue[]): { wh: number; at: Date } | null {
  let found: { wh: number; at: Date } | null = null;
  for (const meterValue of values) {
    for (const sample of meterValue.sampledValue) {
      const measurand = sample.measurand ?? 'Energy.Active.Import.Register';
      if (measurand !== 'Energy.Active.Import.Register') continue;
      const number = Number(sample.value);
      if (!Number.isFinite(number)) continue;
      const wh = Math.round(sample.unit === 'kWh' ? number * 1000 : number);
      found = { wh, at: chargerTime(meterValue.timestamp) };
    }
  }
  return found;
}

/** The last state of charge (%) among the values, if the charger reports one. */
export function stateOfCharge(values: MeterValue[]): number | null {
  let found: number | null = null;
  for (const meterValue of values) {
    for (const sample of meterValue.sampledValue) {
      if (sample.measurand !== 'SoC') continue;
      const number = Number(sample.value);
      if (Number.isFinite(number) && number >= 0 && number <= 100) found = number;
    }
  }
  return found;
}

export interface StartedSession {
  id: number;
  /** Our connector row (null when the charger named a number we do not know). */
  connectorRowId: number | null;
  priceId: number | null;
  startedAt: Date;
}

/**
 * StartTransaction: a new charging session on the connector with that OCPP number, with the connector's price
 * plan at this moment. Answers the transaction id the charger must use from now on.
 */
export async function startTransaction(
  db: Db,
  chargerId: string,
  request: {
    connectorId: number;
    idTag: string;
    meterStart: number;
    reservationId?: number;
    timestamp: string;
  },
): Promise<StartedSession> {
  const [connector] = await db
    .select({ id: connectors.id, priceId: connectors.priceId })
    .from(connectors)
    .where(and(eq(connectors.chargerId, chargerId), eq(connectors.ocppConnectorId, request.connectorId)));
  const startedAt = chargerTime(request.timestamp);
  const [session] = await db
    .insert(chargingSessions)
    .values({
      chargerId,
      connectorId: connector?.id ?? null,
      ocppConnectorId: request.connectorId,
      idTag: request.idTag,
      reservationId: request.reservationId ?? null,
      priceId: connector?.priceId ?? null,
      startedAt,
      meterStartWh: request.meterStart,
    })
    .returning({ id: chargingSessions.id });
  return {
    id: session!.id,
    connectorRowId: connector?.id ?? null,
    priceId: connector?.priceId ?? null,
    startedAt,
  };
}

async function storeMeterValues(
  db: Db,
  chargerId: string,
  ocppConnectorId: number,
  sessionId: number | null,
  values: MeterValue[],
): Promise<void> {
  if (values.length === 0) return;
  await db.insert(meterValues).values(
    values.map((value) => ({
      chargerId,
      ocppConnectorId,
      sessionId,
      takenAt: chargerTime(value.timestamp),
      sampledValue: value.sampledValue,
    })),
  );
}

/** The session of this charger with that transaction id, if any (a charger cannot touch another's). */
async function sessionOf(db: Db, chargerId: string, transactionId: number | undefined) {
  if (transactionId === undefined) return null;
  const [session] = await db
    .select({
      id: chargingSessions.id,
      ocppConnectorId: chargingSessions.ocppConnectorId,
      meterStartWh: chargingSessions.meterStartWh,
    })
    .from(chargingSessions)
    .where(and(eq(chargingSessions.id, transactionId), eq(chargingSessions.chargerId, chargerId)));
  return session ?? null;
}

/** What a session's MeterValues said: its energy so far (Wh since its start) and state of charge. */
export interface MeterReading {
  sessionId: number;
  energyWh: number | null;
  soc: number | null;
  at: Date;
}

export async function recordMeterValues(
  db: Db,
  chargerId: string,
  request: { connectorId: number; transactionId?: number; meterValue: MeterValue[] },
): Promise<MeterReading | null> {
  const session = await sessionOf(db, chargerId, request.transactionId);
  await storeMeterValues(db, chargerId, request.connectorId, session?.id ?? null, request.meterValue);
  const register = energyRegisterWh(request.meterValue);
  if (session && register) {
    await db
      .update(chargingSessions)
      .set({ lastMeterWh: register.wh, lastMeterAt: register.at })
      .where(eq(chargingSessions.id, session.id));
  }
  if (!session) return null;
  const last = request.meterValue.at(-1);
  return {
    sessionId: session.id,
    energyWh: register ? register.wh - session.meterStartWh : null,
    soc: stateOfCharge(request.meterValue),
    at: register?.at ?? chargerTime(last?.timestamp),
  };
}

export interface StoppedSession {
  sessionId: number;
  stoppedAt: Date;
  /** Energy of the whole session, Wh. */
  energyWh: number;
  reason: string;
}

/** StopTransaction: closes the session (an unknown id is still accepted, so the charger clears its queue). */
export async function stopTransaction(
  db: Db,
  chargerId: string,
  request: {
    transactionId: number;
    meterStop: number;
    timestamp: string;
    reason?: string;
    idTag?: string;
    transactionData?: MeterValue[];
  },
): Promise<StoppedSession | null> {
  const session = await sessionOf(db, chargerId, request.transactionId);
  if (!session) return null;
  await storeMeterValues(db, chargerId, session.ocppConnectorId, session.id, request.transactionData ?? []);
  const stoppedAt = chargerTime(request.timestamp);
  await db
    .update(chargingSessions)
    .set({
      status: 'COMPLETED',
      stoppedAt,
      meterStopWh: request.meterStop,
      lastMeterWh: request.meterStop,
      lastMeterAt: stoppedAt,
      stopReason: request.reason ?? 'Local',
      stopIdTag: request.idTag ?? null,
    })
    .where(and(eq(chargingSessions.id, session.id), sql`${chargingSessions.status} = 'ACTIVE'`));
  return {
    sessionId: session.id,
    stoppedAt,
    energyWh: request.meterStop - session.meterStartWh,
    reason: request.reason ?? 'Local',
  };
}
