import {
  BANGKOK_OFFSET_MS,
  BOOKING_MESSAGES,
  type BookingReportQuery,
  type BookingStatus,
  bookingStatusLabel,
  paymentMethodLabel,
} from '@ev/shared';
import { and, asc, eq, gte, ilike, inArray, isNull, lte, type SQL, sql } from 'drizzle-orm';
import type { AnyPgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { FastifyReply } from 'fastify';
import { arrayRows } from '../../db/array-rows.ts';
import type { Db } from '../../db/client.ts';
import {
  bookings,
  chargers,
  connectors,
  connectorTypes,
  landlords,
  merchants,
  payments,
  users,
} from '../../db/schema/index.ts';
import { contains, pastRow } from '../../lib/list-query.ts';
import { type CellValue, sendXlsx, type XlsxColumn } from '../../lib/xlsx.ts';
import type { DataScope } from '../../plugins/scope.ts';
import { hms } from '../booking/booking.export.ts';
import { fromBookings, toBookingItem } from '../booking/booking-query.ts';
import { bookingScope } from '../booking/lifecycle.ts';

/** The report's filters and the caller's scope; deleted bookings are left out. */
export function reportWhere(scope: DataScope, query: Partial<BookingReportQuery>): SQL | undefined {
  const conditions: Array<SQL | undefined> = [isNull(bookings.deletedAt), bookingScope(scope)];
  if (query.chargerId) conditions.push(ilike(bookings.chargerId, contains(query.chargerId)));
  if (query.connectorId !== undefined) conditions.push(eq(bookings.connectorId, query.connectorId));
  if (query.landlordId?.length) conditions.push(inArray(bookings.landlordId, query.landlordId));
  if (query.merchantId?.length) conditions.push(inArray(bookings.merchantId, query.merchantId));
  if (query.firstName) conditions.push(ilike(users.firstName, contains(query.firstName)));
  if (query.lastName) conditions.push(ilike(users.lastName, contains(query.lastName)));
  if (query.email) conditions.push(ilike(users.email, contains(query.email)));
  if (query.tel) conditions.push(ilike(users.tel, contains(query.tel)));
  if (query.paymentMethod) conditions.push(eq(bookings.paymentMethod, query.paymentMethod));
  if (query.createdAfter) conditions.push(gte(bookings.createdAt, query.createdAfter));
  if (query.createdBefore) conditions.push(lte(bookings.createdAt, query.createdBefore));
  if (query.paymentAfter) conditions.push(gte(payments.createdAt, query.paymentAfter));
  if (query.paymentBefore) conditions.push(lte(payments.createdAt, query.paymentBefore));
  return and(...conditions);
}

const DAY_MS = 86_400_000;
const pad = (n: number) => (n < 10 ? `0${n}` : String(n));

/**
 * 'dd/mm/yyyy HH:mm:ss' in Thai (Buddhist year) and Asia/Bangkok time, as the screens show dates. Written by
 * hand: Intl formatting costs microseconds a cell, and the report writes millions of them. Bangkok has no
 * daylight saving, so the fixed offset is exact. The date part is kept for the next call: the report's rows
 * come in date order, so it changes once a day of rows.
 */
let lastDay = Number.NaN;
let lastDayText = '';
export function thaiDateTime(date: Date | string | number | null): string {
  if (date === null) return '';
  const local =
    (typeof date === 'number' ? date : typeof date === 'string' ? Date.parse(date) : date.getTime()) +
    BANGKOK_OFFSET_MS;
  const day = Math.floor(local / DAY_MS);
  if (day !== lastDay) {
    const d = new Date(day * DAY_MS);
    lastDayText = `${pad(d.getUTCDate())}/${pad(d.getUTCMonth() + 1)}/${d.getUTCFullYear() + 543} `;
    lastDay = day;
  }
  const secondOfDay = Math.floor((local - day * DAY_MS) / 1000);
  return `${lastDayText}${pad(Math.floor(secondOfDay / 3600))}:${pad(Math.floor((secondOfDay % 3600) / 60))}:${pad(secondOfDay % 60)}`;
}

/**
 * One booking of the report, flat. Instants are epoch milliseconds (the database sends them as numbers: parsing
 * seven timestamps a row was a third of the time), money is baht.
 */
interface ReportRow {
  id: number;
  userId: number | null;
  firstName: string | null;
  lastName: string | null;
  email: string | null;
  tel: string | null;
  merchantId: number;
  landlordId: number;
  chargerId: string;
  connectorId: number;
  connectorTypeId: number;
  status: BookingStatus;
  createdAt: number;
  slotStart: number | null;
  slotEnd: number | null;
  startTime: number | null;
  stopTime: number | null;
  avaliableAt: number | null;
  fullAt: number | null;
  energyWh: number;
  soc: number | null;
  /** The computed parts (before staff overrides). */
  computedPower: number;
  computedDuration: number;
  computedPenalty: number;
  overstayMinutes: number;
  dcFullMinutes: number;
  adminPower: number | null;
  adminDuration: number | null;
  adminPenalty: number | null;
  adminAmount: number | null;
  totalAmount: number;
  paymentMethod: string | null;
  invoiceNo: string | null;
  /** What the payment took off: the discount code, the green points (baht, and how many). */
  discount: number | null;
  point: number | null;
  pointUsed: number | null;
  paidAt: number | null;
  refundedAt: number | null;
  refundAmount: number | null;
  creditNoteNo: string | null;
}

/** Names by id of clusters, sites, chargers, connectors and connector types: read once a report. */
interface Names {
  merchant: Map<number, string>;
  landlord: Map<number, string>;
  charger: Map<string, string>;
  connector: Map<number, string>;
  connectorType: Map<number, string>;
}

async function loadNames(db: Db): Promise<Names> {
  const pairs = <K>(table: PgTable & { id: AnyPgColumn }, name: AnyPgColumn) =>
    db
      .select({ id: table.id, name })
      .from(table)
      .then((rows) => new Map(rows.map((row) => [row.id as K, row.name as string])));
  const [merchant, landlord, charger, connector, connectorType] = await Promise.all([
    pairs<number>(merchants, merchants.nameEn),
    pairs<number>(landlords, landlords.nameEn),
    pairs<string>(chargers, chargers.nameEn),
    pairs<number>(connectors, connectors.nameEn),
    pairs<number>(connectorTypes, connectorTypes.name),
  ]);
  return { merchant, landlord, charger, connector, connectorType };
}

const epochMs = (column: AnyPgColumn) =>
  sql<number | null>`floor(extract(epoch from ${column}) * 1000)::float8`;
const baht = (column: AnyPgColumn | SQL) => sql<number | null>`(${column})::float8`;
const detailMinutes = (key: string) =>
  sql<number | null>`(${bookings.priceDetail}->>${sql.raw(`'${key}'`)})::float8`;

/** The report's columns: no jsonb but two numbers of price_detail, no timestamps as text. */
const reportColumns = {
  id: bookings.id,
  userId: bookings.userId,
  firstName: users.firstName,
  lastName: users.lastName,
  email: users.email,
  tel: users.tel,
  merchantId: bookings.merchantId,
  landlordId: bookings.landlordId,
  chargerId: bookings.chargerId,
  connectorId: bookings.connectorId,
  connectorTypeId: bookings.connectorTypeId,
  status: bookings.status,
  createdAt: sql<number>`floor(extract(epoch from ${bookings.createdAt}) * 1000)::float8`,
  slotStart: epochMs(bookings.slotStart),
  slotEnd: epochMs(bookings.slotEnd),
  startTime: epochMs(bookings.startTime),
  stopTime: epochMs(bookings.stopTime),
  avaliableAt: epochMs(bookings.avaliableAt),
  fullAt: epochMs(bookings.fullAt),
  energyWh: sql<number>`${bookings.energyWh}::float8`,
  soc: bookings.soc,
  computedPower: baht(bookings.priceByPower),
  computedDuration: baht(bookings.priceByDuration),
  computedPenalty: baht(bookings.priceByPenalty),
  overstayMinutes: detailMinutes('overstayMinutes'),
  dcFullMinutes: detailMinutes('dcFullMinutes'),
  adminPower: baht(bookings.adminPriceByPower),
  adminDuration: baht(bookings.adminPriceByDuration),
  adminPenalty: baht(bookings.adminPriceByPenalty),
  adminAmount: baht(bookings.adminAmount),
  // A cancelled booking owes nothing (as the list says).
  totalAmount: sql<
    number | null
  >`case when ${bookings.status} = 'cancelled' then 0 else ${bookings.totalAmount}::float8 end`,
  paymentMethod: bookings.paymentMethod,
  invoiceNo: payments.invoiceNo,
  discount: baht(payments.discountAmount),
  point: baht(payments.pointAmount),
  pointUsed: payments.pointUsed,
  paidAt: epochMs(payments.createdAt),
  refundedAt: epochMs(payments.refundedAt),
  refundAmount: baht(payments.refundAmount),
  creditNoteNo: payments.creditNoteNo,
};
const REPORT_KEYS = Object.keys(reportColumns) as Array<keyof typeof reportColumns>;
const at = Object.fromEntries(REPORT_KEYS.map((key, index) => [key, index])) as Record<
  keyof typeof reportColumns,
  number
>;

const LIVE = new Set<string>(['charging', 'charged']);

/**
 * A row as the driver sends it, an array in reportColumns' order, read through named getters (and setters, for
 * the live rows' prices): a million rows as objects of 37 fields were a second copy of every row for V8 to
 * promote and collect.
 */
class RowView {
  constructor(readonly values: unknown[]) {}
}
for (const key of REPORT_KEYS) {
  const index = at[key];
  Object.defineProperty(RowView.prototype, key, {
    get(this: RowView) {
      return this.values[index];
    },
    set(this: RowView, value: unknown) {
      this.values[index] = value;
    },
  });
}

/** Where the parts and minutes of a booking not priced yet are null in a row from the driver. */
const ZERO_WHEN_UNPRICED = (
  ['computedPower', 'computedDuration', 'computedPenalty', 'overstayMinutes', 'dcFullMinutes'] as const
).map((key) => at[key]);

/** A row from the driver as a ReportRow: the parts of a booking not priced yet as 0, its total or the admin amount. */
function toReportRow(v: unknown[]): ReportRow {
  for (const index of ZERO_WHEN_UNPRICED) v[index] ??= 0;
  v[at.totalAmount] ??= v[at.adminAmount] ?? 0;
  return new RowView(v) as unknown as ReportRow;
}

/**
 * Rows still charging (or charged, cable in) are priced now from their snapshot, exactly as the list prices
 * them: the list's own toBookingItem, for these few rows only.
 */
async function priceLiveRows(db: Db, rows: ReportRow[], now: number): Promise<void> {
  const live = rows.filter((row) => LIVE.has(row.status));
  if (live.length === 0) return;
  const items = await fromBookings(db).where(
    inArray(
      bookings.id,
      live.map((row) => row.id),
    ),
  );
  const byId = new Map(items.map((item) => [item.booking.id, toBookingItem(item, now)]));
  for (const row of live) {
    const item = byId.get(row.id);
    if (!item) continue; // deleted meanwhile: keep what was read
    row.computedPower = item.computed.priceByPower;
    row.computedDuration = item.computed.priceByDuration;
    row.computedPenalty = item.computed.priceByPenalty;
    row.overstayMinutes = item.computed.overstayMinutes;
    row.dcFullMinutes = item.computed.dcFullMinutes;
    row.totalAmount = item.totalAmount;
  }
}

const seconds = (r: ReportRow, now: number) =>
  r.startTime === null ? null : Math.max(0, Math.floor(((r.stopTime ?? now) - r.startTime) / 1000));
const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());
const shown = (override: number | null, computed: number) => override ?? computed;

/** Processed: what a person reads (Thai dates, hh:mm:ss, labels, baht, the parts). */
function processedColumns(now: number, names: Names): XlsxColumn<ReportRow>[] {
  return [
    { header: 'Booking ID', width: 12, value: (r) => r.id },
    { header: 'Name', value: (r) => r.firstName },
    { header: 'Surname', value: (r) => r.lastName },
    { header: 'Email', width: 28, value: (r) => r.email },
    { header: 'Mobile Number', width: 16, value: (r) => r.tel },
    { header: 'Cluster Name', width: 28, value: (r) => names.merchant.get(r.merchantId) ?? null },
    { header: 'Site Name', width: 28, value: (r) => names.landlord.get(r.landlordId) ?? null },
    { header: 'Charger Id', value: (r) => r.chargerId },
    { header: 'Charger Name', width: 24, value: (r) => names.charger.get(r.chargerId) ?? null },
    { header: 'Connector Id', width: 12, value: (r) => r.connectorId },
    { header: 'Connector', value: (r) => names.connector.get(r.connectorId) ?? null },
    { header: 'Connector Type', value: (r) => names.connectorType.get(r.connectorTypeId) ?? null },
    { header: 'Service Date', value: (r) => thaiDateTime(r.createdAt) },
    { header: 'Start', value: (r) => thaiDateTime(r.startTime) },
    { header: 'Stop', value: (r) => thaiDateTime(r.stopTime) },
    { header: 'Cable Removed', value: (r) => thaiDateTime(r.avaliableAt) },
    { header: 'Battery Full', value: (r) => thaiDateTime(r.fullAt) },
    {
      header: 'Duration',
      width: 12,
      value: (r) => {
        const s = seconds(r, now);
        return s === null ? '' : hms(s * 1000);
      },
    },
    { header: 'Energy (kWh)', width: 12, value: (r) => r.energyWh / 1000 },
    { header: 'By Power (THB)', width: 14, value: (r) => shown(r.adminPower, r.computedPower) },
    { header: 'By Duration (THB)', width: 14, value: (r) => shown(r.adminDuration, r.computedDuration) },
    { header: 'By Penalty (THB)', width: 14, value: (r) => shown(r.adminPenalty, r.computedPenalty) },
    { header: 'Overstay (min)', width: 12, value: (r) => r.overstayMinutes },
    { header: 'DC Full (min)', width: 12, value: (r) => r.dcFullMinutes },
    { header: 'Admin Amount (THB)', width: 14, value: (r) => r.adminAmount },
    { header: 'Discount (THB)', width: 14, value: (r) => r.discount },
    { header: 'Green Point (THB)', width: 14, value: (r) => r.point },
    { header: 'Green Point Used', width: 14, value: (r) => r.pointUsed },
    { header: 'Total (THB)', width: 14, value: (r) => r.totalAmount },
    { header: 'Payment Method', width: 18, value: (r) => paymentMethodLabel(r.paymentMethod) },
    { header: 'Invoice No', width: 18, value: (r) => r.invoiceNo },
    { header: 'Payment Date', value: (r) => thaiDateTime(r.paidAt) },
    { header: 'Refund (THB)', width: 12, value: (r) => r.refundAmount },
    { header: 'Credit Note No', width: 18, value: (r) => r.creditNoteNo },
    { header: 'Status', width: 12, value: (r) => bookingStatusLabel(r.status) },
  ];
}

/** Raw: machine values under the API's field names (ISO instants, Wh, seconds, codes, baht as numbers). */
function rawColumns(now: number, names: Names): XlsxColumn<ReportRow>[] {
  const field = (header: string, value: (r: ReportRow) => CellValue, width = 16): XlsxColumn<ReportRow> => ({
    header,
    width,
    value,
  });
  return [
    field('id', (r) => r.id),
    field('userId', (r) => r.userId),
    field('firstName', (r) => r.firstName),
    field('lastName', (r) => r.lastName),
    field('email', (r) => r.email, 28),
    field('tel', (r) => r.tel),
    field('merchantId', (r) => r.merchantId),
    field('merchantNameEn', (r) => names.merchant.get(r.merchantId) ?? null, 28),
    field('landlordId', (r) => r.landlordId),
    field('landlordNameEn', (r) => names.landlord.get(r.landlordId) ?? null, 28),
    field('chargerId', (r) => r.chargerId),
    field('connectorId', (r) => r.connectorId),
    field('connectorTypeId', (r) => r.connectorTypeId),
    field('createdAt', (r) => iso(r.createdAt), 26),
    field('slotStart', (r) => iso(r.slotStart), 26),
    field('slotEnd', (r) => iso(r.slotEnd), 26),
    field('startTime', (r) => iso(r.startTime), 26),
    field('stopTime', (r) => iso(r.stopTime), 26),
    field('avaliableAt', (r) => iso(r.avaliableAt), 26),
    field('fullAt', (r) => iso(r.fullAt), 26),
    field('durationSeconds', (r) => seconds(r, now)),
    field('totalEnergyWh', (r) => r.energyWh),
    field('soc', (r) => r.soc),
    field('priceByPower', (r) => r.computedPower),
    field('priceByDuration', (r) => r.computedDuration),
    field('priceByPenalty', (r) => r.computedPenalty),
    field('adminPriceByPower', (r) => r.adminPower),
    field('adminPriceByDuration', (r) => r.adminDuration),
    field('adminPriceByPenalty', (r) => r.adminPenalty),
    field('adminAmount', (r) => r.adminAmount),
    field('discount', (r) => r.discount),
    field('point', (r) => r.point),
    field('pointUsed', (r) => r.pointUsed),
    field('totalAmount', (r) => r.totalAmount),
    field('paymentMethod', (r) => r.paymentMethod),
    field('invoiceNo', (r) => r.invoiceNo),
    field('paidAt', (r) => iso(r.paidAt), 26),
    field('refundedAt', (r) => iso(r.refundedAt), 26),
    field('refundAmount', (r) => r.refundAmount),
    field('creditNoteNo', (r) => r.creditNoteNo),
    field('status', (r) => r.status),
  ];
}

/** Rows per batch: keyset paging keeps each query short however deep the report goes. */
const REPORT_BATCH = 5000;

/**
 * GET /api/report/booking: Booking-Report_{timestamp}.xlsx, oldest service date first, streamed in batches
 * after the previous batch's last (createdAt, id), so memory stays flat for any number of rows (sendXlsx reads
 * the next batch while the current one is deflated and sent).
 */
export async function sendBookingReport(
  db: Db,
  scope: DataScope,
  query: BookingReportQuery,
  reply: FastifyReply,
) {
  const now = Date.now();
  const where = reportWhere(scope, query);
  const names = await loadNames(db);
  const read = async (lastId: number | undefined, limit: number) => {
    const after = pastRow(bookings.createdAt, bookings.id, lastId);
    const statement = db
      .select(reportColumns)
      .from(bookings)
      .leftJoin(users, eq(users.id, bookings.userId))
      .leftJoin(payments, eq(payments.bookingId, bookings.id))
      .where(and(where, after))
      .orderBy(asc(bookings.createdAt), asc(bookings.id))
      .limit(limit)
      .toSQL();
    const selected = await arrayRows(db, statement);
    const rows = selected.map(toReportRow);
    await priceLiveRows(db, rows, now);
    return rows;
  };
  const batch = (_offset: number, limit: number, last: ReportRow | undefined) => read(last?.id, limit);
  return sendXlsx<ReportRow>(reply, {
    name: 'Booking Report',
    fileName: 'Booking-Report',
    emptyMessage: BOOKING_MESSAGES.reportNotFound,
    batch,
    batchSize: REPORT_BATCH,
    columns: query.style === 'raw' ? rawColumns(now, names) : processedColumns(now, names),
  });
}
