import { bookingStatusLabel, paymentMethodLabel } from '@ev/shared';
import { Alert, Button, Descriptions, type DescriptionsProps, Spin, Table, Tag, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table/interface';
import { AppModal } from '../../components/app-modal.tsx';
import { bahtText, formatThaiDateTime, pointsText } from '../../lib/format.ts';
import { type BookingDetail, type BookingEventEntry, useBookingDetail } from './api.ts';
import { actorLabel, eventLabel, kwhText, statusColor } from './booking-format.ts';
import { LiveDuration } from './live-duration.tsx';
import { TotalAmount } from './total-amount.tsx';

const text = (value: string | null | undefined) => value || '-';

const statusTag = (status: string) => <Tag color={statusColor(status)}>{bookingStatusLabel(status)}</Tag>;

/** The words for what a history entry carried; other keys show as they come. */
const DETAIL_LABELS: Record<string, string> = {
  transactionId: 'Transaction',
  energyWh: 'Energy (Wh)',
  reason: 'Reason',
  amount: 'Amount',
  priceByPower: 'By power',
  priceByDuration: 'By duration',
  priceByPenalty: 'By penalty',
  invoiceNo: 'Invoice',
  creditNoteNo: 'Credit note',
};

/** What a history entry carried that a person reads; a cleared override (null) says so. */
function detailText(detail: Record<string, unknown> | null): string {
  if (!detail) return '';
  const parts: string[] = [];
  for (const [key, value] of Object.entries(detail)) {
    if (value === undefined || (value !== null && typeof value === 'object')) continue;
    parts.push(`${DETAIL_LABELS[key] ?? key}: ${value === null ? 'cleared' : String(value)}`);
  }
  return parts.join(', ');
}

const HISTORY_COLUMNS: ColumnsType<BookingEventEntry> = [
  { title: 'Time', dataIndex: 'at', key: 'at', width: 150, render: (at: string) => formatThaiDateTime(at) },
  { title: 'Event', dataIndex: 'event', key: 'event', width: 170, render: eventLabel },
  {
    title: 'Status',
    key: 'status',
    width: 190,
    render: (_, entry) =>
      entry.fromStatus === entry.toStatus || entry.fromStatus === null ? (
        statusTag(entry.toStatus)
      ) : (
        <>
          {statusTag(entry.fromStatus)}→ {statusTag(entry.toStatus)}
        </>
      ),
  },
  { title: 'By', key: 'by', width: 200, render: (_, entry) => actorLabel(entry) },
  { title: 'Detail', dataIndex: 'detail', key: 'detail', render: detailText },
];

function Summary({ detail }: { detail: BookingDetail }) {
  const b = detail.booking;
  const items: DescriptionsProps['items'] = [
    { key: 'status', label: 'Status', children: statusTag(b.status) },
    { key: 'name', label: 'Name', children: text([b.firstName, b.lastName].filter(Boolean).join(' ')) },
    { key: 'email', label: 'Email', children: text(b.email) },
    { key: 'tel', label: 'Phone', children: text(b.tel) },
    { key: 'cluster', label: 'Cluster', children: b.merchantNameEn },
    { key: 'site', label: 'Site', children: b.landlordNameEn },
    { key: 'charger', label: 'Charger', children: `${b.chargerNameEn} (${b.chargerId})` },
    { key: 'connector', label: 'Connector', children: `${b.connectorNameEn} (${b.connectorId})` },
    { key: 'created', label: 'Service date/time', children: formatThaiDateTime(b.createdAt) },
    {
      key: 'slot',
      label: 'Reserved slot',
      children: b.slotStart
        ? `${formatThaiDateTime(b.slotStart)} - ${formatThaiDateTime(b.slotEnd)}`
        : 'Walk-in',
    },
    { key: 'start', label: 'Start', children: formatThaiDateTime(b.startTime) },
    { key: 'stop', label: 'Stop', children: formatThaiDateTime(b.stopTime) },
    { key: 'full', label: 'Full', children: formatThaiDateTime(b.fullAt) },
    { key: 'available', label: 'Cable removed', children: formatThaiDateTime(b.avaliableAt) },
    { key: 'duration', label: 'Duration', children: <LiveDuration booking={b} /> },
    {
      key: 'energy',
      label: 'Energy',
      children: `${kwhText(b.totalEnergyKwh)} kWh${b.soc === null ? '' : ` (SoC ${b.soc}%)`}`,
    },
    { key: 'total', label: 'Total amount (THB)', children: <TotalAmount booking={b} /> },
    {
      key: 'admin',
      label: 'Admin amount (THB)',
      children: b.adminAmount === null ? '-' : bahtText(b.adminAmount),
    },
    {
      key: 'discount',
      label: 'Discount (THB)',
      children: b.discountCode === null ? '-' : `${bahtText(b.discount)} (${b.discountCode})`,
    },
    {
      key: 'point',
      label: 'Green Point (THB)',
      children: b.pointUsed > 0 ? `${bahtText(b.point)} (${pointsText(b.pointUsed)})` : '-',
    },
    { key: 'method', label: 'Payment method', children: text(paymentMethodLabel(b.paymentMethod)) },
    { key: 'invoice', label: 'Invoice no', children: text(b.invoiceNo) },
  ];
  return <Descriptions size="small" bordered column={{ xs: 1, md: 2 }} items={items} />;
}

/** A booking and its history (every transition: when, what, who), opened from its id in the list. */
export function BookingDetailModal({ id, onClose }: { id: number; onClose: () => void }) {
  const detail = useBookingDetail(id);
  return (
    <AppModal
      open
      title={`Booking #${id}`}
      onCancel={onClose}
      footer={<Button onClick={onClose}>Close</Button>}
    >
      {detail.isPending && <Spin />}
      {detail.isError && <Alert type="error" showIcon title="The booking could not be loaded." />}
      {detail.data && (
        <>
          <Summary detail={detail.data} />
          <Typography.Title level={5} style={{ marginTop: 16 }}>
            History
          </Typography.Title>
          <div data-testid="booking-history">
            <Table<BookingEventEntry>
              size="small"
              rowKey={(entry) => `${entry.at}-${entry.event}-${entry.toStatus}`}
              columns={HISTORY_COLUMNS}
              dataSource={detail.data.history}
              pagination={false}
              scroll={{ x: 800 }}
              locale={{ emptyText: 'No history' }}
            />
          </div>
        </>
      )}
    </AppModal>
  );
}
