import {
  COUPON_REPORT_FILE_NAME,
  type CouponReportQuery,
  PROMOTION_TYPE_LABELS,
  type PromotionType,
  USER_PROMOTION_MESSAGES,
} from '@ev/shared';
import { and, asc, eq, gte, inArray, lte, type SQL, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { FastifyReply } from 'fastify';
import { arrayRows } from '../../db/array-rows.ts';
import type { Db } from '../../db/client.ts';
import {
  bookings,
  landlords,
  promotionCodes,
  promotionLandlords,
  promotionRedemptions,
  promotions,
  users,
} from '../../db/schema/index.ts';
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
} satisfies Record<string, AnyPgColumn | SQL>;

interface CouponRow {
  id: number;
  firstName: string | null;
  lastName: string | null;
  email: string | null;
  tel: string | null;
  code: string;
  type: PromotionType;
  nameEn: string;
  nameTh: string;
  internal: boolean;
  promotionId: number;
  bookingId: number | null;
  bookingLandlordId: number | null;
  /** Baht taken off at the booking's payment; null until applied. */
  discount: number | null;
  point: number | null;
  licensePlate: string | null;
  /** Epoch milliseconds. */
  createdAt: number;
  /** Where the redemption applies, as the Site Name column shows it. */
  sites: string;
}

const KEYS = Object.keys(reportColumns) as Array<keyof typeof reportColumns>;

const toRow = (values: unknown[]): CouponRow => {
  const row = { sites: '' } as Record<string, unknown>;
  for (let i = 0; i < KEYS.length; i++) row[KEYS[i]!] = values[i];
  return row as unknown as CouponRow;
};

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
            (row) => row.internal && row.bookingLandlordId === null && !promotionSites.has(row.promotionId),
          )
          .map((row) => row.promotionId),
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
            ? (promotionSites.get(row.promotionId) ?? '')
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
  { header: 'Type', width: 20, value: (r) => PROMOTION_TYPE_LABELS[r.type] ?? r.type },
  { header: 'Promotion Name (EN)', width: 28, value: (r) => r.nameEn },
  { header: 'Promotion Name (TH)', width: 28, value: (r) => r.nameTh },
  { header: 'Site Name', width: 36, value: (r) => r.sites },
  { header: 'Booking ID', width: 12, value: (r) => r.bookingId },
  { header: 'Discount (THB)', width: 14, value: (r) => r.discount },
  { header: 'Point', width: 10, value: (r) => r.point },
  { header: 'License Plate', width: 16, value: (r) => r.licensePlate },
  { header: 'Redeem Date', value: (r) => thaiDateTime(r.createdAt) },
];

/** Rows per batch: keyset paging keeps each query short however deep the report goes. */
const REPORT_BATCH = 5000;

/**
 * GET /api/report/user-promotion: Coupon-Point-Report_{timestamp}.xlsx, one row per redemption, oldest first,
 * streamed in batches after the previous batch's last (createdAt, id), so memory stays flat for any number of
 * rows.
 */
export async function sendCouponReport(db: Db, query: CouponReportQuery, reply: FastifyReply) {
  const where = couponReportWhere(query);
  const nameSites = await siteNamer(db);
  const read = async (lastId: number | undefined, limit: number) => {
    // The keyset is the last row's own (created_at, id), read back by its key: exact to the microsecond.
    const after =
      lastId === undefined
        ? undefined
        : sql`(${promotionRedemptions.createdAt}, ${promotionRedemptions.id}) > (select r.created_at, r.id from promotion_redemptions r where r.id = ${lastId})`;
    const statement = db
      .select(reportColumns)
      .from(promotionRedemptions)
      .innerJoin(promotions, eq(promotions.id, promotionRedemptions.promotionId))
      .innerJoin(promotionCodes, eq(promotionCodes.id, promotionRedemptions.codeId))
      .innerJoin(users, eq(users.id, promotionRedemptions.userId))
      .leftJoin(bookings, eq(bookings.id, promotionRedemptions.bookingId))
      .where(and(where, after))
      .orderBy(asc(promotionRedemptions.createdAt), asc(promotionRedemptions.id))
      .limit(limit)
      .toSQL();
    const rows = (await arrayRows(db, statement)).map(toRow);
    await nameSites(rows);
    return rows;
  };
  return sendXlsx<CouponRow>(reply, {
    name: 'Coupon Point Report',
    fileName: COUPON_REPORT_FILE_NAME,
    emptyMessage: USER_PROMOTION_MESSAGES.reportNotFound,
    batch: (_offset, limit, last) => read(last?.id, limit),
    batchSize: REPORT_BATCH,
    columns: COLUMNS,
  });
}
