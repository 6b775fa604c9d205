import type { LegalPage } from '@ev/shared';
import { type AnyColumn, and, desc, eq, getTableName, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { pages, termAcceptances } from '../../db/schema/index.ts';
import { NotFound } from '../../lib/errors.ts';

export type LegalType = 'terms' | 'privacy';
export const LEGAL_TYPES: readonly LegalType[] = ['terms', 'privacy'];

/** The page in force of a type: the active one published last. */
export async function activeLegalPage(db: Db, type: LegalType) {
  const [page] = await db
    .select()
    .from(pages)
    .where(and(eq(pages.type, type), eq(pages.active, true)))
    .orderBy(sql`${pages.publishedAt} desc nulls last`, desc(pages.id))
    .limit(1);
  return page ?? null;
}

export async function publishedLegalPage(db: Db, type: LegalType): Promise<LegalPage> {
  const page = await activeLegalPage(db, type);
  if (!page) throw new NotFound(type === 'terms' ? 'No terms published' : 'No privacy policy published');
  return {
    id: page.id,
    type,
    titleEn: page.titleEn,
    titleTh: page.titleTh,
    detailEn: page.detailEn,
    detailTh: page.detailTh,
    updatedAt: page.updatedAt.toISOString(),
  };
}

/**
 * SQL for "the user has accepted the terms": for each of terms and privacy, there is no page in force, or
 * the user accepted the page in force after it was last published. One expression, so the profile call
 * that every screen makes stays one query.
 */
export function termAcceptSql(userId: AnyColumn | number): SQL<boolean> {
  // Drizzle writes the columns of a one-table select unqualified ("id"); inside the subquery that would
  // name term_acceptances.id, so a column is qualified with its table here.
  const user =
    typeof userId === 'number'
      ? sql`${userId}`
      : sql`${sql.identifier(getTableName(userId.table))}.${sql.identifier(userId.name)}`;
  return sql<boolean>`not exists (
    select 1 from (
      select distinct on (${pages.type}) ${pages.id} as id, ${pages.publishedAt} as published_at
      from ${pages}
      where ${pages.type} in ('terms', 'privacy') and ${pages.active}
      order by ${pages.type}, ${pages.publishedAt} desc nulls last, ${pages.id} desc
    ) in_force
    where not exists (
      select 1 from ${termAcceptances}
      where ${termAcceptances.userId} = ${user}
        and ${termAcceptances.pageId} = in_force.id
        and (in_force.published_at is null or ${termAcceptances.acceptedAt} >= in_force.published_at)
    )
  )`;
}

export async function hasAcceptedTerms(db: Db, userId: number): Promise<boolean> {
  const [row] = await db.select({ accepted: termAcceptSql(userId) }).from(sql`(select 1) as one`);
  return row?.accepted === true;
}
