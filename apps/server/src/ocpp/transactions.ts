import { and, desc, eq, isNull, ne, sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { chargingSessions, connectors, meterValues } from '../db/schema/index.ts';

/**
 * A MeterValue: a time and its sampled values (kept as the charger sent them). OCPP 1.6 sends the value as text
 * with a `unit`; 2.0.1 as a number with `unitOfMeasure {unit, multiplier}` (a power of ten).
 */
export interface MeterValue {
  timestamp: string;
  sampledValue: Array<{
    value: string | number;
    measurand?: string;
    unit?: string;
    unitOfMeasure?: { unit?: string; multiplier?: number };
    context?: string;
    phase?: string;
  }>;
}

/** A sampled value as a number in its unit (2.0.1's multiplier applied), or null when it reads as none. */
function sampleNumber(sample: MeterValue['sampledValue'][number]): number | null {
  const number = Number(sample.value);
  const multiplier = sample.unitOfMeasure?.multiplier ?? 0;
  const scaled = Number.isInteger(multiplier) && multiplier !== 0 ? number * 10 ** multiplier : number;
  return Number.isFinite(scaled) ? scaled : null;
}

/** How far ahead of our clock a charger's time may be (clocks drift) before it is taken as wrong. */
export const CLOCK_AHEAD_MS = 5 * 60_000;

/** A charger's clock may be wrong: a time more than CLOCK_AHEAD_MS ahead of ours is taken as now. */
export function chargerTime(text: string | undefined, now = new Date()): Date {
  const at = text ? new Date(text) : now;
  if (Number.isNaN(at.getTime()) || at.getTime() > now.getTime() + CLOCK_AHEAD_MS) return now;
  return at;
}

/** The time a charger sent, or null when it sent none or none that reads as a time. */
export function reportedTime(text: string | undefined): Date | null {
  if (!text) return null;
  const at = new Date(text);
  return Number.isNaN(at.getTime()) ? null : at;
}

/** The earliest a charger's time may be: what we know happened before it. */
export interface LowerBound {
  at: Date;
  /** For the history: 'the check-in', 'our request to start', … */
  what: string;
}

/** A charger's time as we use it: what it said when that is within what we know, else our receipt time. */
export interface BoundedTime {
  at: Date;
  /** What the charger sent (null: nothing readable). */
  reported: Date | null;
  /** Why the charger's time was not used (null when it was). */
  correction: string | null;
}

/**
 * A charger's clock is evidence, not truth (ARCHITECTURE.md, Money and bookings). Its time is used (an offline
 * charger's queued messages carry when things happened) when it lies between `lower` and our receipt time
 * plus CLOCK_AHEAD_MS; outside that, our receipt time is used and the correction is said, for the history.
 */
export function boundedTime(
  text: string | undefined,
  receivedAt: Date,
  lower: LowerBound | null,
): BoundedTime {
  const reported = reportedTime(text);
  if (!reported) return { at: receivedAt, reported, correction: 'the charger sent no readable time' };
  if (reported.getTime() > receivedAt.getTime() + CLOCK_AHEAD_MS) {
    return { at: receivedAt, reported, correction: 'the charger time was ahead of ours' };
  }
  if (lower && reported.getTime() < lower.at.getTime()) {
    return { at: receivedAt, reported, correction: `the charger time was before ${lower.what}` };
  }
  return { at: reported, reported, correction: null };
}

/** What a history entry says about a corrected time. */
export const correctionDetail = (time: BoundedTime) =>
  time.correction
    ? {
        reportedAt: time.reported?.toISOString() ?? null,
        correctedTo: time.at.toISOString(),
        correction: time.correction,
      }
    : {};

/** The energy register in Wh, from the last MeterValue that has one (Wh or kWh). */
export function energyRegisterWh(values: MeterValue[]): { wh: number; at: Date } | null {
  let found: { wh: number; at: Date } | null = null;
  for (const meterValue of values) {
    for (const sample of meterValue.sampledValue) {
      const measurand = sample.measurand ?? 'Energy.Active.Import.Register';
      if (measurand !== 'Energy.Active.Import.Register') continue;
      const number = sampleNumber(sample);
      if (number === null) continue;
      const unit = sample.unit ?? sample.unitOfMeasure?.unit;
      const wh = Math.round(unit === 'kWh' ? number * 1000 : number);
      // Beyond what a bigint column and a price can hold: not a reading (a hostile or broken meter).
      if (!Number.isSafeInteger(wh) || Math.abs(wh) > 1e15) continue;
      found = { wh, at: chargerTime(meterValue.timestamp) };
    }
  }
  return found;
}

/** Beyond this a power reading is not one (a hostile or broken meter): 10 MW, well above any connector. */
export const POWER_MAX_W = 10_000_000;

/** A power in W as a reading, or null when it is none (not finite, negative, beyond POWER_MAX_W). */
const powerReading = (w: number): number | null =>
  Number.isFinite(w) && w >= 0 && w <= POWER_MAX_W ? Math.round(w) : null;

/**
 * The active power drawn (W) at the last MeterValue that reports Power.Active.Import, in W or kW (2.0.1's
 * multiplier applied): its total (a value without a phase), else the sum of its phases (L1, L2, L3, each once,
 * L1-N counting as L1). Null when no MeterValue reports one.
 */
export function activePowerW(values: MeterValue[]): number | null {
  let found: number | null = null;
  for (const meterValue of values) {
    let total: number | null = null;
    const phases = new Map<string, number>();
    for (const sample of meterValue.sampledValue) {
      if (sample.measurand !== 'Power.Active.Import') continue;
      const number = sampleNumber(sample);
      if (number === null) continue;
      const unit = sample.unit ?? sample.unitOfMeasure?.unit;
      const w = unit === 'kW' ? number * 1000 : number;
      if (!sample.phase) total = w;
      else if (/^L[123]/.test(sample.phase) && !phases.has(sample.phase.slice(0, 2))) {
        phases.set(sample.phase.slice(0, 2), w);
      }
    }
    const sum = total ?? (phases.size > 0 ? [...phases.values()].reduce((a, b) => a + b, 0) : null);
    if (sum === null) continue;
    const reading = powerReading(sum);
    if (reading !== null) found = reading;
  }
  return found;
}

/**
 * The mean power (W) between two energy registers: null when they are less than a second apart (the same
 * reading again, or too close to tell), or the register went back.
 */
export function powerBetween(
  previous: { wh: number; at: Date },
  current: { wh: number; at: Date },
): number | null {
  const ms = current.at.getTime() - previous.at.getTime();
  const wh = current.wh - previous.wh;
  if (ms < 1000 || wh < 0) return null;
  return powerReading((wh * 3_600_000) / ms);
}

/** The last state of charge (%) among the values, if the charger reports one. */
export function stateOfCharge(values: MeterValue[]): number | null {
  let found: number | null = null;
  for (const meterValue of values) {
    for (const sample of meterValue.sampledValue) {
      if (sample.measurand !== 'SoC') continue;
      const number = sampleNumber(sample);
      if (number !== null && number >= 0 && number <= 100) found = number;
    }
  }
  return found;
}

export interface StartRequest {
  connectorId: number;
  idTag: string;
  meterStart: number;
  reservationId?: number;
  timestamp: string;
  /**
   * OCPP 2.0.1 (TransactionEvent): the charger's own transactionId (which identifies a Started sent again),
   * its EVSE, the event's seqNo, the RequestStartTransaction's remoteStartId and the charging state.
   */
  transactionRef?: string;
  evseId?: number;
  seqNo?: number;
  remoteStartId?: number;
  chargingState?: string;
}

export interface StartedSession {
  id: number;
  /** Our connector row (null when the charger named a number we do not know). */
  connectorRowId: number | null;
  priceId: number | null;
  startedAt: Date;
  idTag: string;
  idTagStatus: string;
}

const startedColumns = {
  id: chargingSessions.id,
  connectorRowId: chargingSessions.connectorId,
  priceId: chargingSessions.priceId,
  startedAt: chargingSessions.startedAt,
  idTag: chargingSessions.idTag,
  idTagStatus: chargingSessions.idTagStatus,
};

/**
 * The session a StartTransaction already opened: a charger that never got our answer sends it again under a
 * new message id. Same connector, id tag, meter start and timestamp: the same transaction.
 */
export async function knownStart(
  db: Db,
  chargerId: string,
  request: StartRequest,
): Promise<StartedSession | null> {
  if (request.transactionRef !== undefined) {
    const [byRef] = await db
      .select(startedColumns)
      .from(chargingSessions)
      .where(
        and(
          eq(chargingSessions.chargerId, chargerId),
          eq(chargingSessions.transactionRef, request.transactionRef),
          ne(chargingSessions.idTagStatus, PENDING),
        ),
      );
    if (byRef) return byRef;
  }
  const reported = reportedTime(request.timestamp);
  if (!reported) return null;
  const [session] = await db
    .select(startedColumns)
    .from(chargingSessions)
    .where(
      and(
        eq(chargingSessions.chargerId, chargerId),
        eq(chargingSessions.ocppConnectorId, request.connectorId),
        eq(chargingSessions.idTag, request.idTag),
        eq(chargingSessions.meterStartWh, request.meterStart),
        eq(chargingSessions.reportedStartAt, reported),
      ),
    );
  return session ?? null;
}

/**
 * StartTransaction: a new charging session on the connector with that OCPP number, with the connector's price
 * plan at this moment, from `startedAt` (the charger's time, bounded by the caller). Answers the transaction
 * id the charger must use from now on. The same StartTransaction sent twice (even at the same moment: the
 * unique key decides) answers the first one's session.
 */
export async function startTransaction(
  db: Db,
  chargerId: string,
  request: StartRequest,
  start: { at: Date; reported: Date | null; idTagStatus: string },
): Promise<StartedSession & { duplicate: boolean }> {
  const [connector] = await db
    .select({ id: connectors.id, priceId: connectors.priceId })
    .from(connectors)
    .where(and(eq(connectors.chargerId, chargerId), eq(connectors.ocppConnectorId, request.connectorId)));
  if (request.transactionRef !== undefined) {
    // A 2.0.1 transaction the charger opened before its token (PENDING): authorised now, from now.
    const [authorised] = await db
      .update(chargingSessions)
      .set({
        connectorId: connector?.id ?? null,
        ocppConnectorId: request.connectorId,
        evseId: request.evseId ?? request.connectorId,
        idTag: request.idTag,
        reservationId: request.reservationId ?? null,
        priceId: connector?.priceId ?? null,
        startedAt: start.at,
        reportedStartAt: start.reported,
        idTagStatus: start.idTagStatus,
        meterStartWh: request.meterStart,
        ...(request.remoteStartId !== undefined ? { remoteStartId: request.remoteStartId } : {}),
      })
      .where(
        and(
          eq(chargingSessions.chargerId, chargerId),
          eq(chargingSessions.transactionRef, request.transactionRef),
          eq(chargingSessions.idTagStatus, PENDING),
        ),
      )
      .returning(startedColumns);
    if (authorised) return { ...authorised, duplicate: false };
  }
  const [session] = await db
    .insert(chargingSessions)
    .values({
      chargerId,
      connectorId: connector?.id ?? null,
      ocppConnectorId: request.connectorId,
      idTag: request.idTag,
      reservationId: request.reservationId ?? null,
      priceId: connector?.priceId ?? null,
      startedAt: start.at,
      reportedStartAt: start.reported,
      idTagStatus: start.idTagStatus,
      meterStartWh: request.meterStart,
      transactionRef: request.transactionRef ?? null,
      evseId: request.evseId ?? null,
      seqNo: request.seqNo ?? null,
      remoteStartId: request.remoteStartId ?? null,
      chargingState: request.chargingState ?? null,
    })
    .onConflictDoNothing()
    .returning(startedColumns);
  if (session) return { ...session, duplicate: false };
  const known = await knownStart(db, chargerId, request);
  if (!known) throw new Error('StartTransaction: the session was neither stored nor found');
  return { ...known, duplicate: true };
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
      startedAt: chargingSessions.startedAt,
      lastMeterWh: chargingSessions.lastMeterWh,
      lastMeterAt: chargingSessions.lastMeterAt,
    })
    .from(chargingSessions)
    .where(and(eq(chargingSessions.id, transactionId), eq(chargingSessions.chargerId, chargerId)));
  return session ?? null;
}

const sinceStart = (startedAt: Date): LowerBound => ({ at: startedAt, what: 'the start of its transaction' });

/** What a session's MeterValues said: its energy so far (Wh since its start) and state of charge. */
export interface MeterReading {
  sessionId: number;
  energyWh: number | null;
  soc: number | null;
  /**
   * The power drawn (W) at this reading: Power.Active.Import when the charger sends it, else the mean power
   * since the session's previous energy register (its start, before any); null when neither tells.
   */
  powerW: number | null;
  /** The last reading's time, bounded by the session's start and our clock. */
  at: Date;
}

export async function recordMeterValues(
  db: Db,
  chargerId: string,
  request: { connectorId: number; transactionId?: number; meterValue: MeterValue[] },
  receivedAt = new Date(),
  /** False for readings older than what the session already has (2.0.1's seqNo): kept, never applied. */
  latest = true,
): Promise<MeterReading | null> {
  const session = await sessionOf(db, chargerId, request.transactionId);
  await storeMeterValues(db, chargerId, request.connectorId, session?.id ?? null, request.meterValue);
  if (!latest) return null;
  const register = energyRegisterWh(request.meterValue);
  const previous =
    session && session.lastMeterWh !== null && session.lastMeterAt
      ? { wh: session.lastMeterWh, at: session.lastMeterAt }
      : session && { wh: session.meterStartWh, at: session.startedAt };
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
    powerW:
      activePowerW(request.meterValue) ?? (register && previous ? powerBetween(previous, register) : null),
    at: boundedTime(last?.timestamp, receivedAt, sinceStart(session.startedAt)).at,
  };
}

export interface StoppedSession {
  sessionId: number;
  /** The charger's stop time, bounded by the session's start and our clock. */
  stop: BoundedTime;
  /** Energy of the whole session, Wh. */
  energyWh: number;
  reason: string;
  /** False when the session had been closed before (a StopTransaction sent again, or after a newer start). */
  wasOpen: boolean;
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
  receivedAt = new Date(),
): Promise<StoppedSession | null> {
  const session = await sessionOf(db, chargerId, request.transactionId);
  if (!session) return null;
  await storeMeterValues(db, chargerId, session.ocppConnectorId, session.id, request.transactionData ?? []);
  const stop = boundedTime(request.timestamp, receivedAt, sinceStart(session.startedAt));
  const closed = await db
    .update(chargingSessions)
    .set({
      status: 'COMPLETED',
      stoppedAt: stop.at,
      reportedStopAt: stop.reported,
      meterStopWh: request.meterStop,
      lastMeterWh: request.meterStop,
      lastMeterAt: stop.at,
      stopReason: request.reason ?? 'Local',
      stopIdTag: request.idTag ?? null,
    })
    .where(and(eq(chargingSessions.id, session.id), sql`${chargingSessions.status} = 'ACTIVE'`))
    .returning({ id: chargingSessions.id });
  return {
    sessionId: session.id,
    stop,
    energyWh: request.meterStop - session.meterStartWh,
    reason: request.reason ?? 'Local',
    wasOpen: closed.length > 0,
  };
}

/**
 * The connector's other transactions still open when a new one starts on it: the charger ended them without
 * a StopTransaction we received (lost in a reboot, say). Each is closed at its last meter reading (or its
 * start, with no reading), reason Other; answers them for their bookings.
 */
export async function closeSuperseded(
  db: Db,
  chargerId: string,
  ocppConnectorId: number,
  newSessionId: number,
): Promise<Array<Omit<StoppedSession, 'wasOpen'>>> {
  const open = await db
    .select({
      id: chargingSessions.id,
      startedAt: chargingSessions.startedAt,
      meterStartWh: chargingSessions.meterStartWh,
      lastMeterWh: chargingSessions.lastMeterWh,
      lastMeterAt: chargingSessions.lastMeterAt,
    })
    .from(chargingSessions)
    .where(
      and(
        eq(chargingSessions.chargerId, chargerId),
        eq(chargingSessions.ocppConnectorId, ocppConnectorId),
        eq(chargingSessions.status, 'ACTIVE'),
        ne(chargingSessions.id, newSessionId),
      ),
    );
  const closed: Array<Omit<StoppedSession, 'wasOpen'>> = [];
  for (const session of open) {
    const at =
      session.lastMeterAt && session.lastMeterAt > session.startedAt
        ? session.lastMeterAt
        : session.startedAt;
    const meterStop = Math.max(session.meterStartWh, session.lastMeterWh ?? session.meterStartWh);
    const done = await db
      .update(chargingSessions)
      .set({
        status: 'COMPLETED',
        stoppedAt: at,
        meterStopWh: meterStop,
        lastMeterWh: meterStop,
        stopReason: 'Other',
      })
      .where(and(eq(chargingSessions.id, session.id), eq(chargingSessions.status, 'ACTIVE')))
      .returning({ id: chargingSessions.id });
    if (done.length === 0) continue;
    closed.push({
      sessionId: session.id,
      stop: { at, reported: null, correction: `transaction ${newSessionId} started on its connector` },
      energyWh: meterStop - session.meterStartWh,
      reason: 'Superseded',
    });
  }
  return closed;
}

/**
 * The id tag status of a 2.0.1 transaction the charger opened before any token authorised it (its cable
 * plugged in first, TxStartPoint): recorded with its EVSE and meter, no tag and no booking, until an event
 * brings the token (startTransaction then authorises it) or it ends so.
 */
export const PENDING = 'Pending';

/**
 * A 2.0.1 transaction not authorised yet (PENDING), opened by its first event: its EVSE (later events need not
 * name it), its meter and time. A copy of the event finds it made (the unique transaction id).
 */
export async function openPendingTransaction(
  db: Db,
  chargerId: string,
  request: { transactionRef: string; evseId: number; meterStart: number; at: Date },
): Promise<void> {
  const [connector] = await db
    .select({ id: connectors.id, priceId: connectors.priceId })
    .from(connectors)
    .where(and(eq(connectors.chargerId, chargerId), eq(connectors.ocppConnectorId, request.evseId)));
  await db
    .insert(chargingSessions)
    .values({
      chargerId,
      connectorId: connector?.id ?? null,
      ocppConnectorId: request.evseId,
      evseId: request.evseId,
      idTag: '',
      idTagStatus: PENDING,
      priceId: connector?.priceId ?? null,
      startedAt: request.at,
      meterStartWh: request.meterStart,
      transactionRef: request.transactionRef,
    })
    .onConflictDoNothing();
}

/** An OCPP 2.0.1 transaction as stored: what its TransactionEvents are applied against (issue 33). */
export interface Transaction201 {
  id: number;
  ocppConnectorId: number;
  status: 'ACTIVE' | 'COMPLETED';
  idTag: string;
  idTagStatus: string;
  meterStartWh: number;
  lastMeterWh: number | null;
  seqNo: number | null;
  chargingState: string | null;
}

/** The session of this charger with that 2.0.1 transactionId (a charger cannot touch another's). */
export async function transactionByRef(
  db: Db,
  chargerId: string,
  transactionRef: string,
): Promise<Transaction201 | null> {
  const [session] = await db
    .select({
      id: chargingSessions.id,
      ocppConnectorId: chargingSessions.ocppConnectorId,
      status: chargingSessions.status,
      idTag: chargingSessions.idTag,
      idTagStatus: chargingSessions.idTagStatus,
      meterStartWh: chargingSessions.meterStartWh,
      lastMeterWh: chargingSessions.lastMeterWh,
      seqNo: chargingSessions.seqNo,
      chargingState: chargingSessions.chargingState,
    })
    .from(chargingSessions)
    .where(
      and(eq(chargingSessions.chargerId, chargerId), eq(chargingSessions.transactionRef, transactionRef)),
    );
  return session ?? null;
}

/** Where a TransactionEvent stands against those applied before it (its seqNo orders them, not arrival). */
export type EventOrder =
  /** Newer than any applied: applied, and it is the newest now. */
  | { kind: 'newest'; previousState: string | null }
  /** The same seqNo again (the charger never got our answer): answered, not applied twice. */
  | { kind: 'resend' }
  /** Older than one applied (it arrived late): its readings are kept, nothing rolls back. */
  | { kind: 'older' };

/**
 * Takes a TransactionEvent's seqNo (and its charging state and remoteStartId, when it has them) as the
 * transaction's newest, under the row's lock, so two copies at once are one newest and one resend.
 */
export async function orderEvent(
  db: Db,
  sessionId: number,
  seqNo: number,
  change: { chargingState?: string; remoteStartId?: number },
): Promise<EventOrder> {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .select({ seqNo: chargingSessions.seqNo, chargingState: chargingSessions.chargingState })
      .from(chargingSessions)
      .where(eq(chargingSessions.id, sessionId))
      .for('update');
    if (!row) return { kind: 'older' } as const;
    if (row.seqNo === seqNo) return { kind: 'resend' } as const;
    if (row.seqNo !== null && row.seqNo > seqNo) {
      if (change.remoteStartId !== undefined) {
        await tx
          .update(chargingSessions)
          .set({ remoteStartId: change.remoteStartId })
          .where(and(eq(chargingSessions.id, sessionId), isNull(chargingSessions.remoteStartId)));
      }
      return { kind: 'older' } as const;
    }
    await tx
      .update(chargingSessions)
      .set({
        seqNo,
        ...(change.chargingState !== undefined ? { chargingState: change.chargingState } : {}),
        ...(change.remoteStartId !== undefined ? { remoteStartId: change.remoteStartId } : {}),
      })
      .where(eq(chargingSessions.id, sessionId));
    return { kind: 'newest', previousState: row.chargingState } as const;
  });
}

/** The open transaction on a charger's connector (2.0.1 MeterValues name an EVSE, not a transaction). */
export async function openTransactionOn(
  db: Db,
  chargerId: string,
  ocppConnectorId: number,
): Promise<number | null> {
  const [session] = await db
    .select({ id: chargingSessions.id })
    .from(chargingSessions)
    .where(
      and(
        eq(chargingSessions.chargerId, chargerId),
        eq(chargingSessions.ocppConnectorId, ocppConnectorId),
        eq(chargingSessions.status, 'ACTIVE'),
      ),
    )
    .orderBy(desc(chargingSessions.startedAt))
    .limit(1);
  return session?.id ?? null;
}

/**
 * The energy register last reported on a charger's connector, from its stored readings: where a 2.0.1
 * transaction is authorised by an event without a register, its meter starts there (a charger counting its
 * lifetime register is then right; one counting from 0 per transaction can only be undercounted, since energy
 * below zero counts as none).
 */
export async function lastRegisterOn(
  db: Db,
  chargerId: string,
  ocppConnectorId: number,
): Promise<number | null> {
  const rows = await db
    .select({ takenAt: meterValues.takenAt, sampledValue: meterValues.sampledValue })
    .from(meterValues)
    .where(and(eq(meterValues.chargerId, chargerId), eq(meterValues.ocppConnectorId, ocppConnectorId)))
    .orderBy(desc(meterValues.takenAt), desc(meterValues.id))
    .limit(20);
  for (const row of rows) {
    const register = energyRegisterWh([
      { timestamp: row.takenAt.toISOString(), sampledValue: row.sampledValue as MeterValue['sampledValue'] },
    ]);
    if (register) return register.wh;
  }
  return null;
}
