/**
 * The demo history's green points and discount codes (issue 21), as the server's payments would have left
 * them: every payment earns points by the card in force when it was paid, a few redeem some of the member's
 * points or take a demo discount code off first, and a refund gives back and takes back points as
 * reverseAtRefund does. Planned in memory in time order (balances as they were at each instant, so none
 * ever goes below 0), before the history is written: the payments' amounts and refunds are the net ones.
 * Then written with the payments' ids: the ledger (the opening and code entries of demo-promotions.ts
 * included, re-inserted in time order so ids follow time), the discount redemptions, the codes' uses and
 * each member's balance, the sum of their ledger.
 */
import {
  pointLedger,
  pointRates,
  promotionCodes,
  promotionLandlords,
  promotionRedemptions,
  promotions,
  users,
} from '@ev/server/db/schema/index';
import {
  cardInForce,
  type DiscountTerms,
  discountSatang,
  earnedPoints,
  fromSatang,
  mostPoints,
  type PointCard,
  redeemSatang,
} from '@ev/shared';
import { asc, inArray, sql } from 'drizzle-orm';
import { bulkInsert } from './demo-bulk.ts';
import type { DemoTx } from './demo-data.ts';
import type { Random } from './demo-history-session.ts';
import type { HistoryBooking } from './demo-history-story.ts';

const MINUTE = 60_000;

/** Shares of the members' payments: green points redeemed, a discount code taken off first. */
export const DEMO_POINTS = { spendShare: 0.03, discountShare: 0.03 };
/** The points a member redeems when they do, at most their balance and what is owed. */
const SPENDS = [100, 100, 200, 300, 500, 1000, Number.POSITIVE_INFINITY];

export interface DemoCard extends PointCard {
  id: number;
  validFrom: Date;
}
export interface DemoDiscount {
  promotionId: number;
  terms: DiscountTerms;
  validFrom: number;
  validTo: number;
  /** The sites a private promotion is for; null: every site. */
  landlordIds: ReadonlySet<number> | null;
  /** Its codes in id order, with their uses so far. */
  codes: Array<{ id: number; used: number; total: number | null }>;
}
export interface LedgerRow {
  userId: number;
  kind: 'earn' | 'redeem' | 'code' | 'reversal' | 'expiry';
  points: number;
  source: string;
  paymentId: number | null;
  redemptionId: number | null;
  createdAt: Date;
}
export interface PointsInput {
  cards: DemoCard[];
  discounts: DemoDiscount[];
  /** `{userId}:{codeId}` of the redemptions already made: one per member and code. */
  redeemed: Set<string>;
  /** The ledger so far (opening balances, point codes). */
  ledger: LedgerRow[];
}

/** What a payment took off, earned, and what its refund moved; satang and whole points. */
export interface PaymentPoints {
  discount: number;
  pointUsed: number;
  pointSatang: number;
  pointEarned: number;
  pointRateId: number | null;
  redemption: { promotionId: number; codeId: number; at: number } | null;
  /** Set once the refund is played: reverseAtRefund's answer. */
  refund: { pointReturned: number; pointTakenBack: number } | null;
}

/** A ledger entry of the plan: an existing row, or one a payment or refund makes (its id known at write). */
type Entry =
  | { row: LedgerRow }
  | { booking: HistoryBooking; kind: 'redeem' | 'earn' | 'refund-redeem' | 'refund-earn'; points: number };

export interface PointsPlan {
  payments: Map<HistoryBooking, PaymentPoints>;
  /** Every ledger entry in time order. */
  entries: Entry[];
}

/** The cards, the discount promotions and their codes, and the ledger as demo-promotions.ts left them. */
export async function readPointsInput(tx: DemoTx): Promise<PointsInput> {
  const cards = (await tx.select().from(pointRates).orderBy(asc(pointRates.validFrom))).map((card) => ({
    id: card.id,
    validFrom: card.validFrom,
    fromBaht: Number(card.fromBaht),
    toPoint: Number(card.toPoint),
    fromPoint: Number(card.fromPoint),
    toBaht: Number(card.toBaht),
  }));
  const rows = await tx
    .select()
    .from(promotions)
    .where(sql`${promotions.type} = 'discount' and ${promotions.active}`)
    .orderBy(asc(promotions.id));
  const ids = rows.map((row) => row.id);
  const codes =
    ids.length === 0
      ? []
      : await tx
          .select()
          .from(promotionCodes)
          .where(inArray(promotionCodes.promotionId, ids))
          .orderBy(asc(promotionCodes.id));
  const sites =
    ids.length === 0
      ? []
      : await tx.select().from(promotionLandlords).where(inArray(promotionLandlords.promotionId, ids));
  const discounts = rows.map(
    (row): DemoDiscount => ({
      promotionId: row.id,
      terms: {
        discountPercent: Number(row.discountPercent ?? 0),
        discountBaht: Number(row.discountBaht ?? 0),
      },
      validFrom: row.validFrom.getTime(),
      validTo: row.validTo.getTime(),
      landlordIds: row.internal
        ? new Set(sites.filter((site) => site.promotionId === row.id).map((site) => site.landlordId))
        : null,
      codes: codes
        .filter((code) => code.promotionId === row.id)
        .map((code) => ({ id: code.id, used: code.used, total: code.total })),
    }),
  );
  const redeemed = new Set(
    (await tx.select().from(promotionRedemptions)).map((row) => `${row.userId}:${row.codeId}`),
  );
  const ledger = await tx.select().from(pointLedger).orderBy(asc(pointLedger.createdAt), asc(pointLedger.id));
  return {
    cards,
    discounts,
    redeemed,
    ledger: ledger.map(({ id: _id, ...row }) => row),
  };
}

/**
 * Plays the history's payments and refunds in time order with the ledger so far. Each payment of a member
 * earns by the card in force then; a few first take a discount code (valid then, at the booking's site, with a
 * use left, not redeemed by the member before) or redeem points (paid by the member in the app: at most their
 * balance then). What is left to pay stays above 0, so no payment turns 'zero'. The payments' amounts, and
 * their refunds (all of it, or half), become the net ones; the input's codes count the uses taken. The same
 * history, input and random give the same plan.
 */
export function planPoints(
  history: readonly HistoryBooking[],
  input: PointsInput,
  random: Random,
  shares: { spendShare: number; discountShare: number } = DEMO_POINTS,
): PointsPlan {
  const balances = new Map<number, number>();
  const balance = (userId: number) => balances.get(userId) ?? 0;
  const move = (userId: number, points: number) => balances.set(userId, balance(userId) + points);
  const cardById = new Map(input.cards.map((card) => [card.id, card]));
  const payments = new Map<HistoryBooking, PaymentPoints>();
  const entries: Entry[] = [];

  // 0: an existing entry, 1: a payment, 2: a refund; at the same instant in that order.
  type Step = { at: number; order: number; row?: LedgerRow; booking?: HistoryBooking };
  const steps: Step[] = input.ledger.map((row) => ({ at: row.createdAt.getTime(), order: 0, row }));
  for (const booking of history) {
    if (!booking.payment || !booking.member) continue;
    steps.push({ at: booking.payment.at, order: 1, booking });
    if (booking.payment.refund) steps.push({ at: booking.payment.refund.at, order: 2, booking });
  }
  steps.sort((a, b) => a.at - b.at || a.order - b.order);

  const discountFor = (booking: HistoryBooking, gross: number) => {
    const payment = booking.payment!;
    const userId = booking.member!.id;
    // Redeemed in the app a little before paying, while the booking was open.
    const at = Math.round(payment.at - random() * Math.min(5 * MINUTE, payment.at - booking.createdAt));
    const candidates = input.discounts.flatMap((discount) => {
      if (at < discount.validFrom || at > discount.validTo) return [];
      if (discount.landlordIds && !discount.landlordIds.has(booking.connector.landlordId)) return [];
      const code = discount.codes.find(
        (c) => (c.total === null || c.used < c.total) && !input.redeemed.has(`${userId}:${c.id}`),
      );
      const off = discountSatang(gross, discount.terms);
      return code && off > 0 && off < gross ? [{ discount, code, off }] : [];
    });
    if (candidates.length === 0) return null;
    const { discount, code, off } = candidates[Math.floor(random() * candidates.length)]!;
    code.used++;
    input.redeemed.add(`${userId}:${code.id}`);
    return { off, redemption: { promotionId: discount.promotionId, codeId: code.id, at } };
  };

  for (const step of steps) {
    if (step.row) {
      move(step.row.userId, step.row.points);
      entries.push({ row: step.row });
      continue;
    }
    const booking = step.booking!;
    const payment = booking.payment!;
    const userId = booking.member!.id;
    if (step.order === 1) {
      const gross = payment.amount;
      const card = cardInForce(input.cards, new Date(payment.at));
      const paid: PaymentPoints = {
        discount: 0,
        pointUsed: 0,
        pointSatang: 0,
        pointEarned: 0,
        pointRateId: card?.id ?? null,
        redemption: null,
        refund: null,
      };
      if (payment.method !== 'zero' && random() < shares.discountShare) {
        const found = discountFor(booking, gross);
        if (found) {
          paid.discount = found.off;
          paid.redemption = found.redemption;
        }
      }
      // Points in the app only: not on a payment staff recorded.
      if (card && payment.method !== 'zero' && payment.staffId === null && random() < shares.spendShare) {
        const most = mostPoints(balance(userId), gross - paid.discount - 1, card);
        const points = Math.min(most, SPENDS[Math.floor(random() * SPENDS.length)]!);
        const worth = points > 0 ? redeemSatang(points, card) : 0;
        if (worth > 0) {
          paid.pointUsed = points;
          paid.pointSatang = worth;
          move(userId, -points);
          entries.push({ booking, kind: 'redeem', points: -points });
        }
      }
      payment.amount = gross - paid.discount - paid.pointSatang;
      const refund = payment.refund;
      if (refund) refund.amount = refund.amount >= gross ? payment.amount : Math.round(payment.amount / 2);
      paid.pointEarned = card ? earnedPoints(payment.amount, card) : 0;
      if (paid.pointEarned > 0) {
        move(userId, paid.pointEarned);
        entries.push({ booking, kind: 'earn', points: paid.pointEarned });
      }
      payments.set(booking, paid);
      continue;
    }
    // The refund, as reverseAtRefund: a full one gives back the points redeemed; any takes back what the
    // refunded part earned, at most the balance.
    const paid = payments.get(booking)!;
    const refunded = payment.refund!.amount;
    const pointReturned = refunded >= payment.amount ? paid.pointUsed : 0;
    if (pointReturned > 0) {
      move(userId, pointReturned);
      entries.push({ booking, kind: 'refund-redeem', points: pointReturned });
    }
    let pointTakenBack = 0;
    const card = paid.pointRateId === null ? undefined : cardById.get(paid.pointRateId);
    if (paid.pointEarned > 0 && card) {
      const kept = earnedPoints(payment.amount - refunded, card);
      pointTakenBack = Math.min(paid.pointEarned - kept, balance(userId));
      if (pointTakenBack > 0) {
        move(userId, -pointTakenBack);
        entries.push({ booking, kind: 'refund-earn', points: -pointTakenBack });
      }
    }
    paid.refund = { pointReturned, pointTakenBack };
  }
  return { payments, entries };
}

/**
 * Writes the plan once the bookings and payments are: the ledger in time order (the rows read before
 * deleted and written again among the new ones), the discount redemptions, the codes' uses and the members'
 * balances. Answers a summary fragment.
 */
export async function writePoints(
  tx: DemoTx,
  plan: PointsPlan,
  ids: (booking: HistoryBooking) => { bookingId: number; paymentId: number },
): Promise<string> {
  const rows = plan.entries.map((entry): LedgerRow => {
    if ('row' in entry) return entry.row;
    const { booking, kind, points } = entry;
    const paymentId = ids(booking).paymentId;
    const payment = booking.payment!;
    const [ledgerKind, source, at] =
      kind === 'redeem'
        ? (['redeem', `demo:payment:${paymentId}:redeem`, payment.at] as const)
        : kind === 'earn'
          ? (['earn', `payment:${paymentId}:earn`, payment.at] as const)
          : kind === 'refund-redeem'
            ? (['reversal', `refund:${paymentId}:redeem`, payment.refund!.at] as const)
            : (['reversal', `refund:${paymentId}:earn`, payment.refund!.at] as const);
    return {
      userId: booking.member!.id,
      kind: ledgerKind,
      points,
      source,
      paymentId,
      redemptionId: null,
      createdAt: new Date(at),
    };
  });
  await tx.delete(pointLedger);
  await bulkInsert(tx, pointLedger, rows);

  const redemptions = [...plan.payments].flatMap(([booking, paid]) => {
    if (!paid.redemption) return [];
    const { bookingId, paymentId } = ids(booking);
    return [
      {
        userId: booking.member!.id,
        codeId: paid.redemption.codeId,
        promotionId: paid.redemption.promotionId,
        bookingId,
        paymentId,
        discount: fromSatang(paid.discount),
        createdAt: new Date(paid.redemption.at),
      },
    ];
  });
  await bulkInsert(tx, promotionRedemptions, redemptions);
  const uses = new Map<number, number>();
  for (const redemption of redemptions) uses.set(redemption.codeId, (uses.get(redemption.codeId) ?? 0) + 1);
  if (uses.size > 0) {
    const json = JSON.stringify([...uses].map(([id, n]) => ({ id, n })));
    await tx.execute(sql`update ${promotionCodes} set used = ${promotionCodes.used} + v.n
      from json_to_recordset(${json}::json) as v(id int, n int) where ${promotionCodes.id} = v.id`);
  }
  // Every member's balance is the sum of their ledger.
  await tx.execute(sql`update ${users} set point = coalesce(
    (select sum(l.points) from ${pointLedger} l where l.user_id = ${users.id}), 0) where ${users.type} = 'mobile'`);

  const paid = [...plan.payments.values()];
  const earned = paid.reduce((sum, payment) => sum + payment.pointEarned, 0);
  return (
    `${paid.filter((p) => p.pointUsed > 0).length} paid partly with green points, ` +
    `${redemptions.length} with a discount code, ${earned.toLocaleString('en')} green points earned`
  );
}
