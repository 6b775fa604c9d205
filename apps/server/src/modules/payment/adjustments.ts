/**
 * What a payment takes off a booking's total and gives the member (issue 21): the booking's discount code,
 * the green points the member redeems, the points the payment earns, and what a refund gives back. Every
 * amount comes from the shared pricing and point functions (amountOwed, discountSatang, redeemSatang,
 * earnedPoints); every point moves through the append-only ledger (movePoints), each entry under a source
 * that names the operation or payment, so a replay of the same settlement moves nothing twice.
 */
import {
  type AmountOwed,
  amountOwed,
  type DiscountTerms,
  earnedPoints,
  fromSatang,
  type MemberPointResponse,
  type PointCard,
  redeemSatang,
  toSatang,
} from '@ev/shared';
import { and, desc, eq, lte, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import {
  payments,
  pointLedger,
  pointRates,
  promotionRedemptions,
  promotions,
  users,
} from '../../db/schema/index.ts';
import { Conflict, Invalid } from '../../lib/errors.ts';
import { movePoints } from '../promotion/redeem.ts';

export const PAYMENT_POINT_MESSAGES = {
  noCard: 'Green points can’t be used now: no point rate card is in force',
  walkIn: 'Green points can be used by a member only',
} as const;

type Card = PointCard & { id: number };

const cardColumns = {
  id: pointRates.id,
  fromBaht: pointRates.fromBaht,
  toPoint: pointRates.toPoint,
  fromPoint: pointRates.fromPoint,
  toBaht: pointRates.toBaht,
};
const cardOf = (row: {
  id: number;
  fromBaht: string;
  toPoint: string;
  fromPoint: string;
  toBaht: string;
}) => ({
  id: row.id,
  fromBaht: Number(row.fromBaht),
  toPoint: Number(row.toPoint),
  fromPoint: Number(row.fromPoint),
  toBaht: Number(row.toBaht),
});

/** The rate card in force at the database's now (or at `at`): the latest `validFrom` at or before it. */
export async function cardInForceAt(db: Db | Tx, at?: Date): Promise<Card | null> {
  const [card] = await db
    .select(cardColumns)
    .from(pointRates)
    .where(lte(pointRates.validFrom, at ?? sql`now()`))
    .orderBy(desc(pointRates.validFrom))
    .limit(1);
  return card ? cardOf(card) : null;
}

/** The discount code redeemed on a booking: its terms, or null. */
export async function bookingDiscount(
  db: Db | Tx,
  bookingId: number,
): Promise<(DiscountTerms & { redemptionId: number }) | null> {
  const [found] = await db
    .select({
      redemptionId: promotionRedemptions.id,
      discountPercent: promotions.discountPercent,
      discountBaht: promotions.discountBaht,
    })
    .from(promotionRedemptions)
    .innerJoin(promotions, eq(promotions.id, promotionRedemptions.promotionId))
    .where(and(eq(promotionRedemptions.bookingId, bookingId), eq(promotions.type, 'discount')));
  if (!found) return null;
  return {
    redemptionId: found.redemptionId,
    discountPercent: Number(found.discountPercent ?? 0),
    discountBaht: Number(found.discountBaht ?? 0),
  };
}

/**
 * What a payment of a booking charges: its total (`grossSatang`), less its discount code, less the worth of
 * `points` green points at the card in force now. Points on a walk-in, with no card in force, or worth more
 * than what is left to pay are refused, never cut to fit.
 */
export async function owedAtPayment(
  tx: Tx,
  booking: { id: number; userId: number | null },
  grossSatang: number,
  points: number,
): Promise<AmountOwed & { pointUsed: number }> {
  const discount = await bookingDiscount(tx, booking.id);
  let pointSatang = 0;
  if (points > 0) {
    if (booking.userId === null) throw new Invalid(`body.point: ${PAYMENT_POINT_MESSAGES.walkIn}`);
    const card = await cardInForceAt(tx);
    if (!card) throw new Conflict(PAYMENT_POINT_MESSAGES.noCard);
    pointSatang = redeemSatang(points, card);
  }
  const withoutPoints = amountOwed(grossSatang, { discount });
  if (pointSatang > withoutPoints.total) {
    throw new Invalid(
      `body.point: ${points.toLocaleString('en')} points are worth ${fromSatang(pointSatang)} THB, more than ` +
        `the ${fromSatang(withoutPoints.total)} THB owed`,
    );
  }
  return { ...amountOwed(grossSatang, { discount, pointSatang }), pointUsed: points };
}

/** Takes the points a charge redeems from the member at its intent (409 'Not enough green points'). */
export async function holdPoints(tx: Tx, userId: number, operationId: number, points: number): Promise<void> {
  if (points > 0)
    await movePoints(tx, { userId, kind: 'redeem', points: -points, source: `charge:${operationId}:redeem` });
}

/** Gives back the points of a charge the provider refused. */
export async function releasePoints(
  tx: Tx,
  userId: number | null,
  operationId: number,
  points: number,
): Promise<void> {
  if (points > 0 && userId !== null)
    await movePoints(tx, {
      userId,
      kind: 'reversal',
      points,
      source: `charge:${operationId}:release`,
    });
}

/**
 * On a paid charge: the discount written on the booking's redemption, and the points the amount charged
 * earns by the card in force now, credited to the member. Answers what the payment row keeps.
 */
export async function applyAtPayment(
  tx: Tx,
  payment: { id: number; userId: number | null; bookingId: number; amountSatang: number },
  discountAmount: string,
): Promise<{ pointEarned: number; pointRateId: number | null }> {
  if (toSatang(discountAmount) > 0) {
    await tx
      .update(promotionRedemptions)
      .set({ discount: discountAmount, paymentId: payment.id })
      .where(eq(promotionRedemptions.bookingId, payment.bookingId));
  }
  if (payment.userId === null) return { pointEarned: 0, pointRateId: null };
  const card = await cardInForceAt(tx);
  if (!card) return { pointEarned: 0, pointRateId: null };
  const pointEarned = earnedPoints(payment.amountSatang, card);
  if (pointEarned > 0)
    await movePoints(tx, {
      userId: payment.userId,
      kind: 'earn',
      points: pointEarned,
      source: `payment:${payment.id}:earn`,
      paymentId: payment.id,
    });
  return { pointEarned, pointRateId: card.id };
}

/**
 * On a refund paid back: a full refund gives back the points redeemed on the payment; any refund takes back
 * the points earned on what was refunded (the member keeps what the amount finally paid earns, by the same
 * card), at most the member's balance. The code's use is not given back. Answers the points moved.
 */
export async function reverseAtRefund(
  tx: Tx,
  paymentId: number,
  refundSatang: number,
): Promise<{ pointReturned: number; pointTakenBack: number }> {
  const [paid] = await tx
    .select({
      userId: payments.userId,
      amount: payments.amount,
      pointUsed: payments.pointUsed,
      pointEarned: payments.pointEarned,
      pointRateId: payments.pointRateId,
    })
    .from(payments)
    .where(eq(payments.id, paymentId));
  if (!paid || paid.userId === null) return { pointReturned: 0, pointTakenBack: 0 };
  const paidSatang = toSatang(paid.amount);
  const pointReturned = refundSatang >= paidSatang ? paid.pointUsed : 0;
  if (pointReturned > 0)
    await movePoints(tx, {
      userId: paid.userId,
      kind: 'reversal',
      points: pointReturned,
      source: `refund:${paymentId}:redeem`,
      paymentId,
    });
  let pointTakenBack = 0;
  if (paid.pointEarned > 0 && paid.pointRateId !== null) {
    const [card] = await tx.select(cardColumns).from(pointRates).where(eq(pointRates.id, paid.pointRateId));
    const kept = card ? earnedPoints(paidSatang - refundSatang, cardOf(card)) : 0;
    const [member] = await tx
      .select({ point: users.point })
      .from(users)
      .where(eq(users.id, paid.userId))
      .for('update');
    pointTakenBack = Math.min(paid.pointEarned - kept, member?.point ?? 0);
    if (pointTakenBack > 0)
      await movePoints(tx, {
        userId: paid.userId,
        kind: 'reversal',
        points: -pointTakenBack,
        source: `refund:${paymentId}:earn`,
        paymentId,
      });
  }
  return { pointReturned, pointTakenBack };
}

/** The member's balance, the card in force and their latest 50 ledger entries (newest first). */
export async function memberPoints(db: Db, userId: number): Promise<MemberPointResponse> {
  const [member] = await db.select({ point: users.point }).from(users).where(eq(users.id, userId));
  const card = await cardInForceAt(db);
  const ledger = await db
    .select({
      kind: pointLedger.kind,
      points: pointLedger.points,
      source: pointLedger.source,
      createdAt: pointLedger.createdAt,
    })
    .from(pointLedger)
    .where(eq(pointLedger.userId, userId))
    .orderBy(desc(pointLedger.id))
    .limit(50);
  return {
    point: member?.point ?? 0,
    card: card && {
      fromBaht: card.fromBaht,
      toPoint: card.toPoint,
      fromPoint: card.fromPoint,
      toBaht: card.toBaht,
    },
    ledger: ledger.map((entry) => ({ ...entry, createdAt: entry.createdAt.toISOString() })),
  };
}
