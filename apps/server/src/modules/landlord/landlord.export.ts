import { BUSINESS_HOURS_TYPE_LABELS, LANDLORD_MESSAGES, type LandlordListQuery } from '@ev/shared';
import { eq } from 'drizzle-orm';
import type { FastifyReply } from 'fastify';
import type { Db } from '../../db/client.ts';
import { landlords, merchants, provinces } from '../../db/schema/index.ts';
import { ordering } from '../../lib/list-query.ts';
import { sendXlsx } from '../../lib/xlsx.ts';
import type { DataScope } from '../../plugins/scope.ts';
import { LANDLORD_SORTS_SQL, landlordWhere } from './landlord.service.ts';

/** `mode=xlsx`: the list's rows (same filters, scope and order), one line per site. */
export function exportLandlords(db: Db, scope: DataScope, query: LandlordListQuery, reply: FastifyReply) {
  const where = landlordWhere(scope, query);
  const batch = (offset: number, limit: number) =>
    db
      .select({
        id: landlords.id,
        nameEn: landlords.nameEn,
        nameTh: landlords.nameTh,
        merchantId: landlords.merchantId,
        merchantNameEn: merchants.nameEn,
        internal: merchants.internal,
        businessHoursType: landlords.businessHoursType,
        latitude: landlords.latitude,
        longitude: landlords.longitude,
        addrEn: landlords.addrEn,
        addrTh: landlords.addrTh,
        province: provinces.nameEn,
        tel: landlords.tel,
        active: landlords.active,
      })
      .from(landlords)
      .innerJoin(merchants, eq(merchants.id, landlords.merchantId))
      .leftJoin(provinces, eq(provinces.id, landlords.provinceId))
      .where(where)
      .orderBy(...ordering(query, LANDLORD_SORTS_SQL, [landlords.id]))
      .limit(limit)
      .offset(offset);
  type Row = Awaited<ReturnType<typeof batch>>[number];
  return sendXlsx<Row>(reply, {
    name: 'Landlord',
    emptyMessage: LANDLORD_MESSAGES.notFound,
    batch,
    columns: [
      { header: 'Site ID', width: 10, value: (row) => row.id },
      { header: 'Site Name (EN)', width: 32, value: (row) => row.nameEn },
      { header: 'Site Name (TH)', width: 32, value: (row) => row.nameTh },
      { header: 'Cluster ID', width: 10, value: (row) => row.merchantId },
      { header: 'Cluster Name', width: 32, value: (row) => row.merchantNameEn },
      { header: 'Area Type', value: (row) => (row.internal ? 'Internal Used' : 'Public Used') },
      { header: 'Business Hour', value: (row) => BUSINESS_HOURS_TYPE_LABELS[row.businessHoursType] },
      { header: 'Latitude', value: (row) => row.latitude },
      { header: 'Longitude', value: (row) => row.longitude },
      { header: 'Address (EN)', width: 40, value: (row) => row.addrEn },
      { header: 'Address (TH)', width: 40, value: (row) => row.addrTh },
      { header: 'Province', value: (row) => row.province },
      { header: 'Tel', value: (row) => row.tel },
      { header: 'Active', width: 10, value: (row) => row.active },
    ],
  });
}
