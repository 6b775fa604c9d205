import { CHARGER_BRAND_MESSAGES, type ChargerBrandListQuery } from '@ev/shared';
import type { FastifyReply } from 'fastify';
import type { Db } from '../../db/client.ts';
import { chargerBrands } from '../../db/schema/index.ts';
import { ordering } from '../../lib/list-query.ts';
import { sendXlsx } from '../../lib/xlsx.ts';
import {
  CHARGER_BRAND_SORTS_SQL,
  chargerBrandColumns,
  chargerBrandWhere,
  kwNumber,
} from './charger-brand.service.ts';

/** `mode=xlsx`: the list's rows (same filters and order), one line per brand. */
export function exportChargerBrands(db: Db, query: ChargerBrandListQuery, reply: FastifyReply) {
  const where = chargerBrandWhere(query);
  const batch = (offset: number, limit: number) =>
    db
      .select(chargerBrandColumns)
      .from(chargerBrands)
      .where(where)
      .orderBy(...ordering(query, CHARGER_BRAND_SORTS_SQL, [chargerBrands.id]))
      .limit(limit)
      .offset(offset);
  type Row = Awaited<ReturnType<typeof batch>>[number];
  return sendXlsx<Row>(reply, {
    name: 'Charger-Brand',
    emptyMessage: CHARGER_BRAND_MESSAGES.notFound,
    batch,
    columns: [
      { header: 'ID', width: 10, value: (row) => row.id },
      { header: 'Name', width: 32, value: (row) => row.name },
      { header: 'Power Type', width: 12, value: (row) => row.powerType },
      { header: 'Min Power (kW)', width: 16, value: (row) => kwNumber(row.minPowerKw) },
      { header: 'Active', width: 10, value: (row) => row.active },
    ],
  });
}
