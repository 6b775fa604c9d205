import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cardInForce, earnedPoints, mostPoints, type PointCard, redeemSatang } from './points.ts';

/** 1 point per 10 baht paid; 100 points are worth 10 baht. */
const card: PointCard = { fromBaht: 10, toPoint: 1, fromPoint: 100, toBaht: 10 };

describe('cardInForce', () => {
  const cards = [
    { id: 2, validFrom: '2026-03-01T00:00:00.000Z' },
    { id: 1, validFrom: '2026-01-01T00:00:00.000Z' },
    { id: 3, validFrom: '2026-06-01T07:00:00.000+07:00' },
  ];

  it('takes the card with the latest start at or before the instant, whatever the order given', () => {
    expect(cardInForce(cards, '2026-02-15T12:00:00Z')?.id).toBe(1);
    expect(cardInForce(cards, new Date('2026-05-31T23:59:59.999Z'))?.id).toBe(2);
    expect(cardInForce(cards, '2030-01-01T00:00:00Z')?.id).toBe(3);
  });

  it('uses a card starting exactly at the instant (the boundary is in force), not a millisecond before', () => {
    expect(cardInForce(cards, '2026-03-01T00:00:00.000Z')?.id).toBe(2);
    expect(cardInForce(cards, '2026-03-01T07:00:00+07:00')?.id).toBe(2);
    expect(cardInForce(cards, '2026-02-28T23:59:59.999Z')?.id).toBe(1);
    // The same instant in another offset.
    expect(cardInForce(cards, '2026-06-01T00:00:00Z')?.id).toBe(3);
  });

  it('answers null before the first card, and for no cards', () => {
    expect(cardInForce(cards, '2025-12-31T23:59:59.999Z')).toBeNull();
    expect(cardInForce([], new Date())).toBeNull();
  });

  it('refuses an instant that is none', () => {
    expect(() => cardInForce(cards, 'yesterday')).toThrow(RangeError);
    expect(() => cardInForce([{ validFrom: 'soon' }], new Date())).toThrow(RangeError);
  });
});

describe('earnedPoints', () => {
  it('counts whole fromBaht only: floor(paid ÷ fromBaht) × toPoint', () => {
    expect(earnedPoints(0, card)).toBe(0);
    expect(earnedPoints(999, card)).toBe(0);
    expect(earnedPoints(1000, card)).toBe(1);
    expect(earnedPoints(1999, card)).toBe(1);
    expect(earnedPoints(25_075, card)).toBe(25);
  });

  it('floors the product when toPoint has decimals, and handles fromBaht with satang', () => {
    const half = { ...card, fromBaht: 25.5, toPoint: 1.25 };
    // 100 baht: 3 whole 25.50s (76.50), 3 × 1.25 = 3.75 -> 3.
    expect(earnedPoints(10_000, half)).toBe(3);
    // 102 baht: 4 × 1.25 = 5.
    expect(earnedPoints(10_200, half)).toBe(5);
    // 0.01 point per 0.01 baht: exact, no float drift (0.1 + 0.2 style).
    expect(earnedPoints(30, { ...card, fromBaht: 0.01, toPoint: 0.01 })).toBe(0);
    expect(earnedPoints(100, { ...card, fromBaht: 0.01, toPoint: 0.01 })).toBe(1);
    expect(earnedPoints(29_000, { ...card, fromBaht: 0.1, toPoint: 0.07 })).toBe(203);
  });

  it('earns nothing at a rate of 0 points, and never a negative number', () => {
    expect(earnedPoints(1_000_000, { ...card, toPoint: 0 })).toBe(0);
    expect(earnedPoints(-5000, card)).toBe(0);
  });

  it('is exact for big amounts and big rates', () => {
    // 90 million baht at 9,999.99 points a baht.
    expect(earnedPoints(9_000_000_000, { ...card, fromBaht: 1, toPoint: 9999.99 })).toBe(899_999_100_000);
    expect(earnedPoints(Number.MAX_SAFE_INTEGER, card)).toBe(Math.floor(Number.MAX_SAFE_INTEGER / 1000));
    expect(() =>
      earnedPoints(Number.MAX_SAFE_INTEGER, { ...card, fromBaht: 0.01, toPoint: 9_999_999 }),
    ).toThrow(RangeError);
  });

  it('refuses satang that are not whole, and a card that divides by 0', () => {
    expect(() => earnedPoints(10.5, card)).toThrow(RangeError);
    expect(() => earnedPoints(1000, { ...card, fromBaht: 0 })).toThrow(RangeError);
    expect(() => earnedPoints(1000, { ...card, toPoint: 0.001 })).toThrow(RangeError);
  });

  it('never earns less for paying more', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 1_000_000_000 }),
        fc.integer({ min: 0, max: 1_000_000_000 }),
        fc.integer({ min: 1, max: 999_999 }),
        fc.integer({ min: 0, max: 999_999 }),
        (paid, more, fromBahtHundredths, toPointHundredths) => {
          const rate = { ...card, fromBaht: fromBahtHundredths / 100, toPoint: toPointHundredths / 100 };
          const earned = earnedPoints(paid, rate);
          expect(Number.isInteger(earned) && earned >= 0).toBe(true);
          expect(earnedPoints(paid + more, rate)).toBeGreaterThanOrEqual(earned);
        },
      ),
    );
  });
});

describe('redeemSatang', () => {
  it('values whole points at the redeem rate, floored to the satang', () => {
    expect(redeemSatang(250, card)).toBe(2500);
    expect(redeemSatang(1, card)).toBe(10);
    expect(redeemSatang(0, card)).toBe(0);
    // 3 points for 1 baht: 1 point is 33.33... satang -> 33; 10 points 333.
    const third = { ...card, fromPoint: 3, toBaht: 1 };
    expect(redeemSatang(1, third)).toBe(33);
    expect(redeemSatang(10, third)).toBe(333);
    // 1.5 points for 0.01 baht: 1 point -> 0.66 satang -> 0.
    expect(redeemSatang(1, { ...card, fromPoint: 1.5, toBaht: 0.01 })).toBe(0);
    expect(redeemSatang(3, { ...card, fromPoint: 1.5, toBaht: 0.01 })).toBe(2);
  });

  it('is worth nothing at a rate of 0 baht, and exact for big numbers', () => {
    expect(redeemSatang(1_000_000, { ...card, toBaht: 0 })).toBe(0);
    // 900 million points at 9,999,999 baht per 100 points.
    expect(redeemSatang(900_000_000, { ...card, toBaht: 9_999_999 })).toBe(8_999_999_100_000_000);
    expect(() =>
      redeemSatang(Number.MAX_SAFE_INTEGER, { ...card, fromPoint: 0.01, toBaht: 9_999_999 }),
    ).toThrow(RangeError);
  });

  it('refuses fractions of a point, negative points, and a card that divides by 0', () => {
    for (const points of [0.5, -1, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(() => redeemSatang(points, card), String(points)).toThrow(RangeError);
    }
    expect(() => redeemSatang(10, { ...card, fromPoint: 0 })).toThrow(RangeError);
  });
});

describe('mostPoints', () => {
  const card: PointCard = { fromBaht: 25, toPoint: 1, fromPoint: 100, toBaht: 10 };
  it('spends all it can of the balance within the amount, whole points only', () => {
    // 100 points are 10.00 THB: 25.55 THB fits 255 points (25.50), not 256 (25.60).
    expect(mostPoints(1_000, 2_555, card)).toBe(255);
    expect(mostPoints(120, 2_555, card)).toBe(120);
    expect(mostPoints(0, 2_555, card)).toBe(0);
    expect(mostPoints(500, 0, card)).toBe(0);
    expect(() => mostPoints(-1, 100, card)).toThrow(RangeError);
  });
  it('is the largest count whose worth fits, for any card and amount', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 100_000 }),
        fc.integer({ min: 0, max: 1_000_000 }),
        fc.integer({ min: 1, max: 99_999 }),
        fc.integer({ min: 0, max: 99_999 }),
        (balance, satang, fromPoint, toBaht) => {
          const rate = { ...card, fromPoint: fromPoint / 100, toBaht: toBaht / 100 };
          const points = mostPoints(balance, satang, rate);
          expect(points).toBeLessThanOrEqual(balance);
          expect(redeemSatang(points, rate)).toBeLessThanOrEqual(satang);
          if (points < balance) expect(redeemSatang(points + 1, rate)).toBeGreaterThan(satang);
        },
      ),
    );
  });
});
