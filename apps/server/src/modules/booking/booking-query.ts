import {
  type BookingItem,
  type BookingListQuery,
  type BookingStatus,
  bangkokDayStart,
  discountSatang,
} from '@ev/shared';
import { and, eq, gte, ilike, inArray, isNull, lt, lte, or, type SQL, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { Db } from '../../db/client.ts';
import {
  bookings,
  chargers,
  connectors,
  connectorTypes,
  landlords,
  merchants,
  payments,
  promotionCodes,
  promotionRedemptions,
  promotions,
  users,
} from '../../db/schema/index.ts';
import { type Bind, bindValue, contains } from '../../lib/list-query.ts';
import type { DataScope } from '../../plugins/scope.ts';
import { effectiveFullAt, overridesOf, priceOf } from './booking-pricing.ts';
import { type BookingRow, bookingScope } from './lifecycle.ts';

const DAY_MS = 86_400_000;

/** Today in Asia/Bangkok as [start, next start) instants. */
export function bangkokToday(now = Date.now()): [Date, Date] {
  const start = bangkokDayStart(now);
  return [new Date(start), new Date(start + DAY_MS)];
}

/**
 * A member's name, surname, email or telephone, partly, case aside. The name and the surname are each part of
 * `name surname`, so one test on that covers both, and each of the three tests has a trigram index
 * (0013_member_search): the members come from a bitmap of the three, not from reading them all.
 */
export const userMatches = (text: string, bind: Bind = bindValue) => {
  const pattern = bind('userName', contains(text));
  return or(
    sql`(${users.firstName} || ' ' || ${users.lastName}) ilike ${pattern}`,
    ilike(users.email, pattern),
    ilike(users.tel, pattern),
  );
};

/**
 * The rows whose member (`userId`) matches the search: the members first, from `users` alone through its
 * trigram indexes (members are few, bookings and payments many), then the rows of those members through the
 * index on the member's id (bookings_user_idx, payments_user_idx). Joined to every booking instead, the search
 * read them all (3.3 s on the demo's 20,000 bookings). A term of one or two characters has no trigram: its
 * members come from reading `users`, which is still small beside the bookings.
 */
export const memberMatches = (userId: AnyPgColumn, text: string, bind: Bind = bindValue): SQL =>
  sql`${userId} in (select ${users.id} from ${users} where ${userMatches(text, bind)})`;

/** Each id of a list filter bound on its own (`landlordId.0`, `landlordId.1`, …). */
const boundIds = (name: string, ids: number[], bind: Bind) => ids.map((id, i) => bind(`${name}.${i}`, id));

/**
 * The list's filters and the caller's scope over bookings (joined to their member as `users`). Without a
 * service date range the list shows today in Asia/Bangkok (section 2's default). Every value goes through
 * `bind` under its own name.
 */
export function bookingWhere(
  scope: DataScope,
  query: Partial<BookingListQuery>,
  now = Date.now(),
  bind: Bind = bindValue,
): SQL | undefined {
  const conditions: Array<SQL | undefined> = [isNull(bookings.deletedAt), bookingScope(scope, bind)];
  if (!query.createdAfter && !query.createdBefore) {
    const [start, end] = bangkokToday(now);
    conditions.push(
      gte(bookings.createdAt, bind('dayStart', start)),
      lt(bookings.createdAt, bind('dayEnd', end)),
    );
  } else {
    if (query.createdAfter)
      conditions.push(gte(bookings.createdAt, bind('createdAfter', query.createdAfter)));
    if (query.createdBefore)
      conditions.push(lte(bookings.createdAt, bind('createdBefore', query.createdBefore)));
  }
  if (query.bookingId !== undefined) conditions.push(eq(bookings.id, bind('bookingId', query.bookingId)));
  if (query.chargerId)
    conditions.push(ilike(bookings.chargerId, bind('chargerId', contains(query.chargerId))));
  if (query.connectorId !== undefined)
    conditions.push(eq(bookings.connectorId, bind('connectorId', query.connectorId)));
  if (query.landlordId?.length)
    conditions.push(inArray(bookings.landlordId, boundIds('landlordId', query.landlordId, bind)));
  if (query.merchantId?.length)
    conditions.push(inArray(bookings.merchantId, boundIds('merchantId', query.merchantId, bind)));
  if (query.status) conditions.push(eq(bookings.status, bind('status', query.status)));
  if (query.paymentMethod)
    conditions.push(eq(bookings.paymentMethod, bind('paymentMethod', query.paymentMethod)));
  if (query.userName) conditions.push(memberMatches(bookings.userId, query.userName, bind));
  return and(...conditions);
}

/** The columns a booking row of the list needs, beside the booking itself. */
/** The name of the row `id` points to, as a scalar subquery (see fromBookings). */
const nameOf = (table: { nameEn: AnyPgColumn; id: AnyPgColumn }, id: AnyPgColumn) =>
  sql<string>`(select ${table.nameEn} from ${table} where ${table.id} = ${id})`;

export const bookingListColumns = {
  booking: bookings,
  firstName: users.firstName,
  lastName: users.lastName,
  email: users.email,
  tel: users.tel,
  merchantNameEn: nameOf(merchants, bookings.merchantId),
  landlordNameEn: nameOf(landlords, bookings.landlordId),
  chargerNameEn: nameOf(chargers, bookings.chargerId),
  connectorNameEn: nameOf(connectors, bookings.connectorId),
  invoiceNo: payments.invoiceNo,
  // What the payment took off, and the discount code on the booking (with its terms while unpaid).
  paidDiscount: payments.discountAmount,
  paidPoint: payments.pointAmount,
  paidPointUsed: payments.pointUsed,
  discountCode:
    sql<BookingDiscount | null>`(select json_build_object('code', ${promotionCodes.code}, 'percent', ${promotions.discountPercent}, 'baht', ${promotions.discountBaht}) from ${promotionRedemptions} join ${promotionCodes} on ${promotionCodes.id} = ${promotionRedemptions.codeId} join ${promotions} on ${promotions.id} = ${promotionRedemptions.promotionId} where ${promotionRedemptions.bookingId} = ${bookings.id} and ${promotions.type} = 'discount')`.mapWith(
      (value) => (typeof value === 'string' ? JSON.parse(value) : value) as BookingDiscount,
    ),
  // For the report: the connector type's name and the payment's time and refund.
  connectorType: sql<
    string | null
  >`(select ${connectorTypes.name} from ${connectorTypes} where ${connectorTypes.id} = ${bookings.connectorTypeId})`,
  paidAt: payments.createdAt,
  refundedAt: payments.refundedAt,
  refundAmount: payments.refundAmount,
  creditNoteNo: payments.creditNoteNo,
};

/** bookings with their member, cluster, site, charger, connector (and its type) and payment. */
/**
 * bookings with their member and payment; the names of cluster, site, charger, connector and connector type
 * come from scalar subqueries, looked up for the page's rows only. Joined instead, the eight tables cost the
 * planner more than the query itself (measured: 138 ms of planning on PGlite for 3 ms of execution).
 */
export function fromBookings(db: Db) {
  return db
    .select(bookingListColumns)
    .from(bookings)
    .leftJoin(users, eq(users.id, bookings.userId))
    .leftJoin(payments, eq(payments.bookingId, bookings.id));
}

export const BOOKING_SORTS_SQL = {
  id: bookings.id,
  createdAt: bookings.createdAt,
  startTime: bookings.startTime,
  status: bookings.status,
  totalAmount: bookings.totalAmount,
  energy: bookings.energyWh,
};

/** The discount code redeemed on a booking, as the list's subquery gives it. */
interface BookingDiscount {
  code: string;
  percent: number | string | null;
  baht: number | string | null;
}

const LIVE: readonly BookingStatus[] = ['charging', 'charged'];
const baht = (satang: number) => satang / 100;
const num = (value: string | null) => (value === null ? null : Number(value));
const iso = (date: Date | null) => (date ? date.toISOString() : null);

interface StoredDetail {
  overstay?: number;
  dcFull?: number;
  hours?: number | null;
  minutes?: number | null;
  overstayMinutes?: number;
  dcFullMinutes?: number;
}

type ListRow = {
  booking: BookingRow;
  firstName: string | null;
  lastName: string | null;
  email: string | null;
  tel: string | null;
  merchantNameEn: string;
  landlordNameEn: string;
  chargerNameEn: string;
  connectorNameEn: string;
  invoiceNo: string | null;
  paidDiscount: string | null;
  paidPoint: string | null;
  paidPointUsed: number | null;
  discountCode: BookingDiscount | null;
};

/**
 * What comes off the total: as paid once there is a payment; before, the discount code's estimate on the
 * total so far (a cancelled booking owes nothing, and nothing comes off it).
 */
function adjustmentsOf(row: ListRow, b: BookingRow, totalSatang: number) {
  const code = row.discountCode?.code ?? null;
  if (row.invoiceNo !== null) {
    return {
      discountCode: code,
      discount: num(row.paidDiscount) ?? 0,
      point: num(row.paidPoint) ?? 0,
      pointUsed: row.paidPointUsed ?? 0,
      totalAmount: null,
    };
  }
  const terms = row.discountCode;
  const discount =
    terms && b.status !== 'cancelled'
      ? discountSatang(totalSatang, {
          discountPercent: Number(terms.percent ?? 0),
          discountBaht: Number(terms.baht ?? 0),
        })
      : 0;
  return {
    discountCode: code,
    discount: baht(discount),
    point: 0,
    pointUsed: 0,
    totalAmount: baht(totalSatang - discount),
  };
}

/**
 * One row of the list. A booking still charging (or charged, cable in) is priced now from its snapshot, as an
 * estimate that grows; a priced booking shows what was written when it was priced.
 */
export function toBookingItem(row: ListRow, now = Date.now()): BookingItem {
  const b = row.booking;
  const live = LIVE.includes(b.status);
  const overrides = overridesOf(b);
  let computed: BookingItem['computed'];
  let totalAmount: number;
  if (live) {
    const price = priceOf(b, { now });
    computed = {
      priceByPower: baht(price?.computed.byPower ?? 0),
      priceByDuration: baht(price?.computed.byDuration ?? 0),
      priceByPenalty: baht(price?.computed.byPenalty ?? 0),
      overstay: baht(price?.computed.overstay ?? 0),
      dcFull: baht(price?.computed.dcFull ?? 0),
      billedHours: price?.billed.hours ?? null,
      billedMinutes: price?.billed.minutes ?? null,
      overstayMinutes: price?.billed.overstayMinutes ?? 0,
      dcFullMinutes: price?.billed.dcFullMinutes ?? 0,
    };
    totalAmount = baht(price?.total ?? 0);
  } else {
    const detail = (b.priceDetail ?? {}) as StoredDetail;
    computed = {
      priceByPower: num(b.priceByPower) ?? 0,
      priceByDuration: num(b.priceByDuration) ?? 0,
      priceByPenalty: num(b.priceByPenalty) ?? 0,
      overstay: baht(detail.overstay ?? 0),
      dcFull: baht(detail.dcFull ?? 0),
      billedHours: detail.hours ?? null,
      billedMinutes: detail.minutes ?? null,
      overstayMinutes: detail.overstayMinutes ?? 0,
      dcFullMinutes: detail.dcFullMinutes ?? 0,
    };
    // A cancelled booking owes nothing, whatever its parts came to (they stay, as what was waived).
    totalAmount = b.status === 'cancelled' ? 0 : (num(b.totalAmount) ?? overrides.adminAmount ?? 0);
  }
  const adjusted = adjustmentsOf(row, b, Math.round(totalAmount * 100));
  return {
    id: b.id,
    userId: b.userId,
    firstName: row.firstName,
    lastName: row.lastName,
    email: row.email,
    tel: row.tel,
    merchantId: b.merchantId,
    merchantNameEn: row.merchantNameEn,
    landlordId: b.landlordId,
    landlordNameEn: row.landlordNameEn,
    chargerId: b.chargerId,
    chargerNameEn: row.chargerNameEn,
    connectorId: b.connectorId,
    connectorNameEn: row.connectorNameEn,
    connectorTypeId: b.connectorTypeId,
    createdAt: b.createdAt.toISOString(),
    slotStart: iso(b.slotStart),
    slotEnd: iso(b.slotEnd),
    startTime: iso(b.startTime),
    stopTime: iso(b.stopTime),
    avaliableAt: iso(b.avaliableAt),
    fullAt: iso(effectiveFullAt(b, now)),
    totalEnergyKwh: b.energyWh / 1000,
    soc: b.soc,
    paymentMethod: b.paymentMethod,
    status: b.status,
    priceByPower: overrides.priceByPower ?? computed.priceByPower,
    priceByDuration: overrides.priceByDuration ?? computed.priceByDuration,
    priceByPenalty: overrides.priceByPenalty ?? computed.priceByPenalty,
    adminAmount: overrides.adminAmount ?? null,
    totalAmount: adjusted.totalAmount ?? totalAmount,
    discountCode: adjusted.discountCode,
    discount: adjusted.discount,
    point: adjusted.point,
    pointUsed: adjusted.pointUsed,
    computed,
    overrides: {
      priceByPower: overrides.priceByPower ?? null,
      priceByDuration: overrides.priceByDuration ?? null,
      priceByPenalty: overrides.priceByPenalty ?? null,
    },
    live,
    invoiceNo: row.invoiceNo,
  };
}
