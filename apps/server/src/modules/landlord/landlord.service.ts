import {
  can,
  fromSatang,
  type IdName,
  LANDLORD_MESSAGES,
  type LANDLORD_SORTS,
  type Landlord,
  type LandlordBody,
  type LandlordListItem,
  type LandlordListQuery,
  toSatang,
} from '@ev/shared';
import { type AnyColumn, and, asc, eq, inArray, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { landlordBusinessHours, landlords, merchants } from '../../db/schema/index.ts';
import { Forbidden, Invalid, NotFound } from '../../lib/errors.ts';
import { countAll, deleteUnlessUsed, ordering, paging } from '../../lib/list-query.ts';
import type { AuthUser } from '../../plugins/auth.ts';
import { type DataScope, landlordScope, scopeOf } from '../../plugins/scope.ts';
import { type AuditActor, audit, auditedId } from '../audit/audit.ts';
import { requireProvince } from '../reference/reference.service.ts';

/** The answer for an id that is not there, or outside the caller's scope (also a path id beyond ID_MAX). */
export const LANDLORD_NOT_FOUND = 'Landlord not found';

export const LANDLORD_SORTS_SQL = {
  id: landlords.id,
  nameEn: landlords.nameEn,
  nameTh: landlords.nameTh,
  merchantId: landlords.merchantId,
  merchantNameEn: merchants.nameEn,
  businessHoursType: landlords.businessHoursType,
  internal: merchants.internal,
  active: landlords.active,
} satisfies Record<(typeof LANDLORD_SORTS)[number], AnyColumn>;

/** The list's filters and the caller's scope as one WHERE over landlords joined to their merchant. */
export function landlordWhere(scope: DataScope, query: Partial<LandlordListQuery>): SQL | undefined {
  const conditions: Array<SQL | undefined> = [landlordScope(scope)];
  if (query.merchantId?.length) conditions.push(inArray(landlords.merchantId, query.merchantId));
  if (query.landlordId?.length) conditions.push(inArray(landlords.id, query.landlordId));
  if (query.businessHoursType) conditions.push(eq(landlords.businessHoursType, query.businessHoursType));
  if (query.internal !== undefined) conditions.push(eq(merchants.internal, query.internal));
  if (query.active !== undefined) conditions.push(eq(landlords.active, query.active));
  return and(...conditions);
}

export const landlordRow = {
  id: landlords.id,
  merchantId: landlords.merchantId,
  merchantNameEn: merchants.nameEn,
  nameEn: landlords.nameEn,
  nameTh: landlords.nameTh,
  addrEn: landlords.addrEn,
  addrTh: landlords.addrTh,
  businessHoursType: landlords.businessHoursType,
  internal: merchants.internal,
  active: landlords.active,
};

export async function listLandlords(
  db: Db,
  scope: DataScope,
  query: LandlordListQuery,
): Promise<{ total: number; landlords: LandlordListItem[] }> {
  const where = landlordWhere(scope, query);
  const [{ total } = { total: 0 }] = await db
    .select({ total: countAll() })
    .from(landlords)
    .innerJoin(merchants, eq(merchants.id, landlords.merchantId))
    .where(where);
  const { limit, offset } = paging(query);
  const rows = await db
    .select(landlordRow)
    .from(landlords)
    .innerJoin(merchants, eq(merchants.id, landlords.merchantId))
    .where(where)
    .orderBy(...ordering(query, LANDLORD_SORTS_SQL, [landlords.id]))
    .limit(limit)
    .offset(offset);
  return { total, landlords: rows };
}

/** `mode=dropdown`: the sites the caller sees (narrowed by the same filters, e.g. chosen clusters), unpaged. */
export async function landlordDropdown(
  db: Db,
  scope: DataScope,
  query: Partial<LandlordListQuery>,
): Promise<IdName[]> {
  return db
    .select({ id: landlords.id, nameEn: landlords.nameEn })
    .from(landlords)
    .innerJoin(merchants, eq(merchants.id, landlords.merchantId))
    .where(landlordWhere(scope, query))
    .orderBy(asc(landlords.nameEn), asc(landlords.id));
}

/** `numeric(12,2)` text ('100.50') as the wire's number (100.5); null stays null (no limit). */
export const kwOrNull = (numeric: string | null) => (numeric === null ? null : toSatang(numeric) / 100);
/** The wire's kW as `numeric` text, exact to 2 decimals (the schema refuses more); null and absent kept. */
export const kwNumeric = (kw: number | null | undefined) =>
  typeof kw === 'number' ? fromSatang(toSatang(kw)) : kw;

export async function getLandlord(db: Db, scope: DataScope, id: number): Promise<Landlord> {
  const [row] = await db
    .select({
      id: landlords.id,
      merchantId: landlords.merchantId,
      merchantNameEn: merchants.nameEn,
      nameEn: landlords.nameEn,
      nameTh: landlords.nameTh,
      latitude: landlords.latitude,
      longitude: landlords.longitude,
      businessHoursType: landlords.businessHoursType,
      meaId: landlords.meaId,
      peaId: landlords.peaId,
      partnerProjectId: landlords.partnerProjectId,
      partnerUserType: landlords.partnerUserType,
      descEn: landlords.descEn,
      descTh: landlords.descTh,
      addrEn: landlords.addrEn,
      addrTh: landlords.addrTh,
      provinceId: landlords.provinceId,
      tel: landlords.tel,
      internal: merchants.internal,
      active: landlords.active,
      maxPowerKw: landlords.maxPowerKw,
      phases: landlords.phases,
      voltage: landlords.voltage,
    })
    .from(landlords)
    .innerJoin(merchants, eq(merchants.id, landlords.merchantId))
    .where(and(eq(landlords.id, id), landlordScope(scope)));
  if (!row) throw new NotFound(LANDLORD_NOT_FOUND);
  const hours = await db
    .select({
      dayOfWeek: landlordBusinessHours.dayOfWeek,
      openTime: landlordBusinessHours.openTime,
      closeTime: landlordBusinessHours.closeTime,
    })
    .from(landlordBusinessHours)
    .where(eq(landlordBusinessHours.landlordId, id))
    .orderBy(
      asc(landlordBusinessHours.dayOfWeek),
      asc(landlordBusinessHours.openTime),
      asc(landlordBusinessHours.id),
    );
  const hhmm = (time: string) => time.slice(0, 5);
  return {
    ...row,
    maxPowerKw: kwOrNull(row.maxPowerKw),
    businessHours: hours.map((hour) => ({
      dayOfWeek: hour.dayOfWeek,
      openTime: hhmm(hour.openTime),
      closeTime: hhmm(hour.closeTime),
    })),
  };
}

/**
 * The row's columns of the form; the cluster and business hours are handled apart. The power fields left out
 * of the body stay undefined, which keeps the stored ones (an update skips them, an insert takes null).
 */
function columnsOf(body: LandlordBody) {
  const { merchantId: _merchantId, businessHours: _hours, ...columns } = body;
  return {
    ...columns,
    partnerUserType: columns.partnerUserType ?? null,
    provinceId: columns.provinceId ?? null,
    maxPowerKw: kwNumeric(columns.maxPowerKw),
  };
}

/** Rows count only for the type 'period'. */
const hoursOf = (body: LandlordBody) =>
  body.businessHoursType === 'period' ? (body.businessHours ?? []) : [];

/**
 * The cluster a new site goes into. Admin and callcenter choose it (required); a merchant user's site goes
 * into its own cluster and a landlord user's into its site's cluster, whatever the body says.
 */
async function clusterForNewSite(db: Db, user: AuthUser, body: LandlordBody): Promise<number> {
  if (can(user.adminRole, 'landlord.choose-merchant')) {
    if (body.merchantId === undefined) throw new Invalid(`body.merchantId: ${LANDLORD_MESSAGES.merchantId}`);
    const [found] = await db
      .select({ id: merchants.id })
      .from(merchants)
      .where(eq(merchants.id, body.merchantId));
    if (!found) throw new NotFound('No such cluster');
    return found.id;
  }
  if (user.adminRole === 'merchant' && user.merchantId !== null) return user.merchantId;
  if (user.adminRole === 'landlord' && user.landlordId !== null) {
    const [own] = await db
      .select({ merchantId: landlords.merchantId })
      .from(landlords)
      .where(eq(landlords.id, user.landlordId));
    if (own) return own.merchantId;
  }
  throw new Forbidden('No cluster to create a site in');
}

/** The site, its power settings and business hours, and the audit entry: one transaction. */
export async function createLandlord(
  db: Db,
  user: AuthUser,
  body: LandlordBody,
  actor: AuditActor,
): Promise<number> {
  const merchantId = await clusterForNewSite(db, user, body);
  await requireProvince(db, body.provinceId);
  return db.transaction(async (tx) => {
    const entry = await audit(tx, actor, { entity: 'landlord', action: 'create' });
    const [row] = await tx
      .insert(landlords)
      .values({ ...columnsOf(body), merchantId })
      .returning({ id: landlords.id });
    const id = row!.id;
    await auditedId(tx, entry, id);
    const hours = hoursOf(body);
    if (hours.length > 0) {
      await tx.insert(landlordBusinessHours).values(hours.map((hour) => ({ ...hour, landlordId: id })));
    }
    return id;
  });
}

/**
 * Saves the form (business hours replaced in the same transaction; audited as 'update', the hours' rows
 * before → after) or only `{ active }` ('toggle'); 404 outside the scope. The cluster of a site never changes:
 * a different merchantId is refused.
 */
export async function updateLandlord(
  db: Db,
  user: AuthUser,
  id: number,
  body: LandlordBody | { active: boolean },
  actor: AuditActor,
): Promise<void> {
  const scope = scopeOf(user);
  const [current] = await db
    .select({ merchantId: landlords.merchantId })
    .from(landlords)
    .where(and(eq(landlords.id, id), landlordScope(scope)));
  if (!current) throw new NotFound(LANDLORD_NOT_FOUND);
  if (!('nameEn' in body)) {
    await db.transaction(async (tx) => {
      await audit(tx, actor, { entity: 'landlord', entityId: id, action: 'toggle' });
      await tx
        .update(landlords)
        .set({ active: body.active, updatedAt: sql`now()` })
        .where(eq(landlords.id, id));
    });
    return;
  }
  if (body.merchantId !== undefined && body.merchantId !== current.merchantId) {
    throw new Invalid("body.merchantId: The cluster of a site can't change");
  }
  await requireProvince(db, body.provinceId);
  await db.transaction(async (tx) => {
    await audit(tx, actor, { entity: 'landlord', entityId: id, action: 'update' });
    await tx
      .update(landlords)
      .set({ ...columnsOf(body), updatedAt: sql`now()` })
      .where(eq(landlords.id, id));
    const hours = hoursOf(body);
    // The same hours saved again stay as they are: the entry then shows no rows removed and added back.
    const stored = await tx
      .select({
        dayOfWeek: landlordBusinessHours.dayOfWeek,
        openTime: landlordBusinessHours.openTime,
        closeTime: landlordBusinessHours.closeTime,
      })
      .from(landlordBusinessHours)
      .where(eq(landlordBusinessHours.landlordId, id));
    if (hoursKey(stored) === hoursKey(hours)) return;
    await tx.delete(landlordBusinessHours).where(eq(landlordBusinessHours.landlordId, id));
    if (hours.length > 0) {
      await tx.insert(landlordBusinessHours).values(hours.map((hour) => ({ ...hour, landlordId: id })));
    }
  });
}

/** A set of opening periods as one comparable text ('HH:mm:ss' as stored, 'HH:mm' as sent). */
const hoursKey = (hours: Array<{ dayOfWeek: number; openTime: string; closeTime: string }>) =>
  hours
    .map((hour) => `${hour.dayOfWeek} ${hour.openTime.slice(0, 5)} ${hour.closeTime.slice(0, 5)}`)
    .sort()
    .join();

/** 404 outside the scope; 409 while active, or while a group or a user refers to it. */
export async function deleteLandlord(db: Db, scope: DataScope, id: number, actor: AuditActor): Promise<void> {
  const [row] = await db
    .select({ active: landlords.active })
    .from(landlords)
    .where(and(eq(landlords.id, id), landlordScope(scope)));
  if (!row) throw new NotFound(LANDLORD_NOT_FOUND);
  await deleteUnlessUsed(row.active, () =>
    db.transaction(async (tx) => {
      await audit(tx, actor, { entity: 'landlord', entityId: id, action: 'delete' });
      await tx.delete(landlords).where(eq(landlords.id, id));
    }),
  );
}
