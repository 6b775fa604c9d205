import {
  CALCULATE_METHOD_LABELS,
  PRICE_LABELS,
  PRICE_MESSAGES,
  PRICE_METHOD_LABELS,
  type PriceListQuery,
} from '@ev/shared';
import type { FastifyReply } from 'fastify';
import type { Db } from '../../db/client.ts';
import { prices } from '../../db/schema/index.ts';
import { ordering } from '../../lib/list-query.ts';
import { sendXlsx } from '../../lib/xlsx.ts';
import { PRICE_SORTS_SQL, priceColumns, priceWhere, toPriceItem } from './price.service.ts';

/** `mode=xlsx`: the list's rows (same filters and order), one line per plan, amounts as numbers. */
export function exportPrices(db: Db, query: PriceListQuery, reply: FastifyReply) {
  const where = priceWhere(query);
  const batch = async (offset: number, limit: number) =>
    (
      await db
        .select(priceColumns)
        .from(prices)
        .where(where)
        .orderBy(...ordering(query, PRICE_SORTS_SQL, [prices.id]))
        .limit(limit)
        .offset(offset)
    ).map(toPriceItem);
  type Row = Awaited<ReturnType<typeof batch>>[number];
  return sendXlsx<Row>(reply, {
    name: 'Price',
    emptyMessage: PRICE_MESSAGES.notFound,
    batch,
    columns: [
      { header: 'ID', width: 10, value: (row) => row.id },
      { header: 'Description (EN)', width: 36, value: (row) => row.descEn },
      { header: 'Description (TH)', width: 36, value: (row) => row.descTh },
      { header: 'Method', width: 12, value: (row) => PRICE_METHOD_LABELS[row.method] },
      { header: 'Calculate Method', value: (row) => CALCULATE_METHOD_LABELS[row.calculateMethod] },
      { header: PRICE_LABELS.bahtPerHour, width: 12, value: (row) => row.bahtPerHour },
      { header: PRICE_LABELS.bahtPerKwh, width: 12, value: (row) => row.bahtPerKwh },
      { header: PRICE_LABELS.penaltyBahtPerMin, width: 28, value: (row) => row.penaltyBahtPerMin },
      {
        header: PRICE_LABELS.penaltyDCFullBahtPerMin,
        width: 24,
        value: (row) => row.penaltyDCFullBahtPerMin,
      },
      { header: PRICE_LABELS.penaltyDCFullDelayMin, value: (row) => row.penaltyDCFullDelayMin },
      { header: 'Active', width: 10, value: (row) => row.active },
    ],
  });
}
