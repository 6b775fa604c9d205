/**
 * Charges and refunds through the payment provider, in three steps (ARCHITECTURE.md, Money and bookings):
 *
 * 1. intent: in a short transaction, the booking (or payment) is checked under its row lock and a `pending`
 *    payment_operations row is written with an idempotency key; the lock is then released;
 * 2. the provider is called with that key, no transaction open, at most PAYMENT_TIMEOUT_MS;
 * 3. outcome: in a second short transaction the operation is settled by a conditional update (`… where status
 *    = 'pending'`), so a second answer for it (a provider that answers twice, a reconciliation racing the
 *    call) changes nothing. Only a yes takes an invoice (or credit-note) number and writes the payment (or
 *    the refund): a no leaves the booking Unpaid and takes no number, so the numbers stay gapless.
 *
 * An operation left pending (no answer in time, a crash between steps) is asked of the provider again by its
 * key, at start and once a minute (settlePending): the provider answers the first call's outcome.
 *
 * A staff user's pay or refund is one audit entry (issue 36): written in step 1's transaction (a refused or
 * duplicate request rolls back with it and leaves none), and step 3's transaction adds the outcome's changes
 * to it. The reconciliation's later settlement is the system's, not the user's: it adds nothing.
 */
import { randomUUID } from 'node:crypto';
import {
  BOOKING_MESSAGES,
  bangkokYear,
  fromSatang,
  isRefundable,
  paymentMethodLabel,
  toSatang,
} from '@ev/shared';
import { and, eq, isNull, lt, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { bookings, documentCounters, paymentOperations, payments } from '../../db/schema/index.ts';
import { AppError, BadGateway, Conflict, GatewayTimeout, Invalid, NotFound } from '../../lib/errors.ts';
import { NO_METRICS, type PaymentMetrics } from '../../lib/metrics.ts';
import type { DataScope } from '../../plugins/scope.ts';
import { type AuditActor, audit, resumeCapture } from '../audit/audit.ts';
import { storedTotal } from '../booking/booking.service.ts';
import {
  type Actor,
  applyEventIn,
  checkedNext,
  lockBooking,
  recordEvent,
  refuseWhilePaying,
  type Tx,
} from '../booking/lifecycle.ts';
import { applyAtPayment, holdPoints, owedAtPayment, releasePoints, reverseAtRefund } from './adjustments.ts';
import { paymentScope } from './payment.service.ts';
import { callProvider, type PaymentGateway, type ProviderOutcome } from './payment-gateway.ts';

export type Operation = typeof paymentOperations.$inferSelect;

export interface PaymentContext {
  db: Db;
  gateway: PaymentGateway;
  /** How long a provider call may take before its outcome counts as unknown (PAYMENT_TIMEOUT_MS). */
  timeoutMs: number;
  /** Told of each charge and refund this process settles, once, after its outcome committed. */
  metrics?: PaymentMetrics;
}

/** The provider refused the payment: the member must pay another way. */
export class PaymentRefused extends AppError {
  constructor(message: string) {
    super(402, message);
  }
}

/**
 * The next number of a document kind in a year, gapless: the counter row is updated in the caller's
 * transaction, so a rolled-back payment gives its number back, and concurrent payments queue on the row.
 * Called only once the provider said yes, in the short transaction that records it.
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

const operationActor = (actor: Actor) => ({
  actor: actor.kind === 'staff' ? ('staff' as const) : ('member' as const),
  actorUserId: actor.userId ?? null,
});

/** Records what a call did not settle (an unknown outcome), for the operator and the next attempt. */
async function noteUnsettled(db: Db, operation: Operation, reason: string): Promise<never> {
  await db.update(paymentOperations).set({ error: reason }).where(eq(paymentOperations.id, operation.id));
  throw new GatewayTimeout(
    `The payment provider has not answered (${reason}): ${operation.kind === 'charge' ? 'the payment' : 'the refund'} ` +
      'is pending and will be completed when it answers',
  );
}

/** Settles a pending operation: true when this call did it, false when another answer had already. */
async function claim(tx: Tx, operation: Operation, set: Partial<Operation>): Promise<boolean> {
  const claimed = await tx
    .update(paymentOperations)
    .set({ ...set, completedAt: new Date() })
    .where(and(eq(paymentOperations.id, operation.id), eq(paymentOperations.status, 'pending')))
    .returning({ id: paymentOperations.id });
  return claimed.length > 0;
}

/**
 * An operation another answer settled first: the same result for a yes after a yes (a provider answering
 * twice); a conflicting answer is kept on the row and refused, for staff to settle by hand.
 */
async function settledBefore(db: Db, operation: Operation, answer: string) {
  const [now] = await db.select().from(paymentOperations).where(eq(paymentOperations.id, operation.id));
  const done = now?.status === 'succeeded' || now?.status === 'manual';
  if (done && answer === 'yes') return now!;
  const note = `the provider answered ${answer} after the operation was settled ${now?.status}: settle by hand`;
  await db.update(paymentOperations).set({ error: note }).where(eq(paymentOperations.id, operation.id));
  throw new Conflict(`The payment provider answered twice, differently (operation ${operation.id}): ${note}`);
}

// ---------------------------------------------------------------------------------------------------------
// Charges

/** A paid charge: its invoice, the amount charged (baht), what was taken off before it and what it earned. */
export interface Paid {
  invoiceNo: string;
  amount: number;
  discount: number;
  point: number;
  pointUsed: number;
  pointEarned: number;
}

export interface PayRequest {
  method: string;
  /** The amount the payer saw (baht); refused when it is not what is owed now. */
  amount?: number;
  /** Green points the member redeems on this payment (whole points; the member API only). */
  point?: number;
  /** Narrows where the booking may be found (the staff scope, the member's own). */
  where?: SQL;
  /** A staff user's payment: the booking's audit entry (`pay`), with the intent and the outcome. */
  audit?: AuditActor;
}

/**
 * Pays a stopped booking the amount owed (adminAmount if set, else the priced parts): exactly once, and with
 * no lock held while the provider decides. A free session is paid as `zero`, without the provider.
 */
export async function payBooking(
  ctx: PaymentContext,
  bookingId: number,
  actor: Actor,
  request: PayRequest,
): Promise<Paid> {
  const { operation, entry } = await ctx.db.transaction(async (tx) => {
    const row = await lockBooking(tx, bookingId, { where: request.where });
    checkedNext(row.status, 'pay', actor.kind);
    await refuseWhilePaying(tx, bookingId);
    const owed = await owedAtPayment(tx, row, storedTotal(row), request.point ?? 0);
    if (request.amount !== undefined && toSatang(request.amount) !== owed.total) {
      throw new Conflict(
        `The amount due is ${fromSatang(owed.total)} THB now: reload the booking and pay again`,
      );
    }
    const entry = request.audit
      ? await audit(tx, request.audit, {
          entity: 'booking',
          entityId: bookingId,
          action: 'pay',
          details: { method: owed.total === 0 ? 'zero' : request.method, amount: fromSatang(owed.total) },
        })
      : null;
    const [created] = await tx
      .insert(paymentOperations)
      .values({
        kind: 'charge',
        idempotencyKey: randomUUID(),
        bookingId,
        method: owed.total === 0 ? 'zero' : request.method,
        amount: fromSatang(owed.total),
        grossAmount: fromSatang(owed.gross),
        discountAmount: fromSatang(owed.discount),
        pointUsed: owed.pointUsed,
        pointAmount: fromSatang(owed.point),
        status: 'pending',
        gateway: ctx.gateway.name,
        ...operationActor(actor),
      })
      .returning();
    // The points are the member's no more while the provider decides: a second payment can't spend them too.
    if (row.userId !== null) await holdPoints(tx, row.userId, created!.id, owed.pointUsed);
    return { operation: created!, entry };
  });
  const outcome: ProviderOutcome =
    operation.method === 'zero'
      ? { kind: 'done', result: { status: 'succeeded', reference: 'nothing owed' } }
      : await callProvider(() => ctx.gateway.charge(chargeRequest(operation)), ctx.timeoutMs);
  return settleCharge(ctx.db, operation, outcome, actor, ctx.metrics, entry);
}

/** The adjustments of a charge, for its history entry: only those it has. */
function adjusted(operation: Operation): Record<string, string | number> {
  const detail: Record<string, string | number> = {};
  if (toSatang(operation.discountAmount) > 0) detail.discount = operation.discountAmount;
  if (operation.pointUsed > 0)
    Object.assign(detail, { pointUsed: operation.pointUsed, point: operation.pointAmount });
  return detail;
}

const chargeRequest = (operation: Operation) => ({
  idempotencyKey: operation.idempotencyKey,
  bookingId: operation.bookingId,
  method: operation.method,
  amount: toSatang(operation.amount),
});

/**
 * Step 3 of a charge: a yes pays the booking (invoice number, payment row); a no leaves it Unpaid. `entry`: the
 * staff user's audit entry of the payment, which the outcome's changes join.
 */
export async function settleCharge(
  db: Db,
  operation: Operation,
  outcome: ProviderOutcome,
  actor: Actor,
  metrics: PaymentMetrics = NO_METRICS,
  entry: number | null = null,
): Promise<Paid> {
  if (outcome.kind === 'unknown') return noteUnsettled(db, operation, outcome.reason);
  if (outcome.kind === 'declined') {
    const refused = await db.transaction(async (tx) => {
      if (entry !== null) await resumeCapture(tx, entry);
      if (!(await claim(tx, operation, { status: 'failed', error: outcome.reason }))) return false;
      const [booking] = await tx
        .select({ userId: bookings.userId })
        .from(bookings)
        .where(eq(bookings.id, operation.bookingId));
      await releasePoints(tx, booking?.userId ?? null, operation.id, operation.pointUsed);
      await recordEvent(tx, {
        bookingId: operation.bookingId,
        event: 'pay-failed',
        from: 'stopped',
        to: 'stopped',
        actor,
        detail: { method: operation.method, amount: operation.amount, reason: outcome.reason },
      });
      return true;
    });
    if (refused) {
      metrics.settled('charge', operation.method, 'declined', Number(operation.amount));
      throw new PaymentRefused(`The payment provider refused the payment: ${outcome.reason}`);
    }
    return paymentOf(db, await settledBefore(db, operation, 'no'));
  }
  const { result } = outcome;
  const paid = await db.transaction(async (tx) => {
    if (entry !== null) await resumeCapture(tx, entry);
    if (!(await claim(tx, operation, { status: result.status, reference: result.reference, error: null })))
      return null;
    const now = new Date();
    const invoiceNo = await nextDocumentNumber(tx, 'invoice', now);
    // Written by the history entry after the change below, with the points the payment earned.
    const detail: Record<string, unknown> = {
      invoiceNo,
      method: operation.method,
      amount: operation.amount,
      ...adjusted(operation),
    };
    const amount = Number(operation.amount);
    await applyEventIn(
      tx,
      operation.bookingId,
      'pay',
      actor,
      async (row) => {
        const [payment] = await tx
          .insert(payments)
          .values({
            invoiceNo,
            bookingId: row.id,
            userId: row.userId,
            merchantId: row.merchantId,
            landlordId: row.landlordId,
            method: operation.method,
            amount: operation.amount,
            createdAt: now,
            createdBy: operation.actor === 'staff' ? operation.actorUserId : null,
            gateway: operation.gateway,
            gatewayReference: result.reference,
            discountAmount: operation.discountAmount,
            pointUsed: operation.pointUsed,
            pointAmount: operation.pointAmount,
          })
          .returning({ id: payments.id });
        const earned = await applyAtPayment(
          tx,
          {
            id: payment!.id,
            userId: row.userId,
            bookingId: row.id,
            amountSatang: toSatang(operation.amount),
          },
          operation.discountAmount,
        );
        await tx.update(payments).set(earned).where(eq(payments.id, payment!.id));
        await tx
          .update(paymentOperations)
          .set({ paymentId: payment!.id })
          .where(eq(paymentOperations.id, operation.id));
        if (earned.pointEarned > 0) detail.pointEarned = earned.pointEarned;
        return { paymentMethod: operation.method, paidAt: now, totalAmount: operation.amount };
      },
      { at: now, detail },
    );
    return {
      invoiceNo,
      amount,
      discount: Number(operation.discountAmount),
      point: Number(operation.pointAmount),
      pointUsed: operation.pointUsed,
      pointEarned: Number(detail.pointEarned ?? 0),
    };
  });
  if (!paid) return paymentOf(db, await settledBefore(db, operation, 'yes'));
  // Committed, and by this call only (the claim): counted once however many answers came.
  metrics.settled('charge', operation.method, result.status, paid.amount);
  return paid;
}

/** The payment a settled charge made. */
async function paymentOf(db: Db, operation: Operation): Promise<Paid> {
  const [payment] = await db
    .select({
      invoiceNo: payments.invoiceNo,
      amount: payments.amount,
      discount: payments.discountAmount,
      point: payments.pointAmount,
      pointUsed: payments.pointUsed,
      pointEarned: payments.pointEarned,
    })
    .from(payments)
    .where(eq(payments.id, operation.paymentId ?? -1));
  if (!payment) throw new Conflict(`Operation ${operation.id} made no payment`);
  return {
    ...payment,
    amount: Number(payment.amount),
    discount: Number(payment.discount),
    point: Number(payment.point),
  };
}

// ---------------------------------------------------------------------------------------------------------
// Refunds

/**
 * Refunds a payment exactly once, at most the amount paid. The refund is recorded pending under the payment's
 * row lock, the provider called with no lock held, and a yes then takes the credit-note number (naming the
 * invoice it credits) and marks the payment refunded; a no leaves it refundable again.
 */
export async function refundPayment(
  ctx: PaymentContext,
  scope: DataScope,
  paymentId: number,
  amountBaht: number,
  staff: AuditActor,
): Promise<{ creditNoteNo: string; status: string }> {
  const amount = toSatang(amountBaht);
  const staffUserId = staff.userId;
  const { operation, entry } = await ctx.db.transaction(async (tx) => {
    const [row] = await tx
      .select()
      .from(payments)
      .where(and(eq(payments.id, paymentId), paymentScope(scope)))
      .for('update');
    if (!row) throw new NotFound(BOOKING_MESSAGES.paymentNotFound);
    if (row.refundedAt)
      throw new Conflict(`Payment ${row.invoiceNo} is already refunded (${row.creditNoteNo})`);
    if (row.refundStatus === 'pending') throw new Conflict(BOOKING_MESSAGES.refundPending);
    if (!isRefundable(row.method, null)) {
      throw new Conflict(`A ${paymentMethodLabel(row.method)} payment can't be refunded here`);
    }
    const paid = toSatang(row.amount);
    if (amount > paid) throw new Invalid(`body.amount: must be at most the ${fromSatang(paid)} THB paid`);
    const entry = await audit(tx, staff, {
      entity: 'payment',
      entityId: paymentId,
      action: 'refund',
      details: { invoiceNo: row.invoiceNo, amount: fromSatang(amount) },
    });
    const [created] = await tx
      .insert(paymentOperations)
      .values({
        kind: 'refund',
        idempotencyKey: randomUUID(),
        bookingId: row.bookingId,
        paymentId,
        method: row.method,
        amount: fromSatang(amount),
        status: 'pending',
        gateway: ctx.gateway.name,
        actor: 'staff',
        actorUserId: staffUserId,
      })
      .returning();
    await tx.update(payments).set({ refundStatus: 'pending' }).where(eq(payments.id, paymentId));
    return { operation: created!, entry };
  });
  const outcome = await callProvider(
    async () => ctx.gateway.refund(await refundRequest(ctx.db, operation)),
    ctx.timeoutMs,
  );
  return settleRefund(ctx.db, operation, outcome, { kind: 'staff', userId: staffUserId }, ctx.metrics, entry);
}

async function refundRequest(db: Db, operation: Operation) {
  const [payment] = await db
    .select({ invoiceNo: payments.invoiceNo, reference: payments.gatewayReference })
    .from(payments)
    .where(eq(payments.id, operation.paymentId!));
  return {
    idempotencyKey: operation.idempotencyKey,
    paymentId: operation.paymentId!,
    invoiceNo: payment?.invoiceNo ?? '',
    method: operation.method,
    amount: toSatang(operation.amount),
    chargeReference: payment?.reference ?? null,
  };
}

/**
 * Step 3 of a refund: a yes takes the credit note and marks the payment refunded; a no leaves it as it was.
 * `entry`: the staff user's audit entry of the refund, which the outcome's changes join.
 */
export async function settleRefund(
  db: Db,
  operation: Operation,
  outcome: ProviderOutcome,
  actor: Actor,
  metrics: PaymentMetrics = NO_METRICS,
  entry: number | null = null,
): Promise<{ creditNoteNo: string; status: string }> {
  if (outcome.kind === 'unknown') return noteUnsettled(db, operation, outcome.reason);
  const paymentId = operation.paymentId!;
  if (outcome.kind === 'declined') {
    const refused = await db.transaction(async (tx) => {
      if (entry !== null) await resumeCapture(tx, entry);
      if (!(await claim(tx, operation, { status: 'failed', error: outcome.reason }))) return null;
      const [payment] = await tx
        .update(payments)
        .set({ refundStatus: 'failed' })
        .where(and(eq(payments.id, paymentId), isNull(payments.refundedAt)))
        .returning({ invoiceNo: payments.invoiceNo });
      await recordEvent(tx, {
        bookingId: operation.bookingId,
        event: 'refund-failed',
        from: 'paid',
        to: 'paid',
        actor,
        detail: { invoiceNo: payment?.invoiceNo, amount: operation.amount, reason: outcome.reason },
      });
      return payment?.invoiceNo ?? '';
    });
    if (refused !== null) {
      metrics.settled('refund', operation.method, 'declined', Number(operation.amount));
      throw new BadGateway(
        `The payment provider refused the refund of ${refused}: ${outcome.reason}. Nothing was paid back`,
      );
    }
    return refundOf(db, await settledBefore(db, operation, 'no'));
  }
  const { result } = outcome;
  const done = await db.transaction(async (tx) => {
    if (entry !== null) await resumeCapture(tx, entry);
    if (!(await claim(tx, operation, { status: result.status, reference: result.reference, error: null })))
      return null;
    const now = new Date();
    const creditNoteNo = await nextDocumentNumber(tx, 'credit-note', now);
    const [payment] = await tx
      .update(payments)
      .set({
        refundedAt: now,
        refundAmount: operation.amount,
        creditNoteNo,
        refundedBy: operation.actorUserId,
        refundStatus: result.status,
        refundReference: result.reference,
      })
      .where(and(eq(payments.id, paymentId), isNull(payments.refundedAt)))
      .returning({ invoiceNo: payments.invoiceNo });
    if (!payment) throw new Conflict(`Payment ${paymentId} is already refunded`);
    const points = await reverseAtRefund(tx, paymentId, toSatang(operation.amount));
    await recordEvent(tx, {
      bookingId: operation.bookingId,
      event: 'refund',
      from: 'paid',
      to: 'paid',
      actor,
      at: now,
      detail: { invoiceNo: payment.invoiceNo, creditNoteNo, amount: operation.amount, ...points },
    });
    return { creditNoteNo, status: result.status };
  });
  if (!done) return refundOf(db, await settledBefore(db, operation, 'yes'));
  metrics.settled('refund', operation.method, result.status, Number(operation.amount));
  return done;
}

async function refundOf(db: Db, operation: Operation) {
  const [payment] = await db
    .select({ creditNoteNo: payments.creditNoteNo, status: payments.refundStatus })
    .from(payments)
    .where(eq(payments.id, operation.paymentId ?? -1));
  return { creditNoteNo: payment?.creditNoteNo ?? '', status: payment?.status ?? operation.status };
}

// ---------------------------------------------------------------------------------------------------------
// Reconciliation

/**
 * Asks the provider again, by key, about every operation still pending that was made more than `olderThanMs`
 * ago (so no call of this process is still waiting for it), and settles it: at start (a crash between the
 * call and its outcome) and once a minute (a call that timed out). Answers what it settled.
 */
export async function settlePending(
  ctx: PaymentContext,
  options: { olderThanMs: number; log?: (message: string, error?: unknown) => void },
): Promise<{ settled: number; stillPending: number }> {
  const stale = await ctx.db
    .select()
    .from(paymentOperations)
    .where(
      and(
        eq(paymentOperations.status, 'pending'),
        lt(paymentOperations.createdAt, new Date(Date.now() - options.olderThanMs)),
      ),
    )
    .limit(500);
  let settled = 0;
  const system: Actor = { kind: 'system' };
  for (const operation of stale) {
    try {
      if (operation.kind === 'charge') {
        const outcome = await callProvider(() => ctx.gateway.charge(chargeRequest(operation)), ctx.timeoutMs);
        await settleCharge(ctx.db, operation, outcome, system, ctx.metrics);
      } else {
        const request = await refundRequest(ctx.db, operation);
        const outcome = await callProvider(() => ctx.gateway.refund(request), ctx.timeoutMs);
        await settleRefund(ctx.db, operation, outcome, system, ctx.metrics);
      }
      settled++;
    } catch (error) {
      // A no is settled too (the operation is failed now); an unknown outcome waits for the next round.
      if (error instanceof PaymentRefused || error instanceof BadGateway) settled++;
      else options.log?.(`payment operation ${operation.id} is still pending`, error);
    }
  }
  return { settled, stillPending: stale.length - settled };
}
