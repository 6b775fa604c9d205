import { MENU_LEAVES } from '@ev/shared';
import { matchPath } from 'react-router';
import { describe, expect, it } from 'vitest';
import { SHELL_PATHS } from './route-table.ts';

const matchesShellRoute = (pathname: string) => SHELL_PATHS.some((path) => matchPath(path, pathname));

describe('shell route table', () => {
  it("holds the 29 routes of the spec, issue 35's two and issue 36's three", () => {
    expect(new Set(SHELL_PATHS).size).toBe(34);
  });

  it('has a route for every menu entry', () => {
    for (const leaf of MENU_LEAVES) expect(matchesShellRoute(leaf.path), leaf.path).toBe(true);
  });

  it('has the detail and new routes of the forms', () => {
    for (const path of [
      '/merchant/new',
      '/landlord/4',
      '/promotion/discount/new',
      '/guide/2',
      '/price/new',
    ]) {
      expect(matchesShellRoute(path), path).toBe(true);
    }
    expect(matchesShellRoute('/no-such-page')).toBe(false);
  });
});
