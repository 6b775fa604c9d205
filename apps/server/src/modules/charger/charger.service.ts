import {
  type CHARGER_SORTS,
  type Charger,
  type ChargerBody,
  type ChargerListQuery,
  type ChargerOption,
  type Connector,
  type ConnectorType,
  fromSatang,
  toSatang,
} from '@ev/shared';
import { type AnyColumn, and, asc, eq, ilike, inArray, or, type SQL, sql } from 'drizzle-orm';
import type { SelectResultFields } from 'drizzle-orm/query-builders/select.types';
import type { Db } from '../../db/client.ts';
import {
  chargerBrands,
  chargers,
  connectors,
  connectorTypes,
  landlords,
  merchants,
  prices,
} from '../../db/schema/index.ts';
import { Conflict, Forbidden, Invalid, isUniqueViolation, NotFound } from '../../lib/errors.ts';
import { contains, countAll, deleteUnlessUsed, ordering, paging } from '../../lib/list-query.ts';
import { hashOcppPassword } from '../../ocpp/password.ts';
import { heartbeatDeadline } from '../../ocpp/store.ts';
import type { AuthUser } from '../../plugins/auth.ts';
import { type DataScope, landlordScope, scopeOf } from '../../plugins/scope.ts';
import { type AuditActor, audit } from '../audit/audit.ts';

export const CHARGER_SORTS_SQL = {
  id: chargers.id,
  nameEn: chargers.nameEn,
  nameTh: chargers.nameTh,
  merchantNameEn: merchants.nameEn,
  landlordNameEn: landlords.nameEn,
  chargerBrandName: chargerBrands.name,
  active: chargers.active,
} satisfies Record<(typeof CHARGER_SORTS)[number], AnyColumn>;

/**
 * The list's filters and the caller's scope as one WHERE over chargers joined to their site, cluster and
 * brand (see `fromChargers`). The scope is the sites the caller sees, as for the site list.
 */
export function chargerWhere(scope: DataScope, query: Partial<ChargerListQuery>): SQL | undefined {
  const conditions: Array<SQL | undefined> = [landlordScope(scope)];
  if (query.merchantId?.length) conditions.push(inArray(chargers.merchantId, query.merchantId));
  if (query.landlordId?.length) conditions.push(inArray(chargers.landlordId, query.landlordId));
  if (query.chargerBrandId?.length) conditions.push(inArray(chargers.chargerBrandId, query.chargerBrandId));
  if (query.id) conditions.push(ilike(chargers.id, contains(query.id)));
  if (query.name) {
    const pattern = contains(query.name);
    conditions.push(or(ilike(chargers.nameEn, pattern), ilike(chargers.nameTh, pattern)));
  }
  if (query.connectorId !== undefined) {
    conditions.push(
      sql`exists (select 1 from ${connectors} where ${connectors.chargerId} = ${chargers.id} and ${connectors.id} = ${query.connectorId})`,
    );
  }
  if (query.connectorName) {
    const pattern = contains(query.connectorName);
    conditions.push(
      sql`exists (select 1 from ${connectors} where ${connectors.chargerId} = ${chargers.id} and (${connectors.nameEn} ilike ${pattern} or ${connectors.nameTh} ilike ${pattern}))`,
    );
  }
  return and(...conditions);
}

/** `numeric(12,2)` text ('50.00') as the wire's number (50). */
const kwNumber = (numeric: string) => toSatang(numeric) / 100;
/** The wire's number as `numeric` text, exact to 2 decimals (the schema refuses more). */
const kwNumeric = (kw: number) => fromSatang(toSatang(kw));
/** A limit (issue 34): null = none, undefined (left out of the body) keeps the stored one. */
const limitNumeric = (kw: number | null | undefined) => (typeof kw === 'number' ? kwNumeric(kw) : kw);

/**
 * Online: a process holds its WebSocket and it was heard from within its heartbeat deadline (twice the
 * interval it was given), so a process that died holding it does not leave it online.
 */
export const chargerOnline =
  sql<boolean>`(${chargers.connectedNode} is not null and ${chargers.lastSeenAt} > ${heartbeatDeadline})`.mapWith(
    Boolean,
  );

export const chargerRow = {
  id: chargers.id,
  nameEn: chargers.nameEn,
  nameTh: chargers.nameTh,
  merchantId: chargers.merchantId,
  merchantNameEn: merchants.nameEn,
  landlordId: chargers.landlordId,
  landlordNameEn: landlords.nameEn,
  chargerBrandId: chargers.chargerBrandId,
  chargerBrandName: chargerBrands.name,
  powerType: chargerBrands.powerType,
  minPowerKw: chargerBrands.minPowerKw,
  active: chargers.active,
  online: chargerOnline,
  lastSeenAt: chargers.lastSeenAt,
  vendor: chargers.vendor,
  model: chargers.model,
  firmwareVersion: chargers.firmwareVersion,
  hasOcppPassword: sql<boolean>`${chargers.ocppPasswordHash} is not null`.mapWith(Boolean),
  ocppProtocol: chargers.ocppProtocol,
  protocol: chargers.protocol,
};

/** chargers with their site, cluster and brand: what `chargerWhere` and `CHARGER_SORTS_SQL` refer to. */
export function fromChargers<T extends Record<string, unknown>>(db: Db, columns: T) {
  return db
    .select(columns as Parameters<Db['select']>[0] & T)
    .from(chargers)
    .innerJoin(landlords, eq(landlords.id, chargers.landlordId))
    .innerJoin(merchants, eq(merchants.id, chargers.merchantId))
    .innerJoin(chargerBrands, eq(chargerBrands.id, chargers.chargerBrandId));
}

const connectorColumns = {
  chargerId: connectors.chargerId,
  id: connectors.id,
  token: connectors.token,
  nameEn: connectors.nameEn,
  nameTh: connectors.nameTh,
  connectorTypeId: connectors.connectorTypeId,
  connectorTypeName: connectorTypes.name,
  judjodId: connectors.judjodId,
  maxPowerKw: connectors.maxPowerKw,
  oldQr: connectors.oldQr,
  priceId: connectors.priceId,
  status: connectors.status,
  ocppConnectorId: connectors.ocppConnectorId,
  errorCode: connectors.errorCode,
  statusAt: connectors.statusAt,
};

/** The connectors of these chargers, by charger then connector id. */
async function connectorsOf(db: Db, chargerIds: string[]): Promise<Map<string, Connector[]>> {
  const byCharger = new Map<string, Connector[]>(chargerIds.map((id) => [id, []]));
  if (chargerIds.length === 0) return byCharger;
  const rows = await db
    .select(connectorColumns)
    .from(connectors)
    .innerJoin(connectorTypes, eq(connectorTypes.id, connectors.connectorTypeId))
    .where(inArray(connectors.chargerId, chargerIds))
    .orderBy(asc(connectors.chargerId), asc(connectors.id));
  for (const { chargerId, maxPowerKw, statusAt, ...row } of rows) {
    byCharger
      .get(chargerId)
      ?.push({ ...row, maxPowerKw: kwNumber(maxPowerKw), statusAt: statusAt?.toISOString() ?? null });
  }
  return byCharger;
}

/**
 * What the list and the detail answer: `chargerRow` (shared with the export, whose `maxPowerKw` is the
 * connector's) and the charger's own power limit (issue 34).
 */
const chargerAnswerRow = { ...chargerRow, chargerMaxPowerKw: chargers.maxPowerKw };
type ChargerAnswerRow = SelectResultFields<typeof chargerAnswerRow>;

async function withConnectors(db: Db, rows: ChargerAnswerRow[]): Promise<Charger[]> {
  const byCharger = await connectorsOf(
    db,
    rows.map((row) => row.id),
  );
  return rows.map(({ chargerMaxPowerKw, ...row }) => ({
    ...row,
    minPowerKw: kwNumber(row.minPowerKw),
    lastSeenAt: row.lastSeenAt?.toISOString() ?? null,
    maxPowerKw: chargerMaxPowerKw === null ? null : kwNumber(chargerMaxPowerKw),
    connectors: byCharger.get(row.id) ?? [],
  }));
}

export async function listChargers(
  db: Db,
  scope: DataScope,
  query: ChargerListQuery,
): Promise<{ total: number; chargers: Charger[] }> {
  const where = chargerWhere(scope, query);
  const [{ total } = { total: 0 }] = await fromChargers(db, { total: countAll() }).where(where);
  const { limit, offset } = paging(query);
  const rows = await fromChargers(db, chargerAnswerRow)
    .where(where)
    .orderBy(...ordering(query, CHARGER_SORTS_SQL, [chargers.id]))
    .limit(limit)
    .offset(offset);
  return { total, chargers: await withConnectors(db, rows) };
}

/** `mode=dropdown`: the chargers the caller sees (narrowed by the same filters), by name, unpaged. */
export async function chargerDropdown(
  db: Db,
  scope: DataScope,
  query: Partial<ChargerListQuery>,
): Promise<ChargerOption[]> {
  return fromChargers(db, { id: chargers.id, nameEn: chargers.nameEn })
    .where(chargerWhere(scope, query))
    .orderBy(asc(chargers.nameEn), asc(chargers.id));
}

export async function getCharger(db: Db, scope: DataScope, id: string): Promise<Charger> {
  const rows = await fromChargers(db, chargerAnswerRow).where(and(eq(chargers.id, id), landlordScope(scope)));
  const [found] = await withConnectors(db, rows);
  if (!found) throw new NotFound('Charger not found');
  return found;
}

export async function listConnectorTypes(db: Db): Promise<ConnectorType[]> {
  return db.select().from(connectorTypes).orderBy(asc(connectorTypes.id));
}

/**
 * The site a charger goes into. Landlord users have no site field: their own site, whatever the body says.
 * Other roles choose one they see (404 'No such site' otherwise, as for a site that does not exist); a
 * cluster sent with it must be the site's.
 */
async function siteFor(
  db: Db,
  user: AuthUser,
  body: ChargerBody,
): Promise<{ id: number; merchantId: number }> {
  let landlordId = body.landlordId;
  if (user.adminRole === 'landlord') {
    if (user.landlordId === null) throw new Forbidden('No site to put a charger in');
    landlordId = user.landlordId;
  }
  if (landlordId === undefined) throw new Invalid('body.landlordId: Site Name is required.');
  const [site] = await db
    .select({ id: landlords.id, merchantId: landlords.merchantId })
    .from(landlords)
    .where(and(eq(landlords.id, landlordId), landlordScope(scopeOf(user))));
  if (!site) throw new NotFound('No such site');
  if (body.merchantId != null && body.merchantId !== site.merchantId) {
    throw new Invalid('body.landlordId: The site must belong to the chosen cluster');
  }
  return site;
}

/** The brand, connector types and prices the form refers to must exist (404 'No such …' otherwise). */
async function checkReferences(db: Db, body: ChargerBody): Promise<void> {
  const [brand] = await db
    .select({ id: chargerBrands.id })
    .from(chargerBrands)
    .where(eq(chargerBrands.id, body.chargerBrandId));
  if (!brand) throw new NotFound('No such charger brand');
  const typeIds = [...new Set(body.connectors.map((row) => row.connectorTypeId))];
  const priceIds = [...new Set(body.connectors.map((row) => row.priceId))];
  if (typeIds.length > 0) {
    const found = await db
      .select({ id: connectorTypes.id })
      .from(connectorTypes)
      .where(inArray(connectorTypes.id, typeIds));
    if (found.length !== typeIds.length) throw new NotFound('No such connector type');
  }
  if (priceIds.length > 0) {
    const found = await db.select({ id: prices.id }).from(prices).where(inArray(prices.id, priceIds));
    if (found.length !== priceIds.length) throw new NotFound('No such price');
  }
}

const connectorValues = (chargerId: string, row: ChargerBody['connectors'][number]) => ({
  chargerId,
  token: row.token,
  nameEn: row.nameEn,
  nameTh: row.nameTh,
  connectorTypeId: row.connectorTypeId,
  judjodId: row.judjodId ?? null,
  maxPowerKw: kwNumeric(row.maxPowerKw),
  oldQr: row.oldQr,
  priceId: row.priceId,
});

export const chargerExists = (id: string) => `Charger ID ${id} already exists.`;
export const connectorExists = (id: number) => `Connector ID ${id} already exists.`;

async function refusingDuplicates<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (isUniqueViolation(error)) throw new Conflict('Charger ID or Connector ID already exists.');
    throw error;
  }
}

/** 409 when one of these connector ids is taken (by any charger). */
async function refuseTakenConnectors(db: Db, ids: number[]): Promise<void> {
  if (ids.length === 0) return;
  const [taken] = await db
    .select({ id: connectors.id })
    .from(connectors)
    .where(inArray(connectors.id, ids))
    .orderBy(asc(connectors.id))
    .limit(1);
  if (taken) throw new Conflict(connectorExists(taken.id));
}

/** Creates the charger and its connectors; 409 when the charger id or a connector id is taken. */
export async function createCharger(
  db: Db,
  user: AuthUser,
  body: ChargerBody,
  actor: AuditActor,
): Promise<string> {
  const site = await siteFor(db, user, body);
  await checkReferences(db, body);
  const [taken] = await db.select({ id: chargers.id }).from(chargers).where(eq(chargers.id, body.id));
  if (taken) throw new Conflict(chargerExists(body.id));
  await refuseTakenConnectors(
    db,
    body.connectors.map((row) => row.id),
  );
  return refusingDuplicates(() =>
    db.transaction(async (tx) => {
      await audit(tx, actor, { entity: 'charger', entityId: body.id, action: 'create' });
      await tx.insert(chargers).values({
        id: body.id,
        nameEn: body.nameEn,
        nameTh: body.nameTh,
        merchantId: site.merchantId,
        landlordId: site.id,
        chargerBrandId: body.chargerBrandId,
        ocppPasswordHash: body.ocppPassword ? hashOcppPassword(body.ocppPassword) : null,
        // Left out: the columns' defaults (Automatic, active, no limit).
        ocppProtocol: body.ocppProtocol,
        active: body.active,
        maxPowerKw: limitNumeric(body.maxPowerKw),
      });
      if (body.connectors.length > 0) {
        await tx.insert(connectors).values(
          body.connectors.map((row, index) => ({
            id: row.id,
            ocppConnectorId: index + 1,
            ...connectorValues(body.id, row),
          })),
        );
      }
      return body.id;
    }),
  );
}

/**
 * Saves the form or only `{ active }`; 404 outside the scope. The charger id never changes. Every existing
 * connector must be in the body (only connectors added in this edit may be removed, document 2 section 4);
 * the others are new and their ids must be free. Connector statuses are the charger's, never the form's.
 */
export async function updateCharger(
  db: Db,
  user: AuthUser,
  id: string,
  body: ChargerBody | { active: boolean },
  actor: AuditActor,
): Promise<void> {
  const [current] = await fromChargers(db, { id: chargers.id, landlordId: chargers.landlordId }).where(
    and(eq(chargers.id, id), landlordScope(scopeOf(user))),
  );
  if (!current) throw new NotFound('Charger not found');
  if (!('nameEn' in body)) {
    await db.transaction(async (tx) => {
      await audit(tx, actor, { entity: 'charger', entityId: id, action: 'toggle' });
      await tx
        .update(chargers)
        .set({ active: body.active, updatedAt: sql`now()` })
        .where(eq(chargers.id, id));
    });
    return;
  }
  if (body.id !== id) throw new Invalid("body.id: The charger id can't change");
  const site = await siteFor(db, user, body);
  await checkReferences(db, body);
  const existingRows = await db
    .select({ id: connectors.id, number: connectors.ocppConnectorId })
    .from(connectors)
    .where(eq(connectors.chargerId, id));
  const existing = new Set(existingRows.map((row) => row.id));
  // New connectors take the next OCPP numbers: existing ones never change theirs.
  const nextNumber = Math.max(0, ...existingRows.map((row) => row.number)) + 1;
  const sent = new Set(body.connectors.map((row) => row.id));
  const removed = [...existing].filter((connectorId) => !sent.has(connectorId));
  if (removed.length > 0) {
    throw new Invalid(`body.connectors: Connector ${removed[0]} can't be removed`);
  }
  const added = body.connectors.filter((row) => !existing.has(row.id));
  await refuseTakenConnectors(
    db,
    added.map((row) => row.id),
  );
  await refusingDuplicates(() =>
    db.transaction(async (tx) => {
      await audit(tx, actor, { entity: 'charger', entityId: id, action: 'update' });
      await tx
        .update(chargers)
        .set({
          nameEn: body.nameEn,
          nameTh: body.nameTh,
          merchantId: site.merchantId,
          landlordId: site.id,
          chargerBrandId: body.chargerBrandId,
          // Left out: unchanged.
          active: body.active,
          ocppProtocol: body.ocppProtocol,
          maxPowerKw: limitNumeric(body.maxPowerKw),
          // Absent keeps the password, null removes it.
          ...(body.ocppPassword === undefined
            ? {}
            : { ocppPasswordHash: body.ocppPassword ? hashOcppPassword(body.ocppPassword) : null }),
          updatedAt: sql`now()`,
        })
        .where(eq(chargers.id, id));
      for (const row of body.connectors) {
        if (existing.has(row.id)) {
          const { chargerId: _chargerId, ...changes } = connectorValues(id, row);
          await tx
            .update(connectors)
            .set(changes)
            .where(and(eq(connectors.id, row.id), eq(connectors.chargerId, id)));
        }
      }
      if (added.length > 0) {
        await tx.insert(connectors).values(
          added.map((row, index) => ({
            id: row.id,
            ocppConnectorId: nextNumber + index,
            ...connectorValues(id, row),
          })),
        );
      }
    }),
  );
}

/** 404 outside the scope; 409 while active, or while something still refers to it. Connectors go with it. */
export async function deleteCharger(db: Db, scope: DataScope, id: string, actor: AuditActor): Promise<void> {
  const [row] = await fromChargers(db, { active: chargers.active }).where(
    and(eq(chargers.id, id), landlordScope(scope)),
  );
  if (!row) throw new NotFound('Charger not found');
  await deleteUnlessUsed(row.active, () =>
    db.transaction(async (tx) => {
      await audit(tx, actor, { entity: 'charger', entityId: id, action: 'delete' });
      await tx.delete(chargers).where(eq(chargers.id, id));
    }),
  );
}
