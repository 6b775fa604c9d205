import {
  bangkokDayStart,
  CONNECTOR_STATES,
  type ConnectorState,
  type DashboardResponse,
  type DayFigures,
} from '@ev/shared';
import { and, asc, eq, isNull, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { bookings, chargers, connectors, landlords } from '../../db/schema/index.ts';
import type { DataScope } from '../../plugins/scope.ts';
import { landlordScope } from '../../plugins/scope.ts';
import { bookingScope } from '../booking/lifecycle.ts';
import { chargerOnline } from '../charger/charger.service.ts';
import {
  countConnectors,
  NO_GROUPING,
  paidIn,
  type Range,
  startedIn,
  sumBookings,
  sumPayments,
} from './measures.ts';
import { bangkokLocal } from './periods.ts';
import { aggregate } from './rollup.ts';
import { addInto, baht, emptySums, type Sums, statistics } from './statistics.service.ts';

const DAY_MS = 86_400_000;
const WEEK_MS = 7 * DAY_MS;
/** The dashboard's charts: the last 30 Bangkok days, today the last. */
const CHART_DAYS = 30;
/** Today is compared with the same weekday over the 4 weeks before. */
const USUAL_WEEKS = 4;
const DOWN_LIMIT = 10;
const SITES_LIMIT = 10;

/** A connector's state now: Offline when its charger is not connected, whatever it last said. */
const connectorState = sql<ConnectorState>`case
  when not ${chargerOnline} then 'Offline'
  when ${connectors.status} = 'AVAILABLE' then 'Available'
  when ${connectors.status} in ('CHARGING', 'PAUSED') then 'Charging'
  when ${connectors.status} = 'FAULTED' then 'Faulted'
  when ${connectors.status} = 'UNAVAILABLE' then 'Unavailable'
  else 'Other' end`;

async function connectorsNow(db: Db, scope: DataScope) {
  const rows = await db
    .select({ state: connectorState, count: sql<number>`count(*)::int` })
    .from(connectors)
    .innerJoin(chargers, eq(chargers.id, connectors.chargerId))
    .innerJoin(landlords, eq(landlords.id, chargers.landlordId))
    .where(landlordScope(scope))
    .groupBy(sql.raw('1'));
  const counts = Object.fromEntries(CONNECTOR_STATES.map((state) => [state, 0])) as Record<
    ConnectorState,
    number
  >;
  for (const row of rows) counts[row.state] = row.count;
  return counts;
}

/**
 * Active chargers offline (since they were last heard from) or with a Faulted connector (since its earliest
 * fault), the longest first; a charger never heard from has no 'since' and comes after the others.
 */
async function chargersDown(db: Db, scope: DataScope): Promise<DashboardResponse['now']['down']> {
  const faultedSince = sql<Date | null>`(select min(${connectors.statusAt}) from ${connectors} where ${connectors.chargerId} = ${chargers.id} and ${connectors.status} = 'FAULTED')`;
  const faulted = sql`exists (select 1 from ${connectors} where ${connectors.chargerId} = ${chargers.id} and ${connectors.status} = 'FAULTED')`;
  const since = sql<
    string | null
  >`(case when ${chargerOnline} then ${faultedSince} else ${chargers.lastSeenAt} end)`;
  const rows = await db
    .select({
      chargerId: chargers.id,
      nameEn: chargers.nameEn,
      landlordNameEn: landlords.nameEn,
      online: chargerOnline,
      since: sql<number | null>`floor(extract(epoch from ${since}) * 1000)::float8`,
    })
    .from(chargers)
    .innerJoin(landlords, eq(landlords.id, chargers.landlordId))
    .where(and(landlordScope(scope), eq(chargers.active, true), sql`(not ${chargerOnline} or ${faulted})`))
    .orderBy(sql`${since} asc nulls last`, asc(chargers.id))
    .limit(DOWN_LIMIT);
  return rows.map((row) => ({
    chargerId: row.chargerId,
    nameEn: row.nameEn,
    landlordNameEn: row.landlordNameEn,
    state: row.online ? 'Faulted' : 'Offline',
    since: row.since === null ? null : new Date(row.since).toISOString(),
  }));
}

async function bookingsNow(db: Db, scope: DataScope) {
  const count = (status: SQL) =>
    db
      .select({ count: sql<number>`count(*)::int` })
      .from(bookings)
      .where(and(isNull(bookings.deletedAt), bookingScope(scope), status))
      .then((rows) => rows[0]?.count ?? 0);
  const [charging, awaitingPayment] = await Promise.all([
    count(sql`${bookings.status} = 'charging'`),
    count(sql`${bookings.status} = 'stopped'`),
  ]);
  return { charging, awaitingPayment };
}

/** The sums of one window: the bookings that started in it and the payments made in it. */
async function windowSums(db: Db, scope: DataScope, range: Range): Promise<Sums> {
  const [booked, paid] = await Promise.all([
    sumBookings(db, startedIn(scope, {}, range), NO_GROUPING),
    sumPayments(db, paidIn(scope, {}, range), NO_GROUPING),
  ]);
  const sums = emptySums();
  for (const row of [...booked, ...paid]) addInto(sums, row);
  return sums;
}

const dayFigures = (sums: Sums, days = 1): DayFigures => ({
  energyWh: Math.round(sums.energyWh / days),
  revenue: baht(Math.round((sums.amount - sums.refund) / days)),
  sessions: Math.round(sums.sessions / days),
  averageSeconds: sums.sessions ? sums.chargingSeconds / sums.sessions : null,
  successRate: sums.sessions ? sums.delivered / sums.sessions : null,
});

/** Sessions of the window by their start's Bangkok hour, 0..23. */
async function byHour(db: Db, scope: DataScope, range: Range) {
  const rows = await sumBookings(db, startedIn(scope, {}, range), {
    group: sql<string>`extract(hour from ${bangkokLocal(bookings.startTime)})::int::text`,
    key: NO_GROUPING.key,
  });
  const sessions = new Map(rows.map((row) => [Number(row.group), row.sessions]));
  return Array.from({ length: 24 }, (_, hour) => ({ hour, sessions: sessions.get(hour) ?? 0 }));
}

async function paymentMethods(db: Db, scope: DataScope, range: Range) {
  const rows = await aggregate(db, scope, {}, range, {
    period: null,
    key: 'paymentMethod',
    only: 'payments',
  });
  const byMethod = new Map<string, Sums>();
  for (const row of rows) {
    const method = row.key ?? '';
    byMethod.set(method, addInto(byMethod.get(method) ?? emptySums(), row));
  }
  return [...byMethod]
    .map(([method, sums]) => ({ method, count: sums.payments, amount: baht(sums.amount - sums.refund) }))
    .sort((a, b) => b.amount - a.amount || a.method.localeCompare(b.method));
}

/** Every site in scope with connectors, by utilisation over the window: the highest and the lowest. */
async function sitesByUtilisation(db: Db, scope: DataScope, range: Range, now: number) {
  const landlordKey = sql<string>`${chargers.landlordId}::text`;
  const [counts, booked, names] = await Promise.all([
    countConnectors(db, scope, {}, landlordKey),
    aggregate(db, scope, {}, range, { period: null, key: 'landlord', only: 'bookings' }),
    db.select({ id: landlords.id, nameEn: landlords.nameEn }).from(landlords).where(landlordScope(scope)),
  ]);
  const seconds = Math.max(1, (Math.min(range.to.getTime(), now) - range.from.getTime()) / 1000);
  const charging = new Map<string | null, number>();
  for (const row of booked) charging.set(row.key, (charging.get(row.key) ?? 0) + (row.chargingSeconds ?? 0));
  const sites = names
    .filter((site) => (counts.get(String(site.id)) ?? 0) > 0)
    .map((site) => ({
      landlordId: site.id,
      nameEn: site.nameEn,
      utilisation: (charging.get(String(site.id)) ?? 0) / ((counts.get(String(site.id)) ?? 0) * seconds),
    }));
  const ordered = sites.sort((a, b) => b.utilisation - a.utilisation || a.landlordId - b.landlordId);
  return { top: ordered.slice(0, SITES_LIMIT), bottom: ordered.slice(-SITES_LIMIT).reverse() };
}

/** GET /api/dashboard: the caller's scope now, today against the usual, and the last 30 days. */
export async function dashboard(db: Db, scope: DataScope, now = Date.now()): Promise<DashboardResponse> {
  const today = bangkokDayStart(now);
  const sinceMidnight = now - today;
  const chartFrom = new Date(today - (CHART_DAYS - 1) * DAY_MS);
  const last30 = { from: chartFrom, to: new Date(now) };
  const weeksBefore = Array.from({ length: USUAL_WEEKS }, (_, i) => today - (i + 1) * WEEK_MS);
  const [connectorCounts, down, open, todaySums, usualSums, daily, hours, methods, sites] = await Promise.all(
    [
      connectorsNow(db, scope),
      chargersDown(db, scope),
      bookingsNow(db, scope),
      windowSums(db, scope, { from: new Date(today), to: new Date(now) }),
      Promise.all(
        weeksBefore.map((start) =>
          windowSums(db, scope, { from: new Date(start), to: new Date(start + sinceMidnight) }),
        ),
      ),
      statistics(db, scope, { ...last30, period: 'day', split: 'none' }, now),
      byHour(db, scope, last30),
      paymentMethods(db, scope, last30),
      sitesByUtilisation(db, scope, last30, now),
    ],
  );
  return {
    at: new Date(now).toISOString(),
    now: { connectors: connectorCounts, down, ...open },
    today: dayFigures(todaySums),
    usual: dayFigures(
      usualSums.reduce((sums, week) => addInto(sums, week), emptySums()),
      USUAL_WEEKS,
    ),
    daily: daily.rows.map((row) => ({
      day: row.period,
      energyWh: row.energyWh,
      revenue: row.revenue,
      sessions: row.sessions,
    })),
    byHour: hours,
    paymentMethods: methods,
    sites,
  };
}
