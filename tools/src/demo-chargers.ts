import { createHash } from 'node:crypto';
import { chargerBrands, chargers, connectors, prices } from '@ev/server/db/schema/index';
import type { ChargerStatus } from '@ev/shared';
import { inArray } from 'drizzle-orm';
import { DEMO_BRANDS } from './demo-brands.ts';
import type { DemoPlaces, DemoTx } from './demo-data.ts';
import { DEMO_SITES, type DemoClusterKey } from './demo-places.ts';
import { DEMO_PRICES } from './demo-prices.ts';

/** Connector types as seeded by the migrations. */
const TYPE = { type2: 2, chademo: 3, ccs2: 4, gbt: 5 } as const;
const TYPE_NAME: Record<number, string> = { 2: 'Type 2', 3: 'CHAdeMO', 4: 'CCS2', 5: 'GB/T' };

type BrandKey = 'abb-ac' | 'wallbox-ac' | 'abb-dc' | 'delta-dc';
type PriceKey = 'ac-hourly' | 'ac-minute' | 'ac-condo' | 'dc-fast' | 'dc-ultra';

/** A charger model: its brand, label, price and connectors (type, kW). Only active brands and prices. */
interface Model {
  label: string;
  brand: BrandKey;
  price: PriceKey;
  plugs: ReadonlyArray<readonly [type: number, kw: number]>;
}
const MODELS = {
  wallbox: { label: 'AC', brand: 'wallbox-ac', price: 'ac-condo', plugs: [[TYPE.type2, 7.4]] },
  ac22: { label: 'AC', brand: 'abb-ac', price: 'ac-hourly', plugs: [[TYPE.type2, 22]] },
  ac22Twin: {
    label: 'AC',
    brand: 'abb-ac',
    price: 'ac-minute',
    plugs: [
      [TYPE.type2, 22],
      [TYPE.type2, 22],
    ],
  },
  dcWall: { label: 'DC', brand: 'delta-dc', price: 'dc-fast', plugs: [[TYPE.ccs2, 25]] },
  dc120: {
    label: 'DC',
    brand: 'abb-dc',
    price: 'dc-fast',
    plugs: [
      [TYPE.ccs2, 120],
      [TYPE.chademo, 50],
    ],
  },
  hpc: {
    label: 'HPC',
    brand: 'abb-dc',
    price: 'dc-ultra',
    plugs: [
      [TYPE.ccs2, 180],
      [TYPE.ccs2, 180],
      [TYPE.chademo, 50],
      [TYPE.gbt, 120],
    ],
  },
  hpcDual: {
    label: 'HPC',
    brand: 'abb-dc',
    price: 'dc-ultra',
    plugs: [
      [TYPE.ccs2, 180],
      [TYPE.ccs2, 150],
      [TYPE.chademo, 50],
    ],
  },
} as const satisfies Record<string, Model>;
type ModelKey = keyof typeof MODELS;

/** What each cluster installs, in turn: highway stops fast DC, condos and hotels AC, malls a mix. */
const CLUSTER_MODELS: Record<DemoClusterKey, readonly ModelKey[]> = {
  metroPlaza: ['dc120', 'ac22Twin', 'ac22', 'hpcDual', 'ac22Twin'],
  thaiWay: ['hpc', 'dc120', 'hpcDual', 'dc120'],
  goldenLotus: ['ac22', 'ac22Twin', 'dcWall'],
  skyline: ['wallbox', 'wallbox', 'ac22'],
  cptu: ['ac22', 'ac22Twin', 'dcWall'],
  bangnaGateway: ['ac22Twin', 'dcWall', 'ac22'],
  siamCare: ['ac22Twin', 'dc120', 'ac22'],
  lannaStop: ['dc120', 'ac22', 'dcWall'],
  isanMart: ['dc120', 'ac22Twin', 'hpcDual'],
  riverside: [],
};

/** Chargers per site, in turn (about 2.5 a site). */
const PER_SITE = [2, 3, 2, 4, 1, 3, 2, 3];
/** Cluster codes of the charger ids (`TH-{cluster}-{site}-{nn}`). */
const CLUSTER_CODE: Record<DemoClusterKey, string> = {
  metroPlaza: 'MP',
  thaiWay: 'TW',
  goldenLotus: 'GL',
  skyline: 'SK',
  cptu: 'CU',
  bangnaGateway: 'BG',
  siamCare: 'SC',
  lannaStop: 'LS',
  isanMart: 'IM',
  riverside: 'RP',
};
const siteCode = (key: string) => key.replace(/^(tw|gl|sk|cptu|bg|sc|ls|im|rp)(?=[A-Z])/, '').toUpperCase();

/** Mostly available; some busy, a few out of order. */
const STATUS_CYCLE: readonly ChargerStatus[] = [
  ...Array<ChargerStatus>(12).fill('AVAILABLE'),
  'CHARGING',
  'AVAILABLE',
  'CHARGING',
  'PREPARING',
  'CHARGING',
  'FINISHING',
  'FAULTED',
  'UNAVAILABLE',
];
const LETTERS = 'ABCD';
const token = (text: string) => createHash('sha256').update(`demo:${text}`).digest('hex').slice(0, 24);
/** First connector id; later ones follow in order. */
const FIRST_CONNECTOR_ID = 10_001;

/** The database ids of the rows the brand and price loaders inserted, by their demo keys. */
async function idsByKey(tx: DemoTx) {
  const brandNames = new Map(DEMO_BRANDS.map((brand) => [brand.name, brand.key]));
  const priceNames = new Map(DEMO_PRICES.map((price) => [price.desc[0], price.key]));
  const brandRows = await tx
    .select({ id: chargerBrands.id, name: chargerBrands.name })
    .from(chargerBrands)
    .where(inArray(chargerBrands.name, [...brandNames.keys()]));
  const priceRows = await tx
    .select({ id: prices.id, descEn: prices.descEn })
    .from(prices)
    .where(inArray(prices.descEn, [...priceNames.keys()]));
  const brands = new Map(brandRows.map((row) => [brandNames.get(row.name)!, row.id]));
  const priceIds = new Map(priceRows.map((row) => [priceNames.get(row.descEn)!, row.id]));
  const need = <K extends string>(map: Map<string, number>, key: K) => {
    const id = map.get(key);
    if (id === undefined) throw new Error(`Demo data: brand or price '${key}' not loaded`);
    return id;
  };
  return { brand: (key: BrandKey) => need(brands, key), price: (key: PriceKey) => need(priceIds, key) };
}

/**
 * Demo chargers (issue 5): about 150 across the active sites, each with 1–4 connectors, AC brands with
 * Type 2 and DC brands with CCS2/CHAdeMO (GB/T on the highway HPCs), priced by power type. Never the
 * inactive brand or price, so their Delete still works. Runs after the brand and price loaders.
 */
export async function loadDemoChargers(tx: DemoTx, places: DemoPlaces): Promise<string> {
  const ids = await idsByKey(tx);
  const chargerRows: Array<typeof chargers.$inferInsert> = [];
  const connectorRows: Array<typeof connectors.$inferInsert> = [];
  let connectorId = FIRST_CONNECTOR_ID;
  let siteIndex = 0;
  for (const site of DEMO_SITES) {
    const models = CLUSTER_MODELS[site.cluster];
    if (site.active === false || models.length === 0) continue;
    const landlordId = places.siteIds.get(site.key);
    const merchantId = places.clusterIds.get(site.cluster);
    if (landlordId === undefined || merchantId === undefined)
      throw new Error(`Demo data: site '${site.key}'`);
    const count = PER_SITE[siteIndex % PER_SITE.length]!;
    for (let n = 1; n <= count; n++) {
      const model: Model = MODELS[models[(siteIndex + n - 1) % models.length]!];
      const nn = String(n).padStart(2, '0');
      const id = `TH-${CLUSTER_CODE[site.cluster]}-${siteCode(site.key)}-${nn}`;
      // One charger in 40 is switched off (being replaced), so the list offers its Delete.
      const active = chargerRows.length % 40 !== 39;
      chargerRows.push({
        id,
        nameEn: `${site.name[0]} – ${model.label} ${nn}`,
        nameTh: `${site.name[1]} – ตู้ชาร์จ ${model.label} ${nn}`,
        merchantId,
        landlordId,
        chargerBrandId: ids.brand(model.brand),
        active,
      });
      model.plugs.forEach(([type, kw], plug) => {
        const letter = LETTERS[plug]!;
        const status = active ? STATUS_CYCLE[connectorId % STATUS_CYCLE.length]! : 'UNAVAILABLE';
        connectorRows.push({
          id: connectorId,
          chargerId: id,
          ocppConnectorId: plug + 1,
          token: token(`${id}/${letter}`),
          nameEn: `${TYPE_NAME[type]} ${letter}`,
          nameTh: `หัวชาร์จ ${TYPE_NAME[type]} ${letter}`,
          connectorTypeId: type,
          // Parking-bay blockers at the mall car parks.
          judjodId: site.cluster === 'metroPlaza' ? 500 + (connectorId % 1000) : null,
          maxPowerKw: kw.toFixed(2),
          // Chargers moved from the old system keep their printed QR codes.
          oldQr: site.cluster === 'cptu' ? `https://qr.example.com/ev/${connectorId}` : null,
          priceId: ids.price(model.price),
          status,
        });
        connectorId++;
      });
    }
    siteIndex++;
  }
  await tx.insert(chargers).values(chargerRows);
  await tx.insert(connectors).values(connectorRows);
  return `${chargerRows.length} chargers (${connectorRows.length} connectors)`;
}
