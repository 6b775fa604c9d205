import { describe, expect, it } from 'vitest';
import {
  amountOwed,
  discountSatang,
  type PlanSnapshot,
  type PriceBreakdown,
  priceSession,
  type SessionFacts,
  totalOf,
} from './pricing.ts';

const at = (iso: string) => Date.parse(iso);
/** Monday 2026-06-01, Bangkok. */
const START = at('2026-06-01T10:00:00+07:00');
const S = 1000;
const MIN = 60 * S;

/** 40 baht/hr by the started hour, 2 baht/min overstay, 5 baht/min DC full after 10 minutes. */
const plan = (change: Partial<PlanSnapshot> = {}): PlanSnapshot => ({
  method: 'HOUR',
  calculateMethod: 'BAHT_HRS',
  bahtPerKwh: 0,
  bahtPerHour: 40,
  penaltyBahtPerMin: 2,
  penaltyDCFullBahtPerMin: 5,
  penaltyDCFullDelayMin: 10,
  overrideWeekdays: [],
  overrides: [],
  ...change,
});
const byMinute = (change: Partial<PlanSnapshot> = {}) => plan({ calculateMethod: 'BAHT_MIN', ...change });
const byKwh = (change: Partial<PlanSnapshot> = {}) =>
  plan({ method: 'KW', calculateMethod: 'BAHT_HRS', bahtPerHour: 0, bahtPerKwh: 5, ...change });
const facts = (change: Partial<SessionFacts> = {}): SessionFacts => ({
  startTime: START,
  stopTime: START + 60 * MIN,
  avaliableAt: null,
  fullAt: null,
  energyWh: 0,
  connectorTypeId: 2,
  ...change,
});
/** A session from one Bangkok time to another. */
const span = (from: string, to: string, change: Partial<SessionFacts> = {}) =>
  facts({ startTime: at(from), stopTime: at(to), ...change });
/** Monday (dayOfWeek 2) 22:00–23:59. */
const mondayNight = {
  dayOfWeek: 2,
  validTimeFrom: '22:00',
  validTimeTo: '23:59',
  bahtPerKwh: 8,
  bahtPerHour: 100,
};

interface Row {
  name: string;
  plan: PlanSnapshot;
  facts: SessionFacts;
  options?: Parameters<typeof priceSession>[2];
  expected: Partial<Omit<PriceBreakdown, 'computed' | 'billed'>> & {
    computed?: Partial<PriceBreakdown['computed']>;
    billed?: Partial<PriceBreakdown['billed']>;
  };
}

const rows: Row[] = [
  // max(1, ceil((600 - 600) / 3600)) = max(1, 0) = 1 h x 40 = 40.00
  {
    name: 'exactly 600 s: 1 hour',
    plan: plan(),
    facts: facts({ stopTime: START + 600 * S }),
    expected: { byDuration: 4000, billed: { hours: 1, minutes: null } },
  },
  // max(1, ceil(1 / 3600)) = 1 h
  {
    name: '601 s: 1 hour',
    plan: plan(),
    facts: facts({ stopTime: START + 601 * S }),
    expected: { byDuration: 4000, billed: { hours: 1 } },
  },
  // ceil((4200 - 600) / 3600) = 1 h
  {
    name: '3600 + 600 s: still 1 hour',
    plan: plan(),
    facts: facts({ stopTime: START + 4200 * S }),
    expected: { byDuration: 4000, billed: { hours: 1 } },
  },
  // ceil((4201 - 600) / 3600) = ceil(1.0003) = 2 h x 40 = 80.00
  {
    name: '3600 + 601 s: 2 hours',
    plan: plan(),
    facts: facts({ stopTime: START + 4201 * S }),
    expected: { byDuration: 8000, billed: { hours: 2 } },
  },
  // d = 0 -> max(1, ceil(-600 / 3600)) = 1 h
  {
    name: '0 duration: the minimum hour',
    plan: plan(),
    facts: facts({ stopTime: START }),
    expected: { byDuration: 4000, total: 4000, billed: { hours: 1 } },
  },
  // stop before start -> d = 0 -> 1 h
  {
    name: 'negative duration counts as 0',
    plan: plan(),
    facts: facts({ stopTime: START - 5 * MIN }),
    expected: { byDuration: 4000, billed: { hours: 1 } },
  },
  // ceil(59 / 60) = 1 min x 40 / 60 = 0.6667 -> 0.67
  {
    name: 'BAHT_MIN 59 s: 1 minute',
    plan: byMinute(),
    facts: facts({ stopTime: START + 59 * S }),
    expected: { byDuration: 67, billed: { hours: null, minutes: 1 } },
  },
  // ceil(60 / 60) = 1 min -> 0.67
  {
    name: 'BAHT_MIN 60 s: 1 minute',
    plan: byMinute(),
    facts: facts({ stopTime: START + 60 * S }),
    expected: { byDuration: 67, billed: { minutes: 1 } },
  },
  // ceil(61 / 60) = 2 min x 40 / 60 = 1.3333 -> 1.33
  {
    name: 'BAHT_MIN 61 s: 2 minutes',
    plan: byMinute(),
    facts: facts({ stopTime: START + 61 * S }),
    expected: { byDuration: 133, billed: { minutes: 2 } },
  },
  // ceil(0 / 60) = 0 min: no grace and no minimum
  {
    name: 'BAHT_MIN 0 duration',
    plan: byMinute(),
    facts: facts({ stopTime: START }),
    expected: { byDuration: 0, billed: { minutes: 0 } },
  },
  // 1 h = 40.00; cable out 300 s after the stop: within the 5-minute allowance
  {
    name: 'overstay exactly 5 minutes: none',
    plan: plan(),
    facts: facts({ avaliableAt: START + 60 * MIN + 300 * S }),
    expected: { computed: { overstay: 0 }, total: 4000, billed: { overstayMinutes: 0 } },
  },
  // 301 s - 300 s = 1 s -> 1 started minute x 2.00; total 40.00 + 2.00
  {
    name: 'overstay 5 min 1 s: 1 minute',
    plan: plan(),
    facts: facts({ avaliableAt: START + 60 * MIN + 301 * S }),
    expected: {
      computed: { overstay: 200, byPenalty: 200 },
      byPenalty: 200,
      total: 4200,
      billed: { overstayMinutes: 1 },
    },
  },
  // cable out before the stop: no overstay
  {
    name: 'available before the stop',
    plan: plan(),
    facts: facts({ avaliableAt: START + 30 * MIN }),
    expected: { computed: { overstay: 0 } },
  },
  // full 25 min before the stop: 25 - 10 = 15 min x 5.00 = 75.00; 40.00 + 75.00
  {
    name: 'DC full on type 4',
    plan: plan(),
    facts: facts({ connectorTypeId: 4, fullAt: START + 35 * MIN }),
    expected: { computed: { dcFull: 7500, byPenalty: 7500 }, total: 11500, billed: { dcFullMinutes: 15 } },
  },
  // same facts on type 2 (AC): no DC-full penalty
  {
    name: 'DC full on type 2: none',
    plan: plan(),
    facts: facts({ connectorTypeId: 2, fullAt: START + 35 * MIN }),
    expected: { computed: { dcFull: 0 }, total: 4000, billed: { dcFullMinutes: 0 } },
  },
  // full exactly 10 min before the stop: the delay, nothing beyond it
  {
    name: 'DC full at the delay: none',
    plan: plan(),
    facts: facts({ connectorTypeId: 4, fullAt: START + 50 * MIN }),
    expected: { computed: { dcFull: 0 } },
  },
  // 10 min 1 s -> 1 started minute x 5.00
  {
    name: 'DC full 1 s past the delay: 1 minute',
    plan: plan(),
    facts: facts({ connectorTypeId: 4, fullAt: START + 50 * MIN - S }),
    expected: { computed: { dcFull: 500 }, billed: { dcFullMinutes: 1 } },
  },
  // full after the stop: never full while charging
  {
    name: 'DC full after the stop: none',
    plan: plan(),
    facts: facts({ connectorTypeId: 4, fullAt: START + 70 * MIN }),
    expected: { computed: { dcFull: 0 } },
  },
  // overstay 7 min -> 2 min x 2.00 = 4.00, DC full 12 min past the delay -> 12 x 5.00 = 60.00
  {
    name: 'both penalties add up',
    plan: plan(),
    facts: facts({ connectorTypeId: 4, fullAt: START + 38 * MIN, avaliableAt: START + 67 * MIN }),
    expected: { computed: { overstay: 400, dcFull: 6000, byPenalty: 6400 }, total: 10400 },
  },
  // d = 3600 s -> 1 h laid from 21:30: 30 min at 40 (20.00) + 30 min in the Monday 22:00 window at 100 (50.00)
  {
    name: 'weekday window edge, by the hour',
    plan: plan({ overrideWeekdays: [mondayNight] }),
    facts: span('2026-06-01T21:30:00+07:00', '2026-06-01T22:30:00+07:00'),
    expected: { byDuration: 7000 },
  },
  // 60 min: 30 x 40/60 (20.00) + 30 x 100/60 (50.00)
  {
    name: 'weekday window edge, by the minute',
    plan: byMinute({ overrideWeekdays: [mondayNight] }),
    facts: span('2026-06-01T21:30:00+07:00', '2026-06-01T22:30:00+07:00'),
    expected: { byDuration: 7000 },
  },
  // 21:30–22:20 (d = 50 min): 1 h billed from 21:30, so still 30 min at 40 + 30 min at 100
  {
    name: 'the billed hour runs past the stop into the window',
    plan: plan({ overrideWeekdays: [mondayNight] }),
    facts: span('2026-06-01T21:30:00+07:00', '2026-06-01T22:20:00+07:00'),
    expected: { byDuration: 7000 },
  },
  // 23:59 is included: 23:30–00:30 = 30 min at 100 (Monday window to midnight) + 30 min at 40 (Tuesday, no window)
  {
    name: 'a window to 23:59 runs to midnight',
    plan: byMinute({ overrideWeekdays: [mondayNight] }),
    facts: span('2026-06-01T23:30:00+07:00', '2026-06-02T00:30:00+07:00'),
    expected: { byDuration: 7000 },
  },
  // Monday 23:00–23:59 at 100, Tuesday (3) 00:00–00:59 at 60: 30 x 100/60 (50.00) + 30 x 60/60 (30.00)
  {
    name: 'midnight crossing between two days windows',
    plan: byMinute({
      overrideWeekdays: [
        { ...mondayNight, validTimeFrom: '23:00' },
        { dayOfWeek: 3, validTimeFrom: '00:00', validTimeTo: '00:59', bahtPerKwh: 0, bahtPerHour: 60 },
      ],
    }),
    facts: span('2026-06-01T23:30:00+07:00', '2026-06-02T00:30:00+07:00'),
    expected: { byDuration: 8000 },
  },
  // the same session on a Sunday night (1 -> 2): neither Monday's nor Tuesday's windows apply, 60 min x 40
  {
    name: 'another day pays the base rate',
    plan: byMinute({ overrideWeekdays: [{ ...mondayNight, validTimeFrom: '23:00' }] }),
    facts: span('2026-06-07T23:30:00+07:00', '2026-06-08T00:30:00+07:00'),
    expected: { byDuration: 4000 },
  },
  // dated 2026-06-01 22:00–22:59 at 200 beats Monday 22:00–23:59 at 100: 22:30–23:30 = 30 x 200/60 (100.00) + 30 x 100/60 (50.00)
  {
    name: 'a dated window beats the weekday window',
    plan: plan({
      overrideWeekdays: [mondayNight],
      overrides: [
        { validFrom: '2026-06-01 22:00', validTo: '2026-06-01 22:59', bahtPerKwh: 0, bahtPerHour: 200 },
      ],
    }),
    facts: span('2026-06-01T22:30:00+07:00', '2026-06-01T23:30:00+07:00'),
    expected: { byDuration: 15000 },
  },
  // 10 kWh, 6 kWh by 22:00 (sample) at 5.00 (30.00) + 4 kWh after at 8.00 (32.00)
  {
    name: 'energy split at a window edge by the samples',
    plan: byKwh({ overrideWeekdays: [mondayNight] }),
    facts: span('2026-06-01T21:30:00+07:00', '2026-06-01T22:30:00+07:00', {
      energyWh: 10_000,
      samples: [
        { at: at('2026-06-01T21:45:00+07:00'), wh: 2000 },
        { at: at('2026-06-01T22:00:00+07:00'), wh: 6000 },
        { at: at('2026-06-01T22:15:00+07:00'), wh: 8000 },
      ],
    }),
    expected: { byPower: 6200, byDuration: 0, billed: { hours: null, minutes: null, kwh: 10 } },
  },
  // interpolated E(22:00) = 1000 + 1000 x 20/30 = 1666.67 Wh; the dearer window takes floor(8333.33) = 8333 Wh:
  // 8333 x 8 + 1667 x 5 = 66.664 + 8.335 = 74.999 baht -> 75.00
  {
    name: 'energy split between samples, dearer window floored',
    plan: byKwh({ overrideWeekdays: [mondayNight] }),
    facts: span('2026-06-01T21:30:00+07:00', '2026-06-01T22:30:00+07:00', {
      energyWh: 10_000,
      samples: [
        { at: at('2026-06-01T21:40:00+07:00'), wh: 1000 },
        { at: at('2026-06-01T22:10:00+07:00'), wh: 2000 },
      ],
    }),
    expected: { byPower: 7500 },
  },
  // no samples: evenly, 5 kWh x 5.00 + 5 kWh x 8.00 = 65.00
  {
    name: 'energy spread evenly without samples',
    plan: byKwh({ overrideWeekdays: [mondayNight] }),
    facts: span('2026-06-01T21:30:00+07:00', '2026-06-01T22:30:00+07:00', { energyWh: 10_000 }),
    expected: { byPower: 6500 },
  },
  // 12.345 kWh x 7.50 = 92.5875 baht -> 92.59 (HOUR parts stay 0 on a KW plan)
  {
    name: 'by power, one rate',
    plan: byKwh({ bahtPerKwh: 7.5 }),
    facts: facts({ energyWh: 12_345 }),
    expected: { byPower: 9259, byDuration: 0, total: 9259, billed: { kwh: 12.345 } },
  },
  // 0.01 baht/kWh x 0.5 kWh = 0.005 baht = 0.5 satang -> 1 satang (half up)
  {
    name: 'half up: 0.005 baht is 1 satang',
    plan: byKwh({ bahtPerKwh: 0.01 }),
    facts: facts({ energyWh: 500 }),
    expected: { byPower: 1 },
  },
  // 0.01 x 0.499 = 0.499 satang -> 0
  {
    name: 'half up: 0.00499 baht is 0',
    plan: byKwh({ bahtPerKwh: 0.01 }),
    facts: facts({ energyWh: 499 }),
    expected: { byPower: 0 },
  },
  // 0.30 baht/hr / 60 = 0.5 satang a minute -> 1
  {
    name: 'half up by the minute',
    plan: byMinute({ bahtPerHour: 0.3 }),
    facts: facts({ stopTime: START + 60 * S }),
    expected: { byDuration: 1 },
  },
  // an HOUR plan charges no energy even with a stray Baht/kWh
  {
    name: 'an HOUR plan ignores energy',
    plan: plan({ bahtPerKwh: 9 }),
    facts: facts({ energyWh: 5000 }),
    expected: { byPower: 0, byDuration: 4000 },
  },
  // computed 40.00 / 0 / 2.00 (overstay 1 min); admin sets 10.00, 20.50, 0.00
  {
    name: 'admin part overrides',
    plan: plan(),
    facts: facts({ avaliableAt: START + 66 * MIN }),
    options: { overrides: { priceByPower: 10, priceByDuration: 20.5, priceByPenalty: 0 } },
    expected: {
      computed: { byDuration: 4000, overstay: 200 },
      byPower: 1000,
      byDuration: 2050,
      byPenalty: 0,
      partsTotal: 3050,
      total: 3050,
    },
  },
  // adminAmount 99.99 replaces the total; the parts stay as computed
  {
    name: 'admin amount',
    plan: plan(),
    facts: facts(),
    options: { overrides: { adminAmount: 99.99, priceByDuration: null } },
    expected: { byDuration: 4000, partsTotal: 4000, total: 9999 },
  },
  // still charging, now = start + 70 min 1 s -> ceil((4201 - 600) / 3600) = 2 h
  {
    name: 'live estimate runs to now',
    plan: plan(),
    facts: facts({ stopTime: null }),
    options: { now: START + 4201 * S },
    expected: { byDuration: 8000, billed: { hours: 2 } },
  },
  // still charging, no now: charging ends at the start -> the minimum hour
  {
    name: 'still charging without now',
    plan: plan(),
    facts: facts({ stopTime: null }),
    expected: { byDuration: 4000 },
  },
  // stopped, cable still in, now = stop + 10 min -> 5 min past the allowance x 2.00
  {
    name: 'live overstay runs to now',
    plan: plan(),
    facts: facts(),
    options: { now: START + 70 * MIN },
    expected: { computed: { overstay: 1000 }, billed: { overstayMinutes: 5 } },
  },
  // stopped, cable still in, no now: no overstay yet
  { name: 'no overstay without now', plan: plan(), facts: facts(), expected: { computed: { overstay: 0 } } },
  // never charged: every part 0, penalties included
  {
    name: 'never charged',
    plan: plan(),
    facts: facts({ startTime: null, connectorTypeId: 4, fullAt: START, avaliableAt: START + 99 * MIN }),
    expected: {
      computed: { byPower: 0, byDuration: 0, byPenalty: 0, overstay: 0, dcFull: 0 },
      total: 0,
      billed: { hours: null, minutes: null, overstayMinutes: 0, dcFullMinutes: 0, kwh: 0 },
    },
  },
  // 7 days at 100,000 baht/hr: ceil((604800 - 600) / 3600) = 168 h x 100,000 = 16,800,000.00;
  // 10,000 kWh x 100,000 baht = 1,000,000,000.00
  {
    name: 'the largest session stays exact',
    plan: plan({ method: 'HOUR', bahtPerHour: 100_000 }),
    facts: facts({ stopTime: START + 7 * 24 * 60 * MIN, energyWh: 10_000_000 }),
    expected: { byDuration: 1_680_000_000 },
  },
  {
    name: 'the largest energy stays exact',
    plan: byKwh({ bahtPerKwh: 100_000 }),
    facts: facts({ stopTime: START + 7 * 24 * 60 * MIN, energyWh: 10_000_000 }),
    expected: { byPower: 100_000_000_000 },
  },
];

describe('priceSession', () => {
  it.each(rows)('$name', ({ plan, facts, options, expected }) => {
    expect(priceSession(plan, facts, options)).toMatchObject(expected);
  });

  it('totals the computed parts', () => {
    const result = priceSession(
      plan(),
      facts({ connectorTypeId: 4, fullAt: START + 45 * MIN, avaliableAt: START + 70 * MIN }),
    );
    // 40.00 + overstay 5 min x 2.00 + DC full 5 min x 5.00
    expect(result.computed).toEqual({
      byPower: 0,
      byDuration: 4000,
      byPenalty: 3500,
      overstay: 1000,
      dcFull: 2500,
    });
    expect(result.total).toBe(7500);
  });

  it('keeps a week of daily windows exact', () => {
    // Every day 18:00–21:59 at 100,000 baht/hr over a base of 50,000: 7 x 4 h dearer over 168 h.
    const nightly = [1, 2, 3, 4, 5, 6, 7].map((day) => ({
      dayOfWeek: day,
      validTimeFrom: '18:00',
      validTimeTo: '21:59',
      bahtPerKwh: 0,
      bahtPerHour: 100_000,
    }));
    const result = priceSession(
      plan({ bahtPerHour: 50_000, overrideWeekdays: nightly }),
      facts({ stopTime: START + 7 * 24 * 60 * MIN }),
    );
    expect(result.byDuration).toBe((140 * 50_000 + 28 * 100_000) * 100);
  });

  it.each([
    ['NaN', { bahtPerHour: Number.NaN }, /plan\.bahtPerHour/],
    ['negative', { penaltyBahtPerMin: -1 }, /plan\.penaltyBahtPerMin/],
    ['3 decimals', { bahtPerKwh: 1.234 }, /plan\.bahtPerKwh/],
    ['fractional delay', { penaltyDCFullDelayMin: 1.5 }, /penaltyDCFullDelayMin/],
    [
      'negative window rate',
      { overrideWeekdays: [{ ...mondayNight, bahtPerHour: -5 }] },
      /overrideWeekdays\[0\]\.bahtPerHour/,
    ],
    [
      'window To before From',
      { overrideWeekdays: [{ ...mondayNight, validTimeTo: '21:00' }] },
      /overrideWeekdays\[0\]/,
    ],
    [
      'bad dated window',
      {
        overrides: [
          { validFrom: '2026-02-30 00:00', validTo: '2026-03-01 00:00', bahtPerKwh: 1, bahtPerHour: 1 },
        ],
      },
      /overrides\[0\]/,
    ],
  ] as const)('refuses a plan with a %s value', (_name, change, message) => {
    expect(() => priceSession(plan(change as Partial<PlanSnapshot>), facts())).toThrow(RangeError);
    expect(() => priceSession(plan(change as Partial<PlanSnapshot>), facts())).toThrow(message);
  });

  it('refuses invalid facts and admin amounts', () => {
    expect(() => priceSession(plan(), facts({ energyWh: -1 }))).toThrow(RangeError);
    expect(() => priceSession(plan(), facts({ stopTime: Number.NaN }))).toThrow(RangeError);
    expect(() => priceSession(plan(), facts({ samples: [{ at: START, wh: Number.NaN }] }))).toThrow(
      RangeError,
    );
    expect(() => priceSession(plan(), facts(), { overrides: { adminAmount: -1 } })).toThrow(RangeError);
  });
});

describe('totalOf', () => {
  it('sums the parts in satang', () => {
    expect(totalOf({ byPower: 1050, byDuration: 4000, byPenalty: 1 })).toBe(5051);
  });
  it('takes the admin amount in baht when set', () => {
    expect(totalOf({ byPower: 1050, byDuration: 4000, byPenalty: 1 }, 12.34)).toBe(1234);
    expect(totalOf({ byPower: 1050, byDuration: 4000, byPenalty: 1 }, null)).toBe(5051);
  });
  it('refuses a part that is not whole satang', () => {
    expect(() => totalOf({ byPower: 10.5, byDuration: 0, byPenalty: 0 })).toThrow(RangeError);
  });
});

describe('discountSatang', () => {
  it.each([
    // 10 % of 345.67 = 34.567 -> 34.56 (down to the satang), under the 50.00 cap
    { total: 34_567, terms: { discountPercent: 10, discountBaht: 50 }, expected: 3_456 },
    // 10 % of 900.00 = 90.00, capped at 50.00
    { total: 90_000, terms: { discountPercent: 10, discountBaht: 50 }, expected: 5_000 },
    // a cap of 0 is no cap
    { total: 90_000, terms: { discountPercent: 12.5, discountBaht: 0 }, expected: 11_250 },
    // 0 %: the baht amount itself, never more than the total
    { total: 3_000, terms: { discountPercent: 0, discountBaht: 20 }, expected: 2_000 },
    { total: 1_500, terms: { discountPercent: 0, discountBaht: 20 }, expected: 1_500 },
    { total: 7_777, terms: { discountPercent: 100, discountBaht: 0 }, expected: 7_777 },
    { total: 0, terms: { discountPercent: 15, discountBaht: 100 }, expected: 0 },
  ])('$total satang with $terms.discountPercent % up to $terms.discountBaht THB: $expected', (row) => {
    expect(discountSatang(row.total, row.terms)).toBe(row.expected);
  });

  it('refuses terms no promotion can have', () => {
    expect(() => discountSatang(100, { discountPercent: 100.01, discountBaht: 0 })).toThrow(RangeError);
    expect(() => discountSatang(100, { discountPercent: -1, discountBaht: 0 })).toThrow(RangeError);
    expect(() => discountSatang(1.5, { discountPercent: 1, discountBaht: 0 })).toThrow(RangeError);
  });
});

describe('amountOwed', () => {
  const terms = { discountPercent: 10, discountBaht: 50 };
  it('takes the discount off first, then the points', () => {
    expect(amountOwed(40_000, { discount: terms, pointSatang: 2_500 })).toEqual({
      gross: 40_000,
      discount: 4_000,
      point: 2_500,
      total: 33_500,
    });
  });
  it('owes the gross with nothing to take off', () => {
    expect(amountOwed(12_345)).toEqual({ gross: 12_345, discount: 0, point: 0, total: 12_345 });
  });
  it('lets points pay all that is left, and refuses more', () => {
    expect(amountOwed(10_000, { discount: terms, pointSatang: 9_000 }).total).toBe(0);
    expect(() => amountOwed(10_000, { discount: terms, pointSatang: 9_001 })).toThrow(RangeError);
  });
});
