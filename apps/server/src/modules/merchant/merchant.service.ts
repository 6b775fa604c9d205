import type {
  IdName,
  MERCHANT_SORTS,
  Merchant,
  MerchantBody,
  MerchantListItem,
  MerchantListQuery,
} from '@ev/shared';
import { type AnyColumn, and, asc, eq, inArray, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { landlords, merchants } from '../../db/schema/index.ts';
import { NotFound } from '../../lib/errors.ts';
import { countAll, deleteUnlessUsed, ordering, paging } from '../../lib/list-query.ts';
import { type DataScope, landlordScope, merchantScope } from '../../plugins/scope.ts';
import { type AuditActor, audit, auditedId } from '../audit/audit.ts';
import { requireProvince } from '../reference/reference.service.ts';

/** The answer for an id that is not there, or outside the caller's scope (also a path id beyond ID_MAX). */
export const MERCHANT_NOT_FOUND = 'Merchant not found';

export const MERCHANT_SORTS_SQL = {
  id: merchants.id,
  nameEn: merchants.nameEn,
  nameTh: merchants.nameTh,
  internal: merchants.internal,
  active: merchants.active,
} satisfies Record<(typeof MERCHANT_SORTS)[number], AnyColumn>;

/** The list's filters and the caller's scope, as one WHERE (shared by the page, its count and the export). */
export function merchantWhere(db: Db, scope: DataScope, query: Partial<MerchantListQuery>): SQL | undefined {
  const conditions: Array<SQL | undefined> = [merchantScope(scope)];
  if (query.merchantId?.length) conditions.push(inArray(merchants.id, query.merchantId));
  if (query.landlordId?.length) {
    conditions.push(
      inArray(
        merchants.id,
        db
          .select({ id: landlords.merchantId })
          .from(landlords)
          .where(inArray(landlords.id, query.landlordId)),
      ),
    );
  }
  if (query.internal !== undefined) conditions.push(eq(merchants.internal, query.internal));
  if (query.active !== undefined) conditions.push(eq(merchants.active, query.active));
  return and(...conditions);
}

/** The columns of a list row; the detail and the export add MERCHANT_DETAIL_COLUMNS. */
export const MERCHANT_ROW_COLUMNS = {
  id: merchants.id,
  nameEn: merchants.nameEn,
  nameTh: merchants.nameTh,
  internal: merchants.internal,
  active: merchants.active,
};
export const MERCHANT_DETAIL_COLUMNS = {
  addrEn: merchants.addrEn,
  addrTh: merchants.addrTh,
  taxId: merchants.taxId,
  tel: merchants.tel,
};

/** The sites of some clusters, as the scope sees them, grouped by cluster id. */
async function sitesOf(db: Db, scope: DataScope, merchantIds: number[]) {
  const bySite = new Map<number, MerchantListItem['landlords']>();
  if (merchantIds.length === 0) return bySite;
  const rows = await db
    .select({
      id: landlords.id,
      nameEn: landlords.nameEn,
      active: landlords.active,
      merchantId: landlords.merchantId,
    })
    .from(landlords)
    .where(and(inArray(landlords.merchantId, merchantIds), landlordScope(scope)))
    .orderBy(asc(landlords.nameEn), asc(landlords.id));
  for (const { merchantId, ...site } of rows) {
    const list = bySite.get(merchantId) ?? [];
    list.push(site);
    bySite.set(merchantId, list);
  }
  return bySite;
}

export async function listMerchants(
  db: Db,
  scope: DataScope,
  query: MerchantListQuery,
): Promise<{ total: number; merchants: MerchantListItem[] }> {
  const where = merchantWhere(db, scope, query);
  const [{ total } = { total: 0 }] = await db.select({ total: countAll() }).from(merchants).where(where);
  const { limit, offset } = paging(query);
  const rows = await db
    .select(MERCHANT_ROW_COLUMNS)
    .from(merchants)
    .where(where)
    .orderBy(...ordering(query, MERCHANT_SORTS_SQL, [merchants.id]))
    .limit(limit)
    .offset(offset);
  const sites = await sitesOf(
    db,
    scope,
    rows.map((row) => row.id),
  );
  return { total, merchants: rows.map((row) => ({ ...row, landlords: sites.get(row.id) ?? [] })) };
}

/** `mode=dropdown`: every cluster the caller sees, by name, unpaged. */
export async function merchantDropdown(db: Db, scope: DataScope): Promise<IdName[]> {
  return db
    .select({ id: merchants.id, nameEn: merchants.nameEn })
    .from(merchants)
    .where(merchantScope(scope))
    .orderBy(asc(merchants.nameEn), asc(merchants.id));
}

export async function getMerchant(db: Db, scope: DataScope, id: number): Promise<Merchant> {
  const [row] = await db
    .select({ ...MERCHANT_ROW_COLUMNS, ...MERCHANT_DETAIL_COLUMNS, provinceId: merchants.provinceId })
    .from(merchants)
    .where(and(eq(merchants.id, id), merchantScope(scope)));
  if (!row) throw new NotFound(MERCHANT_NOT_FOUND);
  const sites = await sitesOf(db, scope, [id]);
  return { ...row, landlords: sites.get(id) ?? [] };
}

export async function createMerchant(db: Db, body: MerchantBody, actor: AuditActor): Promise<number> {
  await requireProvince(db, body.provinceId);
  return db.transaction(async (tx) => {
    const entry = await audit(tx, actor, { entity: 'merchant', action: 'create' });
    const [row] = await tx.insert(merchants).values(body).returning({ id: merchants.id });
    await auditedId(tx, entry, row!.id);
    return row!.id;
  });
}

/** Saves the form ('update'), or only the active flag ('toggle'); 404 outside the scope (no entry then). */
export async function updateMerchant(
  db: Db,
  scope: DataScope,
  id: number,
  body: MerchantBody | { active: boolean },
  actor: AuditActor,
): Promise<void> {
  const form = 'nameEn' in body;
  if (form) await requireProvince(db, body.provinceId);
  await db.transaction(async (tx) => {
    await audit(tx, actor, { entity: 'merchant', entityId: id, action: form ? 'update' : 'toggle' });
    const updated = await tx
      .update(merchants)
      .set({ ...body, updatedAt: sql`now()` })
      .where(and(eq(merchants.id, id), merchantScope(scope)))
      .returning({ id: merchants.id });
    if (updated.length === 0) throw new NotFound(MERCHANT_NOT_FOUND);
  });
}

/** 404 outside the scope; 409 while active or while sites or users refer to it. */
export async function deleteMerchant(db: Db, scope: DataScope, id: number, actor: AuditActor): Promise<void> {
  const [row] = await db
    .select({ active: merchants.active })
    .from(merchants)
    .where(and(eq(merchants.id, id), merchantScope(scope)));
  if (!row) throw new NotFound(MERCHANT_NOT_FOUND);
  await deleteUnlessUsed(row.active, () =>
    db.transaction(async (tx) => {
      await audit(tx, actor, { entity: 'merchant', entityId: id, action: 'delete' });
      await tx.delete(merchants).where(eq(merchants.id, id));
    }),
  );
}
