import { LIST_PAGE_SIZE } from '@ev/shared';
import { useCallback, useLayoutEffect, useMemo, useState } from 'react';
import { useSearchParams } from 'react-router';

/** How a filter lives in the URL: 'many' is a repeated param (`merchantId=1&merchantId=2`), 'one' a single value. */
export type FilterKind = 'many' | 'one';
export type FilterSpec = Record<string, FilterKind>;
export type FilterValues<S extends FilterSpec> = {
  [K in keyof S]?: S[K] extends 'many' ? string[] : string;
};

export type SortOrder = 'asc' | 'desc';

export interface ListState<S extends FilterSpec> {
  filters: FilterValues<S>;
  page: number;
  size: number;
  sort?: string;
  order?: SortOrder;
  /** The filters only, as a query string: what Export sends. */
  filterQuery: string;
  /** Filters, paging and sort, as a query string: what the list call sends. */
  listQuery: string;
  /** A new search: the given filters from page 1, keeping size and sort. */
  search: (filters: FilterValues<S>) => void;
  /** Paging or sorting changed in the table. */
  setPaging: (paging: { page: number; size: number; sort?: string; order?: SortOrder }) => void;
}

const PAGING_KEYS = ['page', 'size', 'sort', 'order'] as const;

function positiveInt(value: string | null, fallback: number): number {
  const parsed = Number(value);
  return Number.isInteger(parsed) && parsed > 0 ? parsed : fallback;
}

function writeFilters<S extends FilterSpec>(spec: S, filters: FilterValues<S>, params: URLSearchParams) {
  for (const key of Object.keys(spec)) {
    const value = filters[key];
    if (Array.isArray(value)) for (const item of value) params.append(key, item);
    else if (typeof value === 'string' && value !== '') params.set(key, value);
  }
}

/** The list state in `params`: only the keys of `spec`, page, size and a complete sort (key and order). */
export function readListState<S extends FilterSpec>(
  spec: S,
  current: URLSearchParams,
): Omit<ListState<S>, 'search' | 'setPaging'> {
  const filters: Record<string, string | string[]> = {};
  for (const [name, kind] of Object.entries(spec)) {
    if (kind === 'many') {
      const values = current.getAll(name);
      if (values.length > 0) filters[name] = values;
    } else {
      const value = current.get(name);
      if (value) filters[name] = value;
    }
  }
  const rawSort = current.get('sort') ?? undefined;
  const rawOrder = current.get('order');
  const order: SortOrder | undefined = rawOrder === 'asc' || rawOrder === 'desc' ? rawOrder : undefined;
  const sort = rawSort && order ? rawSort : undefined;
  const page = positiveInt(current.get('page'), 1);
  const size = positiveInt(current.get('size'), LIST_PAGE_SIZE);

  const filterParams = new URLSearchParams();
  writeFilters(spec, filters as FilterValues<S>, filterParams);
  const listParams = new URLSearchParams(filterParams);
  listParams.set('page', String(page));
  listParams.set('size', String(size));
  if (sort && order) {
    listParams.set('sort', sort);
    listParams.set('order', order);
  }
  return {
    filters: filters as FilterValues<S>,
    page,
    size,
    sort,
    order: sort ? order : undefined,
    filterQuery: filterParams.toString(),
    listQuery: listParams.toString(),
  };
}

/** The filter query string that `search(filters)` leads to, as `filterQuery` will read it from the URL. */
export function filterQueryOf<S extends FilterSpec>(spec: S, filters: FilterValues<S>): string {
  const params = new URLSearchParams();
  writeFilters(spec, filters, params);
  return readListState(spec, params).filterQuery;
}

/**
 * The params the next list update builds on. react-router hands a functional `setSearchParams` update the
 * params of the last render, not of the latest URL, and navigations render in a transition: an update that
 * lands before the previous one has rendered (a quick click, a busy machine) would build on the old URL and
 * undo it (Clear Data, then a sort, brought the cleared filters back). This remembers the updates asked for
 * until a render shows them; a render of any other URL (back/forward, a link) starts afresh from it.
 */
export class LatestParams {
  private rendered = '';
  /** The URL the pending updates were built on, and the pending updates in order. */
  private base = '';
  private pending: string[] = [];

  /** Called on every commit with the query the screen now shows. */
  render(query: string): void {
    this.rendered = query;
    if (this.pending.length === 0 || query === this.base) return;
    const reached = this.pending.indexOf(query);
    this.pending = reached >= 0 ? this.pending.slice(reached + 1) : [];
    this.base = query;
  }

  /** The params as the updates asked so far will leave them. */
  current(): URLSearchParams {
    return new URLSearchParams(this.pending.at(-1) ?? this.rendered);
  }

  /** Records an update on its way to the URL. */
  ask(next: URLSearchParams): void {
    if (this.pending.length === 0) this.base = this.rendered;
    this.pending.push(next.toString());
  }
}

/**
 * The state of a list screen, kept in the URL search params so reload, back/forward and the return from a
 * setting page restore it. Only the keys of `spec` (and page, size, sort, order) are read.
 */
export function useListState<S extends FilterSpec>(spec: S): ListState<S> {
  const [params, setParams] = useSearchParams();
  const key = params.toString();
  const [latest] = useState(() => new LatestParams());
  // On commit, not in render: a render of a transition can be thrown away; what was committed is what the
  // user clicks on.
  useLayoutEffect(() => latest.render(key), [latest, key]);

  const state = useMemo(() => readListState(spec, new URLSearchParams(key)), [key, spec]);

  const search = useCallback(
    (filters: FilterValues<S>) =>
      setParams(() => {
        const previous = latest.current();
        const next = new URLSearchParams();
        writeFilters(spec, filters, next);
        for (const name of ['size', 'sort', 'order'] as const) {
          const value = previous.get(name);
          if (value) next.set(name, value);
        }
        next.set('page', '1');
        latest.ask(next);
        return next;
      }),
    [setParams, spec, latest],
  );

  const setPaging = useCallback<ListState<S>['setPaging']>(
    ({ page, size, sort, order }) =>
      setParams(() => {
        const next = latest.current();
        for (const name of PAGING_KEYS) next.delete(name);
        next.set('page', String(page));
        next.set('size', String(size));
        if (sort && order) {
          next.set('sort', sort);
          next.set('order', order);
        }
        latest.ask(next);
        return next;
      }),
    [setParams, latest],
  );

  return { ...state, search, setPaging };
}
