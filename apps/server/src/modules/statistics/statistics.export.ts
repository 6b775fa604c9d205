import type { StatisticsQuery, StatisticsRow, StatSplit } from '@ev/shared';
import type { FastifyReply } from 'fastify';
import type { Db } from '../../db/client.ts';
import { sendXlsx, type XlsxColumn } from '../../lib/xlsx.ts';
import type { DataScope } from '../../plugins/scope.ts';
import { hms } from '../booking/booking.export.ts';
import { statistics } from './statistics.service.ts';

export const STATISTICS_NOT_FOUND = 'No matched data found';

/** The split's column, named as the Booking Report names it. */
const SPLIT_HEADERS: Record<Exclude<StatSplit, 'none'>, string> = {
  merchant: 'Cluster Name',
  landlord: 'Site Name',
  charger: 'Charger Name',
  connectorType: 'Connector Type',
  paymentMethod: 'Payment Method',
  promotion: 'Promotion',
};

/** 'yyyy-mm-dd' (a Bangkok day) as the screens write it: 'dd/mm/yyyy', Buddhist year. */
export const thaiDate = (day: string) =>
  `${day.slice(8, 10)}/${day.slice(5, 7)}/${Number(day.slice(0, 4)) + 543}`;

/** Processed, as the Booking Report's: Thai dates, kWh, baht, hh:mm:ss, utilisation in percent. */
function columns(split: StatSplit): XlsxColumn<StatisticsRow>[] {
  return [
    { header: 'Period', width: 12, value: (r) => thaiDate(r.period) },
    ...(split === 'none'
      ? []
      : [{ header: SPLIT_HEADERS[split], width: 28, value: (r: StatisticsRow) => r.label ?? '-' }]),
    { header: 'Energy (kWh)', width: 14, value: (r) => r.energyWh / 1000 },
    { header: 'Revenue (THB)', width: 14, value: (r) => r.revenue },
    { header: 'Sessions', width: 10, value: (r) => r.sessions },
    { header: 'Charging (hh:mm:ss)', width: 16, value: (r) => hms(r.chargingSeconds * 1000) },
    { header: 'Idle (hh:mm:ss)', width: 16, value: (r) => hms(r.idleSeconds * 1000) },
    {
      header: 'Utilisation (%)',
      width: 14,
      value: (r) => (r.utilisation === null ? null : Math.round(r.utilisation * 10_000) / 100),
    },
    { header: 'Discount (THB)', width: 14, value: (r) => r.discount },
    { header: 'Green Point (THB)', width: 14, value: (r) => r.point },
    { header: 'Refund (THB)', width: 14, value: (r) => r.refund },
  ];
}

/** GET /api/statistics/export: Statistics_{timestamp}.xlsx, the table of GET /api/statistics, one row a period and key. */
export async function sendStatistics(db: Db, scope: DataScope, query: StatisticsQuery, reply: FastifyReply) {
  const { rows } = await statistics(db, scope, query);
  return sendXlsx<StatisticsRow>(reply, {
    name: 'Statistics',
    emptyMessage: STATISTICS_NOT_FOUND,
    batch: async (offset, limit) => rows.slice(offset, offset + limit),
    columns: columns(query.split),
  });
}
