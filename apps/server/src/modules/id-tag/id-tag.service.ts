/**
 * A member's id tags (issue 32 §4): the app's own tag and the RFID cards staff register in the Member Mobile
 * User modal. OCPP compares id tags without regard to case (CiString20): a tag is found so, and no two tags may
 * differ only in case. A card is stored as typed.
 */
import {
  ID_TAG_LIMITS,
  ID_TAG_MESSAGES,
  type IdTagChangeBody,
  type IdTagCreateBody,
  type IdTagItem,
  idTagState,
} from '@ev/shared';
import { and, asc, count, eq, type SQL, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import { idTags, users } from '../../db/schema/index.ts';
import { Conflict, Invalid, isUniqueViolation, NotFound } from '../../lib/errors.ts';
import { type AuditActor, audit } from '../audit/audit.ts';

/** The answer for a member that is not there (also a path id beyond ID_MAX): the user module's words. */
export const MEMBER_NOT_FOUND = 'User not found';

/** A tag as a charger's call needs it: whose it is, and the card's own state. */
export interface KnownTag {
  idTag: string;
  userId: number;
  kind: 'app' | 'rfid';
  blocked: boolean;
  expiresAt: Date | null;
}

const tagColumns = {
  idTag: idTags.idTag,
  userId: idTags.userId,
  kind: idTags.kind,
  blocked: idTags.blocked,
  expiresAt: idTags.expiresAt,
  createdAt: idTags.createdAt,
};

const sameTag = (idTag: string): SQL => sql`upper(${idTags.idTag}) = upper(${idTag})`;

/**
 * The tag a charger names. The exact spelling is found by the primary key; another case (a charger that sends
 * a card's hex in lower case) by comparing upper cases, which reads the table: only for a tag not found as
 * spelled (docs/decisions.md, Id tags).
 */
export async function findTag(db: Db | Tx, idTag: string): Promise<KnownTag | null> {
  const [exact] = await db.select(tagColumns).from(idTags).where(eq(idTags.idTag, idTag));
  if (exact) return exact;
  const [other] = await db.select(tagColumns).from(idTags).where(sameTag(idTag)).limit(1);
  return other ?? null;
}

/** The member's app tag, the parent of their cards at a charger (IdTagInfo.parentIdTag); null before one. */
export async function appTagOf(db: Db | Tx, userId: number): Promise<string | null> {
  const [row] = await db
    .select({ idTag: idTags.idTag })
    .from(idTags)
    .where(and(eq(idTags.userId, userId), eq(idTags.kind, 'app')));
  return row?.idTag ?? null;
}

function toItem(row: typeof idTags.$inferSelect | (KnownTag & { createdAt: Date })): IdTagItem {
  return {
    idTag: row.idTag,
    kind: row.kind,
    expiresAt: row.expiresAt?.toISOString() ?? null,
    blocked: row.blocked,
    state: idTagState(row),
    createdAt: row.createdAt.toISOString(),
  };
}

/** The mobile user (member), or a 404 (an admin user's id too). */
async function requireMember(db: Db | Tx, userId: number): Promise<void> {
  const [member] = await db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.id, userId), eq(users.type, 'mobile')));
  if (!member) throw new NotFound(MEMBER_NOT_FOUND);
}

/** GET /api/user/{id}/id-tag: the app tag first, then the cards in the order they were added. */
export async function listIdTags(db: Db, userId: number): Promise<IdTagItem[]> {
  await requireMember(db, userId);
  const rows = await db
    .select(tagColumns)
    .from(idTags)
    .where(eq(idTags.userId, userId))
    .orderBy(sql`${idTags.kind} = 'rfid'`, asc(idTags.createdAt), asc(idTags.idTag));
  return rows.map(toItem);
}

function futureExpiry(expiresAt: string | null | undefined, now: number): Date | null | undefined {
  if (expiresAt === undefined || expiresAt === null) return expiresAt;
  const at = new Date(expiresAt);
  if (at.getTime() <= now) throw new Invalid(`body.expiresAt: ${ID_TAG_MESSAGES.expiresAtPast}`);
  return at;
}

/**
 * POST /api/user/{id}/id-tag: a new RFID card. Unique among all tags without regard to case (409), at most
 * ID_TAG_LIMITS.cardsPerMember per member (409). Adds run one at a time (a transaction lock), so two adds of
 * 'abc' and 'ABC' can't both pass the check.
 */
export async function addIdTag(
  db: Db,
  userId: number,
  body: IdTagCreateBody,
  actor: AuditActor,
  now = Date.now(),
): Promise<IdTagItem> {
  const expiresAt = futureExpiry(body.expiresAt, now) ?? null;
  try {
    return await db.transaction(async (tx) => {
      await tx.execute(sql`select pg_advisory_xact_lock(hashtext('id_tags'))`);
      await requireMember(tx, userId);
      const [taken] = await tx
        .select({ idTag: idTags.idTag })
        .from(idTags)
        .where(sameTag(body.idTag))
        .limit(1);
      if (taken) throw new Conflict(ID_TAG_MESSAGES.taken);
      const [{ cards } = { cards: 0 }] = await tx
        .select({ cards: count() })
        .from(idTags)
        .where(and(eq(idTags.userId, userId), eq(idTags.kind, 'rfid')));
      if (cards >= ID_TAG_LIMITS.cardsPerMember) throw new Conflict(ID_TAG_MESSAGES.tooMany);
      await audit(tx, actor, {
        entity: 'id-tag',
        entityId: body.idTag,
        action: 'create',
        details: { userId },
      });
      const [row] = await tx
        .insert(idTags)
        .values({ idTag: body.idTag, userId, kind: 'rfid', expiresAt, blocked: body.blocked ?? false })
        .returning();
      return toItem(row!);
    });
  } catch (error) {
    // The member's app made its tag meanwhile with this very spelling (app tags take no lock).
    if (isUniqueViolation(error)) throw new Conflict(ID_TAG_MESSAGES.taken);
    throw error;
  }
}

/** One of the member's cards, named in the path (any case); the app tag is refused (409). */
async function cardOf(db: Db | Tx, userId: number, idTag: string): Promise<KnownTag> {
  await requireMember(db, userId);
  const [row] = await db
    .select(tagColumns)
    .from(idTags)
    .where(and(eq(idTags.userId, userId), sameTag(idTag)))
    .limit(1);
  if (!row) throw new NotFound(ID_TAG_MESSAGES.notFound);
  if (row.kind === 'app') throw new Conflict(ID_TAG_MESSAGES.appTag);
  return row;
}

/** PATCH /api/user/{id}/id-tag/{idTag}: a card's expiry and block. */
export async function changeIdTag(
  db: Db,
  userId: number,
  idTag: string,
  body: IdTagChangeBody,
  actor: AuditActor,
  now = Date.now(),
): Promise<IdTagItem> {
  const card = await cardOf(db, userId, idTag);
  const expiresAt = futureExpiry(body.expiresAt, now);
  return db.transaction(async (tx) => {
    await audit(tx, actor, { entity: 'id-tag', entityId: card.idTag, action: 'update', details: { userId } });
    const [row] = await tx
      .update(idTags)
      .set({
        ...(expiresAt !== undefined ? { expiresAt } : {}),
        ...(body.blocked !== undefined ? { blocked: body.blocked } : {}),
      })
      .where(eq(idTags.idTag, card.idTag))
      .returning();
    if (!row) throw new NotFound(ID_TAG_MESSAGES.notFound);
    return toItem(row);
  });
}

/** DELETE /api/user/{id}/id-tag/{idTag}: the card is gone; a charger then answers it Invalid. */
export async function removeIdTag(db: Db, userId: number, idTag: string, actor: AuditActor): Promise<void> {
  const card = await cardOf(db, userId, idTag);
  await db.transaction(async (tx) => {
    await audit(tx, actor, { entity: 'id-tag', entityId: card.idTag, action: 'delete', details: { userId } });
    await tx.delete(idTags).where(eq(idTags.idTag, card.idTag));
  });
}
