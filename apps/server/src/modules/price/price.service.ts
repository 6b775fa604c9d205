import {
  fromSatang,
  type PRICE_SORTS,
  type Price,
  type PriceBody,
  type PriceListItem,
  type PriceListQuery,
  type PriceOption,
  toSatang,
} from '@ev/shared';
import { type AnyColumn, and, asc, eq, ilike, or, type SQL, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import { priceOverrides, priceOverrideWeekdays, prices } from '../../db/schema/index.ts';
import { NotFound } from '../../lib/errors.ts';
import { countAll, deleteUnlessUsed, ordering, paging } from '../../lib/list-query.ts';
import { type AuditActor, audit, auditedId } from '../audit/audit.ts';

/** The answer for an id that is not there, or outside the caller's scope (also a path id beyond ID_MAX). */
export const PRICE_NOT_FOUND = 'Price not found';

export const PRICE_SORTS_SQL = {
  id: prices.id,
  descEn: prices.descEn,
  descTh: prices.descTh,
  method: prices.method,
  calculateMethod: prices.calculateMethod,
  bahtPerHour: prices.bahtPerHour,
  bahtPerKwh: prices.bahtPerKwh,
  active: prices.active,
} satisfies Record<(typeof PRICE_SORTS)[number], AnyColumn>;

/** `%` and `_` in the typed text match themselves, not any text. */
const escapeLike = (text: string) => text.replace(/[\\%_]/g, '\\$&');

/** The list's filters: part of either description in any case, the method, the calculate method. No scope. */
export function priceWhere(query: Partial<PriceListQuery>): SQL | undefined {
  const conditions: Array<SQL | undefined> = [];
  if (query.desc) {
    const pattern = `%${escapeLike(query.desc)}%`;
    conditions.push(or(ilike(prices.descEn, pattern), ilike(prices.descTh, pattern)));
  }
  if (query.method) conditions.push(eq(prices.method, query.method));
  if (query.calculateMethod) conditions.push(eq(prices.calculateMethod, query.calculateMethod));
  return and(...conditions);
}

/** `numeric(12,2)` text ('7.15') as the wire's number (7.15), through integer satang. */
export const bahtNumber = (numeric: string) => toSatang(numeric) / 100;
/** The wire's number as `numeric` text, exact to the satang (the schema refuses more decimals). */
const bahtNumeric = (baht: number) => fromSatang(toSatang(baht));

export const priceColumns = {
  id: prices.id,
  descEn: prices.descEn,
  descTh: prices.descTh,
  method: prices.method,
  calculateMethod: prices.calculateMethod,
  bahtPerKwh: prices.bahtPerKwh,
  bahtPerHour: prices.bahtPerHour,
  penaltyBahtPerMin: prices.penaltyBahtPerMin,
  penaltyDCFullBahtPerMin: prices.penaltyDcFullBahtPerMin,
  penaltyDCFullDelayMin: prices.penaltyDcFullDelayMin,
  active: prices.active,
};
type PriceRow = {
  [K in keyof typeof priceColumns]: (typeof priceColumns)[K]['_']['data'];
};

export const toPriceItem = (row: PriceRow): PriceListItem => ({
  ...row,
  bahtPerKwh: bahtNumber(row.bahtPerKwh),
  bahtPerHour: bahtNumber(row.bahtPerHour),
  penaltyBahtPerMin: bahtNumber(row.penaltyBahtPerMin),
  penaltyDCFullBahtPerMin: bahtNumber(row.penaltyDCFullBahtPerMin),
});

export async function listPrices(
  db: Db,
  query: PriceListQuery,
): Promise<{ total: number; prices: PriceListItem[] }> {
  const where = priceWhere(query);
  const [{ total } = { total: 0 }] = await db.select({ total: countAll() }).from(prices).where(where);
  const { limit, offset } = paging(query);
  const rows = await db
    .select(priceColumns)
    .from(prices)
    .where(where)
    .orderBy(...ordering(query, PRICE_SORTS_SQL, [prices.id]))
    .limit(limit)
    .offset(offset);
  return { total, prices: rows.map(toPriceItem) };
}

/**
 * `mode=dropdown`: every plan, active or not (a connector may still use an inactive one and must show it),
 * by English description, with exactly the keys the connector form shows.
 */
export async function priceDropdown(db: Db): Promise<PriceOption[]> {
  const rows = await db
    .select({
      id: prices.id,
      descEn: prices.descEn,
      bahtPerKwh: prices.bahtPerKwh,
      bahtPerHour: prices.bahtPerHour,
      calculateMethod: prices.calculateMethod,
    })
    .from(prices)
    .orderBy(asc(prices.descEn), asc(prices.id));
  return rows.map((row) => ({
    ...row,
    bahtPerKwh: bahtNumber(row.bahtPerKwh),
    bahtPerHour: bahtNumber(row.bahtPerHour),
  }));
}

/** 'HH:mm:ss' -> 'HH:mm'; 'YYYY-MM-DD HH:mm:ss' (or ISO 'T') -> 'YYYY-MM-DD HH:mm'. */
const hhmm = (time: string) => time.slice(0, 5);
const wallMinute = (timestamp: string) => timestamp.replace('T', ' ').slice(0, 16);

export async function getPrice(db: Db, id: number): Promise<Price> {
  const [row] = await db.select(priceColumns).from(prices).where(eq(prices.id, id));
  if (!row) throw new NotFound(PRICE_NOT_FOUND);
  const weekly = await db
    .select()
    .from(priceOverrideWeekdays)
    .where(eq(priceOverrideWeekdays.priceId, id))
    .orderBy(
      asc(priceOverrideWeekdays.dayOfWeek),
      asc(priceOverrideWeekdays.validTimeFrom),
      asc(priceOverrideWeekdays.id),
    );
  const dated = await db
    .select()
    .from(priceOverrides)
    .where(eq(priceOverrides.priceId, id))
    .orderBy(asc(priceOverrides.validFrom), asc(priceOverrides.id));
  return {
    ...toPriceItem(row),
    overrideWeekdays: weekly.map((w) => ({
      dayOfWeek: w.dayOfWeek,
      validTimeFrom: hhmm(w.validTimeFrom),
      validTimeTo: hhmm(w.validTimeTo),
      bahtPerKwh: bahtNumber(w.bahtPerKwh),
      bahtPerHour: bahtNumber(w.bahtPerHour),
    })),
    overrides: dated.map((d) => ({
      validFrom: wallMinute(d.validFrom),
      validTo: wallMinute(d.validTo),
      bahtPerKwh: bahtNumber(d.bahtPerKwh),
      bahtPerHour: bahtNumber(d.bahtPerHour),
    })),
  };
}

/** The plan's own columns; the schema has already applied the method's coupling. */
function columnsOf(body: PriceBody) {
  return {
    descEn: body.descEn,
    descTh: body.descTh,
    method: body.method,
    calculateMethod: body.calculateMethod,
    bahtPerKwh: bahtNumeric(body.bahtPerKwh),
    bahtPerHour: bahtNumeric(body.bahtPerHour),
    penaltyBahtPerMin: bahtNumeric(body.penaltyBahtPerMin),
    penaltyDcFullBahtPerMin: bahtNumeric(body.penaltyDCFullBahtPerMin),
    penaltyDcFullDelayMin: body.penaltyDCFullDelayMin,
    // Left out: the column's default on insert (active), unchanged on update.
    active: body.active,
  };
}

/** Writes the override rows of a plan (the caller has removed the old ones). */
async function insertOverrides(tx: Tx, priceId: number, body: PriceBody) {
  if (body.overrideWeekdays.length > 0) {
    await tx.insert(priceOverrideWeekdays).values(
      body.overrideWeekdays.map((row) => ({
        priceId,
        dayOfWeek: row.dayOfWeek,
        validTimeFrom: row.validTimeFrom,
        validTimeTo: row.validTimeTo,
        bahtPerKwh: bahtNumeric(row.bahtPerKwh),
        bahtPerHour: bahtNumeric(row.bahtPerHour),
      })),
    );
  }
  if (body.overrides.length > 0) {
    await tx.insert(priceOverrides).values(
      body.overrides.map((row) => ({
        priceId,
        validFrom: row.validFrom,
        validTo: row.validTo,
        bahtPerKwh: bahtNumeric(row.bahtPerKwh),
        bahtPerHour: bahtNumeric(row.bahtPerHour),
      })),
    );
  }
}

export async function createPrice(db: Db, body: PriceBody, actor: AuditActor): Promise<number> {
  return db.transaction(async (tx) => {
    const entry = await audit(tx, actor, { entity: 'price', action: 'create' });
    const [row] = await tx.insert(prices).values(columnsOf(body)).returning({ id: prices.id });
    const id = row!.id;
    await auditedId(tx, entry, id);
    await insertOverrides(tx, id, body);
    return id;
  });
}

/** Saves the form (override rows replaced in the same transaction), or only `{ active }`. */
export async function updatePrice(
  db: Db,
  id: number,
  body: PriceBody | { active: boolean },
  actor: AuditActor,
): Promise<void> {
  const [current] = await db.select({ id: prices.id }).from(prices).where(eq(prices.id, id));
  if (!current) throw new NotFound(PRICE_NOT_FOUND);
  if (!('descEn' in body)) {
    await db.transaction(async (tx) => {
      await audit(tx, actor, { entity: 'price', entityId: id, action: 'toggle' });
      await tx.update(prices).set({ active: body.active, updatedAt: sql`now()` }).where(eq(prices.id, id));
    });
    return;
  }
  await db.transaction(async (tx) => {
    await audit(tx, actor, { entity: 'price', entityId: id, action: 'update' });
    await tx
      .update(prices)
      .set({ ...columnsOf(body), updatedAt: sql`now()` })
      .where(eq(prices.id, id));
    // Override rows are replaced only when the form changed them: a save of the rate alone rewrites no row of
    // them (nor fills its audit entry with rows deleted and inserted the same).
    const weekly = await tx.select().from(priceOverrideWeekdays).where(eq(priceOverrideWeekdays.priceId, id));
    const dated = await tx.select().from(priceOverrides).where(eq(priceOverrides.priceId, id));
    const weeklyKey = (row: { dayOfWeek: number; validTimeFrom: string; validTimeTo: string }) =>
      `${row.dayOfWeek}|${hhmm(row.validTimeFrom)}|${hhmm(row.validTimeTo)}`;
    const datedKey = (row: { validFrom: string; validTo: string }) =>
      `${wallMinute(row.validFrom)}|${wallMinute(row.validTo)}`;
    const same = (stored: string[], asked: string[]) =>
      stored.length === asked.length && stored.sort().join('\n') === asked.sort().join('\n');
    const weeklySame = same(
      weekly.map((row) => `${weeklyKey(row)}|${row.bahtPerKwh}|${row.bahtPerHour}`),
      body.overrideWeekdays.map(
        (row) => `${weeklyKey(row)}|${bahtNumeric(row.bahtPerKwh)}|${bahtNumeric(row.bahtPerHour)}`,
      ),
    );
    const datedSame = same(
      dated.map((row) => `${datedKey(row)}|${row.bahtPerKwh}|${row.bahtPerHour}`),
      body.overrides.map(
        (row) => `${datedKey(row)}|${bahtNumeric(row.bahtPerKwh)}|${bahtNumeric(row.bahtPerHour)}`,
      ),
    );
    if (!weeklySame) await tx.delete(priceOverrideWeekdays).where(eq(priceOverrideWeekdays.priceId, id));
    if (!datedSame) await tx.delete(priceOverrides).where(eq(priceOverrides.priceId, id));
    await insertOverrides(tx, id, {
      ...body,
      overrideWeekdays: weeklySame ? [] : body.overrideWeekdays,
      overrides: datedSame ? [] : body.overrides,
    });
  });
}

/** 409 while active, or while a connector charges with it (ON DELETE RESTRICT); its overrides go with it. */
export async function deletePrice(db: Db, id: number, actor: AuditActor): Promise<void> {
  const [row] = await db.select({ active: prices.active }).from(prices).where(eq(prices.id, id));
  if (!row) throw new NotFound(PRICE_NOT_FOUND);
  await deleteUnlessUsed(row.active, () =>
    db.transaction(async (tx) => {
      await audit(tx, actor, { entity: 'price', entityId: id, action: 'delete' });
      await tx.delete(prices).where(eq(prices.id, id));
    }),
  );
}
