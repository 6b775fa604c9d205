import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api } from '../../lib/api.ts';

/** Every list call's query key starts with this, so a row action can reload whatever list is shown. */
export const LIST_QUERY_KEY = 'list';

export interface ListPageData<T> {
  total: number;
  items: T[];
}

/**
 * How often a shown page reloads (ms): always, or as the page last loaded says (false: not at all), so a list
 * polls only while a row on it changes by itself.
 */
export type ListRefetch<T> = number | ((data: ListPageData<T> | undefined) => number | false);

/**
 * `GET /api{endpoint}?{query}` answering `{ total, [itemsKey]: T[] }`; with `refetchInterval` it polls
 * while the page is visible (TanStack pauses it in a background tab).
 */
export function useListQuery<T>(
  endpoint: string,
  itemsKey: string,
  query: string,
  refetchInterval?: ListRefetch<T>,
) {
  return useQuery({
    queryKey: [LIST_QUERY_KEY, endpoint, query],
    queryFn: async ({ signal }): Promise<ListPageData<T>> => {
      const body = await api<Record<string, unknown>>(`${endpoint}?${query}`, { signal });
      return { total: Number(body.total ?? 0), items: (body[itemsKey] as T[] | undefined) ?? [] };
    },
    placeholderData: keepPreviousData,
    staleTime: 0,
    refetchInterval:
      typeof refetchInterval === 'function'
        ? (current) => refetchInterval(current.state.data)
        : refetchInterval,
  });
}
