import type { LegalPage } from '@ev/shared';
import { ApiError, api } from './api.ts';

export type LegalType = LegalPage['type'];

/** The published terms or privacy page; null when none is published (404). Public: no token. */
export async function fetchLegalPage(type: LegalType): Promise<LegalPage | null> {
  try {
    const body = await api<Partial<Record<LegalType, LegalPage>>>(`/${type === 'terms' ? 'terms' : 'privacy'}`, {
      token: null,
    });
    return body[type] ?? null;
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return null;
    throw error;
  }
}
