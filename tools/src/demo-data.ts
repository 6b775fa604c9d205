import type { Db } from '@ev/server/db/client';
import {
  landlordBusinessHours,
  landlords,
  merchants,
  pages,
  parties,
  partyLandlords,
  users,
} from '@ev/server/db/schema/index';
import { hashPassword } from '@ev/server/lib/password';
import { sanitizeRichHtml } from '@ev/server/lib/sanitize';
import { count, sql } from 'drizzle-orm';
import { loadDemoAlerts } from './demo-alerts.ts';
import { loadDemoBookings } from './demo-bookings.ts';
import { loadDemoBrands } from './demo-brands.ts';
import { loadDemoChargers } from './demo-chargers.ts';
import { loadDemoContact } from './demo-contact.ts';
import { DEMO_GUIDES } from './demo-guides.ts';
import { loadDemoPeople } from './demo-people.ts';
import { DEMO_CLUSTERS, DEMO_GROUPS, DEMO_SITES, DEMO_USER_PLACES } from './demo-places.ts';
import { loadDemoPrices } from './demo-prices.ts';
import { loadDemoPromotions } from './demo-promotions.ts';
import { DEMO_PASSWORD, DEMO_USERS } from './demo-users.ts';
import { PRIVACY, TERMS } from './legal-content.ts';

export { DEMO_PASSWORD, DEMO_USERS };

/** The transaction the demo loaders write in. */
export type DemoTx = Parameters<Parameters<Db['transaction']>[0]>[0];

/** What the later loaders get: the ids of the places loaded first, and the demo password's hash. */
export interface DemoPlaces {
  clusterIds: ReadonlyMap<string, number>;
  siteIds: ReadonlyMap<string, number>;
  groupIds: ReadonlyMap<string, number>;
  passHash: string;
}

/** Looks up a key in a map built from the demo data; a miss is a typo in demo-places.ts. */
function idOf(ids: Map<string, number>, key: string, what: string): number {
  const id = ids.get(key);
  if (id === undefined) throw new Error(`Demo data: unknown ${what} '${key}'`);
  return id;
}

/** Pairs keys with the ids of a multi-row insert; identity ids are assigned in VALUES order. */
function keyed(records: readonly { key: string }[], rows: readonly { id: number }[]): Map<string, number> {
  const ids = rows.map((row) => row.id).sort((a, b) => a - b);
  const map = new Map<string, number>();
  records.forEach((record, i) => {
    if (map.has(record.key)) throw new Error(`Demo data: duplicate key '${record.key}'`);
    map.set(record.key, ids[i]!);
  });
  return map;
}

export interface DemoDataOptions {
  /**
   * About 90 days of bookings and payments (demo-bookings.ts): on for `npm start`; off by default, so a caller
   * that writes its own bookings (the browser tests' stories) finds only those.
   */
  history?: boolean;
}

/**
 * Loads the demo records on an empty database (no content pages, no clusters and at most the first admin),
 * all in one transaction. Returns a summary of what was loaded, or null when the database already held data.
 */
export async function loadDemoData(
  db: Db,
  options: DemoDataOptions = {},
): Promise<{ summary: string } | null> {
  const [userCount] = await db.select({ n: count() }).from(users);
  const [pageCount] = await db.select({ n: count() }).from(pages);
  const [clusterCount] = await db.select({ n: count() }).from(merchants);
  if ((userCount?.n ?? 0) > 1 || (pageCount?.n ?? 0) > 0 || (clusterCount?.n ?? 0) > 0) return null;

  const passHash = await hashPassword(DEMO_PASSWORD);
  let hoursRows = 0;
  let groupLinks = 0;
  const more: string[] = [];
  await db.transaction(async (tx) => {
    const insertedClusters = await tx
      .insert(merchants)
      .values(
        DEMO_CLUSTERS.map((c) => ({
          nameEn: c.name[0],
          nameTh: c.name[1],
          internal: c.internal,
          active: c.active,
          addrEn: c.addr[0],
          addrTh: c.addr[1],
          provinceId: c.provinceId,
          taxId: c.taxId,
          tel: c.tel,
        })),
      )
      .returning({ id: merchants.id });
    const clusterIds = keyed(DEMO_CLUSTERS, insertedClusters);

    const insertedSites = await tx
      .insert(landlords)
      .values(
        DEMO_SITES.map((s) => ({
          merchantId: idOf(clusterIds, s.cluster, 'cluster'),
          nameEn: s.name[0],
          nameTh: s.name[1],
          latitude: s.at[0],
          longitude: s.at[1],
          businessHoursType: s.hoursType,
          meaId: s.meaId ?? null,
          peaId: s.peaId ?? null,
          partnerProjectId: s.ruejaiProject ?? null,
          partnerUserType: s.ruejaiProject ? 'ruejai' : null,
          descEn: s.desc[0],
          descTh: s.desc[1],
          addrEn: s.addr[0],
          addrTh: s.addr[1],
          provinceId: s.provinceId,
          tel: s.tel ?? null,
          active: s.active ?? true,
          maxPowerKw: s.maxPowerKw === undefined ? null : s.maxPowerKw.toFixed(2),
          phases: s.phases ?? null,
          voltage: s.voltage ?? null,
        })),
      )
      .returning({ id: landlords.id });
    const siteIds = keyed(DEMO_SITES, insertedSites);

    const hours = DEMO_SITES.flatMap((s) =>
      s.hoursType === 'period' ? (s.hours ?? []).map((h) => ({ landlordId: siteIds.get(s.key)!, ...h })) : [],
    );
    if (hours.length > 0) await tx.insert(landlordBusinessHours).values(hours);
    hoursRows = hours.length;

    const insertedGroups = await tx
      .insert(parties)
      .values(DEMO_GROUPS.map((g) => ({ nameEn: g.name[0], nameTh: g.name[1], active: g.active })))
      .returning({ id: parties.id });
    const groupIds = keyed(DEMO_GROUPS, insertedGroups);
    const links = DEMO_GROUPS.flatMap((g) =>
      g.sites.map((site) => ({ partyId: groupIds.get(g.key)!, landlordId: idOf(siteIds, site, 'site') })),
    );
    await tx.insert(partyLandlords).values(links);
    groupLinks = links.length;

    await tx.insert(users).values(
      DEMO_USERS.map((user) => {
        const place = DEMO_USER_PLACES[user.email];
        return {
          type: 'admin' as const,
          email: user.email,
          passHash,
          firstName: user.firstName,
          lastName: user.lastName,
          tel: user.tel,
          adminRole: user.role,
          merchantId: place?.cluster ? idOf(clusterIds, place.cluster, 'cluster') : null,
          landlordId: place?.site ? idOf(siteIds, place.site, 'site') : null,
          partyId: place?.group ? idOf(groupIds, place.group, 'group') : null,
          active: true,
          emailVerified: true,
        };
      }),
    );
    const publishedAt = new Date();
    // Through the sanitizer, like every page saved through the API: what the demo shows is what it stores.
    const clean = <T extends { detailEn: string; detailTh: string }>(page: T): T => ({
      ...page,
      detailEn: sanitizeRichHtml(page.detailEn),
      detailTh: sanitizeRichHtml(page.detailTh),
    });
    await tx
      .insert(pages)
      .values([
        { type: 'terms', ...clean(TERMS), active: true, publishedAt },
        { type: 'privacy', ...clean(PRIVACY), active: true, publishedAt },
        ...DEMO_GUIDES.map((guide) => ({ type: 'guide' as const, ...clean(guide) })),
      ]);

    const places: DemoPlaces = { clusterIds, siteIds, groupIds, passHash };
    const loaders = [loadDemoPeople, loadDemoBrands, loadDemoPrices, loadDemoChargers, loadDemoPromotions];
    if (options.history) loaders.push(loadDemoBookings);
    for (const load of [...loaders, loadDemoContact, loadDemoAlerts]) {
      const summary = await load(tx, places);
      if (summary) more.push(summary);
    }
  });
  // The planner's statistics of what was just loaded: the embedded database has no autovacuum to gather them,
  // and without them it guessed one booking in 90 days and read every member again for each booking of the
  // member search (3.3 s on the demo).
  await db.execute(sql`analyze`);
  return {
    summary:
      `${DEMO_USERS.length} users (password ${DEMO_PASSWORD}), terms and privacy pages, ` +
      `${DEMO_GUIDES.length} tutorials, ` +
      `${DEMO_CLUSTERS.length} clusters, ${DEMO_SITES.length} sites (${hoursRows} business-hours rows), ` +
      `${DEMO_GROUPS.length} groups (${groupLinks} site links)` +
      more.map((part) => `, ${part}`).join(''),
  };
}
