import type { IdName, PARTY_SORTS, Party, PartyBody, PartyListQuery } from '@ev/shared';
import { type AnyColumn, and, asc, eq, inArray, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { landlords, parties, partyLandlords } from '../../db/schema/index.ts';
import { Invalid, NotFound } from '../../lib/errors.ts';
import { countAll, deleteUnlessUsed, ordering, paging } from '../../lib/list-query.ts';
import { type DataScope, landlordScope, partyScope } from '../../plugins/scope.ts';
import { type AuditActor, audit, auditedId } from '../audit/audit.ts';

/** The answer for an id that is not there, or outside the caller's scope (also a path id beyond ID_MAX). */
export const PARTY_NOT_FOUND = 'Party not found';

const SORTS = {
  id: parties.id,
  nameEn: parties.nameEn,
  nameTh: parties.nameTh,
  active: parties.active,
} satisfies Record<(typeof PARTY_SORTS)[number], AnyColumn>;

function partyWhere(db: Db, scope: DataScope, query: Partial<PartyListQuery>): SQL | undefined {
  const conditions: Array<SQL | undefined> = [partyScope(scope)];
  if (query.landlordId?.length) {
    conditions.push(
      inArray(
        parties.id,
        db
          .select({ id: partyLandlords.partyId })
          .from(partyLandlords)
          .where(inArray(partyLandlords.landlordId, query.landlordId)),
      ),
    );
  }
  if (query.active !== undefined) conditions.push(eq(parties.active, query.active));
  return and(...conditions);
}

/** The sites of some groups (as the scope sees them), by group id, ordered by name. */
async function sitesOf(db: Db, scope: DataScope, partyIds: number[]) {
  const byParty = new Map<number, { ids: number[]; names: string[] }>();
  if (partyIds.length === 0) return byParty;
  const rows = await db
    .select({ partyId: partyLandlords.partyId, id: landlords.id, nameEn: landlords.nameEn })
    .from(partyLandlords)
    .innerJoin(landlords, eq(landlords.id, partyLandlords.landlordId))
    .where(and(inArray(partyLandlords.partyId, partyIds), landlordScope(scope)))
    .orderBy(asc(landlords.nameEn), asc(landlords.id));
  for (const row of rows) {
    const entry = byParty.get(row.partyId) ?? { ids: [], names: [] };
    entry.ids.push(row.id);
    entry.names.push(row.nameEn);
    byParty.set(row.partyId, entry);
  }
  return byParty;
}

const partyColumns = {
  id: parties.id,
  nameEn: parties.nameEn,
  nameTh: parties.nameTh,
  active: parties.active,
};

export async function listParties(
  db: Db,
  scope: DataScope,
  query: PartyListQuery,
): Promise<{ total: number; partys: Party[] }> {
  const where = partyWhere(db, scope, query);
  const [{ total } = { total: 0 }] = await db.select({ total: countAll() }).from(parties).where(where);
  const { limit, offset } = paging(query);
  const rows = await db
    .select(partyColumns)
    .from(parties)
    .where(where)
    .orderBy(...ordering(query, SORTS, [parties.id]))
    .limit(limit)
    .offset(offset);
  const sites = await sitesOf(
    db,
    scope,
    rows.map((row) => row.id),
  );
  return {
    total,
    partys: rows.map((row) => ({
      ...row,
      landlordIds: sites.get(row.id)?.ids ?? [],
      landlordNameEns: sites.get(row.id)?.names ?? [],
    })),
  };
}

export async function partyDropdown(db: Db, scope: DataScope): Promise<IdName[]> {
  return db
    .select({ id: parties.id, nameEn: parties.nameEn })
    .from(parties)
    .where(partyScope(scope))
    .orderBy(asc(parties.nameEn), asc(parties.id));
}

export async function getParty(db: Db, scope: DataScope, id: number): Promise<Party> {
  const [row] = await db
    .select(partyColumns)
    .from(parties)
    .where(and(eq(parties.id, id), partyScope(scope)));
  if (!row) throw new NotFound(PARTY_NOT_FOUND);
  const sites = (await sitesOf(db, scope, [id])).get(id);
  return { ...row, landlordIds: sites?.ids ?? [], landlordNameEns: sites?.names ?? [] };
}

const unique = (ids: number[]) => [...new Set(ids)];

/** The group, its site links (rows of party_landlords, captured into the entry) and the entry: one transaction. */
export async function createParty(db: Db, body: PartyBody, actor: AuditActor): Promise<number> {
  const landlordIds = unique(body.landlordIds);
  const found = await db
    .select({ id: landlords.id })
    .from(landlords)
    .where(inArray(landlords.id, landlordIds));
  if (found.length !== landlordIds.length) throw new NotFound('No such site');
  return db.transaction(async (tx) => {
    const entry = await audit(tx, actor, { entity: 'party', action: 'create' });
    const [row] = await tx
      .insert(parties)
      .values({ nameEn: body.nameEn, nameTh: body.nameTh, active: body.active })
      .returning({ id: parties.id });
    const id = row!.id;
    await auditedId(tx, entry, id);
    await tx.insert(partyLandlords).values(landlordIds.map((landlordId) => ({ partyId: id, landlordId })));
    return id;
  });
}

/**
 * Saves the names ('update'), or only `{ active }` ('toggle'). The group's sites are chosen at creation: a
 * different set is a 400.
 */
export async function updateParty(
  db: Db,
  scope: DataScope,
  id: number,
  body: PartyBody | { active: boolean },
  actor: AuditActor,
): Promise<void> {
  const [row] = await db
    .select({ id: parties.id })
    .from(parties)
    .where(and(eq(parties.id, id), partyScope(scope)));
  if (!row) throw new NotFound(PARTY_NOT_FOUND);
  if (!('nameEn' in body)) {
    await db.transaction(async (tx) => {
      await audit(tx, actor, { entity: 'party', entityId: id, action: 'toggle' });
      await tx.update(parties).set({ active: body.active, updatedAt: sql`now()` }).where(eq(parties.id, id));
    });
    return;
  }
  const current = await db
    .select({ id: partyLandlords.landlordId })
    .from(partyLandlords)
    .where(eq(partyLandlords.partyId, id));
  const before = current.map((site) => site.id).sort((a, b) => a - b);
  const after = unique(body.landlordIds).sort((a, b) => a - b);
  if (before.join() !== after.join())
    throw new Invalid("body.landlordIds: The sites of a group can't change");
  await db.transaction(async (tx) => {
    await audit(tx, actor, { entity: 'party', entityId: id, action: 'update' });
    await tx
      .update(parties)
      .set({ nameEn: body.nameEn, nameTh: body.nameTh, active: body.active, updatedAt: sql`now()` })
      .where(eq(parties.id, id));
  });
}

/** 404 outside the scope; 409 while active or while users belong to it. */
export async function deleteParty(db: Db, scope: DataScope, id: number, actor: AuditActor): Promise<void> {
  const [row] = await db
    .select({ active: parties.active })
    .from(parties)
    .where(and(eq(parties.id, id), partyScope(scope)));
  if (!row) throw new NotFound(PARTY_NOT_FOUND);
  await deleteUnlessUsed(row.active, () =>
    db.transaction(async (tx) => {
      await audit(tx, actor, { entity: 'party', entityId: id, action: 'delete' });
      await tx.delete(parties).where(eq(parties.id, id));
    }),
  );
}
