import {
  fromSatang,
  type HomepagePromotion,
  PROMOTION_MESSAGES,
  type PROMOTION_SORTS,
  type Promotion,
  type PromotionBody,
  type PromotionListQuery,
  promotionCodesCsv,
  promotionCsvName,
  toSatang,
} from '@ev/shared';
import { type AnyColumn, and, asc, desc, eq, exists, ilike, inArray, or, type SQL, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import {
  landlords,
  merchants,
  promotionCodes,
  promotionLandlords,
  promotionMerchants,
  promotions,
} from '../../db/schema/index.ts';
import { Conflict, Invalid, NotFound } from '../../lib/errors.ts';
import { contains, countAll, deleteUnlessUsed, ordering, paging } from '../../lib/list-query.ts';
import { type AuditActor, audit, auditedId } from '../audit/audit.ts';
import { generateCodes } from './codes.ts';

const SORTS = {
  id: promotions.id,
  code: promotions.code,
  nameEn: promotions.nameEn,
  nameTh: promotions.nameTh,
  validFrom: promotions.validFrom,
  validTo: promotions.validTo,
  active: promotions.active,
} satisfies Record<(typeof PROMOTION_SORTS)[number], AnyColumn>;

/**
 * The codes of the promotion in the row, and those with a use left. Spelled out: drizzle leaves the table
 * off the columns of a one-table select, and an unqualified "id" would be the code's own.
 */
const codeCount = sql<number>`(select count(*) from promotion_codes c where c.promotion_id = "promotions"."id")`;
const codeLeft = sql<number>`(select count(*) from promotion_codes c where c.promotion_id = "promotions"."id" and (c.total is null or c.used < c.total))`;

const promotionColumns = {
  id: promotions.id,
  code: promotions.code,
  nameEn: promotions.nameEn,
  nameTh: promotions.nameTh,
  type: promotions.type,
  internal: promotions.internal,
  expose: promotions.expose,
  active: promotions.active,
  validFrom: promotions.validFrom,
  validTo: promotions.validTo,
  discountPercent: promotions.discountPercent,
  discountBaht: promotions.discountBaht,
  point: promotions.point,
  count: promotions.count,
  total: promotions.total,
  codeCount: codeCount.mapWith(Number),
  codeLeft: codeLeft.mapWith(Number),
};

function promotionWhere(db: Db, query: Partial<PromotionListQuery>): SQL | undefined {
  const conditions: Array<SQL | undefined> = [];
  if (query.type) conditions.push(eq(promotions.type, query.type));
  if (query.code) {
    // Its own code (part of it), or one of its generated codes given whole (a member's code on the phone).
    conditions.push(
      or(
        ilike(promotions.code, contains(query.code)),
        exists(
          db
            .select({ one: sql`1` })
            .from(promotionCodes)
            .where(
              and(
                eq(promotionCodes.promotionId, promotions.id),
                sql`lower(${promotionCodes.code}) = lower(${query.code})`,
              ),
            ),
        ),
      ),
    );
  }
  if (query.merchantId?.length) {
    // Set for the cluster, or for one of its sites.
    conditions.push(
      or(
        inArray(
          promotions.id,
          db
            .select({ id: promotionMerchants.promotionId })
            .from(promotionMerchants)
            .where(inArray(promotionMerchants.merchantId, query.merchantId)),
        ),
        inArray(
          promotions.id,
          db
            .select({ id: promotionLandlords.promotionId })
            .from(promotionLandlords)
            .innerJoin(landlords, eq(landlords.id, promotionLandlords.landlordId))
            .where(inArray(landlords.merchantId, query.merchantId)),
        ),
      ),
    );
  }
  if (query.landlordId?.length) {
    conditions.push(
      inArray(
        promotions.id,
        db
          .select({ id: promotionLandlords.promotionId })
          .from(promotionLandlords)
          .where(inArray(promotionLandlords.landlordId, query.landlordId)),
      ),
    );
  }
  if (query.internal !== undefined) conditions.push(eq(promotions.internal, query.internal));
  if (query.expose !== undefined) conditions.push(eq(promotions.expose, query.expose));
  if (query.active !== undefined) conditions.push(eq(promotions.active, query.active));
  return and(...conditions);
}

type Places = Map<number, { ids: number[]; names: string[] }>;

/** The clusters and sites of some promotions, by promotion id, ordered by name. */
async function placesOf(db: Db, ids: number[]): Promise<{ clusters: Places; sites: Places }> {
  const clusters: Places = new Map();
  const sites: Places = new Map();
  if (ids.length === 0) return { clusters, sites };
  const add = (into: Places, row: { promotionId: number; id: number; nameEn: string }) => {
    const entry = into.get(row.promotionId) ?? { ids: [], names: [] };
    entry.ids.push(row.id);
    entry.names.push(row.nameEn);
    into.set(row.promotionId, entry);
  };
  const [clusterRows, siteRows] = await Promise.all([
    db
      .select({ promotionId: promotionMerchants.promotionId, id: merchants.id, nameEn: merchants.nameEn })
      .from(promotionMerchants)
      .innerJoin(merchants, eq(merchants.id, promotionMerchants.merchantId))
      .where(inArray(promotionMerchants.promotionId, ids))
      .orderBy(asc(merchants.nameEn), asc(merchants.id)),
    db
      .select({ promotionId: promotionLandlords.promotionId, id: landlords.id, nameEn: landlords.nameEn })
      .from(promotionLandlords)
      .innerJoin(landlords, eq(landlords.id, promotionLandlords.landlordId))
      .where(inArray(promotionLandlords.promotionId, ids))
      .orderBy(asc(landlords.nameEn), asc(landlords.id)),
  ]);
  for (const row of clusterRows) add(clusters, row);
  for (const row of siteRows) add(sites, row);
  return { clusters, sites };
}

type Row = Awaited<ReturnType<typeof selectPromotions>>[number];
const selectPromotions = (db: Db) => db.select(promotionColumns).from(promotions);

function toPromotion(row: Row, places: { clusters: Places; sites: Places }): Promotion {
  return {
    ...row,
    validFrom: row.validFrom.toISOString(),
    validTo: row.validTo.toISOString(),
    discountPercent: row.discountPercent === null ? null : Number(row.discountPercent),
    discountBaht: row.discountBaht === null ? null : toSatang(row.discountBaht) / 100,
    merchantIds: places.clusters.get(row.id)?.ids ?? [],
    merchantNameEns: places.clusters.get(row.id)?.names ?? [],
    landlordIds: places.sites.get(row.id)?.ids ?? [],
    landlordNameEns: places.sites.get(row.id)?.names ?? [],
  };
}

export async function listPromotions(
  db: Db,
  query: PromotionListQuery,
): Promise<{ total: number; promotions: Promotion[] }> {
  const where = promotionWhere(db, query);
  const [{ total } = { total: 0 }] = await db.select({ total: countAll() }).from(promotions).where(where);
  const { limit, offset } = paging(query);
  const rows = await selectPromotions(db)
    .where(where)
    .orderBy(...ordering(query, SORTS, [promotions.id]))
    .limit(limit)
    .offset(offset);
  const places = await placesOf(
    db,
    rows.map((row) => row.id),
  );
  return { total, promotions: rows.map((row) => toPromotion(row, places)) };
}

export async function getPromotion(db: Db, id: number): Promise<Promotion> {
  const [row] = await selectPromotions(db).where(eq(promotions.id, id));
  if (!row) throw new NotFound(PROMOTION_MESSAGES.notFound);
  return toPromotion(row, await placesOf(db, [id]));
}

const unique = (ids: number[]) => [...new Set(ids)];

/**
 * The chosen clusters and sites exist, and each site is of a chosen cluster when clusters are chosen (the
 * form narrows the sites to them).
 */
async function checkPlaces(db: Db, body: PromotionBody): Promise<void> {
  const merchantIds = unique(body.merchantIds);
  const landlordIds = unique(body.landlordIds);
  if (merchantIds.length > 0) {
    const found = await db
      .select({ id: merchants.id })
      .from(merchants)
      .where(inArray(merchants.id, merchantIds));
    if (found.length !== merchantIds.length) throw new NotFound('No such cluster');
  }
  if (landlordIds.length === 0) return;
  const sites = await db
    .select({ id: landlords.id, merchantId: landlords.merchantId })
    .from(landlords)
    .where(inArray(landlords.id, landlordIds));
  if (sites.length !== landlordIds.length) throw new NotFound('No such site');
  if (merchantIds.length > 0 && sites.some((site) => !merchantIds.includes(site.merchantId)))
    throw new Invalid('body.landlordIds: Each site must be of a chosen cluster.');
}

/** Codes are inserted by the thousand in one statement; a clash with any stored code is drawn again. */
const DRAWS = 10;

async function insertCodes(tx: Tx, promotionId: number, body: PromotionBody): Promise<string[]> {
  const total = body.total ?? null;
  if (body.count === 1) {
    const [row] = await tx
      .insert(promotionCodes)
      .values({ promotionId, code: body.code, total })
      .onConflictDoNothing()
      .returning({ code: promotionCodes.code });
    if (!row) throw new Conflict(PROMOTION_MESSAGES.codeUsed);
    return [row.code];
  }
  const codes: string[] = [];
  const tried = new Set<string>();
  for (let draw = 0; draw < DRAWS && codes.length < body.count; draw++) {
    const batch = generateCodes(body.code, body.count - codes.length, tried);
    for (const code of batch) tried.add(code.toLowerCase());
    const inserted = await tx
      .insert(promotionCodes)
      .values(batch.map((code) => ({ promotionId, code, total })))
      .onConflictDoNothing()
      .returning({ code: promotionCodes.code });
    codes.push(...inserted.map((row) => row.code));
  }
  if (codes.length < body.count) throw new Error(`Could not draw ${body.count} unique codes`);
  return codes;
}

const discountPercentText = (value: number | null | undefined) => (value == null ? null : value.toFixed(2));
const bahtText = (value: number | null | undefined) => (value == null ? null : fromSatang(toSatang(value)));

/**
 * Creates the promotion and its codes in one transaction: the code itself for one, the code and a random
 * suffix each above (answered, for the CSV). A code (or a promotion's code) already stored, whatever its case,
 * is a 409 'Code is already used'.
 */
export async function createPromotion(
  db: Db,
  body: PromotionBody,
  actor: AuditActor,
): Promise<{ id: number; codes: string[] }> {
  await checkPlaces(db, body);
  return db.transaction(async (tx) => {
    // The codes have no capture (thousands of rows): the entry says how many.
    const entry = await audit(tx, actor, {
      entity: 'promotion',
      action: 'create',
      details: { codes: body.count },
    });
    const [row] = await tx
      .insert(promotions)
      .values({
        code: body.code,
        nameEn: body.nameEn,
        nameTh: body.nameTh,
        type: body.type,
        internal: body.internal,
        expose: body.expose ?? false,
        active: body.active ?? true,
        validFrom: new Date(body.validFrom),
        validTo: new Date(body.validTo),
        discountPercent: discountPercentText(body.discountPercent),
        discountBaht: bahtText(body.discountBaht),
        point: body.point ?? null,
        count: body.count,
        total: body.total ?? null,
      })
      .onConflictDoNothing()
      .returning({ id: promotions.id });
    if (!row) throw new Conflict(PROMOTION_MESSAGES.codeUsed);
    const id = row.id;
    await auditedId(tx, entry, id);
    const merchantIds = unique(body.merchantIds);
    const landlordIds = unique(body.landlordIds);
    if (merchantIds.length > 0)
      await tx
        .insert(promotionMerchants)
        .values(merchantIds.map((merchantId) => ({ promotionId: id, merchantId })));
    if (landlordIds.length > 0)
      await tx
        .insert(promotionLandlords)
        .values(landlordIds.map((landlordId) => ({ promotionId: id, landlordId })));
    return { id, codes: await insertCodes(tx, id, body) };
  });
}

const sameIds = (a: number[], b: number[]) =>
  unique(a)
    .sort((x, y) => x - y)
    .join() ===
  unique(b)
    .sort((x, y) => x - y)
    .join();

/** The fields of the form that differ from the stored promotion, among those fixed at creation. */
function changedFixedFields(current: Promotion, body: PromotionBody): string[] {
  const hundredths = (value: number | null | undefined) => (value == null ? null : Math.round(value * 100));
  const changed: Array<[string, boolean]> = [
    ['type', body.type !== current.type],
    ['code', body.code !== current.code],
    ['internal', body.internal !== current.internal],
    ['merchantIds', !sameIds(body.merchantIds, current.merchantIds)],
    ['landlordIds', !sameIds(body.landlordIds, current.landlordIds)],
    ['validFrom', Date.parse(body.validFrom) !== Date.parse(current.validFrom)],
    ['validTo', Date.parse(body.validTo) !== Date.parse(current.validTo)],
    ['discountPercent', hundredths(body.discountPercent) !== hundredths(current.discountPercent)],
    ['discountBaht', hundredths(body.discountBaht) !== hundredths(current.discountBaht)],
    ['count', body.count !== current.count],
    ['total', (body.total ?? null) !== current.total],
  ];
  return changed.filter(([, differs]) => differs).map(([field]) => field);
}

/**
 * Saves the form (only the names, homepage and point may change after creation: any other field sent
 * different is a 400 naming it), or only `{ active }` (the list's switch).
 */
export async function updatePromotion(
  db: Db,
  id: number,
  body: PromotionBody | { active: boolean },
  actor: AuditActor,
): Promise<void> {
  const current = await getPromotion(db, id);
  if (!('code' in body)) {
    await db.transaction(async (tx) => {
      await audit(tx, actor, { entity: 'promotion', entityId: id, action: 'toggle' });
      await tx
        .update(promotions)
        .set({ active: body.active, updatedAt: sql`now()` })
        .where(eq(promotions.id, id));
    });
    return;
  }
  const [fixed] = changedFixedFields(current, body);
  if (fixed) throw new Invalid(`body.${fixed}: ${PROMOTION_MESSAGES.readOnly}`);
  await db.transaction(async (tx) => {
    await audit(tx, actor, { entity: 'promotion', entityId: id, action: 'update' });
    await tx
      .update(promotions)
      .set({
        nameEn: body.nameEn,
        nameTh: body.nameTh,
        expose: body.expose ?? false,
        point: body.point ?? null,
        ...(body.active === undefined ? {} : { active: body.active }),
        updatedAt: sql`now()`,
      })
      .where(eq(promotions.id, id));
  });
}

/** 409 while active, and for a promotion whose codes were redeemed (the redemptions refer to them). */
export async function deletePromotion(db: Db, id: number, actor: AuditActor): Promise<void> {
  const [row] = await db.select({ active: promotions.active }).from(promotions).where(eq(promotions.id, id));
  if (!row) throw new NotFound(PROMOTION_MESSAGES.notFound);
  await deleteUnlessUsed(row.active, () =>
    db.transaction(async (tx) => {
      // Its codes go with it, uncaptured (thousands of rows): the entry says how many.
      const [codes] = await tx
        .select({ n: countAll() })
        .from(promotionCodes)
        .where(eq(promotionCodes.promotionId, id));
      await audit(tx, actor, {
        entity: 'promotion',
        entityId: id,
        action: 'delete',
        details: { codes: codes?.n ?? 0 },
      });
      await tx.delete(promotions).where(eq(promotions.id, id));
    }),
  );
}

/** The promotion's codes as CSV, in the order they were made, each with its uses and limit. */
export async function promotionCodesFile(db: Db, id: number): Promise<{ fileName: string; csv: string }> {
  const [promotion] = await db
    .select({ code: promotions.code })
    .from(promotions)
    .where(eq(promotions.id, id));
  if (!promotion) throw new NotFound(PROMOTION_MESSAGES.notFound);
  const rows = await db
    .select({ code: promotionCodes.code, used: promotionCodes.used, total: promotionCodes.total })
    .from(promotionCodes)
    .where(eq(promotionCodes.promotionId, id))
    .orderBy(asc(promotionCodes.id));
  return {
    fileName: promotionCsvName(promotion.code),
    csv: promotionCodesCsv(rows.map((row) => [row.code, row.used, row.total] as const)),
  };
}

/**
 * The member app's homepage (issue 21): promotions shown there (`expose`), active, valid now and with a code
 * left, newest first; the code itself only for a one-code promotion.
 */
export async function homepagePromotions(db: Db): Promise<HomepagePromotion[]> {
  const rows = await selectPromotions(db)
    .where(
      and(
        eq(promotions.expose, true),
        eq(promotions.active, true),
        sql`${promotions.validFrom} <= now() and ${promotions.validTo} > now()`,
        sql`${codeLeft} > 0`,
      ),
    )
    .orderBy(desc(promotions.validFrom), desc(promotions.id))
    .limit(50);
  const places = await placesOf(
    db,
    rows.map((row) => row.id),
  );
  return rows.map((row) => {
    const promotion = toPromotion(row, places);
    return {
      id: promotion.id,
      type: promotion.type,
      nameEn: promotion.nameEn,
      nameTh: promotion.nameTh,
      code: promotion.count === 1 ? promotion.code : null,
      validFrom: promotion.validFrom,
      validTo: promotion.validTo,
      discountPercent: promotion.discountPercent,
      discountBaht: promotion.discountBaht,
      point: promotion.point,
      internal: promotion.internal,
      landlordNameEns: promotion.landlordNameEns,
    };
  });
}
