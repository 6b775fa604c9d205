import { asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  paymentOperations,
  payments,
  pointLedger,
  pointRates,
  promotionCodes,
  promotionRedemptions,
  users,
} from '../../src/db/schema/index.ts';
import { createSession } from '../../src/modules/auth/auth.service.ts';
import { PAYMENT_POINT_MESSAGES } from '../../src/modules/payment/adjustments.ts';
import { settleCharge } from '../../src/modules/payment/settlement.ts';
import { movePoints, NOT_ENOUGH_POINTS } from '../../src/modules/promotion/redeem.ts';
import { createBooking, createMember } from '../helpers/bookings.ts';
import { signedInUser } from '../helpers/factories.ts';
import { chargerPlace, createChargers } from '../helpers/ocpp.ts';
import { readSheet } from '../helpers/promotions.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';
import { TestProvider } from '../helpers/test-provider.ts';

/**
 * Issue 21, the money path: a booking's discount code and the member's green points taken off at payment
 * (exactly once, through the real provider seam), the points the payment earns, and what a refund gives back,
 * all through real HTTP on a real database. The card in force: 25 THB → 1 point, 100 points → 10 THB.
 */
let t: TestApp;
let admin: string;
let connectorId: number;
const provider = new TestProvider();
const HOUR = 3_600_000;

beforeAll(async () => {
  t = await startTestApp({}, { paymentGateway: provider });
  admin = (await signedInUser(t, { role: 'admin' })).token;
  const place = await chargerPlace(t);
  connectorId = (await createChargers(t, admin, place, ['ADJUST-01']))[0]!.connectorIds[0]!;
  await t.database.db.insert(pointRates).values([
    // A past card (earning 1 point per 10 THB) and the one in force: payments now go by the second.
    {
      fromBaht: '10.00',
      toPoint: '1.00',
      fromPoint: '10.00',
      toBaht: '10.00',
      validFrom: new Date(Date.now() - 48 * HOUR),
    },
    {
      fromBaht: '25.00',
      toPoint: '1.00',
      fromPoint: '100.00',
      toBaht: '10.00',
      validFrom: new Date(Date.now() - HOUR),
    },
  ]);
});
afterAll(() => t.close());
beforeEach(() => {
  provider.mode = 'yes';
});

let n = 0;
/** A discount promotion through the staff API (10 % up to 50 THB unless told); answers its code. */
async function discountCode(
  terms: { discountPercent: number; discountBaht: number } = { discountPercent: 10, discountBaht: 50 },
) {
  const code = `ADJ${Date.now().toString(36).toUpperCase()}${n++}`;
  const response = await t.call('POST', '/api/promotion', {
    token: admin,
    body: {
      type: 'discount',
      code,
      nameEn: 'Adjustments',
      nameTh: 'ส่วนลด',
      internal: false,
      expose: false,
      validFrom: new Date(Date.now() - HOUR).toISOString(),
      validTo: new Date(Date.now() + HOUR).toISOString(),
      count: 1,
      total: 5,
      ...terms,
    },
  });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return code;
}

/** A member holding `points` green points, with an Unpaid booking of 100.00 THB, signed in. */
async function memberWithBooking(points = 0) {
  const member = await createMember(t);
  if (points > 0)
    await t.database.db.transaction((tx) =>
      movePoints(tx, { userId: member.id, kind: 'code', points, source: `test:${member.id}` }),
    );
  const booking = await createBooking(t, connectorId, 'stopped', { userId: member.id });
  const token = await createSession(t.database.db, member.id, HOUR);
  return {
    member,
    booking,
    token,
    redeem: (code: string) =>
      t.call('POST', '/api/member/promotion/redeem', { token, body: { code, bookingId: booking.id } }),
    pay: (body: object) => t.call('POST', `/api/member/booking/${booking.id}/pay`, { token, body }),
    view: async () => (await t.call('GET', `/api/member/booking/${booking.id}`, { token })).body.booking,
  };
}

const balanceOf = async (userId: number) =>
  (await t.database.db.select({ point: users.point }).from(users).where(eq(users.id, userId)))[0]!.point;
const ledgerOf = (userId: number) =>
  t.database.db
    .select({ kind: pointLedger.kind, points: pointLedger.points, source: pointLedger.source })
    .from(pointLedger)
    .where(eq(pointLedger.userId, userId))
    .orderBy(asc(pointLedger.id));
const paymentOf = async (bookingId: number) =>
  (await t.database.db.select().from(payments).where(eq(payments.bookingId, bookingId)))[0]!;
const refund = (paymentId: number, amount: number) =>
  t.call('POST', `/api/payment/${paymentId}/refund`, { token: admin, body: { amount } });

describe('paying with a discount code and green points', () => {
  it('takes the discount off first, then the points; charges the rest once; earns on what was charged', async () => {
    const code = await discountCode();
    const m = await memberWithBooking(300);
    expect((await m.redeem(code)).status).toBe(200);
    // Before paying, the booking shows the discount as an estimate on its total.
    expect(await m.view()).toMatchObject({ totalAmount: 90, discount: 10, discountCode: code, point: 0 });

    // 100.00 - 10 % (10.00) - 250 points (25.00) = 65.00; 65.00 earns floor(65 / 25) = 2 points.
    const paid = await m.pay({ method: 'credit', amount: 65, point: 250 });
    expect(paid.status, JSON.stringify(paid.body)).toBe(200);
    expect(paid.body).toMatchObject({ amount: 65, discount: 10, point: 25, pointUsed: 250, pointEarned: 2 });
    const payment = await paymentOf(m.booking.id);
    const [operation] = await t.database.db
      .select()
      .from(paymentOperations)
      .where(eq(paymentOperations.bookingId, m.booking.id));
    expect(provider.charged.get(operation!.idempotencyKey)?.amount).toBe(6_500);
    expect(payment).toMatchObject({
      amount: '65.00',
      discountAmount: '10.00',
      pointUsed: 250,
      pointAmount: '25.00',
      pointEarned: 2,
    });
    expect(await ledgerOf(m.member.id)).toEqual([
      { kind: 'code', points: 300, source: `test:${m.member.id}` },
      { kind: 'redeem', points: -250, source: `charge:${operation!.id}:redeem` },
      { kind: 'earn', points: 2, source: `payment:${payment.id}:earn` },
    ]);
    expect(await balanceOf(m.member.id)).toBe(52);
    const points = await t.call('GET', '/api/member/point', { token: m.token });
    expect(points.status).toBe(200);
    expect(points.body).toMatchObject({
      point: 52,
      card: { fromBaht: 25, toPoint: 1, fromPoint: 100, toBaht: 10 },
      ledger: [
        { kind: 'earn', points: 2 },
        { kind: 'redeem', points: -250 },
        { kind: 'code', points: 300 },
      ],
    });
    const [redemption] = await t.database.db
      .select()
      .from(promotionRedemptions)
      .where(eq(promotionRedemptions.bookingId, m.booking.id));
    expect(redemption).toMatchObject({ discount: '10.00', paymentId: payment.id });

    // The staff's booking, payment list and booking detail show the same adjustments.
    const listed = await t.call('GET', `/api/payment?bookingId=${m.booking.id}`, { token: admin });
    expect(listed.body.payments).toMatchObject([
      { amount: 65, discount: 10, discountCode: code, point: 25, pointUsed: 250, pointEarned: 2 },
    ]);
    const detail = await t.call('GET', `/api/booking/${m.booking.id}`, { token: admin });
    expect(detail.body.booking).toMatchObject({
      status: 'paid',
      totalAmount: 65,
      discount: 10,
      discountCode: code,
      point: 25,
      pointUsed: 250,
    });
    // The booking report (both styles) and the payment export say the same.
    const processed = await readSheet(t, `/api/report/booking?bookingId=${m.booking.id}`, admin);
    expect(processed.rows).toMatchObject([
      { 'Discount (THB)': 10, 'Green Point (THB)': 25, 'Green Point Used': 250, 'Total (THB)': 65 },
    ]);
    const raw = await readSheet(t, `/api/report/booking?bookingId=${m.booking.id}&style=raw`, admin);
    expect(raw.rows).toMatchObject([{ discount: 10, point: 25, pointUsed: 250, totalAmount: 65 }]);
    const exported = await readSheet(t, `/api/payment?bookingId=${m.booking.id}&mode=xlsx`, admin);
    expect(exported.rows).toMatchObject([
      {
        'Amount (THB)': 65,
        'Discount Code': code,
        'Discount (THB)': 10,
        'Green Point Used': 250,
        'Green Point (THB)': 25,
        'Green Point Earned': 2,
      },
    ]);
    const history = detail.body.history as Array<{ event: string; detail: Record<string, unknown> }>;
    expect(history.find((entry) => entry.event === 'pay')?.detail).toMatchObject({
      amount: '65.00',
      discount: '10.00',
      pointUsed: 250,
      point: '25.00',
      pointEarned: 2,
    });
  });

  it('a staff payment at the counter takes the booking’s discount too, and refuses the amount before it', async () => {
    const code = await discountCode({ discountPercent: 0, discountBaht: 30 });
    const m = await memberWithBooking();
    expect((await m.redeem(code)).status).toBe(200);
    const stale = await t.call('POST', `/api/booking/${m.booking.id}/pay`, {
      token: admin,
      body: { amount: 100 },
    });
    expect(stale.status).toBe(409);
    expect(stale.body.message).toBe('The amount due is 70.00 THB now: reload the booking and pay again');
    const paid = await t.call('POST', `/api/booking/${m.booking.id}/pay`, {
      token: admin,
      body: { amount: 70 },
    });
    expect(paid.status, JSON.stringify(paid.body)).toBe(200);
    expect(await paymentOf(m.booking.id)).toMatchObject({
      amount: '70.00',
      discountAmount: '30.00',
      pointEarned: 2,
    });
  });

  it('refuses points beyond what is owed or held, without taking any', async () => {
    const code = await discountCode();
    const m = await memberWithBooking(2_000);
    expect((await m.redeem(code)).status).toBe(200);
    // 90.00 is left after the discount: 901 points (90.10) are too many, and never cut to fit.
    const tooMany = await m.pay({ method: 'credit', point: 901 });
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.message).toBe(
      'body.point: 901 points are worth 90.10 THB, more than the 90.00 THB owed',
    );
    const fraction = await m.pay({ method: 'credit', point: 1.5 });
    expect(fraction.status).toBe(400);
    expect(fraction.body.message).toBe('body.point: Green points must be a whole number');

    const poor = await memberWithBooking(50);
    const short = await poor.pay({ method: 'credit', point: 51 });
    expect(short.status).toBe(409);
    expect(short.body.message).toBe(NOT_ENOUGH_POINTS);
    expect(await balanceOf(poor.member.id)).toBe(50);
    expect(await ledgerOf(poor.member.id)).toHaveLength(1);
    expect((await poor.view()).status).toBe('stopped');

    // All that is left paid with points: nothing for the provider, recorded as zero, nothing earned.
    const all = await m.pay({ method: 'credit', point: 900, amount: 0 });
    expect(all.status, JSON.stringify(all.body)).toBe(200);
    expect(await paymentOf(m.booking.id)).toMatchObject({ method: 'zero', amount: '0.00', pointUsed: 900 });
    expect(await balanceOf(m.member.id)).toBe(1_100);
  });

  it('gives the points back when the provider says no, and they pay the next try', async () => {
    const m = await memberWithBooking(100);
    provider.mode = 'decline';
    const refused = await m.pay({ method: 'credit', point: 100 });
    expect(refused.status).toBe(402);
    expect(await balanceOf(m.member.id)).toBe(100);
    const entries = await ledgerOf(m.member.id);
    expect(entries.map((entry) => [entry.kind, entry.points])).toEqual([
      ['code', 100],
      ['redeem', -100],
      ['reversal', 100],
    ]);
    provider.mode = 'yes';
    const paid = await m.pay({ method: 'credit', point: 100, amount: 90 });
    expect(paid.status, JSON.stringify(paid.body)).toBe(200);
    expect(await balanceOf(m.member.id)).toBe(0 + 3);
  });

  it('spends the same points once when two payments race for them', async () => {
    const member = await createMember(t);
    await t.database.db.transaction((tx) =>
      movePoints(tx, { userId: member.id, kind: 'code', points: 300, source: `test:race:${member.id}` }),
    );
    const token = await createSession(t.database.db, member.id, HOUR);
    const bookings = await Promise.all(
      [1, 2, 3].map(() => createBooking(t, connectorId, 'stopped', { userId: member.id })),
    );
    const answers = await Promise.all(
      bookings.map((booking) =>
        t.call('POST', `/api/member/booking/${booking.id}/pay`, {
          token,
          body: { method: 'credit', point: 300 },
        }),
      ),
    );
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 409, 409]);
    // 300 points spent once; the one payment of 70.00 earned 2.
    expect(await balanceOf(member.id)).toBe(2);
    const redeemed = (await ledgerOf(member.id)).filter((entry) => entry.kind === 'redeem');
    expect(redeemed).toHaveLength(1);
  });

  it('earns once however often the same answer settles the charge', async () => {
    const m = await memberWithBooking();
    expect((await m.pay({ method: 'credit' })).status).toBe(200);
    const [operation] = await t.database.db
      .select()
      .from(paymentOperations)
      .where(eq(paymentOperations.bookingId, m.booking.id));
    const again = await settleCharge(
      t.database.db,
      { ...operation!, status: 'pending' },
      { kind: 'done', result: { status: 'succeeded', reference: operation!.reference ?? 'again' } },
      { kind: 'system' },
    );
    expect(again).toMatchObject({ amount: 100, pointEarned: 4 });
    expect(await ledgerOf(m.member.id)).toHaveLength(1);
    expect(await balanceOf(m.member.id)).toBe(4);
  });
});

describe('refunds of a payment with a discount and points', () => {
  it('a full refund gives the redeemed points back and takes the earned ones; the code stays used', async () => {
    const code = await discountCode();
    const m = await memberWithBooking(300);
    expect((await m.redeem(code)).status).toBe(200);
    expect((await m.pay({ method: 'credit', point: 250 })).status).toBe(200);
    const payment = await paymentOf(m.booking.id);
    const back = await refund(payment.id, 65);
    expect(back.status, JSON.stringify(back.body)).toBe(200);
    expect(await balanceOf(m.member.id)).toBe(300);
    const entries = await ledgerOf(m.member.id);
    expect(entries.slice(-2)).toEqual([
      { kind: 'reversal', points: 250, source: `refund:${payment.id}:redeem` },
      { kind: 'reversal', points: -2, source: `refund:${payment.id}:earn` },
    ]);
    const [use] = await t.database.db
      .select({ used: promotionCodes.used })
      .from(promotionCodes)
      .where(eq(promotionCodes.code, code));
    expect(use!.used).toBe(1);
    const detail = await t.call('GET', `/api/booking/${m.booking.id}`, { token: admin });
    const history = detail.body.history as Array<{ event: string; detail: Record<string, unknown> }>;
    expect(history.find((entry) => entry.event === 'refund')?.detail).toMatchObject({
      pointReturned: 250,
      pointTakenBack: 2,
    });
  });

  it('a part refund keeps the redeemed points spent and takes back what the refunded baht earned', async () => {
    const m = await memberWithBooking(100);
    // 100.00 - 100 points (10.00) = 90.00 charged, earning 3 points.
    expect((await m.pay({ method: 'credit', point: 100 })).status).toBe(200);
    const payment = await paymentOf(m.booking.id);
    expect(payment.pointEarned).toBe(3);
    // 45.00 back: 45.00 kept earns 1, so 2 are taken back; the 100 points redeemed stay spent.
    expect((await refund(payment.id, 45)).status).toBe(200);
    expect(await balanceOf(m.member.id)).toBe(1);
  });

  it('takes back earned points only as far as the balance goes, never below 0', async () => {
    const m = await memberWithBooking();
    expect((await m.pay({ method: 'credit' })).status).toBe(200);
    expect(await balanceOf(m.member.id)).toBe(4);
    // The member spends the 4 points earned on another payment (99.60 charged, earning 3) before the refund.
    const other = await createBooking(t, connectorId, 'stopped', { userId: m.member.id });
    const spent = await t.call('POST', `/api/member/booking/${other.id}/pay`, {
      token: m.token,
      body: { method: 'credit', point: 4 },
    });
    expect(spent.status, JSON.stringify(spent.body)).toBe(200);
    expect(await balanceOf(m.member.id)).toBe(3);
    const first = await paymentOf(m.booking.id);
    expect((await refund(first.id, 100)).status).toBe(200);
    // 4 earned, 3 held: 3 are taken back, the balance stops at 0.
    expect(await balanceOf(m.member.id)).toBe(0);
    expect((await ledgerOf(m.member.id)).at(-1)).toEqual({
      kind: 'reversal',
      points: -3,
      source: `refund:${first.id}:earn`,
    });
  });
});

describe('no card in force', () => {
  it('refuses points with a clear message, and earns nothing', async () => {
    const m = await memberWithBooking(100);
    const cards = await t.database.db.select().from(pointRates);
    await t.database.db.delete(pointRates);
    try {
      const refused = await m.pay({ method: 'credit', point: 10 });
      expect(refused.status).toBe(409);
      expect(refused.body.message).toBe(PAYMENT_POINT_MESSAGES.noCard);
      const paid = await m.pay({ method: 'credit' });
      expect(paid.status).toBe(200);
      expect(paid.body).toMatchObject({ pointEarned: 0 });
      expect(await balanceOf(m.member.id)).toBe(100);
    } finally {
      await t.database.db.insert(pointRates).values(cards.map(({ id: _id, ...card }) => card));
    }
  });
});
