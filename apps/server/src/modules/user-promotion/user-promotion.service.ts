import {
  USER_PROMOTION_FILE_NAME,
  USER_PROMOTION_MESSAGES,
  type USER_PROMOTION_SORTS,
  type UserPromotion,
  type UserPromotionListQuery,
} from '@ev/shared';
import { type AnyColumn, and, asc, eq, ilike, inArray, type SQL, sql } from 'drizzle-orm';
import type { FastifyReply } from 'fastify';
import type { Db } from '../../db/client.ts';
import {
  bookings,
  landlords,
  merchants,
  promotionCodes,
  promotionLandlords,
  promotionMerchants,
  promotionRedemptions,
  promotions,
  users,
} from '../../db/schema/index.ts';
import { contains, countAll, ordering, paging, pastRow } from '../../lib/list-query.ts';
import { sendXlsx } from '../../lib/xlsx.ts';
import { type DataScope, landlordScope } from '../../plugins/scope.ts';
import { thaiDateTime } from '../report/booking-report.ts';

/** The filters the member list and the coupon report share. */
export interface RedemptionFilters {
  firstName?: string;
  lastName?: string;
  email?: string;
  tel?: string;
  code?: string;
  merchantId?: number[];
  landlordId?: number[];
}

/** One of the sites of the row's promotion matches `condition` (on `landlords`). */
const promotionSiteWhere = (condition: SQL | undefined) =>
  sql`exists (select 1 from ${promotionLandlords} join ${landlords} on ${landlords.id} = ${promotionLandlords.landlordId} where ${promotionLandlords.promotionId} = ${promotionRedemptions.promotionId}${condition ? sql` and ${condition}` : sql``})`;

/**
 * The texts match partly whatever their case (`%` and `_` match themselves); the code is the member's own
 * code. The clusters and sites match the places the row shows: with `bookings` joined (the coupon report), a
 * discount on a booking is at the booking's site and cluster; any other redemption at its promotion's sites
 * and their clusters (a public code without a booking is at no site, and matches no place filter).
 */
export function redemptionFilters(query: RedemptionFilters, withBooking: boolean): Array<SQL | undefined> {
  const conditions: Array<SQL | undefined> = [];
  if (query.firstName) conditions.push(ilike(users.firstName, contains(query.firstName)));
  if (query.lastName) conditions.push(ilike(users.lastName, contains(query.lastName)));
  if (query.email) conditions.push(ilike(users.email, contains(query.email)));
  if (query.tel) conditions.push(ilike(users.tel, contains(query.tel)));
  if (query.code) conditions.push(ilike(promotionCodes.code, contains(query.code)));
  const place = (ids: number[] | undefined, site: AnyColumn, booking: AnyColumn) => {
    if (!ids?.length) return;
    const ofPromotion = promotionSiteWhere(inArray(site, ids));
    conditions.push(
      withBooking
        ? sql`(case when ${promotionRedemptions.bookingId} is not null then ${inArray(booking, ids)} else ${ofPromotion} end)`
        : ofPromotion,
    );
  };
  place(query.merchantId, landlords.merchantId, bookings.merchantId);
  place(query.landlordId, landlords.id, bookings.landlordId);
  return conditions;
}

/**
 * The members a scope sees: admin all; a scoped role those whose promotion has at least one site in its
 * scope (the station role: its group's sites).
 */
export function memberScope(scope: DataScope): SQL | undefined {
  const sites = landlordScope(scope);
  return sites === undefined ? undefined : promotionSiteWhere(sites);
}

function memberWhere(scope: DataScope, query: UserPromotionListQuery): SQL | undefined {
  return and(eq(promotions.type, query.type), memberScope(scope), ...redemptionFilters(query, false));
}

const SORTS = {
  id: promotionRedemptions.id,
  createdAt: promotionRedemptions.createdAt,
  firstName: users.firstName,
  lastName: users.lastName,
  email: users.email,
  tel: users.tel,
  code: promotionCodes.code,
  licensePlate: promotionRedemptions.licensePlate,
} satisfies Record<(typeof USER_PROMOTION_SORTS)[number], AnyColumn>;

const memberColumns = {
  id: promotionRedemptions.id,
  userId: promotionRedemptions.userId,
  promotionId: promotionRedemptions.promotionId,
  firstName: users.firstName,
  lastName: users.lastName,
  email: users.email,
  tel: users.tel,
  code: promotionCodes.code,
  licensePlate: promotionRedemptions.licensePlate,
  internal: promotions.internal,
  nameEn: promotions.nameEn,
  createdAt: promotionRedemptions.createdAt,
};

const fromMembers = (db: Db) =>
  db
    .select(memberColumns)
    .from(promotionRedemptions)
    .innerJoin(promotions, eq(promotions.id, promotionRedemptions.promotionId))
    .innerJoin(promotionCodes, eq(promotionCodes.id, promotionRedemptions.codeId))
    .innerJoin(users, eq(users.id, promotionRedemptions.userId));

const countMembers = (db: Db, where: SQL | undefined) =>
  db
    .select({ total: countAll() })
    .from(promotionRedemptions)
    .innerJoin(promotions, eq(promotions.id, promotionRedemptions.promotionId))
    .innerJoin(promotionCodes, eq(promotionCodes.id, promotionRedemptions.codeId))
    .innerJoin(users, eq(users.id, promotionRedemptions.userId))
    .where(where);

type MemberRow = Awaited<ReturnType<ReturnType<typeof fromMembers>['execute']>>[number];

/** The list's order: newest first without a sort key; the id breaks ties. */
function memberOrder(query: UserPromotionListQuery): SQL[] {
  const sorted = query.sort ? query : { ...query, order: query.order ?? 'desc' };
  return ordering(
    sorted,
    SORTS,
    query.sort ? [promotionRedemptions.id] : [promotionRedemptions.createdAt, promotionRedemptions.id],
  );
}

type Places = Map<number, { merchantNameEns: string[]; landlordNameEns: string[] }>;

/**
 * The clusters and sites of some promotions, by promotion id, ordered by name: its sites, and its clusters as
 * chosen (or, when none were, the clusters of its sites). A scoped user sees the sites in its scope only, and
 * the clusters holding them.
 */
async function placesOf(db: Db, scope: DataScope, promotionIds: number[]): Promise<Places> {
  const places: Places = new Map();
  if (promotionIds.length === 0) return places;
  const sitesInScope = landlordScope(scope);
  const [chosen, sites] = await Promise.all([
    db
      .select({ promotionId: promotionMerchants.promotionId, id: merchants.id, nameEn: merchants.nameEn })
      .from(promotionMerchants)
      .innerJoin(merchants, eq(merchants.id, promotionMerchants.merchantId))
      .where(inArray(promotionMerchants.promotionId, promotionIds))
      .orderBy(asc(merchants.nameEn), asc(merchants.id)),
    db
      .select({
        promotionId: promotionLandlords.promotionId,
        nameEn: landlords.nameEn,
        merchantId: merchants.id,
        merchantNameEn: merchants.nameEn,
        visible: (sitesInScope ? sql<boolean>`(${sitesInScope})` : sql<boolean>`true`).mapWith(Boolean),
      })
      .from(promotionLandlords)
      .innerJoin(landlords, eq(landlords.id, promotionLandlords.landlordId))
      .innerJoin(merchants, eq(merchants.id, landlords.merchantId))
      .where(inArray(promotionLandlords.promotionId, promotionIds))
      .orderBy(asc(landlords.nameEn), asc(landlords.id)),
  ]);
  for (const promotionId of promotionIds) {
    if (places.has(promotionId)) continue;
    const own = sites.filter((site) => site.promotionId === promotionId);
    const visible = own.filter((site) => site.visible);
    let clusters = chosen.filter((cluster) => cluster.promotionId === promotionId);
    if (clusters.length === 0) {
      const byId = new Map(own.map((site) => [site.merchantId, site.merchantNameEn]));
      clusters = [...byId]
        .map(([id, nameEn]) => ({ promotionId, id, nameEn }))
        .sort((a, b) => (a.nameEn < b.nameEn ? -1 : a.nameEn > b.nameEn ? 1 : a.id - b.id));
    }
    if (sitesInScope !== undefined)
      clusters = clusters.filter((cluster) => visible.some((site) => site.merchantId === cluster.id));
    places.set(promotionId, {
      merchantNameEns: clusters.map((cluster) => cluster.nameEn),
      landlordNameEns: visible.map((site) => site.nameEn),
    });
  }
  return places;
}

async function toMembers(db: Db, scope: DataScope, rows: MemberRow[]): Promise<UserPromotion[]> {
  const places = await placesOf(db, scope, [...new Set(rows.map((row) => row.promotionId))]);
  return rows.map(({ promotionId, ...row }) => ({
    ...row,
    ...(places.get(promotionId) ?? { merchantNameEns: [], landlordNameEns: [] }),
    createdAt: row.createdAt.toISOString(),
  }));
}

/** GET /api/user-promotion: a page of private-station members `{ total, userPromotions }`. */
export async function listUserPromotions(
  db: Db,
  scope: DataScope,
  query: UserPromotionListQuery,
): Promise<{ total: number; userPromotions: UserPromotion[] }> {
  const where = memberWhere(scope, query);
  const order = memberOrder(query); // an unknown sort key is a 400 before any query
  const [counted] = await countMembers(db, where);
  const total = counted?.total ?? 0;
  if (total === 0) return { total, userPromotions: [] };
  const { limit, offset } = paging(query);
  const rows = await fromMembers(db)
    .where(where)
    .orderBy(...order)
    .limit(limit)
    .offset(offset);
  return { total, userPromotions: await toMembers(db, scope, rows) };
}

const joined = (names: string[]) => names.join(', ');

/**
 * `mode=xlsx`: Private-Station-Member_{timestamp}.xlsx, the list's rows with the same filters, scope and order,
 * in batches: after the previous batch's last (createdAt, id) in the default order, by offset under a sort key.
 */
export function exportUserPromotions(
  db: Db,
  scope: DataScope,
  query: UserPromotionListQuery,
  reply: FastifyReply,
) {
  const where = memberWhere(scope, query);
  const order = memberOrder(query);
  const batch = async (offset: number, limit: number, last: UserPromotion | undefined) => {
    const keyset = !query.sort;
    const after = keyset
      ? pastRow(promotionRedemptions.createdAt, promotionRedemptions.id, last?.id, '<')
      : undefined;
    const rows = await fromMembers(db)
      .where(and(where, after))
      .orderBy(...order)
      .limit(limit)
      .offset(keyset ? 0 : offset);
    return toMembers(db, scope, rows);
  };
  return sendXlsx<UserPromotion>(reply, {
    name: 'Private Station Member',
    fileName: USER_PROMOTION_FILE_NAME,
    emptyMessage: USER_PROMOTION_MESSAGES.notFound,
    batch,
    columns: [
      { header: 'Name', value: (row) => row.firstName },
      { header: 'Surname', value: (row) => row.lastName },
      { header: 'Email', width: 28, value: (row) => row.email },
      { header: 'Mobile Number', width: 16, value: (row) => row.tel },
      { header: 'Code', width: 24, value: (row) => row.code },
      { header: 'License Plate', width: 16, value: (row) => row.licensePlate },
      { header: 'Cluster Name', width: 28, value: (row) => joined(row.merchantNameEns) },
      { header: 'Site Name', width: 28, value: (row) => joined(row.landlordNameEns) },
      {
        header: 'Area Type',
        width: 18,
        value: (row) => (row.internal ? 'Selected landlords' : 'Public'),
      },
      { header: 'Promotion Name', width: 28, value: (row) => row.nameEn },
      { header: 'Redeem Date', value: (row) => thaiDateTime(row.createdAt) },
    ],
  });
}
