import { and, asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.ts';
import { bookingEvents, bookings, paymentOperations, payments } from '../../src/db/schema/index.ts';
import { createSession } from '../../src/modules/auth/auth.service.ts';
import { settlePending } from '../../src/modules/payment/settlement.ts';
import { createBooking, createMember } from '../helpers/bookings.ts';
import { signedInUser } from '../helpers/factories.ts';
import { chargerPlace, createChargers } from '../helpers/ocpp.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';
import { TestProvider } from '../helpers/test-provider.ts';

/**
 * Issue 20, item 2: the payment provider is called outside any database transaction. A pending operation
 * with an idempotency key is written first, the provider called with no lock held, the outcome committed.
 * The test provider keeps its own books by key, as a real one does, so every test can compare what it took
 * with what we recorded.
 */
let t: TestApp;
let admin: string;
let connectorId: number;
const provider = new TestProvider();
const TIMEOUT_MS = 1000;

beforeAll(async () => {
  t = await startTestApp({ PAYMENT_TIMEOUT_MS: String(TIMEOUT_MS) }, { paymentGateway: provider });
  admin = (await signedInUser(t, { role: 'admin' })).token;
  const place = await chargerPlace(t);
  connectorId = (await createChargers(t, admin, place, ['PROVIDER-01']))[0]!.connectorIds[0]!;
});
afterAll(() => t.close());
beforeEach(() => {
  provider.mode = 'yes';
  provider.delayMs = 0;
});

/** A member with an Unpaid booking of 100.00 THB, signed in to the member API. */
async function unpaid() {
  const member = await createMember(t);
  const booking = await createBooking(t, connectorId, 'stopped', { userId: member.id });
  const token = await createSession(t.database.db, member.id, 3_600_000);
  const pay = (body: object = { method: 'credit' }) =>
    t.call('POST', `/api/member/booking/${booking.id}/pay`, { token, body });
  return { member, booking, token, pay };
}

const paymentsOf = (bookingId: number) =>
  t.database.db.select().from(payments).where(eq(payments.bookingId, bookingId));
const operationsOf = (bookingId: number) =>
  t.database.db
    .select()
    .from(paymentOperations)
    .where(eq(paymentOperations.bookingId, bookingId))
    .orderBy(asc(paymentOperations.id));
const statusOf = async (bookingId: number) =>
  (
    await t.database.db.select({ status: bookings.status }).from(bookings).where(eq(bookings.id, bookingId))
  )[0]!.status;
const eventsOf = async (bookingId: number) =>
  (
    await t.database.db
      .select({ event: bookingEvents.event, actor: bookingEvents.actor })
      .from(bookingEvents)
      .where(eq(bookingEvents.bookingId, bookingId))
      .orderBy(asc(bookingEvents.id))
  ).map((row) => `${row.event}:${row.actor}`);
const settle = () =>
  settlePending({ db: t.database.db, gateway: provider, timeoutMs: TIMEOUT_MS }, { olderThanMs: 0 });

describe('a provider that says no, or does not answer', () => {
  it('a declined card leaves the booking Unpaid, with no payment and no invoice number taken', async () => {
    const { booking, pay } = await unpaid();
    provider.mode = 'decline';
    const refused = await pay();
    expect(refused.status).toBe(402);
    expect(refused.body.message).toBe('The payment provider refused the payment: card declined');
    expect(await statusOf(booking.id)).toBe('stopped');
    expect(await paymentsOf(booking.id)).toEqual([]);
    expect((await operationsOf(booking.id)).map((o) => o.status)).toEqual(['failed']);
    expect(await eventsOf(booking.id)).toContain('pay-failed:member');
    // Another card works; the booking is paid once.
    provider.mode = 'yes';
    const paid = await pay();
    expect(paid.status).toBe(200);
    expect(await paymentsOf(booking.id)).toHaveLength(1);
  });

  it('no answer in time: pending (504), nothing may change it, then settled by its key, charged once', async () => {
    const { booking, pay } = await unpaid();
    provider.mode = 'slow';
    const waiting = await pay();
    expect(waiting.status).toBe(504);
    expect(waiting.body.message).toMatch(/^The payment provider has not answered \(no answer within/);
    expect(await statusOf(booking.id)).toBe('stopped');
    expect(await paymentsOf(booking.id)).toEqual([]);
    const [operation] = await operationsOf(booking.id);
    expect(operation).toMatchObject({ status: 'pending', amount: '100.00' });
    // The provider did take the money: it must be recorded once, never taken again.
    expect(provider.charged.has(operation!.idempotencyKey)).toBe(true);

    expect((await pay()).status).toBe(409);
    const setAmount = await t.call('PATCH', `/api/booking/${booking.id}`, {
      token: admin,
      body: { amount: 1 },
    });
    expect(setAmount.status).toBe(409);
    const cancel = await t.call('POST', `/api/booking/${booking.id}/cancel-payment`, { token: admin });
    expect(cancel.status).toBe(409);
    expect(cancel.body.message).toMatch(/waiting for the payment provider/);

    provider.mode = 'yes';
    const calls = provider.calls;
    expect((await settle()).settled).toBeGreaterThanOrEqual(1);
    expect(provider.calls).toBeGreaterThan(calls);
    expect(await statusOf(booking.id)).toBe('paid');
    const [payment] = await paymentsOf(booking.id);
    expect(payment!.gatewayReference).toBe(provider.charged.get(operation!.idempotencyKey)!.reference);
    expect((await operationsOf(booking.id)).map((o) => o.status)).toEqual(['succeeded']);
    expect(await eventsOf(booking.id)).toContain('pay:system');
  });

  it('an error that says nothing of the money (a lost connection) is settled the same way', async () => {
    const { booking, pay } = await unpaid();
    provider.mode = 'lost';
    expect((await pay()).status).toBe(504);
    provider.mode = 'yes';
    await settle();
    expect(await statusOf(booking.id)).toBe('paid');
    expect(await paymentsOf(booking.id)).toHaveLength(1);
  });

  it('a provider that answers twice (its answer and a reconciliation at once) makes one payment', async () => {
    const { booking, pay } = await unpaid();
    provider.delayMs = 150;
    const paying = pay();
    // The second answer for the same key arrives while the first is being recorded.
    await new Promise((resolve) => setTimeout(resolve, 50));
    const [answer] = await Promise.all([paying, settle()]);
    expect(answer.status).toBe(200);
    const made = await paymentsOf(booking.id);
    expect(made).toHaveLength(1);
    expect(answer.body.invoiceNo).toBe(made[0]!.invoiceNo);
    const [operation] = await operationsOf(booking.id);
    expect(provider.charged.has(operation!.idempotencyKey)).toBe(true);
  });
});

describe('a crash between the call and its outcome', () => {
  it('is settled at the next start: what the provider took is recorded, what it never saw is asked again', async () => {
    const taken = await unpaid();
    const unseen = await unpaid();
    // As the first step of a payment leaves them: pending, with a key (the process then died).
    const pending = async (bookingId: number, key: string) =>
      t.database.db.insert(paymentOperations).values({
        kind: 'charge',
        idempotencyKey: key,
        bookingId,
        method: 'credit',
        amount: '100.00',
        status: 'pending',
        gateway: provider.name,
        actor: 'member',
        createdAt: new Date(Date.now() - 60_000),
      });
    await pending(taken.booking.id, `crash-taken-${taken.booking.id}`);
    await pending(unseen.booking.id, `crash-unseen-${unseen.booking.id}`);
    provider.charged.set(`crash-taken-${taken.booking.id}`, { amount: 10_000, reference: 'ch_before_crash' });

    // A server starting on this database settles them before anyone asks.
    const restarted = await buildApp({
      db: t.database.db,
      databaseKind: t.database.kind,
      config: { ...t.config, payment: { timeoutMs: TIMEOUT_MS } },
      paymentGateway: provider,
    });
    await restarted.ready();
    try {
      const paidBoth = async () =>
        (await statusOf(taken.booking.id)) === 'paid' && (await statusOf(unseen.booking.id)) === 'paid';
      for (let i = 0; i < 100 && !(await paidBoth()); i++) await new Promise((r) => setTimeout(r, 50));
      expect(await paidBoth()).toBe(true);
    } finally {
      await restarted.close();
    }
    const [first] = await paymentsOf(taken.booking.id);
    expect(first!.gatewayReference).toBe('ch_before_crash');
    expect(provider.charged.get(`crash-taken-${taken.booking.id}`)!.reference).toBe('ch_before_crash');
    expect(await paymentsOf(unseen.booking.id)).toHaveLength(1);
  });
});

describe('refunds through the provider', () => {
  async function paidPayment() {
    const { booking, pay } = await unpaid();
    expect((await pay()).status).toBe(200);
    const [payment] = await paymentsOf(booking.id);
    const refund = (amount = 40) =>
      t.call('POST', `/api/payment/${payment!.id}/refund`, { token: admin, body: { amount } });
    const row = async () =>
      (await t.database.db.select().from(payments).where(eq(payments.id, payment!.id)))[0]!;
    return { booking, payment: payment!, refund, row };
  }

  it('a refused refund pays nothing back, takes no credit note, and may be tried again', async () => {
    const { refund, row, booking } = await paidPayment();
    provider.mode = 'decline';
    const refused = await refund();
    expect(refused.status).toBe(502);
    expect(refused.body.message).toMatch(
      /refused the refund of INV-\d{4}-\d{6}: card declined\. Nothing was paid back/,
    );
    expect(await row()).toMatchObject({ refundedAt: null, creditNoteNo: null, refundStatus: 'failed' });
    expect(await eventsOf(booking.id)).toContain('refund-failed:staff');
    provider.mode = 'yes';
    const done = await refund();
    expect(done.status).toBe(200);
    expect(await row()).toMatchObject({ refundStatus: 'succeeded', refundAmount: '40.00' });
    expect((await row()).creditNoteNo).toMatch(/^CN-\d{4}-\d{6}$/);
    expect((await refund()).status).toBe(409);
  });

  it('a refund with no answer stays pending (no second refund meanwhile), then is settled once', async () => {
    const { refund, row, payment } = await paidPayment();
    provider.mode = 'slow';
    expect((await refund()).status).toBe(504);
    expect(await row()).toMatchObject({ refundedAt: null, creditNoteNo: null, refundStatus: 'pending' });
    const again = await refund();
    expect(again.status).toBe(409);
    expect(again.body.message).toBe('A refund of this payment is waiting for the payment provider');
    provider.mode = 'yes';
    await settle();
    const settled = await row();
    expect(settled).toMatchObject({ refundStatus: 'succeeded', refundAmount: '40.00' });
    const operations = await t.database.db
      .select()
      .from(paymentOperations)
      .where(and(eq(paymentOperations.paymentId, payment.id), eq(paymentOperations.kind, 'refund')));
    expect(operations).toHaveLength(1);
    expect(provider.refunded.get(operations[0]!.idempotencyKey)!.reference).toBe(settled.refundReference);
  });
});

describe('the books', () => {
  it('invoice and credit-note numbers are gapless, and every payment matches money the provider took', async () => {
    const all = await t.database.db.select().from(payments).orderBy(asc(payments.invoiceNo));
    const numbers = (values: Array<string | null>) =>
      values
        .filter((v): v is string => v !== null)
        .map((v) => Number(v.slice(-6)))
        .sort((a, b) => a - b);
    const invoices = numbers(all.map((p) => p.invoiceNo));
    expect(invoices).toEqual(invoices.map((_, i) => i + 1));
    const notes = numbers(all.map((p) => p.creditNoteNo));
    expect(notes).toEqual(notes.map((_, i) => i + 1));
    const references = new Set([...provider.charged.values()].map((c) => c.reference));
    for (const payment of all) expect(references.has(payment.gatewayReference!)).toBe(true);
    // And the other way: every charge the provider made is a payment here.
    expect(all.length).toBe(provider.charged.size);
  });
});

describe('a cancelled booking', () => {
  it('owes nothing: total 0 in the list, its parts kept as what was waived', async () => {
    const booking = await createBooking(t, connectorId, 'stopped');
    const cancelled = await t.call('POST', `/api/booking/${booking.id}/cancel-payment`, { token: admin });
    expect(cancelled.status).toBe(200);
    const detail = await t.call('GET', `/api/booking/${booking.id}`, { token: admin });
    expect(detail.body.booking).toMatchObject({ status: 'cancelled', totalAmount: 0, priceByPower: 90 });
  });
});
