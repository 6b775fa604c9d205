import { BOOKING_MESSAGES, NON_REFUNDABLE_METHODS, type PaymentItem, paymentMethodLabel } from '@ev/shared';
import { Button, Form, Tag, Tooltip } from 'antd';
import { useState } from 'react';
import { AMOUNT_DETAILS_CHROME, AmountDetails } from '../../components/amount-details.tsx';
import { LINK_CHROME, TAG_CHROME } from '../../components/list/content-width.ts';
import { DayFilter } from '../../components/list/date-filter.tsx';
import {
  MultiFilter,
  OneFilter,
  PAYMENT_METHOD_OPTIONS,
  TextFilter,
} from '../../components/list/filter-fields.tsx';
import type { ListColumns } from '../../components/list/fit-columns.ts';
import { ListPage } from '../../components/list/list-page.tsx';
import { bahtText, formatThaiDateTime, pointsText } from '../../lib/format.ts';
import { useLandlordDropdown, useMerchantDropdown } from '../../lib/reference.ts';
import { RefundModal } from './refund-modal.tsx';

const ENDPOINT = '/payment';
const FILTERS = {
  invoiceNo: 'one',
  userName: 'one',
  merchantId: 'many',
  landlordId: 'many',
  bookingId: 'one',
  paymentMethod: 'one',
  createdAfter: 'one',
  createdBefore: 'one',
} as const;

function PaymentFilters() {
  const merchantIds: string[] = Form.useWatch('merchantId', Form.useFormInstance()) ?? [];
  const merchants = useMerchantDropdown();
  const landlords = useLandlordDropdown(merchantIds);
  return (
    <>
      <TextFilter label="Invoice No" name="invoiceNo" />
      <TextFilter label="Name / Email / Tel" name="userName" />
      <MultiFilter label="Cluster Name" name="merchantId" placeholder="All clusters" items={merchants.data} />
      <MultiFilter label="Site Name" name="landlordId" placeholder="All sites" items={landlords.data} />
      <TextFilter label="Booking Id" name="bookingId" digits />
      <OneFilter label="Payment Method" name="paymentMethod" options={PAYMENT_METHOD_OPTIONS} />
      <DayFilter label="Date From" name="createdAfter" edge="start" />
      <DayFilter label="Date To" name="createdBefore" edge="end" />
    </>
  );
}

/**
 * How a refund stands: not refunded; waiting for the payment provider; refused by it (nothing paid back, it
 * may be tried again); recorded for manual settlement; or paid back by the provider.
 */
const REFUND_STATES: Record<string, { label: string; color: string }> = {
  pending: { label: 'Waiting for the provider', color: 'blue' },
  manual: { label: 'Recorded: settle manually', color: 'gold' },
  succeeded: { label: 'Refunded', color: 'green' },
  failed: { label: 'Failed: settle by hand', color: 'red' },
};

/** How the payment's refund shows: a tag with its tooltip, or nothing ('-') when none was asked for. */
function refundView(
  payment: PaymentItem,
): { label: string; color: string; tip: string; state: string } | null {
  if (!payment.refundedAt) {
    if (payment.refundStatus !== 'pending' && payment.refundStatus !== 'failed') return null;
    const pending = payment.refundStatus === 'pending';
    return {
      label: pending ? REFUND_STATES.pending!.label : 'Refused by the provider',
      color: pending ? 'blue' : 'red',
      tip: pending
        ? 'The refund was sent to the payment provider, which has not answered yet'
        : 'The payment provider refused the last refund: nothing was paid back, Refund may be tried again',
      state: payment.refundStatus,
    };
  }
  const state = REFUND_STATES[payment.refundStatus ?? ''] ?? { label: 'Refunded', color: 'default' };
  const amount = payment.refundAmount === null ? '' : `${bahtText(payment.refundAmount)} THB`;
  return {
    ...state,
    tip: `${amount} on ${formatThaiDateTime(payment.refundedAt)}, credit note ${payment.creditNoteNo ?? '-'}`,
    state: payment.refundStatus ?? 'refunded',
  };
}

function RefundState({ payment }: { payment: PaymentItem }) {
  const view = refundView(payment);
  if (!view) return <span>-</span>;
  return (
    <Tooltip title={view.tip}>
      <Tag color={view.color} data-refund={view.state}>
        {view.label}
      </Tag>
    </Tooltip>
  );
}

/** The lines of how an amount was made up: a discount code or green points taken off, points earned. */
function amountLines(payment: PaymentItem): string[] {
  return [
    payment.discountCode !== null &&
      `Discount ${bahtText(payment.discount)} THB (code ${payment.discountCode})`,
    payment.pointUsed > 0 && `Green Point ${bahtText(payment.point)} THB (${pointsText(payment.pointUsed)})`,
    payment.pointEarned > 0 && `Earned ${pointsText(payment.pointEarned)}`,
  ].filter((line): line is string => typeof line === 'string');
}

/**
 * The amount charged; when a discount code or green points were taken off first, or points were earned, an
 * icon beside it shows how it was made up (hover or focus).
 */
function PaymentAmount({ payment }: { payment: PaymentItem }) {
  const lines = amountLines(payment);
  if (lines.length === 0) return <>{bahtText(payment.amount)}</>;
  return (
    <AmountDetails
      text={bahtText(payment.amount)}
      label={`Amount ${bahtText(payment.amount)} THB, ${lines.join(', ')}`}
      details={lines.map((line) => <div key={line}>{line}</div>)}
    />
  );
}

/** Why Refund is disabled, for its tooltip. */
function refundBlocked(payment: PaymentItem): string | null {
  if (payment.refundedAt) return 'Already refunded';
  if (payment.refundStatus === 'pending') return 'A refund is waiting for the payment provider';
  if ((NON_REFUNDABLE_METHODS as readonly string[]).includes(payment.method))
    return `A ${paymentMethodLabel(payment.method)} payment can't be refunded here`;
  return null;
}

/**
 * Section 2's columns. The invoice number (pinned left), the method, the amount, the refund and the action
 * (pinned right) always show: the method says why a Refund is disabled. With less room the cluster goes
 * first, then email, site, booking id, name and date. At 1920 px every column shows; below, the Columns
 * control brings any back (the table then scrolls sideways).
 */
function columnsFor(refund: (payment: PaymentItem) => void): ListColumns<PaymentItem> {
  return [
    {
      title: 'Invoice No',
      dataIndex: 'invoiceNo',
      key: 'invoiceNo',
      sorter: true,
      kind: 'code',
      fixed: 'left',
    },
    {
      title: 'Name',
      key: 'name',
      priority: 2,
      render: (_, payment) => [payment.firstName, payment.lastName].filter(Boolean).join(' ') || '-',
    },
    {
      title: 'Email',
      dataIndex: 'email',
      key: 'email',
      priority: 5,
      render: (email: string | null) => email || '-',
    },
    { title: 'Cluster', dataIndex: 'merchantNameEn', key: 'merchantNameEn', priority: 6 },
    { title: 'Site', dataIndex: 'landlordNameEn', key: 'landlordNameEn', priority: 4 },
    { title: 'Booking Id', dataIndex: 'bookingId', key: 'bookingId', kind: 'id', priority: 3 },
    {
      title: 'Date',
      dataIndex: 'createdAt',
      key: 'createdAt',
      sorter: true,
      kind: 'date',
      priority: 1,
      render: (at: string) => formatThaiDateTime(at),
    },
    {
      title: 'Method',
      dataIndex: 'method',
      key: 'method',
      sorter: true,
      kind: 'label',
      render: (method: string) => paymentMethodLabel(method),
    },
    {
      title: 'Amount (THB)',
      dataIndex: 'amount',
      key: 'amount',
      sorter: true,
      align: 'right',
      kind: 'money',
      textOf: (payment) => bahtText(payment.amount),
      // The text button and its info icon, where the amount was made up of more.
      chrome: AMOUNT_DETAILS_CHROME,
      render: (_, payment) => <PaymentAmount payment={payment} />,
    },
    {
      title: 'Refund',
      key: 'refund',
      kind: 'label',
      textOf: (payment) => refundView(payment)?.label ?? '-',
      chrome: TAG_CHROME,
      render: (_, payment) => <RefundState payment={payment} />,
    },
    {
      title: 'Action',
      key: 'action',
      fixed: 'right',
      kind: 'label',
      textOf: () => 'Refund',
      chrome: LINK_CHROME,
      render: (_, payment) => {
        const blocked = refundBlocked(payment);
        const button = (
          <Button
            type="link"
            size="small"
            disabled={blocked !== null}
            aria-label={`Refund ${payment.invoiceNo}`}
            onClick={() => refund(payment)}
          >
            Refund
          </Button>
        );
        return blocked ? <Tooltip title={blocked}>{button}</Tooltip> : button;
      },
    },
  ];
}

/** /charging-payment (document 3, section 2; menu Transaction Management): admin only, so every filter shows. */
export function PaymentListPage() {
  const [refunding, setRefunding] = useState<PaymentItem | null>(null);
  return (
    <>
      <ListPage<PaymentItem, typeof FILTERS>
        title="Transaction Management"
        endpoint={ENDPOINT}
        itemsKey="payments"
        filterSpec={FILTERS}
        filters={<PaymentFilters />}
        exportSpec={{ fileName: 'Payment', notFoundMessage: BOOKING_MESSAGES.paymentNotFound }}
        columns={columnsFor(setRefunding)}
        rowKey="id"
        size="small"
      />
      {refunding && <RefundModal payment={refunding} onClose={() => setRefunding(null)} />}
    </>
  );
}
