import { useQuery } from '@tanstack/react-query';
import { api } from '../../lib/api.ts';

/**
 * One record for its setting page: `GET /api{endpoint}/{id}` answering `{ [key]: record }`. Nothing is
 * fetched for a new record (`id` undefined). An unknown or out-of-scope id (404) is left to the page, which
 * shows the not-found result.
 */
export function useRecord<T>(endpoint: string, key: string, id: string | undefined) {
  return useQuery({
    meta: { handledStatuses: [404] },
    queryKey: [endpoint, 'detail', id],
    queryFn: () => api<Record<string, T>>(`${endpoint}/${id}`).then((body) => body[key] as T),
    enabled: id !== undefined,
    // The form takes its initial values once: never from an older copy.
    gcTime: 0,
  });
}

/** Creates (`POST /api{endpoint}`) or saves (`PATCH /api{endpoint}/{id}`) a setting form. */
export function saveRecord(endpoint: string, id: string | undefined, body: unknown) {
  return id === undefined
    ? api(endpoint, { method: 'POST', body })
    : api(`${endpoint}/${id}`, { method: 'PATCH', body });
}

/** The id of a setting route: 'new' creates. */
export const recordId = (param: string | undefined) => (param === 'new' ? undefined : param);
