import {
  COUPON_REPORT_FILE_NAME,
  type CouponReportQuery,
  PROMOTION_TYPE_LABELS,
  type PromotionType,
  USER_PROMOTION_MESSAGES,
} from '@ev/shared';
import { and, asc, eq, gte, ilike, inArray, lte, type SQL, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { FastifyReply } from 'fastify';
import { arrayRows } from '../../db/array-rows.ts';
import type { Db } from '../../db/client.ts';
import {
  bookings,
  landlords,
  payments,
  promotionCodes,
  promotionLandlords,
  promotionRedemptions,
  promotions,
  users,
} from '../../db/schema/index.ts';
import { contains, pastRow } from '../../lib/list-query.ts';
import { sendXlsx, type XlsxColumn } from '../../lib/xlsx.ts';
import { redemptionFilters } from '../user-promotion/user-promotion.service.ts';
import { thaiDateTime } from './booking-report.ts';

/** The report's filters: every redemption of every type (admin and marketting see the whole network). */
export function couponReportWhere(query: CouponReportQuery): SQL | undefined {
  return and(
    ...redemptionFilters(query, true),
    query.createdAfter ? gte(promotionRedemptions.createdAt, query.createdAfter) : undefined,
    query.createdBefore ? lte(promotionRedemptions.createdAt, query.createdBefore) : undefined,
  );
}

/** The columns read, in this order, as arrays straight from the driver (see arrayRows). */
const reportColumns = {
  id: promotionRedemptions.id,
  firstName: users.firstName,
  lastName: users.lastName,
  email: users.email,
  tel: users.tel,
  code: promotionCodes.code,
  type: promotions.type,
  nameEn: promotions.nameEn,
  nameTh: promotions.nameTh,
  internal: promotions.internal,
  promotionId: promotionRedemptions.promotionId,
  bookingId: promotionRedemptions.bookingId,
  bookingLandlordId: bookings.landlordId,
  discount: sql<number | null>`(${promotionRedemptions.discount})::float8`,
  point: promotionRedemptions.point,
  licensePlate: promotionRedemptions.licensePlate,
  createdAt: sql<number>`floor(extract(epoch from ${promotionRedemptions.createdAt}) * 1000)::float8`,
  invoiceNo: payments.invoiceNo,
  refundAmount: sql<number | null>`(${payments.refundAmount})::float8`,
  creditNoteNo: payments.creditNoteNo,
} satisfies Record<string, AnyPgColumn | SQL>;

/**
 * The green-point rows: one per payment that redeemed points, in the redemption rows' shape (no code nor
 * promotion; the points as a negative Point, their worth as the Discount; the points given back by a full
 * refund).
 */
const pointColumns = {
  id: payments.id,
  firstName: users.firstName,
  lastName: users.lastName,
  email: users.email,
  tel: users.tel,
  bookingId: payments.bookingId,
  bookingLandlordId: payments.landlordId,
  discount: sql<number>`(${payments.pointAmount})::float8`,
  point: sql<number>`-${payments.pointUsed}`,
  createdAt: sql<number>`floor(extract(epoch from ${payments.createdAt}) * 1000)::float8`,
  invoiceNo: payments.invoiceNo,
  refundAmount: sql<number | null>`(${payments.refundAmount})::float8`,
  creditNoteNo: payments.creditNoteNo,
  pointReturned: sql<number>`case when ${payments.refundAmount} >= ${payments.amount} then ${payments.pointUsed} else 0 end`,
} satisfies Record<string, AnyPgColumn | SQL>;

interface CouponRow {
  /** A code's redemption, or a payment's green points. */
  kind: 'redemption' | 'points';
  id: number;
  firstName: string | null;
  lastName: string | null;
  email: string | null;
  tel: string | null;
  code: string | null;
  type: PromotionType | null;
  nameEn: string | null;
  nameTh: string | null;
  internal: boolean;
  promotionId: number | null;
  bookingId: number | null;
  bookingLandlordId: number | null;
  /** Baht taken off at the booking's payment; null until applied. */
  discount: number | null;
  point: number | null;
  licensePlate: string | null;
  /** Epoch milliseconds. */
  createdAt: number;
  /** The payment a discount (or the points) applied to, and its refund. */
  invoiceNo: string | null;
  refundAmount: number | null;
  creditNoteNo: string | null;
  /** Points given back by the refund. */
  pointReturned: number | null;
  /** Where the redemption applies, as the Site Name column shows it. */
  sites: string;
}

/** A row from the driver's array, by the columns' keys, with what the other kind of row has as null. */
function rowsOf<K extends string>(kind: CouponRow['kind'], columns: Record<K, unknown>) {
  const keys = Object.keys(columns) as K[];
  return (values: unknown[]): CouponRow => {
    const row: Record<string, unknown> = {
      kind,
      code: null,
      type: null,
      nameEn: null,
      nameTh: null,
      internal: false,
      promotionId: null,
      point: null,
      licensePlate: null,
      pointReturned: null,
      sites: '',
    };
    for (let i = 0; i < keys.length; i++) row[keys[i]!] = values[i];
    return row as unknown as CouponRow;
  };
}
const toRedemptionRow = rowsOf('redemption', reportColumns);
const toPointRow = rowsOf('points', pointColumns);

export const ALL_SITES = 'All sites';

/**
 * The Site Name of each row: the booking's site for a discount on a booking; else the promotion's sites by
 * name joined with ', ', or 'All sites' for a public promotion. Site names are read once a report; each
 * promotion's sites once, when its first row comes (promotions are few beside their redemptions).
 */
async function siteNamer(db: Db) {
  const siteName = new Map(
    (await db.select({ id: landlords.id, nameEn: landlords.nameEn }).from(landlords)).map((site) => [
      site.id,
      site.nameEn,
    ]),
  );
  const promotionSites = new Map<number, string>();
  return async (rows: CouponRow[]) => {
    const missing = [
      ...new Set(
        rows
          .filter(
            (row) =>
              row.internal &&
              row.bookingLandlordId === null &&
              row.promotionId !== null &&
              !promotionSites.has(row.promotionId),
          )
          .map((row) => row.promotionId!),
      ),
    ];
    if (missing.length > 0) {
      const sites = await db
        .select({ promotionId: promotionLandlords.promotionId, nameEn: landlords.nameEn })
        .from(promotionLandlords)
        .innerJoin(landlords, eq(landlords.id, promotionLandlords.landlordId))
        .where(inArray(promotionLandlords.promotionId, missing))
        .orderBy(asc(landlords.nameEn), asc(landlords.id));
      const names = new Map<number, string[]>(missing.map((id) => [id, []]));
      for (const site of sites) names.get(site.promotionId)!.push(site.nameEn);
      for (const [id, list] of names) promotionSites.set(id, list.join(', '));
    }
    for (const row of rows) {
      row.sites =
        row.bookingLandlordId !== null
          ? (siteName.get(row.bookingLandlordId) ?? '')
          : row.internal
            ? (promotionSites.get(row.promotionId!) ?? '')
            : ALL_SITES;
    }
  };
}

const COLUMNS: XlsxColumn<CouponRow>[] = [
  { header: 'Name', value: (r) => r.firstName },
  { header: 'Surname', value: (r) => r.lastName },
  { header: 'Email', width: 28, value: (r) => r.email },
  { header: 'Mobile Number', width: 16, value: (r) => r.tel },
  { header: 'Code', width: 24, value: (r) => r.code },
  {
    header: 'Type',
    width: 20,
    value: (r) => (r.type ? (PROMOTION_TYPE_LABELS[r.type] ?? r.type) : GREEN_POINT),
  },
  { header: 'Promotion Name (EN)', width: 28, value: (r) => r.nameEn },
  { header: 'Promotion Name (TH)', width: 28, value: (r) => r.nameTh },
  { header: 'Site Name', width: 36, value: (r) => r.sites },
  { header: 'Booking ID', width: 12, value: (r) => r.bookingId },
  { header: 'Discount (THB)', width: 14, value: (r) => r.discount },
  { header: 'Point', width: 10, value: (r) => r.point },
  { header: 'License Plate', width: 16, value: (r) => r.licensePlate },
  { header: 'Redeem Date', value: (r) => thaiDateTime(r.createdAt) },
  { header: 'Invoice No', width: 18, value: (r) => r.invoiceNo },
  { header: 'Refund (THB)', width: 12, value: (r) => r.refundAmount },
  { header: 'Credit Note No', width: 18, value: (r) => r.creditNoteNo },
  { header: 'Point Returned', width: 12, value: (r) => r.pointReturned },
];

/** The Type of a payment's green-point row. */
export const GREEN_POINT = 'Green Point';

/** Rows per batch: keyset paging keeps each query short however deep the report goes. */
const REPORT_BATCH = 5000;

/** The filters as they apply to the payments that redeemed points: the member, the place, the dates. */
function pointRowsWhere(query: CouponReportQuery): SQL | undefined {
  return and(
    sql`${payments.pointUsed} > 0`,
    query.firstName ? ilike(users.firstName, contains(query.firstName)) : undefined,
    query.lastName ? ilike(users.lastName, contains(query.lastName)) : undefined,
    query.email ? ilike(users.email, contains(query.email)) : undefined,
    query.tel ? ilike(users.tel, contains(query.tel)) : undefined,
    query.merchantId?.length ? inArray(payments.merchantId, query.merchantId) : undefined,
    query.landlordId?.length ? inArray(payments.landlordId, query.landlordId) : undefined,
    query.createdAfter ? gte(payments.createdAt, query.createdAfter) : undefined,
    query.createdBefore ? lte(payments.createdAt, query.createdBefore) : undefined,
  );
}

/** One keyset-paged stream of rows in (createdAt, id) order: `read(lastId, limit)` answers the next rows. */
type Stream = (lastId: number | undefined, limit: number) => Promise<CouponRow[]>;

/**
 * Merges streams ordered by time into one, a batch of `limit` rows at a time (fewer only at the end). Each
 * stream is read ahead a batch at a time, after its own last row, so memory holds at most a batch a stream.
 */
export function mergeStreams(streams: Stream[]) {
  const state = streams.map((read) => ({
    read,
    rows: [] as CouponRow[],
    at: 0,
    lastId: undefined as number | undefined,
    done: false,
  }));
  return async (limit: number): Promise<CouponRow[]> => {
    const out: CouponRow[] = [];
    while (out.length < limit) {
      for (const source of state) {
        if (source.at < source.rows.length || source.done) continue;
        source.rows = await source.read(source.lastId, limit);
        source.at = 0;
        if (source.rows.length < limit) source.done = true;
        if (source.rows.length > 0) source.lastId = source.rows.at(-1)!.id;
      }
      let next: (typeof state)[number] | null = null;
      for (const source of state) {
        const head = source.rows[source.at];
        if (head && (!next || head.createdAt < next.rows[next.at]!.createdAt)) next = source;
      }
      if (!next) break;
      out.push(next.rows[next.at++]!);
    }
    return out;
  };
}

/**
 * GET /api/report/user-promotion: Coupon-Point-Report_{timestamp}.xlsx, one row per redemption, oldest first,
 * streamed in batches after the previous batch's last (createdAt, id), so memory stays flat for any number of
 * rows.
 */
export async function sendCouponReport(db: Db, query: CouponReportQuery, reply: FastifyReply) {
  const where = couponReportWhere(query);
  const nameSites = await siteNamer(db);
  const read: Stream = async (lastId, limit) => {
    const after = pastRow(promotionRedemptions.createdAt, promotionRedemptions.id, lastId);
    const statement = db
      .select(reportColumns)
      .from(promotionRedemptions)
      .innerJoin(promotions, eq(promotions.id, promotionRedemptions.promotionId))
      .innerJoin(promotionCodes, eq(promotionCodes.id, promotionRedemptions.codeId))
      .innerJoin(users, eq(users.id, promotionRedemptions.userId))
      .leftJoin(bookings, eq(bookings.id, promotionRedemptions.bookingId))
      .leftJoin(payments, eq(payments.id, promotionRedemptions.paymentId))
      .where(and(where, after))
      .orderBy(asc(promotionRedemptions.createdAt), asc(promotionRedemptions.id))
      .limit(limit)
      .toSQL();
    const rows = (await arrayRows(db, statement)).map(toRedemptionRow);
    await nameSites(rows);
    return rows;
  };
  const pointWhere = pointRowsWhere(query);
  const readPoints: Stream = async (lastId, limit) => {
    const after = pastRow(payments.createdAt, payments.id, lastId);
    const statement = db
      .select(pointColumns)
      .from(payments)
      .innerJoin(users, eq(users.id, payments.userId))
      .where(and(pointWhere, after))
      .orderBy(asc(payments.createdAt), asc(payments.id))
      .limit(limit)
      .toSQL();
    const rows = (await arrayRows(db, statement)).map(toPointRow);
    await nameSites(rows);
    return rows;
  };
  // A code filter matches codes only: the payments' green points have none.
  const next = mergeStreams(query.code ? [read] : [read, readPoints]);
  return sendXlsx<CouponRow>(reply, {
    name: 'Coupon Point Report',
    fileName: COUPON_REPORT_FILE_NAME,
    emptyMessage: USER_PROMOTION_MESSAGES.reportNotFound,
    batch: (_offset, limit) => next(limit),
    batchSize: REPORT_BATCH,
    columns: COLUMNS,
  });
}
