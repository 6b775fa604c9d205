import { and, eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import {
  chargers,
  landlords,
  merchants,
  promotionLandlords,
  promotionRedemptions,
  promotions,
} from '../../db/schema/index.ts';

/** The member API's refusal at a private station. */
export const PRIVATE_STATION = 'This station is private: for the members of its site only';

/**
 * A private station's site: the charger's site when its cluster is Internal Used (document 3: such a site
 * serves only its members), else null (a public station, or no such charger).
 */
export async function privateSiteOfCharger(db: Db, chargerId: string): Promise<number | null> {
  const [row] = await db
    .select({ landlordId: chargers.landlordId, internal: merchants.internal })
    .from(chargers)
    .innerJoin(landlords, eq(landlords.id, chargers.landlordId))
    .innerJoin(merchants, eq(merchants.id, landlords.merchantId))
    .where(eq(chargers.id, chargerId));
  return row?.internal ? row.landlordId : null;
}

/** Whether a site is private (its cluster Internal Used). */
export async function isPrivateSite(db: Db, landlordId: number): Promise<boolean> {
  const [row] = await db
    .select({ internal: merchants.internal })
    .from(landlords)
    .innerJoin(merchants, eq(merchants.id, landlords.merchantId))
    .where(eq(landlords.id, landlordId));
  return row?.internal ?? false;
}

/** The redemptions that make members of a site: a private station code of an active promotion naming it. */
const siteRedemptions = (db: Db, landlordId: number, userId?: number) =>
  db
    .select({ userId: promotionRedemptions.userId })
    .from(promotionRedemptions)
    .innerJoin(promotions, eq(promotions.id, promotionRedemptions.promotionId))
    .innerJoin(promotionLandlords, eq(promotionLandlords.promotionId, promotions.id))
    .where(
      and(
        userId === undefined ? undefined : eq(promotionRedemptions.userId, userId),
        eq(promotions.type, 'landlord'),
        eq(promotions.active, true),
        eq(promotionLandlords.landlordId, landlordId),
      ),
    );

/**
 * Whether the member is one of the site's members: they redeemed a private station (landlord) code of a
 * promotion that is active and names the site. The code's validity dates bound when it can be redeemed, not
 * the membership; staff end a membership by switching the promotion off.
 */
export async function isSiteMember(db: Db, userId: number, landlordId: number): Promise<boolean> {
  const [row] = await siteRedemptions(db, landlordId, userId).limit(1);
  return row !== undefined;
}

/** The site's members (isSiteMember), as a subquery of user ids (the local list of its chargers). */
export const siteMemberIds = (db: Db, landlordId: number) => siteRedemptions(db, landlordId);
