/**
 * A site's live load (issue 34), GET /api/landlord/:id/power: its power over the last hour, minute by minute,
 * from its connectors' samples (power-samples.ts), and its active sessions with their allowance now
 * (power_allowances, written by the power manager). Decisions in docs/decisions.md, Power within a site's
 * limit: the live load.
 */
import type { PowerPoint, PowerSessionItem, SitePower } from '@ev/shared';
import { and, asc, desc, eq, gte, lt, ne, or } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import {
  chargers,
  chargingSessions,
  connectors,
  landlords,
  powerAllowances,
  powerSamples,
} from '../../db/schema/index.ts';
import { NotFound } from '../../lib/errors.ts';
import { PENDING } from '../../ocpp/transactions.ts';
import { type DataScope, landlordScope } from '../../plugins/scope.ts';
import { LANDLORD_NOT_FOUND } from '../landlord/landlord.service.ts';

const MINUTE = 60_000;
/** Points of the chart: the last 59 whole minutes and the current one. */
export const POINTS = 60;
/** profileStatus of a session no allowance was decided for yet at a limited site. */
export const NOT_DECIDED = 'Pending';
/** profileStatus of a session at a site without a limit: nothing is sent, it may draw its connector's maximum. */
export const NO_LIMIT = 'None';

export interface Sample {
  connectorId: number;
  at: Date;
  powerW: number;
}

/** When a connector had a session: from its start (or our receipt of it, if earlier) to its stop (null: on). */
export interface SessionSpan {
  connectorId: number;
  from: Date;
  to: Date | null;
}

/** The start of the first minute of the chart that ends with the minute of `now`. */
export const windowStart = (now: Date) => Math.floor(now.getTime() / MINUTE) * MINUTE - (POINTS - 1) * MINUTE;

/**
 * The chart: one point per minute, oldest first, POINTS of them, the last the current (partial) minute. A
 * minute's power is the sum over connectors of each one's last sample in that minute; a connector with none
 * there carries its last value forward while the session that value came from is still on (a meter interval
 * longer than a minute must not make the chart saw-tooth; a session's end has a 0 sample, and a session closed
 * without one stops carrying at its stop). `samples`: ordered by time (then as written), including each
 * connector's last sample before the window. Whole watts summed, so kW has 3 decimals.
 */
export function minutePoints(now: Date, samples: Sample[], spans: SessionSpan[]): PowerPoint[] {
  const start = windowStart(now);
  const byConnector = new Map<number, Sample[]>();
  for (const sample of samples) {
    const list = byConnector.get(sample.connectorId);
    if (list) list.push(sample);
    else byConnector.set(sample.connectorId, [sample]);
  }
  const totals = new Array<number>(POINTS).fill(0);
  for (const [connectorId, list] of byConnector) {
    const own = spans.filter((span) => span.connectorId === connectorId);
    /** Whether the session `sample` was taken in is still on at `time`. */
    const carries = (sample: Sample, time: number) =>
      own.some(
        (span) =>
          span.from.getTime() <= sample.at.getTime() && (span.to === null || span.to.getTime() >= time),
      );
    let next = 0;
    let last: Sample | null = null;
    for (let minute = 0; minute < POINTS; minute++) {
      const from = start + minute * MINUTE;
      const to = from + MINUTE;
      let inMinute: Sample | null = null;
      while (next < list.length && (list[next] as Sample).at.getTime() < to) {
        const sample = list[next] as Sample;
        if (sample.at.getTime() >= from) inMinute = sample;
        last = sample;
        next++;
      }
      if (inMinute) totals[minute] = (totals[minute] ?? 0) + inMinute.powerW;
      else if (last && carries(last, from)) totals[minute] = (totals[minute] ?? 0) + last.powerW;
    }
  }
  return totals.map((w, minute) => ({ at: new Date(start + minute * MINUTE).toISOString(), kw: w / 1000 }));
}

const kw = (numeric: string | null) => (numeric === null ? null : Number(numeric));

/**
 * The live load of one site, in the caller's scope: the same guard as GET /api/landlord/:id (404 outside it or
 * missing). A site without a limit has no samples: no points, no powerKw.
 */
export async function sitePower(db: Db, scope: DataScope, id: number, now = new Date()): Promise<SitePower> {
  const [site] = await db
    .select({ maxPowerKw: landlords.maxPowerKw, phases: landlords.phases, voltage: landlords.voltage })
    .from(landlords)
    .where(and(eq(landlords.id, id), landlordScope(scope)));
  if (!site) throw new NotFound(LANDLORD_NOT_FOUND);
  const limited = site.maxPowerKw !== null;

  const active = await db
    .select({
      sessionId: chargingSessions.id,
      connectorId: connectors.id,
      chargerId: chargers.id,
      chargerNameEn: chargers.nameEn,
      connectorNameEn: connectors.nameEn,
      ocppConnectorId: connectors.ocppConnectorId,
      startedAt: chargingSessions.startedAt,
      createdAt: chargingSessions.createdAt,
      connectorMaxKw: connectors.maxPowerKw,
      chargerMaxKw: chargers.maxPowerKw,
      allowanceW: powerAllowances.allowanceW,
      waiting: powerAllowances.waiting,
      profileStatus: powerAllowances.profileStatus,
    })
    .from(chargingSessions)
    .innerJoin(connectors, eq(connectors.id, chargingSessions.connectorId))
    .innerJoin(chargers, eq(chargers.id, connectors.chargerId))
    .leftJoin(
      powerAllowances,
      and(
        eq(powerAllowances.connectorId, connectors.id),
        eq(powerAllowances.landlordId, id),
        // A row left by the connector's previous session is not this one's decision.
        eq(powerAllowances.chargingSessionId, chargingSessions.id),
      ),
    )
    .where(
      and(
        eq(chargers.landlordId, id),
        eq(chargingSessions.status, 'ACTIVE'),
        // A 2.0.1 transaction opened before its token: not authorised, not charging.
        ne(chargingSessions.idTagStatus, PENDING),
      ),
    )
    .orderBy(asc(chargingSessions.startedAt), asc(chargingSessions.id));

  let points: PowerPoint[] = [];
  const lastOf = new Map<number, Sample>();
  if (limited) {
    const start = new Date(windowStart(now));
    const end = new Date(start.getTime() + POINTS * MINUTE);
    const columns = {
      connectorId: powerSamples.connectorId,
      at: powerSamples.at,
      powerW: powerSamples.powerW,
    };
    const before = await db
      .selectDistinctOn([powerSamples.connectorId], columns)
      .from(powerSamples)
      .where(and(eq(powerSamples.landlordId, id), lt(powerSamples.at, start)))
      .orderBy(asc(powerSamples.connectorId), desc(powerSamples.at), desc(powerSamples.id));
    const within = await db
      .select(columns)
      .from(powerSamples)
      .where(and(eq(powerSamples.landlordId, id), gte(powerSamples.at, start), lt(powerSamples.at, end)))
      .orderBy(asc(powerSamples.at), asc(powerSamples.id));
    const spans = await db
      .select({
        connectorId: connectors.id,
        startedAt: chargingSessions.startedAt,
        createdAt: chargingSessions.createdAt,
        stoppedAt: chargingSessions.stoppedAt,
      })
      .from(chargingSessions)
      .innerJoin(connectors, eq(connectors.id, chargingSessions.connectorId))
      .innerJoin(chargers, eq(chargers.id, connectors.chargerId))
      .where(
        and(
          eq(chargers.landlordId, id),
          or(eq(chargingSessions.status, 'ACTIVE'), gte(chargingSessions.stoppedAt, start)),
        ),
      );
    const samples = [...before.sort((a, b) => a.at.getTime() - b.at.getTime()), ...within];
    points = minutePoints(
      now,
      samples,
      spans.map((span) => ({
        connectorId: span.connectorId,
        from: span.createdAt < span.startedAt ? span.createdAt : span.startedAt,
        to: span.stoppedAt,
      })),
    );
    for (const sample of samples) lastOf.set(sample.connectorId, sample);
  }

  const sessions: PowerSessionItem[] = active.map((row) => {
    const connectorMax = Number(row.connectorMaxKw);
    const chargerMax = kw(row.chargerMaxKw);
    const fullKw = chargerMax === null ? connectorMax : Math.min(connectorMax, chargerMax);
    const decided = limited && row.allowanceW !== null;
    // The connector's last sample, if it was taken in this session (not the previous one's end).
    const from = Math.min(row.startedAt.getTime(), row.createdAt.getTime());
    const last = lastOf.get(row.connectorId);
    return {
      connectorId: row.connectorId,
      chargerId: row.chargerId,
      chargerNameEn: row.chargerNameEn,
      connectorNameEn: row.connectorNameEn,
      ocppConnectorId: row.ocppConnectorId,
      startedAt: row.startedAt.toISOString(),
      allowanceKw: decided ? (row.allowanceW as number) / 1000 : fullKw,
      powerKw: last && last.at.getTime() >= from ? last.powerW / 1000 : null,
      waiting: decided ? (row.waiting ?? false) : false,
      profileStatus: decided ? (row.profileStatus ?? NOT_DECIDED) : limited ? NOT_DECIDED : NO_LIMIT,
    };
  });

  return {
    landlordId: id,
    maxPowerKw: kw(site.maxPowerKw),
    phases: site.phases,
    voltage: site.voltage,
    points,
    sessions,
  };
}
