import { type Satang, toSatang } from './money.ts';

/**
 * Green-point arithmetic (document 3, Point setup; issue 21), pure and exact: amounts in integer satang, the
 * card's numbers (2 decimals) as integer hundredths, products in BigInt, so no float ever rounds a balance.
 */

/** What the arithmetic needs of a rate card (the API's `PointRate` fits). */
export interface PointCard {
  /** Earn: `toPoint` points for every whole `fromBaht` baht paid. */
  fromBaht: number;
  toPoint: number;
  /** Redeem: `fromPoint` points are worth `toBaht` baht. */
  fromPoint: number;
  toBaht: number;
}

const timeOf = (at: Date | string): number => {
  const time = typeof at === 'string' ? Date.parse(at) : at.getTime();
  if (Number.isNaN(time)) throw new RangeError(`Not an instant: ${String(at)}`);
  return time;
};

/**
 * The card in force at `at`: the one with the latest `validFrom` at or before it (a card starting exactly at
 * `at` is in force). None started yet: null.
 */
export function cardInForce<T extends { validFrom: Date | string }>(
  cards: readonly T[],
  at: Date | string,
): T | null {
  const now = timeOf(at);
  let best: T | null = null;
  let bestTime = Number.NEGATIVE_INFINITY;
  for (const card of cards) {
    const start = timeOf(card.validFrom);
    if (start <= now && start > bestTime) {
      best = card;
      bestTime = start;
    }
  }
  return best;
}

/** A card's number (2 decimals) in hundredths; 0 or less where it divides is a card no rule lets in. */
function hundredths(value: number, name: string, divider = false): bigint {
  const result = toSatang(value);
  if (result < 0 || (divider && result === 0))
    throw new RangeError(`${name} must be ${divider ? 'more than 0' : '0 or more'}: ${value}`);
  return BigInt(result);
}

/** Back to a number, refusing what a number can't hold exactly. */
function safe(value: bigint): number {
  if (value > BigInt(Number.MAX_SAFE_INTEGER)) throw new RangeError(`Out of range: ${value}`);
  return Number(value);
}

/**
 * The points a payment of `paidSatang` earns: floor(paid ÷ fromBaht) × toPoint, kept whole (the product is
 * floored when toPoint has decimals). Nothing paid, or a negative amount: 0.
 */
export function earnedPoints(paidSatang: Satang, card: PointCard): number {
  if (!Number.isSafeInteger(paidSatang)) throw new RangeError(`Satang must be an integer: ${paidSatang}`);
  const per = hundredths(card.fromBaht, 'fromBaht', true);
  const toPoint = hundredths(card.toPoint, 'toPoint');
  if (paidSatang <= 0) return 0;
  const units = BigInt(paidSatang) / per;
  return safe((units * toPoint) / 100n);
}

/**
 * What `points` are worth at the card's redeem rate, in satang floored: points ÷ fromPoint × toBaht. Whole
 * points only: a fraction or a negative number is a RangeError.
 */
export function redeemSatang(points: number, card: PointCard): Satang {
  if (!Number.isSafeInteger(points) || points < 0)
    throw new RangeError(`Points must be a whole number, 0 or more: ${points}`);
  const fromPoint = hundredths(card.fromPoint, 'fromPoint', true);
  const toBaht = hundredths(card.toBaht, 'toBaht');
  // fromPoint is in hundredths of a point: points × 100 ÷ fromPoint is how many times the rate applies.
  return safe((BigInt(points) * 100n * toBaht) / fromPoint);
}

/**
 * The most whole points, at most `balance`, worth at most `satang` at the card's redeem rate: what a member
 * can spend on an amount owed (redeemSatang only grows with the points, so a binary search finds it).
 */
export function mostPoints(balance: number, satang: number, card: PointCard): number {
  if (!Number.isSafeInteger(balance) || balance < 0)
    throw new RangeError(`Balance must be whole: ${balance}`);
  let [low, high] = [0, balance];
  while (low < high) {
    const middle = Math.ceil((low + high) / 2);
    if (redeemSatang(middle, card) <= satang) low = middle;
    else high = middle - 1;
  }
  return low;
}
