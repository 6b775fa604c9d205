import { bangkokDayStart, type StatPeriod } from '@ev/shared';
import { and, eq, gte, ilike, inArray, lt, or, type SQL, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { Db } from '../../db/client.ts';
import {
  bookings,
  payments,
  promotionRedemptions,
  statisticsDaily,
  statisticsDays,
  statisticsDirtyDays,
  statisticsMonths,
} from '../../db/schema/index.ts';
import { contains } from '../../lib/list-query.ts';
import { type DataScope, siteScopeOn } from '../../plugins/scope.ts';
import {
  BOOKING_MEASURES,
  type BookingSums,
  OPEN_SESSION,
  PAYMENT_MEASURES,
  type PaymentSums,
  paidInAny,
  type Range,
  type StatFilters,
  startedInAny,
  sumBookings,
  sumPayments,
} from './measures.ts';
import { bangkokDate, bangkokDay, periodOf } from './periods.ts';

/**
 * Exact daily rollups of the statistics (issue 35 §3; docs/statistics.md "Rollups").
 *
 * `rollupStatistics` (the job) writes, for each settled Bangkok day (before yesterday), the measures of the
 * sessions that started that day and of the payments made that day, grouped by the keys of each grain, with
 * the live path's own aggregates (BOOKING_MEASURES, PAYMENT_MEASURES, startedIn, paidIn of measures.ts).
 * `aggregate` answers a range as rollup rows for the whole days rolled up and clean, plus the live aggregate
 * for every other instant of it (today, yesterday, a day marked dirty by the triggers of migration 0020, a day
 * with a session still open, the partial days at the range's edges), merged by the caller. So an answer is
 * exact whatever the job's lag: a late event marks its day dirty in the writer's own transaction.
 */

const DAY_MS = 86_400_000;
const ALL: DataScope = { kind: 'all' };

/** The keys the statistics split and filter by. */
export type Dim =
  | 'merchant'
  | 'landlord'
  | 'charger'
  | 'connector'
  | 'connectorType'
  | 'paymentMethod'
  | 'promotion';

interface DimSpec {
  /** The rollup's column. */
  rollup: AnyPgColumn;
  /** The key of a booking measure and of a payment measure (a payment copies its booking's site and cluster). */
  booking: AnyPgColumn;
  payment: AnyPgColumn;
  /** The payment's key is its booking's. */
  paymentNeedsBooking?: boolean;
  /** The key is the booking's discount-code redemption's. */
  promotion?: boolean;
  type: 'integer' | 'text';
}

export const DIMS: Record<Dim, DimSpec> = {
  merchant: {
    rollup: statisticsDaily.merchantId,
    booking: bookings.merchantId,
    payment: payments.merchantId,
    type: 'integer',
  },
  landlord: {
    rollup: statisticsDaily.landlordId,
    booking: bookings.landlordId,
    payment: payments.landlordId,
    type: 'integer',
  },
  charger: {
    rollup: statisticsDaily.chargerId,
    booking: bookings.chargerId,
    payment: bookings.chargerId,
    paymentNeedsBooking: true,
    type: 'text',
  },
  connector: {
    rollup: statisticsDaily.connectorId,
    booking: bookings.connectorId,
    payment: bookings.connectorId,
    paymentNeedsBooking: true,
    type: 'integer',
  },
  connectorType: {
    rollup: statisticsDaily.connectorTypeId,
    booking: bookings.connectorTypeId,
    payment: bookings.connectorTypeId,
    paymentNeedsBooking: true,
    type: 'integer',
  },
  paymentMethod: {
    rollup: statisticsDaily.paymentMethod,
    booking: bookings.paymentMethod,
    payment: payments.method,
    type: 'text',
  },
  promotion: {
    rollup: statisticsDaily.promotionId,
    booking: promotionRedemptions.promotionId,
    payment: promotionRedemptions.promotionId,
    promotion: true,
    type: 'integer',
  },
};

/** In the rollup's column order. */
const DIM_ORDER: Dim[] = [
  'merchant',
  'landlord',
  'charger',
  'connector',
  'connectorType',
  'paymentMethod',
  'promotion',
];

interface Grain {
  id: number;
  dims: ReadonlySet<Dim>;
}

/**
 * Coarsest first; a query reads the first holding every key it needs. Measured on 1,000,000 bookings over two
 * years (400 connectors, 50 sites): a day is ~1,400 sessions, and at the connector grain nearly as many rows,
 * so the coarse grains are what make long ranges fast (docs/statistics.md).
 */
export const GRAINS: readonly Grain[] = [
  { id: 1, dims: new Set<Dim>(['merchant', 'landlord', 'paymentMethod']) },
  { id: 2, dims: new Set<Dim>(['merchant', 'landlord', 'charger', 'connectorType', 'promotion']) },
  { id: 3, dims: new Set<Dim>(DIM_ORDER) },
];

/** The keys a query's filters need (the scope needs the site and cluster, kept at every grain). */
function filterDims(filters: StatFilters): Dim[] {
  const dims: Dim[] = [];
  if (filters.chargerId !== undefined) dims.push('charger');
  if (filters.connectorId !== undefined) dims.push('connector');
  if (filters.paymentMethod !== undefined) dims.push('paymentMethod');
  return dims;
}

export const grainFor = (dims: Dim[]): Grain =>
  GRAINS.find((grain) => dims.every((dim) => grain.dims.has(dim))) ?? (GRAINS[GRAINS.length - 1] as Grain);

// ---------------------------------------------------------------------------------------------------------
// The job.

/** One grain's rows of the days in `range`: the live aggregates, grouped by day and the grain's keys. */
function rollupInsert(grain: Grain, range: Range): SQL {
  const keys = (side: 'booking' | 'payment') =>
    sql.join(
      DIM_ORDER.map((dim) => {
        const spec = DIMS[dim];
        const type = sql.raw(spec.type);
        const name = sql.raw(`"${spec.rollup.name}"`);
        return grain.dims.has(dim) ? sql`${spec[side]}::${type} as ${name}` : sql`null::${type} as ${name}`;
      }),
      sql`, `,
    );
  const columns = sql.raw(DIM_ORDER.map((dim) => `"${DIMS[dim].rollup.name}"`).join(', '));
  const promotion = grain.dims.has('promotion');
  const paymentBooking = [...grain.dims].some((dim) => DIMS[dim].paymentNeedsBooking);
  const booked = sql`select ${bangkokDay(bookings.startTime)} as day, ${keys('booking')},
      ${BOOKING_MEASURES.energyWh} as energy_wh, ${BOOKING_MEASURES.sessions} as sessions,
      ${BOOKING_MEASURES.chargingSeconds} as charging_seconds, ${BOOKING_MEASURES.idleSeconds} as idle_seconds,
      ${BOOKING_MEASURES.delivered} as delivered,
      0 as payments, 0::numeric as amount, 0::numeric as refund, 0::numeric as discount, 0::numeric as point
    from ${bookings}
    ${promotion ? sql`left join ${promotionRedemptions} on ${promotionRedemptions.bookingId} = ${bookings.id}` : sql``}
    where ${startedInAny(ALL, {}, [range])}
    group by 1, 2, 3, 4, 5, 6, 7, 8`;
  const paid = sql`select ${bangkokDay(payments.createdAt)} as day, ${keys('payment')},
      0::float8, 0, 0::float8, 0::float8, 0,
      ${PAYMENT_MEASURES.payments}, (${PAYMENT_MEASURES.amount})::numeric, (${PAYMENT_MEASURES.refund})::numeric,
      (${PAYMENT_MEASURES.discount})::numeric, (${PAYMENT_MEASURES.point})::numeric
    from ${payments}
    ${paymentBooking ? sql`join ${bookings} on ${bookings.id} = ${payments.bookingId}` : sql``}
    ${promotion ? sql`left join ${promotionRedemptions} on ${promotionRedemptions.bookingId} = ${payments.bookingId}` : sql``}
    where ${paidInAny(ALL, {}, [range]).where}
    group by 1, 2, 3, 4, 5, 6, 7, 8`;
  return sql`insert into ${statisticsDaily} (grain, day, ${columns}, energy_wh, sessions, charging_seconds,
      idle_seconds, delivered, payments, amount, refund, discount, point)
    select ${grain.id}, day, ${columns}, sum(energy_wh), sum(sessions), sum(charging_seconds), sum(idle_seconds),
      sum(delivered), sum(payments), sum(amount) * 100, sum(refund) * 100, sum(discount) * 100, sum(point) * 100
    from (${booked} union all ${paid}) as u
    group by day, ${columns}`;
}

const rowsOf = <T>(result: unknown) => ((result as { rows?: T[] }).rows ?? []) as T[];

/** The Bangkok midnight starting day 'yyyy-mm-dd'. */
const dayStart = (day: string) => Date.parse(`${day}T00:00:00+07:00`);

/** The month holding a day, as its first day 'yyyy-mm-01'. */
const monthOf = (day: string) => `${day.slice(0, 7)}-01`;

/** The first day of the month after the one starting at `month`. */
function nextMonth(month: string): string {
  const next = new Date(Date.UTC(Number(month.slice(0, 4)), Number(month.slice(5, 7)), 1));
  return next.toISOString().slice(0, 10);
}

/** Offset of a grain's months (grains 11, 12, 13 of statistics_daily). */
const MONTHLY = 10;

/**
 * Each day and each month is rolled up under a transaction's advisory lock on its month (this job's namespace,
 * then months since year 0): processes never write one month at once, a month another process holds is left
 * to it (the next run takes it).
 */
const LOCK_NAMESPACE = 35_003;
async function lockMonth(tx: Pick<Db, 'execute'>, month: string): Promise<boolean> {
  const key = Number(month.slice(0, 4)) * 12 + Number(month.slice(5, 7));
  const [lock] = rowsOf<{ ok: boolean }>(
    await tx.execute(sql`select pg_try_advisory_xact_lock(${LOCK_NAMESPACE}, ${key}::int) as ok`),
  );
  return lock?.ok === true;
}

/**
 * Recomputes one day from the base tables in one transaction, unless another process is on its month or a
 * session that started that day is still open (its seconds grow with now: the day stays live). Its mark is
 * cleared only if it is still the one read before the recompute: a change committed meanwhile re-marked it
 * (the trigger's upsert takes a new number) and it is done again next time. Its month's sums are taken out
 * with it (summed again by rollMonth).
 */
async function rollDay(db: Db, day: string): Promise<boolean> {
  const from = dayStart(day);
  const range = { from: new Date(from), to: new Date(from + DAY_MS) };
  return db.transaction(async (tx) => {
    if (!(await lockMonth(tx, monthOf(day)))) return false;
    const [open] = rowsOf<{ open: boolean }>(
      await tx.execute(
        sql`select exists (select 1 from ${bookings} where ${startedInAny(ALL, {}, [range])} and ${OPEN_SESSION}) as open`,
      ),
    );
    if (open?.open) return false;
    const [mark] = await tx
      .select({ mark: statisticsDirtyDays.mark })
      .from(statisticsDirtyDays)
      .where(eq(statisticsDirtyDays.day, day));
    await tx.delete(statisticsDaily).where(eq(statisticsDaily.day, day));
    for (const grain of GRAINS) await tx.execute(rollupInsert(grain, range));
    await tx
      .insert(statisticsDays)
      .values({ day })
      .onConflictDoUpdate({ target: statisticsDays.day, set: { rolledAt: sql`now()` } });
    await tx.delete(statisticsMonths).where(eq(statisticsMonths.month, monthOf(day)));
    if (mark) {
      await tx
        .delete(statisticsDirtyDays)
        .where(and(eq(statisticsDirtyDays.day, day), eq(statisticsDirtyDays.mark, mark.mark)));
    }
    return true;
  });
}

/**
 * Sums a month's rolled-up days into its monthly rows, once every day of it is rolled up and none is dirty
 * (a day marked meanwhile keeps the month from the queries until rollDay takes it out and this runs again).
 */
async function rollMonth(db: Db, month: string): Promise<boolean> {
  const end = nextMonth(month);
  return db.transaction(async (tx) => {
    if (!(await lockMonth(tx, month))) return false;
    const [ready] = rowsOf<{ ready: boolean }>(
      await tx.execute(sql`select
        (select count(*) from ${statisticsDays} where day >= ${month}::date and day < ${end}::date)
          = (${end}::date - ${month}::date)
        and not exists (select 1 from ${statisticsDirtyDays} where day >= ${month}::date and day < ${end}::date)
        as ready`),
    );
    if (!ready?.ready) return false;
    const columns = sql.raw(DIM_ORDER.map((dim) => `"${DIMS[dim].rollup.name}"`).join(', '));
    await tx.delete(statisticsDaily).where(and(sql`grain > ${MONTHLY}`, eq(statisticsDaily.day, month)));
    await tx.execute(sql`insert into ${statisticsDaily} (grain, day, ${columns}, energy_wh, sessions,
        charging_seconds, idle_seconds, delivered, payments, amount, refund, discount, point)
      select grain + ${MONTHLY}, ${month}::date, ${columns}, sum(energy_wh), sum(sessions), sum(charging_seconds),
        sum(idle_seconds), sum(delivered), sum(payments), sum(amount), sum(refund), sum(discount), sum(point)
      from ${statisticsDaily}
      where grain < ${MONTHLY} and day >= ${month}::date and day < ${end}::date
      group by grain, ${columns}`);
    await tx
      .insert(statisticsMonths)
      .values({ month })
      .onConflictDoUpdate({ target: statisticsMonths.month, set: { rolledAt: sql`now()` } });
    return true;
  });
}

/** The last day the job rolls up: the day before yesterday (yesterday and today are always live). */
export const lastRolledDay = (now: number) => bangkokDate(bangkokDayStart(now) - 2 * DAY_MS);

/**
 * The job (app.jobs.rollupStatistics): rolls up every settled day that is dirty or was never rolled up (from
 * the first day with a session or a payment), newest first, then sums the months whose days are all rolled up
 * and clean; answers how many days it recomputed. Safe in a cluster (lockMonth).
 */
export async function rollupStatistics(db: Db, now = Date.now()): Promise<number> {
  const last = lastRolledDay(now);
  const candidates = rowsOf<{ day: string }>(
    await db.execute(sql`
      with first as (
        select least(
          (select min(${bookings.startTime}) from ${bookings} where ${bookings.deletedAt} is null),
          (select min(${payments.createdAt}) from ${payments})) as at)
      select d::date::text as day from first, generate_series(${bangkokDay(sql`first.at`)}, ${last}::date, interval '1 day') as d
      where not exists (select 1 from ${statisticsDays} s where s.day = d::date)
      union
      select day::text from ${statisticsDirtyDays} where day <= ${last}::date
      order by 1 desc`),
  );
  let rolled = 0;
  for (const { day } of candidates) if (await rollDay(db, day)) rolled++;
  const months = rowsOf<{ month: string }>(
    await db.execute(sql`select distinct date_trunc('month', day)::date::text as month from ${statisticsDays} s
      where not exists (select 1 from ${statisticsMonths} m where m.month = date_trunc('month', s.day)::date)
      order by 1 desc`),
  );
  for (const { month } of months) await rollMonth(db, month);
  return rolled;
}

// ---------------------------------------------------------------------------------------------------------
// The queries.

/** What an aggregate groups by: a period (null: the whole range) and a key (null: none). */
export interface Aggregation {
  period: StatPeriod | null;
  key: Dim | null;
  /** Only the booking measures, or only the payments' (the dashboard's charts need one family). */
  only?: 'bookings' | 'payments';
}

export type AggregateRow = { group: string | null; key: string | null } & Partial<BookingSums & PaymentSums>;

const none = sql<string | null>`null::text`;
const asText = (column: AnyPgColumn) => sql<string | null>`${column}::text`;

/** The scope and the filters on the rollup's keys, as the Booking Report's (and the payment list's) apply them. */
function rollupWhere(scope: DataScope, filters: StatFilters): SQL | undefined {
  const d = statisticsDaily;
  return and(
    siteScopeOn(scope, { merchantId: d.merchantId, landlordId: d.landlordId }),
    filters.chargerId ? ilike(d.chargerId, contains(filters.chargerId)) : undefined,
    filters.connectorId !== undefined ? eq(d.connectorId, filters.connectorId) : undefined,
    filters.landlordId?.length ? inArray(d.landlordId, filters.landlordId) : undefined,
    filters.merchantId?.length ? inArray(d.merchantId, filters.merchantId) : undefined,
    filters.paymentMethod ? eq(d.paymentMethod, filters.paymentMethod) : undefined,
  );
}

/** Consecutive days (or months: their first days) 'yyyy-mm-dd', both ends included. */
interface Run {
  first: string;
  last: string;
}

function runsOf(starts: string[], next: (day: string) => string): Run[] {
  const runs: Run[] = [];
  for (const start of starts) {
    const run = runs[runs.length - 1];
    if (run && next(run.last) === start) run.last = start;
    else runs.push({ first: start, last: start });
  }
  return runs;
}

const nextDay = (day: string) => bangkokDate(dayStart(day) + DAY_MS);

/**
 * [from, to) as the months summed up (`monthly`: when the query groups by month or year, or not by period),
 * the other whole Bangkok days rolled up and clean, and the rest as instants (to aggregate live), each in order.
 */
async function splitRange(db: Db, range: Range, monthly: boolean) {
  const firstDay = bangkokDayStart(range.from.getTime() + DAY_MS - 1);
  const endDay = bangkokDayStart(range.to.getTime());
  const nothing = { months: [] as Run[], days: [] as Run[], live: [range] };
  if (firstDay >= endDay) return nothing;
  const [first, end] = [bangkokDate(firstDay), bangkokDate(endDay)];
  const [rows, monthRows] = await Promise.all([
    db
      .select({ day: statisticsDays.day })
      .from(statisticsDays)
      .where(
        and(
          gte(statisticsDays.day, first),
          lt(statisticsDays.day, end),
          sql`not exists (select 1 from ${statisticsDirtyDays} where ${statisticsDirtyDays.day} = ${statisticsDays.day})`,
        ),
      )
      .orderBy(statisticsDays.day),
    monthly
      ? db
          .select({ month: statisticsMonths.month })
          .from(statisticsMonths)
          .where(and(gte(statisticsMonths.month, first), lt(statisticsMonths.month, end)))
          .orderBy(statisticsMonths.month)
      : Promise.resolve([]),
  ]);
  if (rows.length === 0) return nothing;
  const clean = new Set(rows.map((row) => row.day));
  // A month summed up, wholly inside the range, every day of it clean (none marked since).
  const months = monthRows
    .map((row) => row.month)
    .filter((month) => {
      const after = nextMonth(month);
      if (after > end) return false;
      for (let day = month; day < after; day = nextDay(day)) if (!clean.has(day)) return false;
      return true;
    });
  const inMonths = new Set(months);
  const days = rows.map((row) => row.day).filter((day) => !inMonths.has(monthOf(day)));
  const live: Range[] = [];
  let at = range.from.getTime();
  for (const row of rows) {
    const start = dayStart(row.day);
    if (at < start) live.push({ from: new Date(at), to: new Date(start) });
    at = start + DAY_MS;
  }
  if (at < range.to.getTime()) live.push({ from: new Date(at), to: range.to });
  return { months: runsOf(months, nextMonth), days: runsOf(days, nextDay), live };
}

const MEASURES = {
  bookings: ['energy_wh', 'sessions', 'charging_seconds', 'idle_seconds', 'delivered'],
  payments: ['payments', 'amount', 'refund', 'discount', 'point'],
} as const;
const FIELD: Record<string, keyof (BookingSums & PaymentSums)> = {
  energy_wh: 'energyWh',
  sessions: 'sessions',
  charging_seconds: 'chargingSeconds',
  idle_seconds: 'idleSeconds',
  delivered: 'delivered',
  payments: 'payments',
  amount: 'amount',
  refund: 'refund',
  discount: 'discount',
  point: 'point',
};

/**
 * The rollup's rows of a grain over day runs, summed by period and key: grouped on the bare date and key
 * first (a hash of a few thousand groups), named as text after.
 */
async function rollupRows(
  db: Db,
  grain: number,
  runs: Run[],
  where: SQL | undefined,
  aggregation: Aggregation,
): Promise<AggregateRow[]> {
  const d = statisticsDaily;
  const key = aggregation.key === null ? null : DIMS[aggregation.key].rollup;
  const columns = [
    ...(aggregation.only === 'payments' ? [] : MEASURES.bookings),
    ...(aggregation.only === 'bookings' ? [] : MEASURES.payments),
  ];
  const period = aggregation.period
    ? sql`date_trunc(${sql.raw(`'${aggregation.period}'`)}, ${d.day}::timestamp)`
    : sql`null::timestamp`;
  const result = await db.execute(sql`select to_char(period, 'YYYY-MM-DD') as "group", key::text as key,
      ${sql.raw(columns.join(', '))}
    from (select ${period} as period, ${key ?? sql`null::text`} as key,
        ${sql.raw(columns.map((column) => `coalesce(sum(${column}), 0)::float8 as ${column}`).join(', '))}
      from ${d}
      where ${and(
        eq(d.grain, grain),
        or(...runs.map((run) => and(gte(d.day, run.first), sql`${d.day} <= ${run.last}`))),
        where,
        aggregation.only === 'payments' ? sql`${d.payments} > 0` : undefined,
        aggregation.only === 'bookings' ? sql`${d.sessions} > 0` : undefined,
      )}
      group by 1, 2) as r`);
  return rowsOf<Record<string, unknown>>(result).map((row) => {
    const out: AggregateRow = { group: row.group as string | null, key: row.key as string | null };
    for (const column of columns) out[FIELD[column] as keyof AggregateRow] = Number(row[column]) as never;
    return out;
  });
}

/**
 * The measures over [from, to) in the scope and filters, grouped by `aggregation`: rows of the monthly sums for
 * the whole months summed up and clean, of the rollup for the other clean rolled-up days, of the live
 * aggregate for the rest. A (group, key) may come in several rows: the caller adds them up (addInto).
 */
export async function aggregate(
  db: Db,
  scope: DataScope,
  filters: StatFilters,
  range: Range,
  aggregation: Aggregation,
): Promise<AggregateRow[]> {
  const key = aggregation.key === null ? null : DIMS[aggregation.key];
  const monthly =
    aggregation.period === null || aggregation.period === 'month' || aggregation.period === 'year';
  const { months, days, live } = await splitRange(db, range, monthly);
  const grain = grainFor([...filterDims(filters), ...(aggregation.key ? [aggregation.key] : [])]);
  const where = rollupWhere(scope, filters);
  const parts: Array<Promise<AggregateRow[]>> = [];
  if (months.length > 0) parts.push(rollupRows(db, grain.id + MONTHLY, months, where, aggregation));
  if (days.length > 0) parts.push(rollupRows(db, grain.id, days, where, aggregation));
  if (live.length > 0) {
    if (aggregation.only !== 'payments') {
      parts.push(
        sumBookings(db, startedInAny(scope, filters, live), {
          group: aggregation.period ? periodOf(bookings.startTime, aggregation.period) : none,
          key: key ? asText(key.booking) : none,
          promotion: key?.promotion,
        }),
      );
    }
    if (aggregation.only !== 'bookings') {
      parts.push(
        sumPayments(db, paidInAny(scope, filters, live), {
          group: aggregation.period ? periodOf(payments.createdAt, aggregation.period) : none,
          key: key ? asText(key.payment) : none,
          promotion: key?.promotion,
          booking: key?.paymentNeedsBooking,
        }),
      );
    }
  }
  return (await Promise.all(parts)).flat();
}
