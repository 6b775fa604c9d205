import { ADMIN_ROLES } from '@ev/shared';
import { describe, expect, it } from 'vitest';
import { scopeOf } from './scope.ts';

const links = { merchantId: 11, landlordId: 22, partyId: 33 };

describe('scopeOf', () => {
  it.each([
    ['admin', { kind: 'all' }],
    ['callcenter', { kind: 'all' }],
    ['marketting', { kind: 'all' }],
    ['merchant', { kind: 'merchant', merchantId: 11 }],
    ['landlord', { kind: 'landlord', landlordId: 22 }],
    ['party', { kind: 'party', partyId: 33 }],
    ['station', { kind: 'party', partyId: 33 }],
  ] as const)('%s sees %o', (adminRole, expected) => {
    expect(scopeOf({ adminRole, ...links })).toEqual(expected);
  });

  it('covers every role', () => {
    for (const adminRole of ADMIN_ROLES) expect(scopeOf({ adminRole, ...links })).toBeDefined();
  });

  it('keeps a missing link as null, so a scoped user without one sees nothing', () => {
    const none = { merchantId: null, landlordId: null, partyId: null };
    expect(scopeOf({ adminRole: 'merchant', ...none })).toEqual({ kind: 'merchant', merchantId: null });
    expect(scopeOf({ adminRole: 'landlord', ...none })).toEqual({ kind: 'landlord', landlordId: null });
    expect(scopeOf({ adminRole: 'station', ...none })).toEqual({ kind: 'party', partyId: null });
  });
});
