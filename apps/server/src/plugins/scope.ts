import type { AuthUser } from './auth.ts';

/**
 * The data a role may see, defined once. merchant: its cluster; landlord: its site; party and station: the
 * sites of their group; admin, callcenter and marketting: everything. A scoped user whose link is missing
 * (null id) sees nothing. Every list, detail, export and action applies it; outside it is a 404.
 */
export type DataScope =
  | { kind: 'all' }
  | { kind: 'merchant'; merchantId: number | null }
  | { kind: 'landlord'; landlordId: number | null }
  | { kind: 'party'; partyId: number | null };

export function scopeOf(
  user: Pick<AuthUser, 'adminRole' | 'merchantId' | 'landlordId' | 'partyId'>,
): DataScope {
  switch (user.adminRole) {
    case 'merchant':
      return { kind: 'merchant', merchantId: user.merchantId };
    case 'landlord':
      return { kind: 'landlord', landlordId: user.landlordId };
    case 'party':
    case 'station':
      return { kind: 'party', partyId: user.partyId };
    case 'admin':
    case 'callcenter':
    case 'marketting':
      return { kind: 'all' };
  }
}
