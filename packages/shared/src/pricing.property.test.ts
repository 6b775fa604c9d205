import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { toSatang } from './money.ts';
import { type PlanSnapshot, type PriceBreakdown, priceSession, type SessionFacts } from './pricing.ts';

const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;
/** Monday 2026-06-01 00:00 Bangkok. */
const BASE = Date.parse('2026-06-01T00:00:00+07:00');
const RUNS = { numRuns: 500 };

const pad = (value: number) => String(value).padStart(2, '0');
const hhmm = (minutes: number) => `${pad(Math.floor(minutes / 60))}:${pad(minutes % 60)}`;
/** 'YYYY-MM-DD HH:mm' Bangkok wall time of an instant. */
const wall = (ms: number) => new Date(ms + 7 * HOUR).toISOString().slice(0, 16).replace('T', ' ');

const baht = (max: number) => fc.integer({ min: 0, max: max * 100 }).map((satang) => satang / 100);
const weekdayRow = fc
  .record({
    dayOfWeek: fc.integer({ min: 1, max: 7 }),
    from: fc.integer({ min: 0, max: 1439 }),
    length: fc.integer({ min: 0, max: 1439 }),
    bahtPerKwh: baht(100),
    bahtPerHour: baht(1000),
  })
  .map(({ from, length, ...row }) => ({
    ...row,
    validTimeFrom: hhmm(from),
    validTimeTo: hhmm(Math.min(1439, from + length)),
  }));
const datedRow = fc
  .record({
    from: fc.integer({ min: 0, max: 12 * 24 * 60 }),
    length: fc.integer({ min: 0, max: 3 * 24 * 60 }),
    bahtPerKwh: baht(100),
    bahtPerHour: baht(1000),
  })
  .map(({ from, length, ...row }) => ({
    ...row,
    validFrom: wall(BASE + from * MIN),
    validTo: wall(BASE + (from + length) * MIN),
  }));
const planArb: fc.Arbitrary<PlanSnapshot> = fc.record({
  method: fc.constantFrom('HOUR' as const, 'KW' as const),
  calculateMethod: fc.constantFrom('BAHT_HRS' as const, 'BAHT_MIN' as const, null),
  bahtPerKwh: baht(100),
  bahtPerHour: baht(1000),
  penaltyBahtPerMin: baht(100),
  penaltyDCFullBahtPerMin: baht(100),
  penaltyDCFullDelayMin: fc.integer({ min: 0, max: 120 }),
  overrideWeekdays: fc.array(weekdayRow, { maxLength: 5 }),
  overrides: fc.array(datedRow, { maxLength: 3 }),
});

/** No windows, nothing to pay: the rows below set what they test. */
const flatPlan: PlanSnapshot = {
  method: 'HOUR',
  calculateMethod: 'BAHT_HRS',
  bahtPerKwh: 0,
  bahtPerHour: 0,
  penaltyBahtPerMin: 0,
  penaltyDCFullBahtPerMin: 0,
  penaltyDCFullDelayMin: 0,
  overrideWeekdays: [],
  overrides: [],
};

/** Stopped sessions: sometimes never available yet, sometimes never full; samples may be noisy. */
const factsArb: fc.Arbitrary<SessionFacts> = fc
  .record({
    start: fc.integer({ min: 0, max: 9 * DAY }),
    duration: fc.integer({ min: -HOUR, max: 3 * DAY }),
    energyWh: fc.integer({ min: 0, max: 2_000_000 }),
    samples: fc.array(
      fc.record({ at: fc.integer({ min: -HOUR, max: 3 * DAY }), wh: fc.integer({ min: 0, max: 2_500_000 }) }),
      { maxLength: 8 },
    ),
    available: fc.option(fc.integer({ min: -HOUR, max: DAY })),
    full: fc.option(fc.integer({ min: -DAY, max: DAY })),
    connectorTypeId: fc.constantFrom(2, 4),
  })
  .map(({ start, duration, energyWh, samples, available, full, connectorTypeId }) => {
    const startTime = BASE + start;
    const stopTime = startTime + duration;
    return {
      startTime,
      stopTime,
      avaliableAt: available === null ? null : stopTime + available,
      fullAt: full === null ? null : stopTime - full,
      energyWh,
      samples: samples
        .map((sample) => ({ at: startTime + sample.at, wh: sample.wh }))
        .sort((a, b) => a.at - b.at),
      connectorTypeId,
    };
  });

const partsOf = (result: PriceBreakdown) => [
  result.byPower,
  result.byDuration,
  result.byPenalty,
  ...Object.values(result.computed),
  result.partsTotal,
  result.total,
];

describe('priceSession properties', () => {
  it('totals the parts, never negative, always whole satang', () => {
    fc.assert(
      fc.property(planArb, factsArb, fc.boolean(), (plan, facts, live) => {
        // A live estimate prices the same session while it is still charging.
        const result = live
          ? priceSession(plan, { ...facts, stopTime: null, avaliableAt: null }, { now: facts.stopTime! })
          : priceSession(plan, facts);
        const { computed } = result;
        expect(result.total).toBe(result.byPower + result.byDuration + result.byPenalty);
        expect(computed.byPenalty).toBe(computed.overstay + computed.dcFull);
        expect([result.byPower, result.byDuration, result.byPenalty]).toEqual([
          computed.byPower,
          computed.byDuration,
          computed.byPenalty,
        ]);
        for (const part of partsOf(result)) {
          expect(Number.isSafeInteger(part)).toBe(true);
          expect(part).toBeGreaterThanOrEqual(0);
        }
      }),
      RUNS,
    );
  });

  it('never falls when more energy is delivered over the same times', () => {
    fc.assert(
      fc.property(planArb, factsArb, fc.integer({ min: 1, max: 1_000_000 }), (plan, facts, more) => {
        const less = priceSession(plan, facts);
        const bigger = priceSession(plan, { ...facts, energyWh: facts.energyWh + more });
        expect(bigger.byPower).toBeGreaterThanOrEqual(less.byPower);
        expect(bigger.total).toBeGreaterThanOrEqual(less.total);
      }),
      RUNS,
    );
  });

  it('never falls by one more Wh over many dearer and cheaper windows', () => {
    // Hourly windows of random kWh rates and a few Wh: where rounding a share of the energy could move a Wh
    // into a cheaper hour.
    const hourly = fc.array(fc.integer({ min: 0, max: 5000 }), { minLength: 24, maxLength: 24 }).map(
      (rates): PlanSnapshot => ({
        ...flatPlan,
        method: 'KW',
        overrideWeekdays: [2, 3].flatMap((dayOfWeek) =>
          rates.map((rate, hour) => ({
            dayOfWeek,
            validTimeFrom: hhmm(hour * 60),
            validTimeTo: hhmm(hour * 60 + 59),
            bahtPerKwh: rate / 100,
            bahtPerHour: 0,
          })),
        ),
      }),
    );
    const session = fc
      .record({
        start: fc.integer({ min: 0, max: DAY }),
        duration: fc.integer({ min: 1, max: 12 * HOUR }),
        energyWh: fc.integer({ min: 0, max: 50 }),
        samples: fc.array(fc.tuple(fc.integer({ min: 1, max: 12 * HOUR }), fc.integer({ min: 0, max: 50 })), {
          maxLength: 6,
        }),
      })
      .map(({ start, duration, energyWh, samples }): SessionFacts => {
        const startTime = BASE + start;
        return {
          startTime,
          stopTime: startTime + duration,
          avaliableAt: null,
          fullAt: null,
          energyWh,
          samples: samples.map(([at, wh]) => ({ at: startTime + at, wh })).sort((a, b) => a.at - b.at),
          connectorTypeId: 2,
        };
      });
    fc.assert(
      fc.property(hourly, session, (plan, facts) => {
        const more = priceSession(plan, { ...facts, energyWh: facts.energyWh + 1 });
        expect(more.byPower).toBeGreaterThanOrEqual(priceSession(plan, facts).byPower);
      }),
      RUNS,
    );
  });

  it('charges by power between the cheapest and the dearest kWh rate', () => {
    fc.assert(
      fc.property(planArb, factsArb, (plan, facts) => {
        const rates = [plan, ...plan.overrideWeekdays, ...plan.overrides].map((row) =>
          toSatang(row.bahtPerKwh),
        );
        const { byPower } = priceSession({ ...plan, method: 'KW' }, facts);
        // Rounded once, half up, from whole Wh.
        expect(byPower).toBeGreaterThanOrEqual(Math.round((Math.min(...rates) * facts.energyWh) / 1000));
        expect(byPower).toBeLessThanOrEqual(Math.round((Math.max(...rates) * facts.energyWh) / 1000));
      }),
      RUNS,
    );
  });

  it('charges by duration never less for a longer session', () => {
    fc.assert(
      fc.property(planArb, factsArb, fc.integer({ min: 1, max: DAY }), (plan, facts, longer) => {
        // The meter's samples within the session stretched over the longer one, the later ones moved with the stop.
        const [start, d] = [facts.startTime!, facts.stopTime! - facts.startTime!];
        const stretch = (at: number) =>
          at > start + d
            ? at + longer
            : at > start
              ? start + Math.round(((at - start) * (d + longer)) / d)
              : at;
        const samples = facts.samples?.map((sample) => ({ ...sample, at: stretch(sample.at) }));
        const short = priceSession(plan, facts);
        const long = priceSession(plan, { ...facts, stopTime: facts.stopTime! + longer, samples });
        expect(long.byDuration).toBeGreaterThanOrEqual(short.byDuration);
      }),
      RUNS,
    );
  });

  it('totals never less for a longer session at one kWh rate, the overstay kept', () => {
    fc.assert(
      fc.property(planArb, factsArb, fc.integer({ min: 1, max: DAY }), (anyPlan, facts, longer) => {
        // Energy moving into a cheaper window may lower the part by power, so the kWh rate is one here.
        const flat = { bahtPerKwh: anyPlan.bahtPerKwh };
        const plan = {
          ...anyPlan,
          overrideWeekdays: anyPlan.overrideWeekdays.map((row) => ({ ...row, ...flat })),
          overrides: anyPlan.overrides.map((row) => ({ ...row, ...flat })),
        };
        const short = priceSession(plan, facts);
        const shift = (at: number | null) => (at === null ? null : at + longer);
        const long = priceSession(plan, {
          ...facts,
          stopTime: shift(facts.stopTime),
          avaliableAt: shift(facts.avaliableAt),
        });
        expect(long.total).toBeGreaterThanOrEqual(short.total);
      }),
      RUNS,
    );
  });

  it('never falls when the car stays longer after the stop', () => {
    fc.assert(
      fc.property(planArb, factsArb, fc.integer({ min: 1, max: DAY }), (plan, facts, later) => {
        const stopTime = facts.stopTime!;
        const available = facts.avaliableAt ?? stopTime;
        const early = priceSession(plan, { ...facts, avaliableAt: available });
        const late = priceSession(plan, { ...facts, avaliableAt: available + later });
        expect(late.computed.overstay).toBeGreaterThanOrEqual(early.computed.overstay);
        expect(late.total).toBeGreaterThanOrEqual(early.total);
      }),
      RUNS,
    );
  });

  it('charges by duration what a minute-by-minute walk of the windows gives', () => {
    // An independent reading of the windows: Bangkok wall-clock strings compared as text, minute by minute.
    const hourRateAt = (plan: PlanSnapshot, at: number) => {
      const text = wall(at);
      const time = text.slice(11);
      const day = new Date(at + 7 * HOUR).getUTCDay() + 1;
      const row =
        plan.overrides.find((o) => o.validFrom <= text && text <= o.validTo) ??
        plan.overrideWeekdays.find(
          (w) => w.dayOfWeek === day && w.validTimeFrom <= time && time <= w.validTimeTo,
        ) ??
        plan;
      return toSatang(row.bahtPerHour);
    };
    const minuteStart = fc.integer({ min: 0, max: 9 * 24 * 60 }).map((minutes) => BASE + minutes * MIN);
    fc.assert(
      fc.property(planArb, minuteStart, fc.integer({ min: 0, max: 2 * DAY }), (anyPlan, startTime, d) => {
        const plan = { ...anyPlan, method: 'HOUR' as const };
        const result = priceSession(plan, {
          startTime,
          stopTime: startTime + d,
          avaliableAt: null,
          fullAt: null,
          energyWh: 0,
          connectorTypeId: 2,
        });
        const minutes = result.billed.hours !== null ? result.billed.hours * 60 : result.billed.minutes!;
        let sum = 0;
        for (let minute = 0; minute < minutes; minute++) sum += hourRateAt(plan, startTime + minute * MIN);
        // Each minute costs rate / 60, rounded once, half up.
        expect(result.byDuration).toBe(Math.floor((2 * sum + 60) / 120));
      }),
      RUNS,
    );
  });
});
