import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  acMinimumW,
  type PowerSession,
  profileLimit,
  sharePower,
  TAPER,
  usableFromDraw,
} from './power-sharing.ts';

const RUNS = { numRuns: 1000 };

/** AC wallboxes (1 or 3 phases, 16–32 A) and DC chargers (20–150 kW, minimum 5–20 kW), some capped lower. */
const session = fc
  .record({
    startedAt: fc.integer({ min: 0, max: 3_600_000 }),
    dc: fc.boolean(),
    phases: fc.constantFrom(1, 3),
    amps: fc.integer({ min: 16, max: 32 }),
    dcMaxKw: fc.integer({ min: 20, max: 150 }),
    dcMinKw: fc.integer({ min: 5, max: 20 }),
    chargerCapW: fc.option(fc.integer({ min: 0, max: 200_000 }), { nil: undefined }),
    usableW: fc.option(fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 200_000 })), { nil: undefined }),
  })
  .map(({ dc, phases, amps, dcMaxKw, dcMinKw, chargerCapW, ...rest }) => {
    const connectorW = dc ? dcMaxKw * 1000 : amps * phases * 230;
    return {
      ...rest,
      maxW: chargerCapW === undefined ? connectorW : Math.min(connectorW, chargerCapW),
      minW: dc ? dcMinKw * 1000 : acMinimumW(phases, 230),
    };
  });
const sessions = fc
  .array(session, { maxLength: 24 })
  .map((list) => list.map((s, index): PowerSession => ({ ...s, id: `s${index}` })));
const limit = fc.integer({ min: 0, max: 400_000 });
const fixed = fc.integer({ min: 0, max: 100_000 });

const sum = (values: number[]) => values.reduce((total, value) => total + value, 0);

describe('sharePower: properties', () => {
  it('never gives more than the limit left after the loads it cannot steer', () => {
    fc.assert(
      fc.property(limit, sessions, fixed, (limitW, list, fixedW) => {
        const shares = sharePower(limitW, list, fixedW);
        expect(sum(shares.map((s) => s.allowanceW))).toBeLessThanOrEqual(Math.max(0, limitW - fixedW));
      }),
      RUNS,
    );
  });

  it('gives nobody more than its connector (capped by its charger), and whole non-negative watts', () => {
    fc.assert(
      fc.property(limit, sessions, (limitW, list) => {
        const shares = sharePower(limitW, list);
        shares.forEach((share, index) => {
          expect(share.id).toBe(list[index]!.id);
          expect(Number.isInteger(share.allowanceW)).toBe(true);
          expect(share.allowanceW).toBeGreaterThanOrEqual(0);
          expect(share.allowanceW).toBeLessThanOrEqual(list[index]!.maxW);
        });
      }),
      RUNS,
    );
  });

  it('gives everyone at least its minimum while the limit allows every minimum', () => {
    fc.assert(
      fc.property(sessions, fixed, (list, fixedW) => {
        const minima = sum(list.map((s) => Math.min(s.minW, s.maxW)));
        const limitW = minima + fixedW; // just enough
        const shares = sharePower(limitW, list, fixedW);
        shares.forEach((share, index) => {
          const s = list[index]!;
          if (s.maxW === 0) return;
          expect(share.waiting).toBe(false);
          expect(share.allowanceW).toBeGreaterThanOrEqual(Math.min(s.minW, s.maxW));
        });
      }),
      RUNS,
    );
  });

  it('when the minima do not fit, those who wait get 0, the others at least their minimum, and an older one never waits for a younger one with the same minimum', () => {
    fc.assert(
      fc.property(limit, sessions, (limitW, list) => {
        const shares = sharePower(limitW, list);
        shares.forEach((share, index) => {
          const s = list[index]!;
          if (share.waiting) expect(share.allowanceW).toBe(0);
          else expect(share.allowanceW).toBeGreaterThanOrEqual(Math.min(s.minW, s.maxW));
        });
        for (const [a, older] of list.entries()) {
          for (const [b, younger] of list.entries()) {
            const minimum = (s: PowerSession) => Math.min(s.minW, s.maxW);
            if (
              older.startedAt < younger.startedAt &&
              minimum(older) === minimum(younger) &&
              older.maxW > 0
            ) {
              if (shares[a]!.waiting) expect(shares[b]!.waiting).toBe(true);
            }
          }
        }
      }),
      RUNS,
    );
  });

  it('shares what is left equally: a session below another one is at its own cap (within a watt)', () => {
    fc.assert(
      fc.property(limit, sessions, (limitW, list) => {
        const shares = sharePower(limitW, list);
        const served = shares.flatMap((share, index) => (share.waiting ? [] : [{ share, s: list[index]! }]));
        for (const low of served) {
          const cap = Math.min(
            low.s.maxW,
            Math.max(Math.min(low.s.minW, low.s.maxW), low.s.usableW ?? low.s.maxW),
          );
          for (const high of served) {
            if (
              high.share.allowanceW > low.share.allowanceW + 1 &&
              high.share.allowanceW > Math.min(high.s.minW, high.s.maxW)
            ) {
              expect(low.share.allowanceW).toBeGreaterThanOrEqual(cap - 1);
            }
          }
        }
      }),
      RUNS,
    );
  });

  it('leaves nothing unused that someone could take (within a watt per session)', () => {
    fc.assert(
      fc.property(limit, sessions, (limitW, list) => {
        const shares = sharePower(limitW, list);
        const given = sum(shares.map((s) => s.allowanceW));
        const wanted = sum(
          shares.map((share, index) => {
            if (share.waiting) return 0;
            const s = list[index]!;
            return Math.min(s.maxW, Math.max(Math.min(s.minW, s.maxW), s.usableW ?? s.maxW));
          }),
        );
        expect(given).toBeGreaterThanOrEqual(Math.min(limitW, wanted) - list.length);
      }),
      RUNS,
    );
  });
});

describe('sharePower: examples', () => {
  const ac = (id: string, startedAt: number, extra: Partial<PowerSession> = {}): PowerSession => ({
    id,
    startedAt,
    maxW: 22_080, // 32 A × 3 × 230 V
    minW: acMinimumW(3, 230), // 4,140 W
    ...extra,
  });

  it('splits 30 kW equally between three 22 kW wallboxes', () => {
    expect(sharePower(30_000, [ac('a', 1), ac('b', 2), ac('c', 3)]).map((s) => s.allowanceW)).toEqual([
      10_000, 10_000, 10_000,
    ]);
  });

  it('gives what a suspended car does not use to the others, keeping its minimum so it can resume', () => {
    const shares = sharePower(30_000, [ac('a', 1), ac('b', 2, { usableW: 0 }), ac('c', 3)]);
    expect(shares.map((s) => s.allowanceW)).toEqual([12_930, 4_140, 12_930]);
  });

  it('lets the youngest wait at 0 when the minima do not fit, and counts a refusing charger at full power', () => {
    const shares = sharePower(20_000, [ac('a', 1), ac('b', 2), ac('c', 3)], 9_000);
    expect(shares).toEqual([
      { id: 'a', allowanceW: 5_500, waiting: false },
      { id: 'b', allowanceW: 5_500, waiting: false },
      { id: 'c', allowanceW: 0, waiting: true },
    ]);
  });

  it('tells an AC charger amperes per phase, rounded down to 0.1 A', () => {
    expect(profileLimit(10_000, { unit: 'A', phases: 3, voltage: 230 })).toBe(14.4);
    expect(profileLimit(10_000, { unit: 'W' })).toBe(10_000);
  });
});

describe('usableFromDraw: a tapering car', () => {
  const allowance = fc.integer({ min: 1, max: 400_000 });
  const draw = fc.integer({ min: 0, max: 400_000 });

  it('never says a car can use less than it draws, nor more than its allowance', () => {
    fc.assert(
      fc.property(draw, allowance, (drawW, allowanceW) => {
        const usable = usableFromDraw(drawW, allowanceW);
        if (usable === undefined) return;
        expect(usable).toBeGreaterThan(drawW);
        expect(usable).toBeLessThanOrEqual(allowanceW);
      }),
      RUNS,
    );
  });

  it('leaves a car drawing near its allowance free to take its whole share', () => {
    fc.assert(
      fc.property(allowance, fc.double({ min: TAPER.RELEASE, max: 2, noNaN: true }), (allowanceW, ratio) => {
        expect(usableFromDraw(Math.ceil(allowanceW * ratio), allowanceW)).toBeUndefined();
      }),
      RUNS,
    );
  });

  it('settles after one step: the same draw against the new allowance keeps it (no swinging)', () => {
    fc.assert(
      fc.property(draw, allowance, (drawW, allowanceW) => {
        const usable = usableFromDraw(drawW, allowanceW);
        if (usable === undefined) return;
        expect(usableFromDraw(drawW, usable)).toBe(usable);
      }),
      RUNS,
    );
  });

  it('frees at least a kilowatt when it lowers a car, or holds it where it is', () => {
    fc.assert(
      fc.property(draw, allowance, (drawW, allowanceW) => {
        const usable = usableFromDraw(drawW, allowanceW);
        if (usable === undefined || usable === allowanceW) return;
        expect(allowanceW - usable).toBeGreaterThanOrEqual(TAPER.MARGIN_W);
      }),
      RUNS,
    );
  });

  it('examples: 22 kW given, 9 kW drawn → 10.5 kW; 9 of 10.5 held; 20 of 22 released; bad numbers ignored', () => {
    // 9 kW × 1.15 = 10.35 kW, rounded up to 10.5 kW (more than 9 kW + 1 kW).
    expect(usableFromDraw(9_000, 22_000)).toBe(10_500);
    expect(usableFromDraw(9_000, 10_500)).toBe(10_500);
    expect(usableFromDraw(2_000, 3_000)).toBe(3_000); // 3 kW would free nothing: held
    expect(usableFromDraw(20_000, 22_000)).toBeUndefined();
    expect(usableFromDraw(Number.NaN, 22_000)).toBeUndefined();
    expect(usableFromDraw(5_000, 0)).toBeUndefined();
  });
});
