import {
  allowed,
  BOOKING_MESSAGES,
  type BookingItem,
  bookingStatusLabel,
  paymentMethodLabel,
} from '@ev/shared';
import { Button, Form, Tag } from 'antd';
import { useState } from 'react';
import { AMOUNT_DETAILS_CHROME } from '../../components/amount-details.tsx';
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
import type { ListPageData } from '../../components/list/use-list-query.ts';
import { formatThaiDateTime } from '../../lib/format.ts';
import { useLandlordDropdown, useMerchantDropdown } from '../../lib/reference.ts';
import { useRole } from '../../lib/session.ts';
import { BookingActions, bookingActionLabels } from './booking-actions.tsx';
import { BookingDetailModal } from './booking-detail-modal.tsx';
import { kwhText, statusColor } from './booking-format.ts';
import { STATUS_OPTIONS } from './booking-options.ts';
import './booking.css';
import { LiveDuration } from './live-duration.tsx';
import { TotalAmount, totalText } from './total-amount.tsx';
import { useTodayByDefault } from './use-today-by-default.ts';

const ENDPOINT = '/booking';
/** The dates come first: see useTodayByDefault. */
const FILTERS = {
  createdAfter: 'one',
  createdBefore: 'one',
  bookingId: 'one',
  chargerId: 'one',
  connectorId: 'one',
  userName: 'one',
  merchantId: 'many',
  landlordId: 'many',
  paymentMethod: 'one',
  status: 'one',
} as const;
/** While a row charges its amounts and energy grow: the page reloads this often, and only then. */
export const LIVE_REFRESH_MS = 10_000;
const liveRefresh = (data: ListPageData<BookingItem> | undefined) =>
  data?.items.some((booking) => booking.live) ? LIVE_REFRESH_MS : false;

function BookingFilters({ role }: { role: string | null }) {
  const merchantIds: string[] = Form.useWatch('merchantId', Form.useFormInstance()) ?? [];
  const clusterFilter = allowed(role, 'bookingClusterFilter');
  const merchants = useMerchantDropdown();
  const landlords = useLandlordDropdown(clusterFilter ? merchantIds : []);
  return (
    <>
      <TextFilter label="Booking Id" name="bookingId" digits />
      <TextFilter label="Charger Id" name="chargerId" />
      <TextFilter label="Connector Id" name="connectorId" digits />
      <TextFilter label="Name / Email / Tel" name="userName" />
      {clusterFilter && (
        <MultiFilter
          label="Cluster Name"
          name="merchantId"
          placeholder="All clusters"
          items={merchants.data}
        />
      )}
      <MultiFilter label="Site Name" name="landlordId" placeholder="All sites" items={landlords.data} />
      <OneFilter label="Payment Method" name="paymentMethod" options={PAYMENT_METHOD_OPTIONS} />
      <DayFilter label="Service Date From" name="createdAfter" edge="start" />
      <DayFilter label="Service Date To" name="createdBefore" edge="end" />
      <OneFilter label="Status" name="status" options={STATUS_OPTIONS} />
    </>
  );
}

const orDash = (value: string | null) => value || '-';

/**
 * Section 2's columns. The id (which opens the booking) and the name, pinned left, the duration, the total,
 * the status and the actions, pinned right, always show. With less room the cluster goes first, then email,
 * phone, payment method, connector, charger, energy, surname, site and service date: the site and the date
 * say which booking it is, and outlast the energy. At 1920 px every column shows; below, the Columns control
 * brings any back (the table then scrolls sideways).
 */
function columnsFor(role: ReturnType<typeof useRole>, open: (id: number) => void): ListColumns<BookingItem> {
  return [
    {
      title: 'ID',
      dataIndex: 'id',
      key: 'id',
      sorter: true,
      kind: 'id',
      chrome: LINK_CHROME,
      textOf: (booking) => String(booking.id),
      fixed: 'left',
      render: (id: number) => (
        <Button type="link" size="small" aria-label={`View booking #${id}`} onClick={() => open(id)}>
          {id}
        </Button>
      ),
    },
    { title: 'Name', dataIndex: 'firstName', key: 'firstName', fixed: 'left', render: orDash },
    { title: 'Surname', dataIndex: 'lastName', key: 'lastName', priority: 3, render: orDash },
    { title: 'Email', dataIndex: 'email', key: 'email', priority: 9, render: orDash },
    { title: 'Phone', dataIndex: 'tel', key: 'tel', kind: 'code', priority: 8, render: orDash },
    { title: 'Cluster', dataIndex: 'merchantNameEn', key: 'merchantNameEn', priority: 10 },
    { title: 'Site', dataIndex: 'landlordNameEn', key: 'landlordNameEn', priority: 2 },
    { title: 'Charger', dataIndex: 'chargerNameEn', key: 'chargerNameEn', priority: 5 },
    { title: 'Connector', dataIndex: 'connectorNameEn', key: 'connectorNameEn', kind: 'label', priority: 6 },
    {
      title: 'Service Date/Time',
      dataIndex: 'createdAt',
      key: 'createdAt',
      sorter: true,
      kind: 'date',
      priority: 1,
      render: (at: string) => formatThaiDateTime(at),
    },
    {
      title: 'Duration',
      key: 'duration',
      kind: 'number',
      // hh:mm:ss in tabular figures: as wide as any other duration.
      textOf: () => '00:00:00',
      render: (_, booking) => <LiveDuration booking={booking} />,
    },
    {
      title: 'Energy (kWh)',
      dataIndex: 'totalEnergyKwh',
      key: 'energy',
      sorter: true,
      align: 'right',
      kind: 'number',
      priority: 4,
      render: kwhText,
    },
    {
      title: 'Total (THB)',
      dataIndex: 'totalAmount',
      key: 'totalAmount',
      sorter: true,
      align: 'right',
      kind: 'money',
      textOf: totalText,
      chrome: AMOUNT_DETAILS_CHROME,
      render: (_, booking) => <TotalAmount booking={booking} />,
    },
    {
      title: 'Payment Method',
      dataIndex: 'paymentMethod',
      key: 'paymentMethod',
      kind: 'label',
      priority: 7,
      render: (method: string | null) => paymentMethodLabel(method) || '-',
    },
    {
      title: 'Status',
      dataIndex: 'status',
      key: 'status',
      sorter: true,
      kind: 'label',
      textOf: (booking) => bookingStatusLabel(booking.status),
      chrome: TAG_CHROME,
      render: (status: string) => (
        <Tag color={statusColor(status)} data-status={status}>
          {bookingStatusLabel(status)}
        </Tag>
      ),
    },
    {
      title: 'Action',
      key: 'action',
      fixed: 'right',
      // The row's actions side by side, on one line.
      kind: 'label',
      textOf: (booking) => bookingActionLabels(booking, role),
      chrome: LINK_CHROME,
      render: (_, booking) => <BookingActions booking={booking} role={role} />,
    },
  ];
}

/** /booking-management (document 3, section 2): admin, callcenter and station. */
export function BookingListPage() {
  const role = useRole();
  const [shown, setShown] = useState<number | null>(null);
  const today = useTodayByDefault('createdAfter', 'createdBefore');
  return (
    <>
      <ListPage<BookingItem, typeof FILTERS>
        title="Booking Management"
        endpoint={ENDPOINT}
        baseQuery={today.baseQuery}
        defaultFilters={today.defaults}
        itemsKey="bookings"
        filterSpec={FILTERS}
        filters={<BookingFilters role={role} />}
        exportSpec={{ fileName: 'Booking', notFoundMessage: BOOKING_MESSAGES.notFound }}
        columns={columnsFor(role, setShown)}
        rowKey="id"
        size="small"
        refetchInterval={liveRefresh}
      />
      {shown !== null && <BookingDetailModal id={shown} onClose={() => setShown(null)} />}
    </>
  );
}
