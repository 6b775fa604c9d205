import type { PaymentItem, PaymentListQuery } from '@ev/shared';
import { and, eq, gte, ilike, inArray, lte, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import {
  landlords,
  merchants,
  payments,
  promotionCodes,
  promotionRedemptions,
  users,
} from '../../db/schema/index.ts';
import { contains, countAll, ordering, paging } from '../../lib/list-query.ts';
import { type DataScope, siteScopeOn } from '../../plugins/scope.ts';
import { memberMatches } from '../booking/booking-query.ts';

/** The payments a staff scope sees, by the site and cluster copied on each payment. */
export const paymentScope = (scope: DataScope): SQL | undefined =>
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
  if (query.userName) conditions.push(memberMatches(payments.userId, query.userName));
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
  discountCode: sql<
    string | null
  >`(select ${promotionCodes.code} from ${promotionRedemptions} join ${promotionCodes} on ${promotionCodes.id} = ${promotionRedemptions.codeId} where ${promotionRedemptions.paymentId} = ${payments.id})`,
  discount: payments.discountAmount,
  point: payments.pointAmount,
  pointUsed: payments.pointUsed,
  pointEarned: payments.pointEarned,
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
  discount: Number(row.discount),
  point: Number(row.point),
});

export async function listPayments(db: Db, scope: DataScope, query: PaymentListQuery) {
  const where = paymentWhere(scope, query);
  const [counts] = await db.select({ total: countAll() }).from(payments).where(where);
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
