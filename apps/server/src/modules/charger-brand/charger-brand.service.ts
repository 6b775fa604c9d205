import {
  type CHARGER_BRAND_SORTS,
  type ChargerBrand,
  type ChargerBrandBody,
  type ChargerBrandListQuery,
  type ChargerBrandOption,
  fromSatang,
  toSatang,
} from '@ev/shared';
import { type AnyColumn, and, asc, eq, ilike, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { chargerBrands } from '../../db/schema/index.ts';
import { NotFound } from '../../lib/errors.ts';
import { countAll, deleteUnlessUsed, ordering, paging } from '../../lib/list-query.ts';
import { type AuditActor, audit, auditedId } from '../audit/audit.ts';

/** The answer for an id that is not there, or outside the caller's scope (also a path id beyond ID_MAX). */
export const CHARGER_BRAND_NOT_FOUND = 'Charger brand not found';

export const CHARGER_BRAND_SORTS_SQL = {
  id: chargerBrands.id,
  name: chargerBrands.name,
  powerType: chargerBrands.powerType,
  minPowerKw: chargerBrands.minPowerKw,
  active: chargerBrands.active,
} satisfies Record<(typeof CHARGER_BRAND_SORTS)[number], AnyColumn>;

/** `%` and `_` in the typed name match themselves, not any text. */
const escapeLike = (text: string) => text.replace(/[\\%_]/g, '\\$&');

/** The list's filters: part of the name in any case, and the power type. Brands have no data scope. */
export function chargerBrandWhere(query: Partial<ChargerBrandListQuery>): SQL | undefined {
  const conditions: Array<SQL | undefined> = [];
  if (query.name) conditions.push(ilike(chargerBrands.name, `%${escapeLike(query.name)}%`));
  if (query.powerType) conditions.push(eq(chargerBrands.powerType, query.powerType));
  return and(...conditions);
}

export const chargerBrandColumns = {
  id: chargerBrands.id,
  name: chargerBrands.name,
  powerType: chargerBrands.powerType,
  minPowerKw: chargerBrands.minPowerKw,
  active: chargerBrands.active,
};

/** `numeric(12,2)` text ('50.00') as the wire's number (50). */
export const kwNumber = (numeric: string) => toSatang(numeric) / 100;
/** The wire's number as `numeric` text, exact to 2 decimals (the schema refuses more). */
const kwNumeric = (kw: number) => fromSatang(toSatang(kw));

const toBrand = <T extends { minPowerKw: string }>(row: T) => ({
  ...row,
  minPowerKw: kwNumber(row.minPowerKw),
});

export async function listChargerBrands(
  db: Db,
  query: ChargerBrandListQuery,
): Promise<{ total: number; chargerBrands: ChargerBrand[] }> {
  const where = chargerBrandWhere(query);
  const [{ total } = { total: 0 }] = await db.select({ total: countAll() }).from(chargerBrands).where(where);
  const { limit, offset } = paging(query);
  const rows = await db
    .select(chargerBrandColumns)
    .from(chargerBrands)
    .where(where)
    .orderBy(...ordering(query, CHARGER_BRAND_SORTS_SQL, [chargerBrands.id]))
    .limit(limit)
    .offset(offset);
  return { total, chargerBrands: rows.map(toBrand) };
}

/** `mode=dropdown`: every brand, by name, with what the charger screens show beside it. */
export async function chargerBrandDropdown(db: Db): Promise<ChargerBrandOption[]> {
  const rows = await db
    .select({
      id: chargerBrands.id,
      name: chargerBrands.name,
      powerType: chargerBrands.powerType,
      minPowerKw: chargerBrands.minPowerKw,
    })
    .from(chargerBrands)
    .orderBy(asc(chargerBrands.name), asc(chargerBrands.id));
  return rows.map(toBrand);
}

export async function getChargerBrand(db: Db, id: number): Promise<ChargerBrand> {
  const [row] = await db.select(chargerBrandColumns).from(chargerBrands).where(eq(chargerBrands.id, id));
  if (!row) throw new NotFound(CHARGER_BRAND_NOT_FOUND);
  return toBrand(row);
}

const columnsOf = (body: ChargerBrandBody) => ({
  name: body.name,
  powerType: body.powerType,
  minPowerKw: kwNumeric(body.minPowerKw),
  // Left out: the column's default on insert (active), unchanged on update.
  active: body.active,
});

export async function createChargerBrand(db: Db, body: ChargerBrandBody, actor: AuditActor): Promise<number> {
  return db.transaction(async (tx) => {
    const entry = await audit(tx, actor, { entity: 'charger-brand', action: 'create' });
    const [row] = await tx.insert(chargerBrands).values(columnsOf(body)).returning({ id: chargerBrands.id });
    await auditedId(tx, entry, row!.id);
    return row!.id;
  });
}

/** Saves the form ('update'), or only `{ active }` (the list's switch: 'toggle'). */
export async function updateChargerBrand(
  db: Db,
  id: number,
  body: ChargerBrandBody | { active: boolean },
  actor: AuditActor,
): Promise<void> {
  const form = 'name' in body;
  const changes = form ? columnsOf(body) : { active: body.active };
  await db.transaction(async (tx) => {
    await audit(tx, actor, { entity: 'charger-brand', entityId: id, action: form ? 'update' : 'toggle' });
    const updated = await tx
      .update(chargerBrands)
      .set({ ...changes, updatedAt: sql`now()` })
      .where(eq(chargerBrands.id, id))
      .returning({ id: chargerBrands.id });
    if (updated.length === 0) throw new NotFound(CHARGER_BRAND_NOT_FOUND);
  });
}

/** 409 while active, or while a charger uses it (ON DELETE RESTRICT). */
export async function deleteChargerBrand(db: Db, id: number, actor: AuditActor): Promise<void> {
  const [row] = await db
    .select({ active: chargerBrands.active })
    .from(chargerBrands)
    .where(eq(chargerBrands.id, id));
  if (!row) throw new NotFound(CHARGER_BRAND_NOT_FOUND);
  await deleteUnlessUsed(row.active, () =>
    db.transaction(async (tx) => {
      await audit(tx, actor, { entity: 'charger-brand', entityId: id, action: 'delete' });
      await tx.delete(chargerBrands).where(eq(chargerBrands.id, id));
    }),
  );
}
