import { eq } from 'drizzle-orm';
import { bookings, payments } from '../../src/db/schema/index.ts';
import type { TestApp } from './test-app.ts';

/** An instant given as Bangkok wall-clock time: bkk('2026-03-02T08:00'). */
export const bkk = (local: string) => new Date(`${local}:00+07:00`);

let documents = 0;

/**
 * A payment of the booking written straight to the database, made at `at`, as the settlement writes one: the
 * booking's site, cluster and method copied, the discount and the points already off `amount`. A refund
 * (succeeded or manual) has its time, amount and credit note; a failed or pending one has only its status.
 */
export async function createPayment(
  t: TestApp,
  bookingId: number,
  at: Date,
  money: {
    amount: string;
    discount?: string;
    point?: string;
    refund?: { amount: string; at: Date; status?: 'manual' | 'succeeded' } | { status: 'failed' | 'pending' };
  },
) {
  const [booking] = await t.database.db.select().from(bookings).where(eq(bookings.id, bookingId));
  const n = ++documents;
  const refunded = money.refund && 'amount' in money.refund ? money.refund : null;
  const [row] = await t.database.db
    .insert(payments)
    .values({
      invoiceNo: `STAT-INV-${Date.now().toString(36)}-${n}`,
      bookingId,
      userId: booking!.userId,
      merchantId: booking!.merchantId,
      landlordId: booking!.landlordId,
      method: booking!.paymentMethod ?? 'credit',
      amount: money.amount,
      createdAt: at,
      gateway: 'manual',
      discountAmount: money.discount ?? '0',
      pointAmount: money.point ?? '0',
      pointUsed: money.point ? Math.round(Number(money.point) * 10) : 0,
      refundedAt: refunded?.at ?? null,
      refundAmount: refunded?.amount ?? null,
      creditNoteNo: refunded ? `STAT-CN-${Date.now().toString(36)}-${n}` : null,
      refundStatus: refunded ? (refunded.status ?? 'manual') : (money.refund?.status ?? null),
    })
    .returning();
  await t.database.db.update(bookings).set({ paidAt: at }).where(eq(bookings.id, bookingId));
  return row!;
}
