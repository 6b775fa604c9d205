import {
  BOOKING_MESSAGES,
  bangkokYear,
  fromSatang,
  isRefundable,
  type PaymentItem,
  type PaymentListQuery,
  paymentMethodLabel,
  toSatang,
} from '@ev/shared';
import { and, eq, gte, ilike, inArray, isNull, lte, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { documentCounters, landlords, merchants, payments, users } from '../../db/schema/index.ts';
import { BadGateway, Conflict, Invalid, NotFound } from '../../lib/errors.ts';
import { contains, countAll, ordering, paging } from '../../lib/list-query.ts';
import { type DataScope, siteScopeOn } from '../../plugins/scope.ts';
import { storedTotal } from '../booking/booking.service.ts';
import { userMatches } from '../booking/booking-query.ts';
import { type Actor, applyEvent, recordEvent, type Tx } from '../booking/lifecycle.ts';
import type { PaymentGateway } from './payment-gateway.ts';

/**
 * The next number of a document kind in a year, gapless: the counter row is updated in the caller's
 * transaction, so a rolled-back payment gives its number back, and concurrent payments queue on the row.
 */
export async function nextDocumentNumber(tx: Tx, kind: 'invoice' | 'credit-note', at: Date): Promise<string> {
  const year = bangkokYear(at);
  const [row] = await tx
    .insert(documentCounters)
    .values({ kind, year, last: 1 })
    .onConflictDoUpdate({
      target: [documentCounters.kind, documentCounters.year],
      set: { last: sql`${documentCounters.last} + 1` },
    })
    .returning({ last: documentCounters.last });
  // A Thai tax invoice needs a running number per book; the year is the book: INV-2026-000001.
  return `${kind === 'invoice' ? 'INV' : 'CN'}-${year}-${String(row!.last).padStart(6, '0')}`;
}

export interface PayRequest {
  method: string;
  /** The amount the payer saw (baht); refused when it is not what is owed now. */
  amount?: number;
  /** Narrows where the booking may be found (the staff scope, the member's own). */
  where?: SQL;
  staffUserId?: number | null;
}

/**
 * Pays a stopped booking: the amount owed (adminAmount if set, else the priced parts), an invoice number in the
 * same transaction as the booking's move to paid. Exactly once: the booking row is locked, a second payer
 * finds it paid (409).
 */
export async function payBooking(
  db: Db,
  gateway: PaymentGateway,
  bookingId: number,
  actor: Actor,
  request: PayRequest,
): Promise<{ invoiceNo: string; amount: number }> {
  let paid: { invoiceNo: string; amount: number } | null = null;
  await applyEvent(
    db,
    bookingId,
    'pay',
    actor,
    async (row, tx) => {
      const owed = storedTotal(row);
      if (request.amount !== undefined && toSatang(request.amount) !== owed) {
        throw new Conflict(`The amount due is ${fromSatang(owed)} THB now: reload the booking and pay again`);
      }
      const method = owed === 0 ? 'zero' : request.method;
      const now = new Date();
      const invoiceNo = await nextDocumentNumber(tx, 'invoice', now);
      const charged = await gateway.charge({ bookingId, invoiceNo, method, amount: owed });
      await tx.insert(payments).values({
        invoiceNo,
        bookingId,
        userId: row.userId,
        merchantId: row.merchantId,
        landlordId: row.landlordId,
        method,
        amount: fromSatang(owed),
        createdAt: now,
        createdBy: request.staffUserId ?? null,
        gateway: gateway.name,
        gatewayReference: charged.reference,
      });
      paid = { invoiceNo, amount: owed / 100 };
      return { paymentMethod: method, paidAt: now, totalAmount: fromSatang(owed) };
    },
    { where: request.where },
  );
  return paid!;
}

/** The payments a staff scope sees, by the site and cluster copied on each payment. */
const paymentScope = (scope: DataScope): SQL | undefined =>
  siteScopeOn(scope, { merchantId: payments.merchantId, landlordId: payments.landlordId });

export function paymentWhere(scope: DataScope, query: Partial<PaymentListQuery>): SQL | undefined {
  const conditions: Array<SQL | undefined> = [paymentScope(scope)];
  if (query.invoiceNo) conditions.push(ilike(payments.invoiceNo, contains(query.invoiceNo)));
  if (query.landlordId?.length) conditions.push(inArray(payments.landlordId, query.landlordId));
  if (query.merchantId?.length) conditions.push(inArray(payments.merchantId, query.merchantId));
  if (query.bookingId !== undefined) conditions.push(eq(payments.bookingId, query.bookingId));
  if (query.createdAfter) conditions.push(gte(payments.createdAt, query.createdAfter));
  if (query.createdBefore) conditions.push(lte(payments.createdAt, query.createdBefore));
  if (query.paymentMethod) conditions.push(eq(payments.method, query.paymentMethod));
  if (query.userName) conditions.push(userMatches(query.userName));
  return and(...conditions);
}

export const PAYMENT_SORTS_SQL = {
  id: payments.id,
  invoiceNo: payments.invoiceNo,
  createdAt: payments.createdAt,
  amount: payments.amount,
  method: payments.method,
};

export const paymentColumns = {
  id: payments.id,
  invoiceNo: payments.invoiceNo,
  firstName: users.firstName,
  lastName: users.lastName,
  email: users.email,
  merchantId: payments.merchantId,
  merchantNameEn: merchants.nameEn,
  landlordId: payments.landlordId,
  landlordNameEn: landlords.nameEn,
  bookingId: payments.bookingId,
  createdAt: payments.createdAt,
  method: payments.method,
  amount: payments.amount,
  refundedAt: payments.refundedAt,
  refundAmount: payments.refundAmount,
  creditNoteNo: payments.creditNoteNo,
  refundStatus: payments.refundStatus,
};

export const fromPayments = (db: Db) =>
  db
    .select(paymentColumns)
    .from(payments)
    .leftJoin(users, eq(users.id, payments.userId))
    .innerJoin(merchants, eq(merchants.id, payments.merchantId))
    .innerJoin(landlords, eq(landlords.id, payments.landlordId));

type PaymentRow = Awaited<ReturnType<ReturnType<typeof fromPayments>['execute']>>[number];

export const toPaymentItem = (row: PaymentRow): PaymentItem => ({
  ...row,
  createdAt: row.createdAt.toISOString(),
  amount: Number(row.amount),
  refundedAt: row.refundedAt ? row.refundedAt.toISOString() : null,
  refundAmount: row.refundAmount === null ? null : Number(row.refundAmount),
});

export async function listPayments(db: Db, scope: DataScope, query: PaymentListQuery) {
  const where = paymentWhere(scope, query);
  const counted = db.select({ total: countAll() }).from(payments);
  const [counts] = query.userName
    ? await counted.leftJoin(users, eq(users.id, payments.userId)).where(where)
    : await counted.where(where);
  const total = counts?.total ?? 0;
  if (total === 0) return { total, payments: [] };
  const sorted = query.sort ? query : { ...query, order: query.order ?? 'desc' };
  const rows = await fromPayments(db)
    .where(where)
    .orderBy(
      ...ordering(sorted, PAYMENT_SORTS_SQL, query.sort ? [payments.id] : [payments.createdAt, payments.id]),
    )
    .limit(paging(query).limit)
    .offset(paging(query).offset);
  return { total, payments: rows.map(toPaymentItem) };
}

/**
 * Refunds a payment exactly once. The payment row is locked and `refunded_at` claimed in one transaction
 * with the credit-note number (which names the invoice it credits); the gateway is called after the commit,
 * so no lock waits on a provider. A gateway failure leaves the refund claimed and marked failed, to be
 * settled by hand: money is never sent back twice.
 */
export async function refundPayment(
  db: Db,
  gateway: PaymentGateway,
  scope: DataScope,
  paymentId: number,
  amountBaht: number,
  staffUserId: number,
): Promise<{ creditNoteNo: string; status: string }> {
  const amount = toSatang(amountBaht);
  const claimed = await db.transaction(async (tx) => {
    const [row] = await tx
      .select()
      .from(payments)
      .where(and(eq(payments.id, paymentId), paymentScope(scope)))
      .for('update');
    if (!row) throw new NotFound(BOOKING_MESSAGES.paymentNotFound);
    if (row.refundedAt)
      throw new Conflict(`Payment ${row.invoiceNo} is already refunded (${row.creditNoteNo})`);
    if (!isRefundable(row.method, null)) {
      throw new Conflict(`A ${paymentMethodLabel(row.method)} payment can't be refunded here`);
    }
    const paid = toSatang(row.amount);
    if (amount > paid) {
      throw new Invalid(`body.amount: must be at most the ${fromSatang(paid)} THB paid`);
    }
    const now = new Date();
    const creditNoteNo = await nextDocumentNumber(tx, 'credit-note', now);
    await tx
      .update(payments)
      .set({
        refundedAt: now,
        refundAmount: fromSatang(amount),
        creditNoteNo,
        refundedBy: staffUserId,
        refundStatus: 'manual',
      })
      .where(and(eq(payments.id, paymentId), isNull(payments.refundedAt)));
    await recordEvent(tx, {
      bookingId: row.bookingId,
      event: 'refund',
      from: 'paid',
      to: 'paid',
      actor: { kind: 'staff', userId: staffUserId },
      at: now,
      detail: { invoiceNo: row.invoiceNo, creditNoteNo, amount: fromSatang(amount) },
    });
    return { row, creditNoteNo };
  });
  let status: 'manual' | 'succeeded' | 'failed';
  let reference: string | null = null;
  try {
    const result = await gateway.refund({
      paymentId,
      invoiceNo: claimed.row.invoiceNo,
      creditNoteNo: claimed.creditNoteNo,
      method: claimed.row.method,
      amount,
      chargeReference: claimed.row.gatewayReference,
    });
    status = result.status;
    reference = result.reference;
  } catch {
    status = 'failed';
  }
  await db
    .update(payments)
    .set({ refundStatus: status, refundReference: reference })
    .where(eq(payments.id, paymentId));
  if (status === 'failed') {
    throw new BadGateway(
      `The payment provider refused the refund ${claimed.creditNoteNo}: settle it by hand`,
    );
  }
  return { creditNoteNo: claimed.creditNoteNo, status };
}
