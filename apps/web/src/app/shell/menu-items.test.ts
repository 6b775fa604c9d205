import { MENU, menuForRole } from '@ev/shared';
import { describe, expect, it } from 'vitest';
import { groupKeyOf, selectedMenuKey } from './menu-items.ts';

describe('selectedMenuKey', () => {
  it('selects the entry of the route and of its detail pages', () => {
    expect(selectedMenuKey('/merchant', MENU)).toBe('cluster');
    expect(selectedMenuKey('/merchant/12', MENU)).toBe('cluster');
    expect(selectedMenuKey('/landlord/new', MENU)).toBe('site');
  });

  it('prefers the longest matching path', () => {
    expect(selectedMenuKey('/promotion/landlord/3', MENU)).toBe('code');
    expect(selectedMenuKey('/promotion/point', MENU)).toBe('point-code');
    expect(selectedMenuKey('/charger-brand/2', MENU)).toBe('charger-brand');
    expect(selectedMenuKey('/charger/2', MENU)).toBe('charger');
  });

  it('does not match a path that only starts with the same letters', () => {
    expect(selectedMenuKey('/guide-manage', MENU)).toBe('guide-manage');
    expect(selectedMenuKey('/user-detail', MENU)).toBeUndefined();
  });

  it('only selects entries the role sees', () => {
    expect(selectedMenuKey('/merchant', menuForRole('marketting'))).toBeUndefined();
  });
});

describe('groupKeyOf', () => {
  it('finds the submenu to open', () => {
    expect(groupKeyOf('charger', MENU)).toBe('devices');
    expect(groupKeyOf('site', MENU)).toBeUndefined();
    expect(groupKeyOf(undefined, MENU)).toBeUndefined();
  });
});
