import {
  BOOKING_MESSAGES,
  type BookingItem,
  type BookingListQuery,
  bookingStatusLabel,
  paymentMethodLabel,
} from '@ev/shared';
import type { FastifyReply } from 'fastify';
import type { Db } from '../../db/client.ts';
import { sendXlsx } from '../../lib/xlsx.ts';
import type { DataScope } from '../../plugins/scope.ts';
import { bookingOrder } from './booking.service.ts';
import { bookingWhere, fromBookings, toBookingItem } from './booking-query.ts';

const date = (iso: string | null) => (iso ? new Date(iso) : null);

/** `hh:mm:ss` of a duration in ms; zero when negative. */
export function hms(ms: number): string {
  const seconds = Math.max(0, Math.floor(ms / 1000));
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${pad(Math.floor(seconds / 3600))}:${pad(Math.floor((seconds % 3600) / 60))}:${pad(seconds % 60)}`;
}

const durationOf = (row: BookingItem, now: number) =>
  row.startTime ? hms((row.stopTime ? Date.parse(row.stopTime) : now) - Date.parse(row.startTime)) : '';

/** `mode=xlsx`: Booking_{timestamp}.xlsx, the list's rows with the same filters, scope and order. */
export function exportBookings(db: Db, scope: DataScope, query: BookingListQuery, reply: FastifyReply) {
  const now = Date.now();
  const where = bookingWhere(scope, query, now);
  const batch = async (offset: number, limit: number) =>
    (
      await fromBookings(db)
        .where(where)
        .orderBy(...bookingOrder(query))
        .limit(limit)
        .offset(offset)
    ).map((row) => toBookingItem(row, now));
  return sendXlsx<BookingItem>(reply, {
    name: 'Booking',
    emptyMessage: BOOKING_MESSAGES.reportNotFound,
    batch,
    columns: [
      { header: 'Booking ID', width: 12, value: (row) => row.id },
      { header: 'Name', value: (row) => row.firstName },
      { header: 'Surname', value: (row) => row.lastName },
      { header: 'Email', width: 28, value: (row) => row.email },
      { header: 'Tel', value: (row) => row.tel },
      { header: 'Cluster', width: 28, value: (row) => row.merchantNameEn },
      { header: 'Site', width: 28, value: (row) => row.landlordNameEn },
      { header: 'Charger', width: 24, value: (row) => row.chargerNameEn },
      { header: 'Connector', value: (row) => row.connectorNameEn },
      { header: 'Service Date', value: (row) => date(row.createdAt) },
      { header: 'Start', value: (row) => date(row.startTime) },
      { header: 'Stop', value: (row) => date(row.stopTime) },
      { header: 'Duration', width: 12, value: (row) => durationOf(row, now) },
      { header: 'Energy (kWh)', width: 12, value: (row) => row.totalEnergyKwh },
      { header: 'By Power (THB)', width: 14, value: (row) => row.priceByPower },
      { header: 'By Duration (THB)', width: 14, value: (row) => row.priceByDuration },
      { header: 'By Penalty (THB)', width: 14, value: (row) => row.priceByPenalty },
      { header: 'Admin Amount (THB)', width: 14, value: (row) => row.adminAmount },
      { header: 'Total (THB)', width: 14, value: (row) => row.totalAmount },
      { header: 'Payment Method', value: (row) => paymentMethodLabel(row.paymentMethod) },
      { header: 'Invoice No', value: (row) => row.invoiceNo },
      { header: 'Status', width: 12, value: (row) => bookingStatusLabel(row.status) },
    ],
  });
}
