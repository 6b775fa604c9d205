import { CHARGER_MESSAGES, type ChargerListQuery } from '@ev/shared';
import { asc, eq } from 'drizzle-orm';
import type { FastifyReply } from 'fastify';
import type { Db } from '../../db/client.ts';
import { chargers, connectors, connectorTypes, prices } from '../../db/schema/index.ts';
import { ordering } from '../../lib/list-query.ts';
import { sendXlsx } from '../../lib/xlsx.ts';
import type { DataScope } from '../../plugins/scope.ts';
import { CHARGER_SORTS_SQL, chargerRow, chargerWhere, fromChargers } from './charger.service.ts';

/** `numeric` text as a number for the sheet ('50.00' → 50). */
const kw = (numeric: string | null) => (numeric === null ? null : Number(numeric));

/**
 * `mode=xlsx`: the list's chargers (same filters, scope and order), one line per connector with the charger's
 * columns repeated; a charger without connectors has one line with empty connector cells.
 */
export function exportChargers(db: Db, scope: DataScope, query: ChargerListQuery, reply: FastifyReply) {
  const where = chargerWhere(scope, query);
  const batch = (offset: number, limit: number) =>
    fromChargers(db, {
      ...chargerRow,
      connectorId: connectors.id,
      connectorNameEn: connectors.nameEn,
      connectorNameTh: connectors.nameTh,
      connectorTypeName: connectorTypes.name,
      maxPowerKw: connectors.maxPowerKw,
      judjodId: connectors.judjodId,
      priceId: connectors.priceId,
      priceDescEn: prices.descEn,
      status: connectors.status,
    })
      .leftJoin(connectors, eq(connectors.chargerId, chargers.id))
      .leftJoin(connectorTypes, eq(connectorTypes.id, connectors.connectorTypeId))
      .leftJoin(prices, eq(prices.id, connectors.priceId))
      .where(where)
      .orderBy(...ordering(query, CHARGER_SORTS_SQL, [chargers.id]), asc(connectors.id))
      .limit(limit)
      .offset(offset);
  type Row = Awaited<ReturnType<typeof batch>>[number];
  return sendXlsx<Row>(reply, {
    name: 'Charger',
    emptyMessage: CHARGER_MESSAGES.notFound,
    batch,
    columns: [
      { header: 'Cluster Name', width: 28, value: (row) => row.merchantNameEn },
      { header: 'Site Name', width: 28, value: (row) => row.landlordNameEn },
      { header: 'Charger Id', width: 20, value: (row) => row.id },
      { header: 'Charger Name (EN)', width: 28, value: (row) => row.nameEn },
      { header: 'Charger Name (TH)', width: 28, value: (row) => row.nameTh },
      { header: 'Charger Brand', width: 24, value: (row) => row.chargerBrandName },
      { header: 'Power Type', width: 10, value: (row) => row.powerType },
      { header: 'Min Power (kW)', value: (row) => kw(row.minPowerKw) },
      { header: 'Active', width: 10, value: (row) => row.active },
      { header: 'Connector Id', value: (row) => row.connectorId },
      { header: 'Connector Name (EN)', width: 24, value: (row) => row.connectorNameEn },
      { header: 'Connector Name (TH)', width: 24, value: (row) => row.connectorNameTh },
      { header: 'Connector Type', value: (row) => row.connectorTypeName },
      { header: 'Charging Speed (kW)', value: (row) => kw(row.maxPowerKw) },
      { header: 'Judjod Id', value: (row) => row.judjodId },
      { header: 'Price Code', value: (row) => row.priceId },
      { header: 'Price', width: 28, value: (row) => row.priceDescEn },
      { header: 'Status', value: (row) => row.status },
    ],
  });
}
