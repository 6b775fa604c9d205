import { useQuery } from '@tanstack/react-query';
import { fetchLegalPage, type LegalType } from '../../lib/legal.ts';

/**
 * The page as drivers see it. Its readers are not back-office staff, so no 'contact web admin' notice:
 * the page shows its own empty state instead.
 */
export function usePublicLegalPage(type: LegalType) {
  return useQuery({
    queryKey: ['public-legal', type],
    queryFn: () => fetchLegalPage(type),
    meta: { silent: true },
  });
}
