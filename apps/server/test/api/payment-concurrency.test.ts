import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bookings, payments } from '../../src/db/schema/index.ts';
import { createSession } from '../../src/modules/auth/auth.service.ts';
import { createBooking, createMember } from '../helpers/bookings.ts';
import { signedInUser } from '../helpers/factories.ts';
import { chargerPlace, createChargers } from '../helpers/ocpp.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';
import { TestProvider } from '../helpers/test-provider.ts';

/**
 * Issue 20, item 2: 20 members paying at once through a 500 ms provider are with the provider together (each
 * call waits until all 20 have arrived). Before, each payment held the invoice counter's row lock while the
 * provider decided, so the calls came one at a time and this test fails (bench:payments times it).
 */
let t: TestApp;
let connectorId: number;
const provider = new TestProvider();

beforeAll(async () => {
  t = await startTestApp({}, { paymentGateway: provider });
  const admin = (await signedInUser(t, { role: 'admin' })).token;
  const place = await chargerPlace(t);
  connectorId = (await createChargers(t, admin, place, ['TOGETHER-01']))[0]!.connectorIds[0]!;
});
afterAll(() => t.close());

describe('members paying at once', () => {
  it('20 members are with the provider at the same time, and each pays once, with its own invoice', async () => {
    const members = await Promise.all(
      Array.from({ length: 20 }, async () => {
        const member = await createMember(t);
        const booking = await createBooking(t, connectorId, 'stopped', { userId: member.id });
        return { booking, token: await createSession(t.database.db, member.id, 3_600_000) };
      }),
    );
    provider.delayMs = 500;
    provider.holdUntil = 20;
    const answers = await Promise.all(
      members.map(({ booking, token }) =>
        t.call('POST', `/api/member/booking/${booking.id}/pay`, { token, body: { method: 'credit' } }),
      ),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(20).fill(200));
    expect(provider.maxInFlight).toBe(20);
    expect(provider.charged.size).toBe(20);
    const invoices = answers.map((a) => Number(String(a.body.invoiceNo).slice(-6))).sort((a, b) => a - b);
    expect(invoices).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    for (const { booking } of members) {
      const [row] = await t.database.db.select().from(bookings).where(eq(bookings.id, booking.id));
      expect(row!.status).toBe('paid');
      const made = await t.database.db.select().from(payments).where(eq(payments.bookingId, booking.id));
      expect(made).toHaveLength(1);
      expect([...provider.charged.values()].map((c) => c.reference)).toContain(made[0]!.gatewayReference);
    }
  });
});
