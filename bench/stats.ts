/**
 * `npm run bench:stats`: the dashboard and the statistics (issue 35 §3: p99 under 300 ms) against hand-written
 * SQL of the same aggregates, in the same process. Seeds BENCH_ROWS bookings over the last two years on a fresh
 * database (1,000,000 by default on PostgreSQL, 20,000 on PGlite: the demo's size) with payments, discount
 * codes, green points and refunds (seed-bookings.ts), runs the server's statistics rollup job if it has one
 * (feature-detected: any `app.jobs` function named like rollup), then, signed in as the admin and as a site user
 * (role landlord, the first site), calls each case BENCH_WARMUP (3) + BENCH_CALLS (30) times, one call at a time
 * as a person opening a screen, each followed by its baseline: the same GROUP BYs over bookings and payments
 * (same range, period, split and scope) written by hand and run through the same driver, at once as the
 * service runs its own. Prints p50/p95/p99 of both, the p99 ratio, whether the API's p99 is under 300 ms, and
 * whether the API's totals equal the raw sums (sessions, energy, revenue).
 *
 *   npm run bench:stats                                   PGlite in memory, 20,000 bookings (BENCH_DISK=1: on disk)
 *   DATABASE_URL=postgres://…/<scratch> npm run bench:stats   a fresh database on that server, 1,000,000 bookings
 *                                                         BENCH_ROWS, BENCH_CALLS, BENCH_WARMUP, BENCH_CASES=1,3
 */

import os from 'node:os';
import { users } from '@ev/server/db/schema/index';
import { hashPassword } from '@ev/server/lib/password';
import {
  bangkokDayStart,
  type DashboardResponse,
  type StatisticsResponse,
  type StatPeriod,
  type StatSplit,
  toSatang,
} from '@ev/shared';
import { percentile, signIn } from './common.ts';
import { BENCH_ADMIN, startInProcessServer } from './in-process-server.ts';
import { seedBookings } from './seed-bookings.ts';

const databaseUrl = process.env.DATABASE_URL;
const rows = Number(process.env.BENCH_ROWS ?? (databaseUrl ? 1_000_000 : 20_000));
const calls = Number(process.env.BENCH_CALLS ?? 30);
const warmup = Number(process.env.BENCH_WARMUP ?? 3);
const GOAL_MS = 300;
const DAY_MS = 86_400_000;
const SEED_DAYS = 730;
const SITE_USER = { email: 'bench-site@example.com', pass: 'BenchSite1' };

const server = await startInProcessServer({ webDist: '', databaseUrl });
const { base, db, kind } = server;
type Row = Record<string, unknown>;
type Client = { query(text: string, params: unknown[]): Promise<{ rows: Row[] }> };
const client = (db as unknown as { $client: Client }).$client;

// ---------------------------------------------------------------------------------------------------------
// The baseline: the aggregates written by hand (docs/statistics.md defines them), through the same driver.

interface Statement {
  text: string;
  params: unknown[];
}
interface Window {
  from: Date;
  to: Date;
}
/** A site user's scope (bookings and payments copy their site), or none: the admin's. */
type Site = number | undefined;

const bangkok = (column: string) => `((${column} at time zone 'UTC') + interval '7 hours')`;
const periodOf = (column: string, period: StatPeriod) =>
  `to_char(date_trunc('${period}', ${bangkok(column)}), 'YYYY-MM-DD')`;

/** Each split's key on a booking, on a payment (charger: through its booking) and on a connector. */
const KEYS: Record<string, { booking: string; payment: string; connector: string | null }> = {
  none: { booking: 'null', payment: 'null', connector: 'null' },
  landlord: {
    booking: 'b.landlord_id::text',
    payment: 'p.landlord_id::text',
    connector: 'ch.landlord_id::text',
  },
  charger: { booking: 'b.charger_id', payment: 'b.charger_id', connector: 'ch.id' },
  paymentMethod: { booking: 'b.payment_method', payment: 'p.method', connector: null },
};

/** Energy, sessions, charging and idle seconds of the bookings that started in the window. */
function bookingSums(group: string, key: string, window: Window, site: Site): Statement {
  return {
    text: `select ${group} as "group", ${key} as key, count(*)::int as sessions,
        coalesce(sum(b.energy_wh), 0)::float8 as energy_wh,
        coalesce(sum(greatest(0, floor(extract(epoch from coalesce(b.stop_time, now()) - b.start_time)))), 0)::float8 as charging,
        coalesce(sum(case when b.stop_time is null then 0 else greatest(0, floor(extract(epoch from
          coalesce(b.avaliable_at, case when b.status = 'charged' then now() else b.stop_time end) - b.stop_time))) end), 0)::float8 as idle,
        (count(*) filter (where b.energy_wh > 0))::int as delivered
      from bookings b
      where b.deleted_at is null and b.start_time >= $1::timestamptz and b.start_time < $2::timestamptz
        ${site === undefined ? '' : 'and b.landlord_id = $3'}
      group by 1, 2`,
    params: [window.from.toISOString(), window.to.toISOString(), ...(site === undefined ? [] : [site])],
  };
}

/** Money of the payments made in the window: paid, refunded (paid back only), discounts, points. */
function paymentSums(group: string, key: string, window: Window, site: Site, viaBooking = false): Statement {
  return {
    text: `select ${group} as "group", ${key} as key, count(*)::int as payments,
        coalesce(sum(p.amount), 0)::text as amount,
        coalesce(sum(p.refund_amount) filter (where p.refunded_at is not null), 0)::text as refund,
        coalesce(sum(p.discount_amount), 0)::text as discount, coalesce(sum(p.point_amount), 0)::text as point
      from payments p ${viaBooking ? 'join bookings b on b.id = p.booking_id' : ''}
      where p.created_at >= $1::timestamptz and p.created_at < $2::timestamptz
        ${site === undefined ? '' : 'and p.landlord_id = $3'}
      group by 1, 2`,
    params: [window.from.toISOString(), window.to.toISOString(), ...(site === undefined ? [] : [site])],
  };
}

/** The connectors of the sites in scope, by key (utilisation's divisor). */
function connectorCounts(key: string, site: Site): Statement {
  return {
    text: `select ${key} as key, count(*)::int as connectors
      from connectors c join chargers ch on ch.id = c.charger_id join landlords l on l.id = ch.landlord_id
      ${site === undefined ? '' : 'where l.id = $1'}
      group by 1`,
    params: site === undefined ? [] : [site],
  };
}

const run = (statement: Statement) => client.query(statement.text, statement.params).then((r) => r.rows);

/** What the baseline found, to check that the API answered the same figures. */
interface Check {
  sessions: number;
  energyWh: number;
  /** Satang: paid less paid back. */
  revenue: number;
}

const sumOf = (found: Row[], field: string) => found.reduce((sum, row) => sum + Number(row[field]), 0);
const revenueOf = (found: Row[]) =>
  found.reduce((sum, row) => sum + toSatang(String(row.amount)) - toSatang(String(row.refund)), 0);

/** GET /api/statistics's aggregates by hand: bookings and payments grouped, connectors counted, at once. */
async function rawStatistics(window: Window, period: StatPeriod, split: string, site: Site): Promise<Check> {
  const keys = KEYS[split]!;
  const [booked, paid] = await Promise.all([
    run(bookingSums(periodOf('b.start_time', period), keys.booking, window, site)),
    run(paymentSums(periodOf('p.created_at', period), keys.payment, window, site, split === 'charger')),
    keys.connector ? run(connectorCounts(keys.connector, site)) : [],
  ]);
  return {
    sessions: sumOf(booked, 'sessions'),
    energyWh: sumOf(booked, 'energy_wh'),
    revenue: revenueOf(paid),
  };
}

/** GET /api/dashboard's aggregates by hand, all at once as the service runs them. */
async function rawDashboard(site: Site): Promise<Check> {
  const now = Date.now();
  const midnight = bangkokDayStart(now);
  const last30 = { from: new Date(midnight - 29 * DAY_MS), to: new Date(now) };
  const scoped = (column: string, index: number) => (site === undefined ? '' : `and ${column} = $${index}`);
  const siteParam = site === undefined ? [] : [site];
  const online = `(ch.connected_node is not null and ch.last_seen_at > now() - make_interval(secs => 2 * coalesce(ch.heartbeat_interval_s, 60)))`;
  const windows = [
    { from: new Date(midnight), to: new Date(now) },
    ...[1, 2, 3, 4].map((weeks) => ({
      from: new Date(midnight - weeks * 7 * DAY_MS),
      to: new Date(now - weeks * 7 * DAY_MS),
    })),
  ];
  const statements: Statement[] = [
    {
      text: `select case when not ${online} then 'Offline' when c.status = 'AVAILABLE' then 'Available'
          when c.status in ('CHARGING', 'PAUSED') then 'Charging' when c.status = 'FAULTED' then 'Faulted'
          when c.status = 'UNAVAILABLE' then 'Unavailable' else 'Other' end as state, count(*)::int as count
        from connectors c join chargers ch on ch.id = c.charger_id join landlords l on l.id = ch.landlord_id
        where true ${scoped('l.id', 1)} group by 1`,
      params: siteParam,
    },
    {
      text: `select ch.id, ch.name_en, l.name_en as site, ${online} as online,
          case when ${online} then (select min(f.status_at) from connectors f where f.charger_id = ch.id and f.status = 'FAULTED')
            else ch.last_seen_at end as since
        from chargers ch join landlords l on l.id = ch.landlord_id
        where ch.active ${scoped('l.id', 1)}
          and (not ${online} or exists (select 1 from connectors f where f.charger_id = ch.id and f.status = 'FAULTED'))
        order by since asc nulls last, ch.id limit 10`,
      params: siteParam,
    },
    ...['charging', 'stopped'].map((status) => ({
      text: `select count(*)::int as count from bookings b
        where b.deleted_at is null and b.status = '${status}' ${scoped('b.landlord_id', 1)}`,
      params: siteParam,
    })),
    ...windows.flatMap((window) => [
      bookingSums('null', 'null', window, site),
      paymentSums('null', 'null', window, site),
    ]),
    bookingSums(periodOf('b.start_time', 'day'), 'null', last30, site),
    paymentSums(periodOf('p.created_at', 'day'), 'null', last30, site),
    connectorCounts('null', site),
    bookingSums(`extract(hour from ${bangkok('b.start_time')})::int::text`, 'null', last30, site),
    paymentSums('null', 'p.method', last30, site),
    connectorCounts('ch.landlord_id::text', site),
    bookingSums('null', 'b.landlord_id::text', last30, site),
    {
      text: `select id, name_en from landlords l where true ${scoped('l.id', 1)}`,
      params: siteParam,
    },
  ];
  const results = await Promise.all(statements.map(run));
  // The 30 days by day (booking sums, then payment sums, after the 4 + 10 statements before them).
  const daily = 4 + windows.length * 2;
  return {
    sessions: sumOf(results[daily]!, 'sessions'),
    energyWh: sumOf(results[daily]!, 'energy_wh'),
    revenue: revenueOf(results[daily + 1]!),
  };
}

// ---------------------------------------------------------------------------------------------------------
// The cases.

interface Case {
  name: string;
  token: string;
  path: string;
  raw: () => Promise<Check>;
  /** The API's answer as the same figures. */
  check: (body: unknown) => Check;
}

const statisticsCheck = (body: unknown): Check => {
  const { totals } = body as StatisticsResponse;
  return { sessions: totals.sessions, energyWh: totals.energyWh, revenue: Math.round(totals.revenue * 100) };
};
const dashboardCheck = (body: unknown): Check => {
  const { daily } = body as DashboardResponse;
  return {
    sessions: daily.reduce((sum, day) => sum + day.sessions, 0),
    energyWh: daily.reduce((sum, day) => sum + day.energyWh, 0),
    revenue: daily.reduce((sum, day) => sum + Math.round(day.revenue * 100), 0),
  };
};

/** The Bangkok days (`days`, today the last), as the statistics screen asks: [first midnight, next midnight). */
function lastDays(days: number): Window {
  const midnight = bangkokDayStart(Date.now());
  return { from: new Date(midnight - (days - 1) * DAY_MS), to: new Date(midnight + DAY_MS) };
}

function statisticsCase(
  name: string,
  token: string,
  site: Site,
  days: number,
  period: StatPeriod,
  split: StatSplit,
): Case {
  const window = lastDays(days);
  const query = new URLSearchParams({
    from: window.from.toISOString(),
    to: window.to.toISOString(),
    period,
    split,
  });
  return {
    name,
    token,
    path: `/api/statistics?${query}`,
    raw: () => rawStatistics(window, period, split, site),
    check: statisticsCheck,
  };
}

/** The rollup job of the statistics, if this server has one (branch stats-server adds it): its name. */
function rollupJob(): string | undefined {
  const jobs = server.app.jobs as unknown as Record<string, unknown>;
  const names = Object.keys(jobs).filter((name) => /rollup/i.test(name) && typeof jobs[name] === 'function');
  return names.includes('rollupStatistics') ? 'rollupStatistics' : names[0];
}

async function timed<T>(work: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const started = performance.now();
  const value = await work();
  return { ms: performance.now() - started, value };
}

/** One call, read to its last byte (as the screen waits for it); the body parsed after the clock stops. */
async function get(path: string, token: string): Promise<{ ms: number; body: unknown; bytes: number }> {
  const { ms, value } = await timed(async () => {
    const response = await fetch(`${base}${path}`, { headers: { 'x-access-token': token } });
    const text = await response.text();
    if (response.status !== 200) throw new Error(`${path}: ${response.status} ${text.slice(0, 300)}`);
    return text;
  });
  return { ms, body: JSON.parse(value), bytes: value.length };
}

const fmt = (values: number[]) =>
  [50, 95, 99].map((p) => percentile(values, p).toFixed(1).padStart(7)).join('');
const same = (a: Check, b: Check) =>
  a.sessions === b.sessions && Math.abs(a.energyWh - b.energyWh) < 0.5 && a.revenue === b.revenue;
const describe = (c: Check) =>
  `${c.sessions} sessions, ${c.energyWh} Wh, ${(c.revenue / 100).toFixed(2)} baht`;

try {
  const seeded = await seedBookings(db, rows, { days: SEED_DAYS, adjustments: true });
  const [counts] = await run({
    text: `select (select count(*) from payments)::int as payments,
        (select count(*) from payments where refunded_at is not null)::int as refunds,
        (select count(*) from payments where discount_amount > 0)::int as discounts,
        (select count(*) from payments where point_amount > 0)::int as points,
        (select count(*) from bookings where landlord_id = $1)::int as site_bookings`,
    params: [seeded.landlordId],
  });
  console.log(
    `${kind}: ${rows.toLocaleString('en-US')} bookings over ${SEED_DAYS} days, ${seeded.members.toLocaleString('en-US')} ` +
      `members, seeded in ${(seeded.ms / 1000).toFixed(1)} s: ${Number(counts!.payments).toLocaleString('en-US')} ` +
      `payments (${Number(counts!.discounts).toLocaleString('en-US')} with a discount code, ` +
      `${Number(counts!.points).toLocaleString('en-US')} with points, ${Number(counts!.refunds).toLocaleString('en-US')} ` +
      `refunds paid back); the site user's site holds ${Number(counts!.site_bookings).toLocaleString('en-US')} bookings`,
  );

  const rollup = rollupJob();
  if (rollup) {
    const job = (server.app.jobs as unknown as Record<string, () => Promise<unknown>>)[rollup]!;
    const { ms, value } = await timed(() => job.call(server.app.jobs));
    console.log(
      `rollup: app.jobs.${rollup}() took ${(ms / 1000).toFixed(2)} s${value === undefined ? '' : ` (answered ${JSON.stringify(value)})`}`,
    );
  } else {
    console.log(
      `rollup: this server has no rollup job (app.jobs: ${Object.keys(server.app.jobs).join(', ')}); ` +
        'the API aggregates the bookings and payments themselves, as the baseline does',
    );
  }

  const adminToken = await signIn(base, BENCH_ADMIN);
  await db.insert(users).values({
    type: 'admin',
    email: SITE_USER.email,
    passHash: await hashPassword(SITE_USER.pass),
    firstName: 'Bench',
    lastName: 'Site',
    adminRole: 'landlord',
    landlordId: seeded.landlordId,
    active: true,
    emailVerified: true,
  });
  const siteToken = await signIn(base, SITE_USER);
  const site = seeded.landlordId;

  const cases: Case[] = [
    {
      name: 'dashboard, admin',
      token: adminToken,
      path: '/api/dashboard',
      raw: () => rawDashboard(undefined),
      check: dashboardCheck,
    },
    {
      name: 'dashboard, site user',
      token: siteToken,
      path: '/api/dashboard',
      raw: () => rawDashboard(site),
      check: dashboardCheck,
    },
    statisticsCase('30 days by day', adminToken, undefined, 30, 'day', 'none'),
    statisticsCase('91 days by day, split charger', adminToken, undefined, 91, 'day', 'charger'),
    statisticsCase('2 years by month', adminToken, undefined, SEED_DAYS, 'month', 'none'),
    statisticsCase('2 years by week, split site', adminToken, undefined, SEED_DAYS, 'week', 'landlord'),
    statisticsCase('1 year by day, split payment method', adminToken, undefined, 365, 'day', 'paymentMethod'),
    statisticsCase('2 years by month, site user', siteToken, site, SEED_DAYS, 'month', 'none'),
  ];

  console.log(
    `\n${warmup} warm-up + ${calls} calls a case, one at a time, each followed by its baseline (raw: the same ` +
      'GROUP BYs by hand through the driver); ms',
  );
  console.log(
    `${'case'.padEnd(40)}|  raw p50    p95    p99 |  API p50    p95    p99 | p99 ratio | p99 < ${GOAL_MS} ms | answer    | totals`,
  );
  const only = process.env.BENCH_CASES?.split(',').map(Number);
  const load = () => os.loadavg()[0]!.toFixed(2);
  const loadBefore = load();
  let met = 0;
  let measured = 0;
  for (const [index, item] of cases.entries()) {
    if (only && !only.includes(index + 1)) continue;
    const api: number[] = [];
    const raw: number[] = [];
    let answer = { body: undefined as unknown, bytes: 0 };
    let baseline: Check | undefined;
    for (let i = 0; i < warmup + calls; i++) {
      const call = await get(item.path, item.token);
      const direct = await timed(item.raw);
      if (i < warmup) continue;
      api.push(call.ms);
      raw.push(direct.ms);
      answer = call;
      baseline = direct.value;
    }
    const p99 = percentile(api, 99);
    measured++;
    if (p99 < GOAL_MS) met++;
    const found = item.check(answer.body);
    const agree = baseline && same(found, baseline);
    console.log(
      `${item.name.padEnd(40)}|${fmt(raw)} |${fmt(api)} | ${(p99 / Math.max(percentile(raw, 99), 0.01)).toFixed(2).padStart(8)}x | ` +
        `${(p99 < GOAL_MS ? 'yes' : 'NO').padEnd(13)}| ${`${(answer.bytes / 1024).toFixed(0)} KB`.padEnd(9)} | ` +
        `${agree ? 'same' : `DIFFER: API ${describe(found)}, raw ${baseline ? describe(baseline) : '-'}`}`,
    );
  }
  console.log(
    `\nAPI p99 under ${GOAL_MS} ms in ${met} of ${measured} cases. Load average (1 min) ${loadBefore} before the ` +
      `calls, ${load()} after, on ${os.availableParallelism()} cores: above the core count, other work shared them.`,
  );
} finally {
  await server.close();
}
