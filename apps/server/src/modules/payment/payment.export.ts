import { type PaymentItem, type PaymentListQuery, paymentMethodLabel } from '@ev/shared';
import type { FastifyReply } from 'fastify';
import type { Db } from '../../db/client.ts';
import { payments } from '../../db/schema/index.ts';
import { ordering } from '../../lib/list-query.ts';
import { sendXlsx } from '../../lib/xlsx.ts';
import type { DataScope } from '../../plugins/scope.ts';
import { fromPayments, PAYMENT_SORTS_SQL, paymentWhere, toPaymentItem } from './payment.service.ts';

const date = (iso: string | null) => (iso ? new Date(iso) : null);

/** `mode=xlsx`: Payment_{timestamp}.xlsx, the list's rows with the same filters, scope and order. */
export function exportPayments(db: Db, scope: DataScope, query: PaymentListQuery, reply: FastifyReply) {
  const where = paymentWhere(scope, query);
  const sorted = query.sort ? query : { ...query, order: query.order ?? 'desc' };
  const batch = async (offset: number, limit: number) =>
    (
      await fromPayments(db)
        .where(where)
        .orderBy(
          ...ordering(
            sorted,
            PAYMENT_SORTS_SQL,
            query.sort ? [payments.id] : [payments.createdAt, payments.id],
          ),
        )
        .limit(limit)
        .offset(offset)
    ).map(toPaymentItem);
  return sendXlsx<PaymentItem>(reply, {
    name: 'Payment',
    emptyMessage: 'No matched payment found',
    batch,
    columns: [
      { header: 'Invoice No', width: 18, value: (row) => row.invoiceNo },
      { header: 'Name', value: (row) => row.firstName },
      { header: 'Surname', value: (row) => row.lastName },
      { header: 'Email', width: 28, value: (row) => row.email },
      { header: 'Cluster', width: 28, value: (row) => row.merchantNameEn },
      { header: 'Site', width: 28, value: (row) => row.landlordNameEn },
      { header: 'Booking ID', width: 12, value: (row) => row.bookingId },
      { header: 'Date', value: (row) => date(row.createdAt) },
      { header: 'Method', value: (row) => paymentMethodLabel(row.method) },
      { header: 'Amount (THB)', width: 14, value: (row) => row.amount },
      { header: 'Discount Code', width: 18, value: (row) => row.discountCode },
      { header: 'Discount (THB)', width: 14, value: (row) => row.discount },
      { header: 'Green Point Used', width: 14, value: (row) => row.pointUsed },
      { header: 'Green Point (THB)', width: 14, value: (row) => row.point },
      { header: 'Green Point Earned', width: 14, value: (row) => row.pointEarned },
      { header: 'Refunded At', value: (row) => date(row.refundedAt) },
      { header: 'Refund (THB)', width: 14, value: (row) => row.refundAmount },
      { header: 'Credit Note No', width: 18, value: (row) => row.creditNoteNo },
      { header: 'Refund Status', value: (row) => row.refundStatus },
    ],
  });
}
