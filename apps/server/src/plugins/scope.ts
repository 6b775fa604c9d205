import { eq, type SQL, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { landlords, merchants, parties, partyLandlords } from '../db/schema/index.ts';
import { type Bind, bindValue, nothing } from '../lib/list-query.ts';
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

/**
 * The rows a scope may see, for rows that name their site and its cluster (a site itself, or a booking or
 * payment that copied them); undefined = no limit.
 */
export function siteScopeOn(
  scope: DataScope,
  columns: { merchantId: AnyPgColumn; landlordId: AnyPgColumn },
  bind: Bind = bindValue,
): SQL | undefined {
  switch (scope.kind) {
    case 'all':
      return undefined;
    case 'merchant':
      return scope.merchantId === null
        ? nothing()
        : eq(columns.merchantId, bind('scopeMerchantId', scope.merchantId));
    case 'landlord':
      return scope.landlordId === null
        ? nothing()
        : eq(columns.landlordId, bind('scopeLandlordId', scope.landlordId));
    case 'party':
      return scope.partyId === null
        ? nothing()
        : sql`${columns.landlordId} in (select ${partyLandlords.landlordId} from ${partyLandlords} where ${partyLandlords.partyId} = ${bind('scopePartyId', scope.partyId)})`;
  }
}

/** The sites (landlords) a scope may see, as a condition on `landlords`; undefined = no limit. */
export const landlordScope = (scope: DataScope): SQL | undefined =>
  siteScopeOn(scope, { merchantId: landlords.merchantId, landlordId: landlords.id });

/** The clusters (merchants) a scope may see: its own, or those holding its sites; undefined = no limit. */
export function merchantScope(scope: DataScope): SQL | undefined {
  switch (scope.kind) {
    case 'all':
      return undefined;
    case 'merchant':
      return scope.merchantId === null ? nothing() : eq(merchants.id, scope.merchantId);
    case 'landlord':
      return scope.landlordId === null
        ? nothing()
        : sql`${merchants.id} in (select ${landlords.merchantId} from ${landlords} where ${landlords.id} = ${scope.landlordId})`;
    case 'party':
      return scope.partyId === null
        ? nothing()
        : sql`${merchants.id} in (select ${landlords.merchantId} from ${landlords} join ${partyLandlords} on ${partyLandlords.landlordId} = ${landlords.id} where ${partyLandlords.partyId} = ${scope.partyId})`;
  }
}

/** The groups (parties) a scope may see: its own, or those holding a site it sees; undefined = no limit. */
export function partyScope(scope: DataScope): SQL | undefined {
  switch (scope.kind) {
    case 'all':
      return undefined;
    case 'party':
      return scope.partyId === null ? nothing() : eq(parties.id, scope.partyId);
    case 'merchant':
      return scope.merchantId === null
        ? nothing()
        : sql`${parties.id} in (select ${partyLandlords.partyId} from ${partyLandlords} join ${landlords} on ${landlords.id} = ${partyLandlords.landlordId} where ${landlords.merchantId} = ${scope.merchantId})`;
    case 'landlord':
      return scope.landlordId === null
        ? nothing()
        : sql`${parties.id} in (select ${partyLandlords.partyId} from ${partyLandlords} where ${partyLandlords.landlordId} = ${scope.landlordId})`;
  }
}
