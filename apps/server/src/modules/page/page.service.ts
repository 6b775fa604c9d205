import {
  hasContent,
  PAGE_MESSAGES,
  type PAGE_SORTS,
  type Page,
  type PageBody,
  type PageListQuery,
  type PagePatchBody,
  type PageSummary,
  type PageTitle,
  type PageType,
} from '@ev/shared';
import { type AnyColumn, and, asc, desc, eq, gt, ne, or, type SQL, sql } from 'drizzle-orm';
import type { PgUpdateSetSource } from 'drizzle-orm/pg-core';
import type { Db, Tx } from '../../db/client.ts';
import { pages, termAcceptances } from '../../db/schema/index.ts';
import { Conflict, Invalid, NotFound } from '../../lib/errors.ts';
import { countAll, isForeignKeyViolation, ordering, paging } from '../../lib/list-query.ts';
import { sanitizeRichHtml } from '../../lib/sanitize.ts';
import { type AuditActor, audit, auditedId } from '../audit/audit.ts';

type PageRow = typeof pages.$inferSelect;

const SORTS = {
  id: pages.id,
  titleEn: pages.titleEn,
  titleTh: pages.titleTh,
  active: pages.active,
  weight: pages.weight,
  updatedAt: pages.updatedAt,
  createdAt: pages.createdAt,
} satisfies Record<(typeof PAGE_SORTS)[number], AnyColumn>;

/** Without a sort: tutorials newest first; policies last edited first (the list shows the Update Date). */
const defaultOrder = (type: PageType): SQL[] =>
  type === 'guide' ? [desc(pages.id)] : [desc(pages.updatedAt), desc(pages.id)];

const summaryColumns = {
  id: pages.id,
  type: pages.type,
  titleEn: pages.titleEn,
  titleTh: pages.titleTh,
  active: pages.active,
  weight: pages.weight,
  publishedAt: pages.publishedAt,
  createdAt: pages.createdAt,
  updatedAt: pages.updatedAt,
};

const isLegal = (type: PageType) => type !== 'guide';

function dates<T extends { publishedAt: Date | null; createdAt: Date; updatedAt: Date }>(row: T) {
  return {
    ...row,
    publishedAt: row.publishedAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

function pageWhere(query: PageListQuery): SQL | undefined {
  return and(
    eq(pages.type, query.type),
    query.id === undefined ? undefined : eq(pages.id, query.id),
    query.active === undefined ? undefined : eq(pages.active, query.active),
    query.weight === undefined ? undefined : eq(pages.weight, query.weight),
    query.minWeight === undefined ? undefined : gt(pages.weight, query.minWeight),
  );
}

export async function listPages(
  db: Db,
  query: PageListQuery,
): Promise<{ total: number; pages: PageSummary[] }> {
  const where = pageWhere(query);
  const order = query.sort ? ordering(query, SORTS, [pages.id]) : defaultOrder(query.type);
  const [{ total } = { total: 0 }] = await db.select({ total: countAll() }).from(pages).where(where);
  const { limit, offset } = paging(query);
  const rows = await db
    .select(summaryColumns)
    .from(pages)
    .where(where)
    .orderBy(...order)
    .limit(limit)
    .offset(offset);
  return { total, pages: rows.map(dates) };
}

/** Every page of a type, for the Title filter. */
export async function pageDropdown(db: Db, type: PageType): Promise<PageTitle[]> {
  return db
    .select({ id: pages.id, titleEn: pages.titleEn, titleTh: pages.titleTh })
    .from(pages)
    .where(eq(pages.type, type))
    .orderBy(asc(pages.titleEn), asc(pages.id));
}

export async function getPage(db: Db, id: number): Promise<Page> {
  const [row] = await db.select().from(pages).where(eq(pages.id, id));
  if (!row) throw new NotFound(PAGE_MESSAGES.notFound);
  return dates(row);
}

/**
 * The Detail fields as stored: sanitized. A detail that held only what the sanitizer removes (a script)
 * is empty afterwards, and the field is required: the same 400 as an empty editor.
 */
function cleanDetails(body: PageBody): { detailEn: string; detailTh: string } {
  const detailEn = sanitizeRichHtml(body.detailEn);
  if (!hasContent(detailEn)) throw new Invalid(`body.detailEn: ${PAGE_MESSAGES.detailEn}`);
  const detailTh = sanitizeRichHtml(body.detailTh);
  if (!hasContent(detailTh)) throw new Invalid(`body.detailTh: ${PAGE_MESSAGES.detailTh}`);
  return { detailEn, detailTh };
}

/**
 * A tutorial is active unless sent otherwise (section 2); a terms or privacy page is a Draft unless sent
 * active, and then it is published now: the page in force, which every staff user accepts again.
 */
export async function createPage(db: Db, body: PageBody, actor: AuditActor): Promise<number> {
  const details = cleanDetails(body);
  const active = body.active ?? body.type === 'guide';
  return db.transaction(async (tx) => {
    const entry = await audit(tx, actor, { entity: 'page', action: 'create' });
    const [row] = await tx
      .insert(pages)
      .values({
        type: body.type,
        titleEn: body.titleEn,
        titleTh: body.titleTh,
        ...details,
        active,
        publishedAt: active && isLegal(body.type) ? sql`now()` : null,
      })
      .returning({ id: pages.id });
    await auditedId(tx, entry, row!.id);
    return row!.id;
  });
}

/**
 * The active pages of a type and the page `id`, locked in id order (one statement, so two saves of the
 * same type never lock in opposite orders), newest publication first: the first active one is in force.
 */
async function lockType(tx: Tx, type: PageType, id: number): Promise<PageRow[]> {
  const rows = await tx
    .select()
    .from(pages)
    .where(and(eq(pages.type, type), or(eq(pages.active, true), eq(pages.id, id))))
    .orderBy(asc(pages.id))
    .for('update');
  return rows.sort(
    (a, b) => (b.publishedAt?.getTime() ?? -1) - (a.publishedAt?.getTime() ?? -1) || b.id - a.id,
  );
}

/**
 * Saves the form, `{ active }` or `{ weight }`. Terms and privacy: a page made active is published now,
 * and so is the page in force when its text changes (the contract changed: everyone accepts it again);
 * the page in force can't be switched off while no other page of its type is active (the public pages
 * and /landing would have nothing to show). Audited as 'update' (the form, a tutorial's display order) or
 * 'toggle' (`{ active }`, the list's switch).
 */
export async function updatePage(db: Db, id: number, body: PagePatchBody, actor: AuditActor): Promise<void> {
  const [found] = await db.select({ type: pages.type }).from(pages).where(eq(pages.id, id));
  if (!found) throw new NotFound(PAGE_MESSAGES.notFound);
  if ('weight' in body) {
    if (found.type !== 'guide') throw new Invalid('body.weight: Only tutorials have a display order');
    await db.transaction(async (tx) => {
      await audit(tx, actor, { entity: 'page', entityId: id, action: 'update' });
      await tx.update(pages).set({ weight: body.weight, updatedAt: sql`now()` }).where(eq(pages.id, id));
    });
    return;
  }
  const form = 'type' in body ? body : null;
  if (form && form.type !== found.type)
    throw new Invalid(`body.type: This page is of type ${found.type}; its type can't change`);
  const details = form ? cleanDetails(form) : null;

  await db.transaction(async (tx) => {
    await audit(tx, actor, { entity: 'page', entityId: id, action: form ? 'update' : 'toggle' });
    const locked = await lockType(tx, found.type, id);
    const row = locked.find((page) => page.id === id);
    if (!row) throw new NotFound(PAGE_MESSAGES.notFound);
    const active = (form ? form.active : body.active) ?? row.active;
    const changes: PgUpdateSetSource<typeof pages> = { active, updatedAt: sql`now()` };
    if (form && details) Object.assign(changes, { titleEn: form.titleEn, titleTh: form.titleTh, ...details });

    if (isLegal(row.type)) {
      const inForce = locked.find((page) => page.active)?.id === row.id;
      if (inForce && !active && !locked.some((page) => page.active && page.id !== row.id))
        throw new Conflict(PAGE_MESSAGES.lastPublished);
      const textChanged =
        form !== null &&
        details !== null &&
        (form.titleEn !== row.titleEn ||
          form.titleTh !== row.titleTh ||
          details.detailEn !== row.detailEn ||
          details.detailTh !== row.detailTh);
      if ((active && !row.active) || (inForce && active && textChanged)) changes.publishedAt = sql`now()`;
    }
    await tx.update(pages).set(changes).where(eq(pages.id, id));
  });
}

/**
 * Only an inactive page can go (the list offers Delete only then). A terms or privacy page someone
 * accepted stays: acceptances are legal records (the foreign key RESTRICTs too, for any other path).
 */
export async function deletePage(db: Db, id: number, actor: AuditActor): Promise<void> {
  const [row] = await db.select({ active: pages.active }).from(pages).where(eq(pages.id, id));
  if (!row) throw new NotFound(PAGE_MESSAGES.notFound);
  if (row.active) throw new Conflict(PAGE_MESSAGES.activeDelete);
  const [accepted] = await db
    .select({ id: termAcceptances.id })
    .from(termAcceptances)
    .where(eq(termAcceptances.pageId, id))
    .limit(1);
  if (accepted) throw new Conflict(PAGE_MESSAGES.used);
  try {
    await db.transaction(async (tx) => {
      await audit(tx, actor, { entity: 'page', entityId: id, action: 'delete' });
      // `not active`: a switch turned on since the check above keeps the page.
      const deleted = await tx
        .delete(pages)
        .where(and(eq(pages.id, id), ne(pages.active, true)))
        .returning({ id: pages.id });
      if (deleted.length > 0) return;
      // Nothing deleted: the refusal rolls the entry back.
      const [still] = await tx.select({ id: pages.id }).from(pages).where(eq(pages.id, id));
      throw still ? new Conflict(PAGE_MESSAGES.activeDelete) : new NotFound(PAGE_MESSAGES.notFound);
    });
  } catch (error) {
    if (isForeignKeyViolation(error)) throw new Conflict(PAGE_MESSAGES.used);
    throw error;
  }
}

/** The tutorials the app shows: active, with a display order, in that order. */
export async function memberGuides(db: Db) {
  const rows = await db
    .select({
      id: pages.id,
      titleEn: pages.titleEn,
      titleTh: pages.titleTh,
      detailEn: pages.detailEn,
      detailTh: pages.detailTh,
      weight: pages.weight,
    })
    .from(pages)
    .where(and(eq(pages.type, 'guide'), eq(pages.active, true), gt(pages.weight, 0)))
    .orderBy(asc(pages.weight), asc(pages.id));
  return { total: rows.length, pages: rows };
}
