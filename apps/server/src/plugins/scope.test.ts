import { ADMIN_ROLES } from '@ev/shared';
import type { SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import { describe, expect, it } from 'vitest';
import { landlordScope, merchantScope, partyScope, scopeOf } from './scope.ts';

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

describe('scope conditions', () => {
  const dialect = new PgDialect();
  const render = (part: SQL | undefined) => (part ? dialect.sqlToQuery(part) : undefined);

  it('leaves the unscoped roles unlimited', () => {
    const all = { kind: 'all' } as const;
    expect(landlordScope(all)).toBeUndefined();
    expect(merchantScope(all)).toBeUndefined();
    expect(partyScope(all)).toBeUndefined();
  });

  it('shows nothing to a scoped user without its link', () => {
    for (const scope of [
      { kind: 'merchant', merchantId: null },
      { kind: 'landlord', landlordId: null },
      { kind: 'party', partyId: null },
    ] as const) {
      for (const condition of [landlordScope, merchantScope, partyScope]) {
        expect(render(condition(scope))?.sql).toBe('false');
      }
    }
  });

  it('limits sites to the cluster, the site, or the group', () => {
    expect(render(landlordScope({ kind: 'merchant', merchantId: 11 }))).toMatchObject({
      sql: '"landlords"."merchant_id" = $1',
      params: [11],
    });
    expect(render(landlordScope({ kind: 'landlord', landlordId: 22 }))).toMatchObject({
      sql: '"landlords"."id" = $1',
      params: [22],
    });
    const party = render(landlordScope({ kind: 'party', partyId: 33 }));
    expect(party?.sql).toContain('"party_landlords"."party_id" = $1');
    expect(party?.params).toEqual([33]);
  });

  it("limits clusters to the own one or those holding the scope's sites", () => {
    expect(render(merchantScope({ kind: 'merchant', merchantId: 11 }))?.params).toEqual([11]);
    expect(render(merchantScope({ kind: 'landlord', landlordId: 22 }))?.sql).toContain(
      '"landlords"."id" = $1',
    );
    expect(render(merchantScope({ kind: 'party', partyId: 33 }))?.sql).toContain(
      '"party_landlords"."party_id" = $1',
    );
  });
});
