import { describe, expect, it } from 'vitest';
import { filterQueryOf, LatestParams, readListState } from './use-list-state.ts';

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

describe('LatestParams', () => {
  const ask = (latest: LatestParams, change: (params: URLSearchParams) => void) => {
    const next = latest.current();
    change(next);
    latest.ask(next);
    return next.toString();
  };

  it('builds an update on the one before it while the render still shows the old URL', () => {
    const latest = new LatestParams();
    latest.render('active=false&page=1');
    // Clear Data, then a sort before the cleared URL has rendered: the sort keeps the filters cleared.
    const cleared = ask(latest, (params) => params.delete('active'));
    latest.render('active=false&page=1');
    const sorted = ask(latest, (params) => params.set('sort', 'adminRole'));
    expect(cleared).toBe('page=1');
    expect(sorted).toBe('page=1&sort=adminRole');
  });

  it('keeps later updates pending when an earlier one renders', () => {
    const latest = new LatestParams();
    latest.render('a=1');
    ask(latest, (params) => params.set('b', '2'));
    ask(latest, (params) => params.set('c', '3'));
    latest.render('a=1&b=2');
    expect(latest.current().toString()).toBe('a=1&b=2&c=3');
    latest.render('a=1&b=2&c=3');
    expect(latest.current().toString()).toBe('a=1&b=2&c=3');
  });

  it('starts afresh from a URL it did not ask for (back, forward, a link)', () => {
    const latest = new LatestParams();
    latest.render('a=1');
    ask(latest, (params) => params.set('b', '2'));
    latest.render('z=9');
    expect(latest.current().toString()).toBe('z=9');
    expect(ask(latest, (params) => params.set('page', '2'))).toBe('z=9&page=2');
  });
});
