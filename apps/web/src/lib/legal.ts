import type { LegalPage } from '@ev/shared';
import { ApiError, api } from './api.ts';

export type LegalType = LegalPage['type'];

/** The published terms or privacy page; null when none is published (404). Public: no token. */
export async function fetchLegalPage(type: LegalType): Promise<LegalPage | null> {
  try {
    const body = await api<Partial<Record<LegalType, LegalPage>>>(
      `/${type === 'terms' ? 'terms' : 'privacy'}`,
      {
        token: null,
      },
    );
    return body[type] ?? null;
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return null;
    throw error;
  }
}

const LEADING_HEADING = /^\s*<h[1-6][^>]*>([\s\S]*?)<\/h[1-6]>/i;

/** True when the HTML opens with a heading of this title, so the screen need not show the title twice. */
export function opensWithTitle(html: string, title: string): boolean {
  const heading = LEADING_HEADING.exec(html)?.[1];
  if (heading === undefined) return false;
  const text = heading
    .replace(/<[^>]*>/g, '')
    .replace(/&nbsp;/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return text.length > 0 && text === title.replace(/\s+/g, ' ').trim();
}
