import { useQuery } from '@tanstack/react-query';
import { api } from '../../lib/api.ts';

/** `GET /api{endpoint}/{id}` answering `{ [key]: record }`: the record. */
export const fetchRecord = <T>(endpoint: string, key: string, id: string | number) =>
  api<Record<string, T>>(`${endpoint}/${id}`).then((body) => body[key] as T);

/**
 * One record for its setting page: `GET /api{endpoint}/{id}` answering `{ [key]: record }`. Nothing is
 * fetched for a new record (`id` undefined). An unknown or out-of-scope id (404) is left to the page, which
 * shows the not-found result.
 */
export function useRecord<T>(endpoint: string, key: string, id: string | undefined) {
  return useQuery({
    meta: { handledStatuses: [404] },
    queryKey: [endpoint, 'detail', id],
    queryFn: () => fetchRecord<T>(endpoint, key, id!),
    enabled: id !== undefined,
    // The form takes its initial values once: never from an older copy.
    gcTime: 0,
  });
}

/**
 * As `useRecord`, with the whole answer: the record under `key` and what the detail answers beside it (the
 * charger's `powerProfile`). Its own key under `[endpoint, 'detail', id]`, so invalidating the record's
 * detail reads it again too.
 */
export function useRecordAnswer<A extends object>(endpoint: string, id: string | undefined) {
  return useQuery({
    meta: { handledStatuses: [404] },
    queryKey: [endpoint, 'detail', id, 'answer'],
    queryFn: () => api<A>(`${endpoint}/${id}`),
    enabled: id !== undefined,
    gcTime: 0,
  });
}

/** Creates (`POST /api{endpoint}`) or saves (`PATCH /api{endpoint}/{id}`) a setting form or a modal's record. */
export function saveRecord(endpoint: string, id: string | number | undefined, body: unknown) {
  return id === undefined
    ? api(endpoint, { method: 'POST', body })
    : api(`${endpoint}/${id}`, { method: 'PATCH', body });
}

/** The id of a setting route: 'new' creates. */
export const recordId = (param: string | undefined) => (param === 'new' ? undefined : param);
