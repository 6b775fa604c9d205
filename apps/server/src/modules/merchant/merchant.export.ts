import { MERCHANT_MESSAGES, type MerchantListQuery } from '@ev/shared';
import { eq, sql } from 'drizzle-orm';
import type { FastifyReply } from 'fastify';
import type { Db } from '../../db/client.ts';
import { landlords, merchants, provinces } from '../../db/schema/index.ts';
import { ordering } from '../../lib/list-query.ts';
import { sendXlsx } from '../../lib/xlsx.ts';
import type { DataScope } from '../../plugins/scope.ts';
import {
  MERCHANT_DETAIL_COLUMNS,
  MERCHANT_ROW_COLUMNS,
  MERCHANT_SORTS_SQL,
  merchantWhere,
} from './merchant.service.ts';

/** `mode=xlsx`: the list's rows (same filters, scope and order), one line per cluster. */
export function exportMerchants(db: Db, scope: DataScope, query: MerchantListQuery, reply: FastifyReply) {
  const where = merchantWhere(db, scope, query);
  const siteCount =
    sql<number>`(select count(*) from ${landlords} where ${landlords.merchantId} = ${merchants.id})`.mapWith(
      Number,
    );
  const batch = (offset: number, limit: number) =>
    db
      .select({
        ...MERCHANT_ROW_COLUMNS,
        ...MERCHANT_DETAIL_COLUMNS,
        province: provinces.nameEn,
        sites: siteCount,
      })
      .from(merchants)
      .leftJoin(provinces, eq(provinces.id, merchants.provinceId))
      .where(where)
      .orderBy(...ordering(query, MERCHANT_SORTS_SQL, [merchants.id]))
      .limit(limit)
      .offset(offset);
  type Row = Awaited<ReturnType<typeof batch>>[number];
  return sendXlsx<Row>(reply, {
    name: 'Merchant',
    emptyMessage: MERCHANT_MESSAGES.notFound,
    batch,
    columns: [
      { header: 'Cluster ID', width: 12, value: (row) => row.id },
      { header: 'Cluster Name (EN)', width: 32, value: (row) => row.nameEn },
      { header: 'Cluster Name (TH)', width: 32, value: (row) => row.nameTh },
      { header: 'Area Type', value: (row) => (row.internal ? 'Internal Used' : 'Public Used') },
      { header: 'Active', width: 10, value: (row) => row.active },
      { header: 'Address (EN)', width: 40, value: (row) => row.addrEn },
      { header: 'Address (TH)', width: 40, value: (row) => row.addrTh },
      { header: 'Province', value: (row) => row.province },
      { header: 'Taxpayer Identification No.', value: (row) => row.taxId },
      { header: 'Tel', value: (row) => row.tel },
      { header: 'Sites', width: 10, value: (row) => row.sites },
    ],
  });
}
