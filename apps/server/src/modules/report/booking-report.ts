import {
  BOOKING_MESSAGES,
  type BookingItem,
  type BookingReportQuery,
  bookingStatusLabel,
  paymentMethodLabel,
} from '@ev/shared';
import { and, asc, eq, gte, ilike, inArray, isNull, lte, type SQL, sql } from 'drizzle-orm';
import type { FastifyReply } from 'fastify';
import type { Db } from '../../db/client.ts';
import { bookings, payments, users } from '../../db/schema/index.ts';
import { contains } from '../../lib/list-query.ts';
import { type CellValue, sendXlsx, type XlsxColumn } from '../../lib/xlsx.ts';
import type { DataScope } from '../../plugins/scope.ts';
import { hms } from '../booking/booking.export.ts';
import { fromBookings, toBookingItem } from '../booking/booking-query.ts';
import { bookingScope } from '../booking/lifecycle.ts';

/** The report's filters and the caller's scope; deleted bookings are left out. */
export function reportWhere(scope: DataScope, query: BookingReportQuery): SQL | undefined {
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

const BANGKOK_MS = 7 * 3_600_000;
const pad = (n: number) => String(n).padStart(2, '0');

/**
 * 'dd/mm/yyyy HH:mm:ss' in Thai (Buddhist year) and Asia/Bangkok time, as the screens show dates. Written by
 * hand: Intl formatting costs microseconds a cell, and the report writes millions of them. Bangkok has no
 * daylight saving, so the fixed offset is exact.
 */
export function thaiDateTime(date: Date | string | null): string {
  if (date === null) return '';
  const local = new Date((typeof date === 'string' ? Date.parse(date) : date.getTime()) + BANGKOK_MS);
  return (
    `${pad(local.getUTCDate())}/${pad(local.getUTCMonth() + 1)}/${local.getUTCFullYear() + 543} ` +
    `${pad(local.getUTCHours())}:${pad(local.getUTCMinutes())}:${pad(local.getUTCSeconds())}`
  );
}

interface ReportRow {
  item: BookingItem;
  connectorType: string | null;
  paidAt: Date | null;
  refundedAt: Date | null;
  refundAmount: string | null;
  creditNoteNo: string | null;
  /** The keyset of the next batch. */
  createdAt: Date;
  id: number;
}

const seconds = (item: BookingItem, now: number) =>
  item.startTime
    ? Math.max(
        0,
        Math.floor(((item.stopTime ? Date.parse(item.stopTime) : now) - Date.parse(item.startTime)) / 1000),
      )
    : null;
const iso = (date: Date | null) => (date ? date.toISOString() : null);

/** Processed: what a person reads (Thai dates, hh:mm:ss, labels, baht, the parts). */
function processedColumns(now: number): XlsxColumn<ReportRow>[] {
  const money = (value: number | null) => value;
  return [
    { header: 'Booking ID', width: 12, value: (r) => r.item.id },
    { header: 'Name', value: (r) => r.item.firstName },
    { header: 'Surname', value: (r) => r.item.lastName },
    { header: 'Email', width: 28, value: (r) => r.item.email },
    { header: 'Mobile Number', width: 16, value: (r) => r.item.tel },
    { header: 'Cluster Name', width: 28, value: (r) => r.item.merchantNameEn },
    { header: 'Site Name', width: 28, value: (r) => r.item.landlordNameEn },
    { header: 'Charger Id', value: (r) => r.item.chargerId },
    { header: 'Charger Name', width: 24, value: (r) => r.item.chargerNameEn },
    { header: 'Connector Id', width: 12, value: (r) => r.item.connectorId },
    { header: 'Connector', value: (r) => r.item.connectorNameEn },
    { header: 'Connector Type', value: (r) => r.connectorType },
    { header: 'Service Date', value: (r) => thaiDateTime(r.item.createdAt) },
    { header: 'Start', value: (r) => thaiDateTime(r.item.startTime) },
    { header: 'Stop', value: (r) => thaiDateTime(r.item.stopTime) },
    { header: 'Cable Removed', value: (r) => thaiDateTime(r.item.avaliableAt) },
    { header: 'Battery Full', value: (r) => thaiDateTime(r.item.fullAt) },
    {
      header: 'Duration',
      width: 12,
      value: (r) => {
        const s = seconds(r.item, now);
        return s === null ? '' : hms(s * 1000);
      },
    },
    { header: 'Energy (kWh)', width: 12, value: (r) => r.item.totalEnergyKwh },
    { header: 'By Power (THB)', width: 14, value: (r) => money(r.item.priceByPower) },
    { header: 'By Duration (THB)', width: 14, value: (r) => money(r.item.priceByDuration) },
    { header: 'By Penalty (THB)', width: 14, value: (r) => money(r.item.priceByPenalty) },
    { header: 'Overstay (min)', width: 12, value: (r) => r.item.computed.overstayMinutes },
    { header: 'DC Full (min)', width: 12, value: (r) => r.item.computed.dcFullMinutes },
    { header: 'Admin Amount (THB)', width: 14, value: (r) => money(r.item.adminAmount) },
    { header: 'Total (THB)', width: 14, value: (r) => money(r.item.totalAmount) },
    { header: 'Payment Method', width: 18, value: (r) => paymentMethodLabel(r.item.paymentMethod) },
    { header: 'Invoice No', width: 18, value: (r) => r.item.invoiceNo },
    { header: 'Payment Date', value: (r) => thaiDateTime(r.paidAt) },
    {
      header: 'Refund (THB)',
      width: 12,
      value: (r) => (r.refundAmount === null ? null : Number(r.refundAmount)),
    },
    { header: 'Credit Note No', width: 18, value: (r) => r.creditNoteNo },
    { header: 'Status', width: 12, value: (r) => bookingStatusLabel(r.item.status) },
  ];
}

/** Raw: machine values under the API's field names (ISO instants, Wh, seconds, codes, baht as numbers). */
function rawColumns(now: number): XlsxColumn<ReportRow>[] {
  const field = (header: string, value: (r: ReportRow) => CellValue, width = 16): XlsxColumn<ReportRow> => ({
    header,
    width,
    value,
  });
  return [
    field('id', (r) => r.item.id),
    field('userId', (r) => r.item.userId),
    field('firstName', (r) => r.item.firstName),
    field('lastName', (r) => r.item.lastName),
    field('email', (r) => r.item.email, 28),
    field('tel', (r) => r.item.tel),
    field('merchantId', (r) => r.item.merchantId),
    field('merchantNameEn', (r) => r.item.merchantNameEn, 28),
    field('landlordId', (r) => r.item.landlordId),
    field('landlordNameEn', (r) => r.item.landlordNameEn, 28),
    field('chargerId', (r) => r.item.chargerId),
    field('connectorId', (r) => r.item.connectorId),
    field('connectorTypeId', (r) => r.item.connectorTypeId),
    field('createdAt', (r) => r.item.createdAt, 26),
    field('slotStart', (r) => r.item.slotStart, 26),
    field('slotEnd', (r) => r.item.slotEnd, 26),
    field('startTime', (r) => r.item.startTime, 26),
    field('stopTime', (r) => r.item.stopTime, 26),
    field('avaliableAt', (r) => r.item.avaliableAt, 26),
    field('fullAt', (r) => r.item.fullAt, 26),
    field('durationSeconds', (r) => seconds(r.item, now)),
    field('totalEnergyWh', (r) => Math.round(r.item.totalEnergyKwh * 1000)),
    field('soc', (r) => r.item.soc),
    field('priceByPower', (r) => r.item.computed.priceByPower),
    field('priceByDuration', (r) => r.item.computed.priceByDuration),
    field('priceByPenalty', (r) => r.item.computed.priceByPenalty),
    field('adminPriceByPower', (r) => r.item.overrides.priceByPower),
    field('adminPriceByDuration', (r) => r.item.overrides.priceByDuration),
    field('adminPriceByPenalty', (r) => r.item.overrides.priceByPenalty),
    field('adminAmount', (r) => r.item.adminAmount),
    field('totalAmount', (r) => r.item.totalAmount),
    field('paymentMethod', (r) => r.item.paymentMethod),
    field('invoiceNo', (r) => r.item.invoiceNo),
    field('paidAt', (r) => iso(r.paidAt), 26),
    field('refundedAt', (r) => iso(r.refundedAt), 26),
    field('refundAmount', (r) => (r.refundAmount === null ? null : Number(r.refundAmount))),
    field('creditNoteNo', (r) => r.creditNoteNo),
    field('status', (r) => r.item.status),
  ];
}

/** Rows per batch: keyset paging keeps each query short however deep the report goes. */
const REPORT_BATCH = 5000;

/**
 * GET /api/report/booking: Booking-Report_{timestamp}.xlsx, oldest service date first, streamed in batches
 * after the previous batch's last (createdAt, id), so memory stays flat for any number of rows.
 */
export function sendBookingReport(db: Db, scope: DataScope, query: BookingReportQuery, reply: FastifyReply) {
  const now = Date.now();
  const where = reportWhere(scope, query);
  const batch = async (_offset: number, limit: number, last: ReportRow | undefined) => {
    const after = last
      ? sql`(${bookings.createdAt}, ${bookings.id}) > (${last.createdAt.toISOString()}::timestamptz, ${last.id})`
      : undefined;
    const rows = await fromBookings(db)
      .where(and(where, after))
      .orderBy(asc(bookings.createdAt), asc(bookings.id))
      .limit(limit);
    return rows.map(
      (row): ReportRow => ({
        item: toBookingItem(row, now),
        connectorType: row.connectorType,
        paidAt: row.paidAt,
        refundedAt: row.refundedAt,
        refundAmount: row.refundAmount,
        creditNoteNo: row.creditNoteNo,
        createdAt: row.booking.createdAt,
        id: row.booking.id,
      }),
    );
  };
  return sendXlsx<ReportRow>(reply, {
    name: 'Booking Report',
    fileName: 'Booking-Report',
    emptyMessage: BOOKING_MESSAGES.reportNotFound,
    batch,
    batchSize: REPORT_BATCH,
    columns: query.style === 'raw' ? rawColumns(now) : processedColumns(now),
  });
}
