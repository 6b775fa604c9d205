import type { LegalPage } from '@ev/shared';
import { and, desc, eq, gte, sql } from 'drizzle-orm';
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
 * A user has accepted the terms when, for each of terms and privacy, there is no page in force or the
 * user accepted the page in force after it was last published.
 */
export async function hasAcceptedTerms(db: Db, userId: number): Promise<boolean> {
  for (const type of LEGAL_TYPES) {
    const page = await activeLegalPage(db, type);
    if (!page) continue;
    const conditions = [eq(termAcceptances.userId, userId), eq(termAcceptances.pageId, page.id)];
    if (page.publishedAt) conditions.push(gte(termAcceptances.acceptedAt, page.publishedAt));
    const [accepted] = await db
      .select({ id: termAcceptances.id })
      .from(termAcceptances)
      .where(and(...conditions))
      .limit(1);
    if (!accepted) return false;
  }
  return true;
}
