import { describe, expect, it } from 'vitest';
import { filterQueryOf, readListState } from './use-list-state.ts';

const SPEC = { merchantId: 'many', internal: 'one' } as const;
const read = (query: string) => readListState(SPEC, new URLSearchParams(query));

describe('readListState', () => {
  it('defaults to page 1 of 10, unsorted, no filters', () => {
    expect(read('')).toMatchObject({ filters: {}, page: 1, size: 10, sort: undefined, order: undefined });
    expect(read('').listQuery).toBe('page=1&size=10');
    expect(read('').filterQuery).toBe('');
  });

  it('reads repeated and single filters, paging and sort', () => {
    const state = read('merchantId=1&merchantId=2&internal=true&page=3&size=20&sort=nameEn&order=desc');
    expect(state.filters).toEqual({ merchantId: ['1', '2'], internal: 'true' });
    expect(state).toMatchObject({ page: 3, size: 20, sort: 'nameEn', order: 'desc' });
    expect(state.filterQuery).toBe('merchantId=1&merchantId=2&internal=true');
    expect(state.listQuery).toBe(
      'merchantId=1&merchantId=2&internal=true&page=3&size=20&sort=nameEn&order=desc',
    );
  });

  it('ignores unknown keys, bad numbers and a sort without an order', () => {
    const state = read('other=1&page=-2&size=abc&sort=nameEn&internal=');
    expect(state.filters).toEqual({});
    expect(state).toMatchObject({ page: 1, size: 10, sort: undefined, order: undefined });
    expect(state.listQuery).toBe('page=1&size=10');
  });
});

describe('filterQueryOf', () => {
  it('gives the filter query a search leads to, as the URL will read it', () => {
    const query = filterQueryOf(SPEC, { internal: 'true', merchantId: ['2', '1'] });
    expect(query).toBe('merchantId=2&merchantId=1&internal=true');
    expect(read(`${query}&page=1`).filterQuery).toBe(query);
    expect(filterQueryOf(SPEC, { internal: '', merchantId: [] })).toBe('');
  });
});
