import {
  pointLedger,
  pointRates,
  promotionCodes,
  promotionLandlords,
  promotionMerchants,
  promotionRedemptions,
  promotions,
  users,
} from '@ev/server/db/schema/index';
import { generateCodes } from '@ev/server/modules/promotion/codes';
import { and, asc, eq, sql } from 'drizzle-orm';
import type { DemoPlaces, DemoTx } from './demo-data.ts';

const DAY = 24 * 3_600_000;

/**
 * The demo's green-point rate cards (issue 21), as Thai loyalty programmes run them: earn about 1 point per
 * 25 baht, redeem 100 points for 10 baht. One past card, the one in force, and one pending.
 */
const RATE_CARDS = [
  { fromBaht: '30.00', toPoint: '1.00', fromPoint: '100.00', toBaht: '10.00', days: -120 },
  { fromBaht: '25.00', toPoint: '1.00', fromPoint: '100.00', toBaht: '10.00', days: -30 },
  { fromBaht: '20.00', toPoint: '1.00', fromPoint: '100.00', toBaht: '10.00', days: 14 },
] as const;

interface DemoPromotion {
  code: string;
  name: [string, string];
  type: 'discount' | 'point' | 'landlord';
  /** Selected landlords: the sites (demo keys); empty is public. */
  sites?: string[];
  clusters?: string[];
  expose?: boolean;
  active?: boolean;
  /** Validity in days from today. */
  from: number;
  to: number;
  discountPercent?: number;
  discountBaht?: number;
  point?: number;
  count: number;
  total?: number;
  /** Demo members who redeemed it (point and private station codes: no booking needed). */
  redeemedBy?: number;
}

/**
 * Promotions of every type: single- and multi-code, some codes spent, one expired, one switched off, and two
 * private stations (the Skyline condominiums' and the CPTU campus') with members.
 */
const PROMOTIONS: DemoPromotion[] = [
  {
    code: 'WELCOME10',
    name: ['Welcome: 10% off your first charge', 'ต้อนรับสมาชิกใหม่ ลด 10%'],
    type: 'discount',
    expose: true,
    from: -60,
    to: 120,
    discountPercent: 10,
    discountBaht: 50,
    count: 1,
    total: 500,
  },
  {
    code: 'RAINY',
    name: ['Rainy season: 20 baht off', 'หน้าฝน ลด 20 บาท'],
    type: 'discount',
    expose: false,
    from: -10,
    to: 80,
    discountPercent: 0,
    discountBaht: 20,
    count: 200,
    total: 1,
  },
  {
    code: 'METRONIGHT',
    name: ['Metro Plaza night charging 15%', 'ชาร์จกลางคืนที่เมโทรพลาซ่า ลด 15%'],
    type: 'discount',
    clusters: ['metroPlaza'],
    sites: ['siamSquareB2', 'ratchaprasong'],
    expose: true,
    from: -5,
    to: 25,
    discountPercent: 15,
    discountBaht: 0,
    count: 1,
    total: 300,
  },
  {
    code: 'SONGKRAN26',
    name: ['Songkran 2026: 25% off', 'สงกรานต์ 2569 ลด 25%'],
    type: 'discount',
    expose: false,
    from: -240,
    to: -225,
    discountPercent: 25,
    discountBaht: 100,
    count: 1,
    total: 1000,
  },
  {
    code: 'FLASHSALE',
    name: ['Flash sale (switched off)', 'แฟลชเซล (ปิดแล้ว)'],
    type: 'discount',
    expose: false,
    active: false,
    from: -3,
    to: 4,
    discountPercent: 30,
    discountBaht: 60,
    count: 1,
    total: 50,
  },
  {
    code: 'GREEN50',
    name: ['50 green points', 'รับ 50 กรีนพอยท์'],
    type: 'point',
    expose: false,
    from: -20,
    to: 40,
    point: 50,
    count: 20,
    total: 1,
    redeemedBy: 12,
  },
  {
    code: 'EVDAY',
    name: ['EV Day: 100 green points', 'วันรถยนต์ไฟฟ้า รับ 100 พอยท์'],
    type: 'point',
    expose: true,
    from: -2,
    to: 28,
    point: 100,
    count: 1,
    total: 1000,
    redeemedBy: 6,
  },
  {
    code: 'SKYLINERES',
    name: ['Skyline residents', 'ผู้พักอาศัยสกายไลน์'],
    type: 'landlord',
    clusters: ['skyline'],
    sites: ['skAri', 'skOnNut', 'skRatchada'],
    from: -90,
    to: 275,
    count: 1,
    redeemedBy: 5,
  },
  {
    code: 'CPTUSTAFF',
    name: ['CPTU staff parking', 'ที่จอดบุคลากร มทจ.'],
    type: 'landlord',
    clusters: ['cptu'],
    sites: ['cptuEngineering', 'cptuLibrary'],
    from: -60,
    to: 300,
    count: 30,
    total: 1,
    redeemedBy: 4,
  },
];

const PLATES = ['1กข 1234', '2ขค 5678', 'กท 9999', '3คง 4321', '7กพ 1010', 'ชล 2468', '9กก 1357', 'ฒษ 8080'];

/** Loads the promotions, their codes, the members who redeemed some, the point cards and the ledger. */
export async function loadDemoPromotions(tx: DemoTx, places: DemoPlaces): Promise<string> {
  const now = Date.now();
  await tx
    .insert(pointRates)
    .values(RATE_CARDS.map(({ days, ...card }) => ({ ...card, validFrom: new Date(now + days * DAY) })));
  // The demo members' points so far, as the ledger's opening entries (earned before the demo's 90 days), so
  // every balance is the sum of its ledger.
  const holders = await tx
    .select({ id: users.id, point: users.point })
    .from(users)
    .where(and(eq(users.type, 'mobile'), sql`${users.point} > 0`));
  if (holders.length > 0)
    await tx.insert(pointLedger).values(
      holders.map((holder) => ({
        userId: holder.id,
        kind: 'earn' as const,
        points: holder.point,
        source: `demo:opening:${holder.id}`,
        createdAt: new Date(now - 91 * DAY),
      })),
    );
  const members = await tx
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.type, 'mobile'), eq(users.active, true)))
    .orderBy(asc(users.id));
  const idOf = (ids: ReadonlyMap<string, number>, key: string) => {
    const id = ids.get(key);
    if (id === undefined) throw new Error(`Unknown demo place ${key}`);
    return id;
  };
  let codes = 0;
  let redemptions = 0;
  let memberIndex = 0;
  for (const demo of PROMOTIONS) {
    const sites = (demo.sites ?? []).map((key) => idOf(places.siteIds, key));
    const clusters = (demo.clusters ?? []).map((key) => idOf(places.clusterIds, key));
    const [row] = await tx
      .insert(promotions)
      .values({
        code: demo.code,
        nameEn: demo.name[0],
        nameTh: demo.name[1],
        type: demo.type,
        internal: sites.length > 0,
        expose: demo.expose ?? false,
        active: demo.active ?? true,
        validFrom: new Date(now + demo.from * DAY),
        validTo: new Date(now + demo.to * DAY),
        discountPercent: demo.discountPercent?.toFixed(2) ?? null,
        discountBaht: demo.discountBaht?.toFixed(2) ?? null,
        point: demo.point ?? null,
        count: demo.count,
        total: demo.total ?? null,
      })
      .returning({ id: promotions.id });
    const promotionId = row!.id;
    if (clusters.length > 0)
      await tx.insert(promotionMerchants).values(clusters.map((merchantId) => ({ promotionId, merchantId })));
    if (sites.length > 0)
      await tx.insert(promotionLandlords).values(sites.map((landlordId) => ({ promotionId, landlordId })));
    const inserted = await tx
      .insert(promotionCodes)
      .values(
        generateCodes(demo.code, demo.count).map((code) => ({
          promotionId,
          code,
          total: demo.total ?? null,
        })),
      )
      .returning({ id: promotionCodes.id });
    codes += inserted.length;
    // Redeemed by the next demo members, each their own code where there are several.
    for (let n = 0; n < (demo.redeemedBy ?? 0) && members.length > 0; n++) {
      const member = members[memberIndex++ % members.length]!;
      const code = inserted[demo.count > 1 ? n : 0]!;
      const at = new Date(now - (n + 1) * 0.7 * DAY);
      const [redemption] = await tx
        .insert(promotionRedemptions)
        .values({
          userId: member.id,
          codeId: code.id,
          promotionId,
          point: demo.point ?? null,
          licensePlate: demo.type === 'landlord' ? PLATES[n % PLATES.length]! : null,
          createdAt: at,
        })
        .onConflictDoNothing()
        .returning({ id: promotionRedemptions.id });
      if (!redemption) continue;
      redemptions++;
      await tx
        .update(promotionCodes)
        .set({ used: sql`${promotionCodes.used} + 1` })
        .where(eq(promotionCodes.id, code.id));
      if (demo.point) {
        await tx.insert(pointLedger).values({
          userId: member.id,
          kind: 'code',
          points: demo.point,
          source: `redemption:${redemption.id}`,
          redemptionId: redemption.id,
          createdAt: at,
        });
        await tx
          .update(users)
          .set({ point: sql`${users.point} + ${demo.point}` })
          .where(eq(users.id, member.id));
      }
    }
  }
  return `${PROMOTIONS.length} promotions (${codes} codes, ${redemptions} redeemed), ${RATE_CARDS.length} point cards`;
}
