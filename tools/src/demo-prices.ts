import { priceOverrides, priceOverrideWeekdays, prices } from '@ev/server/db/schema/index';
import { type CalculateMethod, fromSatang, type PriceMethod, priceBody, toSatang } from '@ev/shared';
import type { DemoPlaces, DemoTx } from './demo-data.ts';

type Rates = { bahtPerKwh: number; bahtPerHour: number };
interface DemoPrice {
  /** Names the plan for later loaders (the demo chargers' connectors). */
  key: string;
  desc: [en: string, th: string];
  method: PriceMethod;
  calculateMethod: CalculateMethod;
  rates: Rates;
  /** Extracharger fee, Penalty fee (Baht/min) and Penalty delay (min). */
  penalty?: [perMin: number, dcFullPerMin: number, delayMin: number];
  weekdays?: Array<Rates & { days: number[]; from: string; to: string }>;
  dated?: Array<Rates & { from: string; to: string }>;
  active?: boolean;
}

const EVERY_DAY = [1, 2, 3, 4, 5, 6, 7];
const MON_FRI = [2, 3, 4, 5, 6];
/** 22:00–06:00 as two windows, since a window ends after it starts; both ends are included minutes. */
const night = (rates: Rates, days = EVERY_DAY) => [
  { ...rates, days, from: '22:00', to: '23:59' },
  { ...rates, days, from: '00:00', to: '05:59' },
];
const SONGKRAN = { from: '2027-04-13 00:00', to: '2027-04-15 23:59' };
const NEW_YEAR = { from: '2026-12-31 00:00', to: '2027-01-01 23:59' };

/** Six plans covering each method and calculation, at rates typical of Thai public charging. */
export const DEMO_PRICES: readonly DemoPrice[] = [
  {
    key: 'ac-hourly',
    desc: ['AC Normal Charge – hourly', 'ชาร์จปกติ AC – คิดรายชั่วโมง'],
    method: 'HOUR',
    calculateMethod: 'BAHT_HRS',
    rates: { bahtPerKwh: 0, bahtPerHour: 40 },
    penalty: [2, 0, 0],
    weekdays: night({ bahtPerKwh: 0, bahtPerHour: 25 }),
    dated: [{ ...SONGKRAN, bahtPerKwh: 0, bahtPerHour: 20 }],
  },
  {
    key: 'ac-minute',
    desc: ['AC Pay per Minute', 'ชาร์จ AC จ่ายตามนาทีที่ใช้'],
    method: 'HOUR',
    calculateMethod: 'BAHT_MIN',
    rates: { bahtPerKwh: 0, bahtPerHour: 45 },
    penalty: [2, 0, 0],
    weekdays: [
      { days: [1, 7], from: '08:00', to: '20:00', bahtPerKwh: 0, bahtPerHour: 36 },
      ...night({ bahtPerKwh: 0, bahtPerHour: 30 }, MON_FRI),
    ],
    dated: [{ ...SONGKRAN, bahtPerKwh: 0, bahtPerHour: 24 }],
  },
  {
    key: 'dc-fast',
    desc: ['DC Fast Charge', 'ชาร์จเร็ว DC'],
    method: 'KW',
    calculateMethod: 'BAHT_HRS',
    rates: { bahtPerKwh: 7.5, bahtPerHour: 0 },
    penalty: [10, 5, 15],
    weekdays: night({ bahtPerKwh: 4.5, bahtPerHour: 0 }),
    dated: [
      { ...SONGKRAN, bahtPerKwh: 5.5, bahtPerHour: 0 },
      { ...NEW_YEAR, bahtPerKwh: 5.99, bahtPerHour: 0 },
    ],
  },
  {
    key: 'dc-ultra',
    desc: ['DC Ultra Fast (HPC 180 kW)', 'ชาร์จเร็วพิเศษ DC (180 กิโลวัตต์)'],
    method: 'KW',
    calculateMethod: 'BAHT_HRS',
    rates: { bahtPerKwh: 8.65, bahtPerHour: 0 },
    penalty: [15, 10, 10],
    weekdays: [{ days: MON_FRI, from: '09:00', to: '21:59', bahtPerKwh: 9.2, bahtPerHour: 0 }],
    dated: [{ ...SONGKRAN, bahtPerKwh: 6.5, bahtPerHour: 0 }],
  },
  {
    key: 'ac-condo',
    desc: ['AC Residents (condominium)', 'AC สำหรับผู้พักอาศัย (คอนโดมิเนียม)'],
    method: 'KW',
    calculateMethod: 'BAHT_HRS',
    rates: { bahtPerKwh: 5.15, bahtPerHour: 0 },
    weekdays: night({ bahtPerKwh: 3.85, bahtPerHour: 0 }),
  },
  {
    // Retired: inactive, so the list offers its Delete.
    key: 'ac-flat-2024',
    desc: ['AC Flat Rate 2024 (retired)', 'AC อัตราเดียว ปี 2567 (เลิกใช้)'],
    method: 'HOUR',
    calculateMethod: 'BAHT_HRS',
    rates: { bahtPerKwh: 0, bahtPerHour: 35 },
    active: false,
  },
];

const numeric = (baht: number) => fromSatang(toSatang(baht));

/** The plan as the API takes it: the same rules as the Price Setting form (a bad row throws here). */
function asBody(plan: DemoPrice) {
  return priceBody.parse({
    descEn: plan.desc[0],
    descTh: plan.desc[1],
    method: plan.method,
    calculateMethod: plan.calculateMethod,
    ...plan.rates,
    penaltyBahtPerMin: plan.penalty?.[0] ?? 0,
    penaltyDCFullBahtPerMin: plan.penalty?.[1] ?? 0,
    penaltyDCFullDelayMin: plan.penalty?.[2] ?? 0,
    overrideWeekdays: (plan.weekdays ?? []).flatMap(({ days, from, to, ...rates }) =>
      days.map((dayOfWeek) => ({ dayOfWeek, validTimeFrom: from, validTimeTo: to, ...rates })),
    ),
    overrides: (plan.dated ?? []).map(({ from, to, ...rates }) => ({
      validFrom: from,
      validTo: to,
      ...rates,
    })),
  });
}

/** Demo six price plans with weekday and dated overrides (issue 4). Returns a summary fragment for the start banner. */
export async function loadDemoPrices(tx: DemoTx, _places: DemoPlaces): Promise<string> {
  let weekdayRows = 0;
  let datedRows = 0;
  for (const plan of DEMO_PRICES) {
    const body = asBody(plan);
    const [row] = await tx
      .insert(prices)
      .values({
        descEn: body.descEn,
        descTh: body.descTh,
        method: body.method,
        calculateMethod: body.calculateMethod,
        bahtPerKwh: numeric(body.bahtPerKwh),
        bahtPerHour: numeric(body.bahtPerHour),
        penaltyBahtPerMin: numeric(body.penaltyBahtPerMin),
        penaltyDcFullBahtPerMin: numeric(body.penaltyDCFullBahtPerMin),
        penaltyDcFullDelayMin: body.penaltyDCFullDelayMin,
        active: plan.active ?? true,
      })
      .returning({ id: prices.id });
    const priceId = row!.id;
    if (body.overrideWeekdays.length > 0) {
      await tx.insert(priceOverrideWeekdays).values(
        body.overrideWeekdays.map((w) => ({
          ...w,
          priceId,
          bahtPerKwh: numeric(w.bahtPerKwh),
          bahtPerHour: numeric(w.bahtPerHour),
        })),
      );
    }
    if (body.overrides.length > 0) {
      await tx.insert(priceOverrides).values(
        body.overrides.map((d) => ({
          ...d,
          priceId,
          bahtPerKwh: numeric(d.bahtPerKwh),
          bahtPerHour: numeric(d.bahtPerHour),
        })),
      );
    }
    weekdayRows += body.overrideWeekdays.length;
    datedRows += body.overrides.length;
  }
  return `${DEMO_PRICES.length} price plans (${weekdayRows} weekday and ${datedRows} dated overrides)`;
}
