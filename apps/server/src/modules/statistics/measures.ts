import { type StatisticsQuery, toSatang } from '@ev/shared';
import { and, eq, gte, ilike, inArray, lt, or, type SQL, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { Db } from '../../db/client.ts';
import {
  bookings,
  chargers,
  connectors,
  landlords,
  payments,
  promotionRedemptions,
} from '../../db/schema/index.ts';
import { contains } from '../../lib/list-query.ts';
import { type DataScope, landlordScope } from '../../plugins/scope.ts';
import { paymentWhere } from '../payment/payment.service.ts';
import { reportWhere } from '../report/booking-report.ts';

/**
 * The aggregates behind the statistics and the dashboard (docs/statistics.md defines each): booking measures
 * over the bookings that started in a range, money over the payments made in it, and the connectors the
 * utilisation divides by. Each is one GROUP BY in SQL; the callers say what to group by.
 */

/** The Booking Report's filters that the statistics take. */
export type StatFilters = Partial<
  Pick<StatisticsQuery, 'chargerId' | 'connectorId' | 'landlordId' | 'merchantId' | 'paymentMethod'>
>;

export interface Range {
  from: Date;
  to: Date;
}

/** What a GROUP BY groups on: two text expressions (a period or an hour, and a split key), null for none. */
export interface Grouping {
  group: SQL<string | null>;
  key: SQL<string | null>;
  /** The key needs the booking's discount-code redemption (the promotion split). */
  promotion?: boolean;
}

const none = sql<string | null>`null::text`;
export const NO_GROUPING: Grouping = { group: none, key: none };

/** A booking's seconds charging: start to stop, or to now while it still charges; whole seconds as the report. */
const chargingSeconds = sql`greatest(0, floor(extract(epoch from (coalesce(${bookings.stopTime}, now()) - ${bookings.startTime}))))`;
/** Cable in after charging: stop to the cable out (avaliable), or to now while it is still in (charged). */
const idleSeconds = sql`case when ${bookings.stopTime} is null then 0 else greatest(0, floor(extract(epoch from (coalesce(${bookings.avaliableAt}, case when ${bookings.status} = 'charged' then now() else ${bookings.stopTime} end) - ${bookings.stopTime})))) end`;

export interface BookingSums {
  group: string | null;
  key: string | null;
  energyWh: number;
  sessions: number;
  chargingSeconds: number;
  idleSeconds: number;
  /** Sessions that delivered energy. */
  delivered: number;
}

/**
 * The booking measures, one aggregate each: the live queries and the rollup job (rollup.ts) both use these, so
 * a rolled-up day holds exactly what the live query would answer for it.
 */
export const BOOKING_MEASURES = {
  energyWh: sql<number>`coalesce(sum(${bookings.energyWh}), 0)::float8`,
  sessions: sql<number>`count(*)::int`,
  chargingSeconds: sql<number>`coalesce(sum(${chargingSeconds}), 0)::float8`,
  idleSeconds: sql<number>`coalesce(sum(${idleSeconds}), 0)::float8`,
  delivered: sql<number>`(count(*) filter (where ${bookings.energyWh} > 0))::int`,
};

/** A session whose measures still grow with now(): charging, or charged with the cable still in. */
export const OPEN_SESSION = sql`(${bookings.stopTime} is null or (${bookings.status} = 'charged' and ${bookings.avaliableAt} is null))`;

/** The bookings of the scope and filters (the Booking Report's WHERE) that started in the range. */
export const startedIn = (scope: DataScope, filters: StatFilters, range: Range) =>
  startedInAny(scope, filters, [range]);

/** The same, in any of the ranges. */
export const startedInAny = (scope: DataScope, filters: StatFilters, ranges: Range[]) =>
  and(
    reportWhere(scope, filters),
    or(...ranges.map((range) => and(gte(bookings.startTime, range.from), lt(bookings.startTime, range.to)))),
  );

/** Energy, sessions, charging and idle seconds of the bookings matching `where`, grouped. */
export async function sumBookings(
  db: Db,
  where: SQL | undefined,
  grouping: Grouping,
): Promise<BookingSums[]> {
  let query = db
    .select({
      group: grouping.group,
      key: grouping.key,
      ...BOOKING_MEASURES,
    })
    .from(bookings)
    .$dynamic();
  if (grouping.promotion) {
    query = query.leftJoin(promotionRedemptions, eq(promotionRedemptions.bookingId, bookings.id));
  }
  return query.where(where).groupBy(sql.raw('1'), sql.raw('2'));
}

export interface PaymentSums {
  group: string | null;
  key: string | null;
  payments: number;
  /** Satang: paid, refunded of it (succeeded or manual refunds), discounts, points. */
  amount: number;
  refund: number;
  discount: number;
  point: number;
}

/**
 * The payments made in the range, in the scope, by the filters. A payment copies its booking's site, cluster
 * and method, so only a charger or connector filter (or split) needs the booking; a payment's booking is never
 * deleted (only open bookings can be), so the Booking Report's `deleted_at is null` holds for all of them.
 */
export function paidIn(scope: DataScope, filters: StatFilters, range: Range) {
  return paidInAny(scope, filters, [range]);
}

/** The same, in any of the ranges. */
export function paidInAny(scope: DataScope, filters: StatFilters, ranges: Range[]) {
  const booking = filters.chargerId !== undefined || filters.connectorId !== undefined;
  return {
    booking,
    where: and(
      paymentWhere(scope, {
        landlordId: filters.landlordId,
        merchantId: filters.merchantId,
        paymentMethod: filters.paymentMethod,
      }),
      or(
        ...ranges.map((range) => and(gte(payments.createdAt, range.from), lt(payments.createdAt, range.to))),
      ),
      filters.chargerId ? ilike(bookings.chargerId, contains(filters.chargerId)) : undefined,
      filters.connectorId !== undefined ? eq(bookings.connectorId, filters.connectorId) : undefined,
    ),
  };
}

const satangSum = (column: SQL | AnyPgColumn) => sql<string>`coalesce(sum(${column}), 0)::text`;

/** The payment measures (baht as exact numeric text; `payments` a count), shared with the rollup job. */
export const PAYMENT_MEASURES = {
  payments: sql<number>`count(*)::int`,
  amount: satangSum(payments.amount),
  refund: satangSum(sql`case when ${payments.refundedAt} is not null then ${payments.refundAmount} end`),
  discount: satangSum(payments.discountAmount),
  point: satangSum(payments.pointAmount),
};

/** Money of the payments matching `where` (joined to their booking when `booking`), grouped. */
export async function sumPayments(
  db: Db,
  paid: { where: SQL | undefined; booking: boolean },
  grouping: Grouping & { booking?: boolean },
): Promise<PaymentSums[]> {
  let query = db
    .select({
      group: grouping.group,
      key: grouping.key,
      ...PAYMENT_MEASURES,
    })
    .from(payments)
    .$dynamic();
  if (paid.booking || grouping.booking) {
    query = query.innerJoin(bookings, eq(bookings.id, payments.bookingId));
  }
  if (grouping.promotion) {
    query = query.leftJoin(promotionRedemptions, eq(promotionRedemptions.bookingId, payments.bookingId));
  }
  const rows = await query.where(paid.where).groupBy(sql.raw('1'), sql.raw('2'));
  return rows.map((row) => ({
    ...row,
    amount: toSatang(row.amount),
    refund: toSatang(row.refund),
    discount: toSatang(row.discount),
    point: toSatang(row.point),
  }));
}

/**
 * The connectors in the scope and filters, counted by `key` (an expression over connectors and chargers), as
 * the charger list scopes its chargers: by their site.
 */
export async function countConnectors(
  db: Db,
  scope: DataScope,
  filters: StatFilters,
  key: SQL<string | null>,
): Promise<Map<string | null, number>> {
  const rows = await db
    .select({ key, connectors: sql<number>`count(*)::int` })
    .from(connectors)
    .innerJoin(chargers, eq(chargers.id, connectors.chargerId))
    .innerJoin(landlords, eq(landlords.id, chargers.landlordId))
    .where(
      and(
        landlordScope(scope),
        filters.chargerId ? ilike(chargers.id, contains(filters.chargerId)) : undefined,
        filters.connectorId !== undefined ? eq(connectors.id, filters.connectorId) : undefined,
        filters.landlordId?.length ? inArray(chargers.landlordId, filters.landlordId) : undefined,
        filters.merchantId?.length ? inArray(chargers.merchantId, filters.merchantId) : undefined,
      ),
    )
    .groupBy(sql.raw('1'));
  return new Map(rows.map((row) => [row.key, row.connectors]));
}
