import {
  paymentMethodLabel,
  type StatFigures,
  type StatisticsQuery,
  type StatisticsResponse,
  type StatisticsRow,
  type StatSplit,
} from '@ev/shared';
import { inArray, type SQL, sql } from 'drizzle-orm';
import type { AnyPgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Db } from '../../db/client.ts';
import {
  chargers,
  connectors,
  connectorTypes,
  landlords,
  merchants,
  promotions,
} from '../../db/schema/index.ts';
import type { DataScope } from '../../plugins/scope.ts';
import { type BookingSums, countConnectors, type PaymentSums, type StatFilters } from './measures.ts';
import { periodsOf } from './periods.ts';
import { aggregate, type Dim } from './rollup.ts';

const text = (column: AnyPgColumn) => sql<string | null>`${column}::text`;
const none = sql<string | null>`null::text`;

/**
 * What each split groups by: its key (rollup.ts DIMS: the booking's for the booking measures, the payment's for
 * the money; a payment copies its booking's site, cluster and method, a charger or connector type is the
 * booking's), the connector's (null where utilisation does not fit: a connector has no payment method or
 * promotion), and how its keys are named.
 */
interface SplitSpec {
  dim: Dim | null;
  connector: SQL<string | null> | null;
  names?: { table: PgTable & { id: AnyPgColumn }; name: AnyPgColumn; textId?: boolean };
}

const SPLITS: Record<StatSplit, SplitSpec> = {
  none: { dim: null, connector: none },
  merchant: {
    dim: 'merchant',
    connector: text(chargers.merchantId),
    names: { table: merchants, name: merchants.nameEn },
  },
  landlord: {
    dim: 'landlord',
    connector: text(chargers.landlordId),
    names: { table: landlords, name: landlords.nameEn },
  },
  charger: {
    dim: 'charger',
    connector: text(chargers.id),
    names: { table: chargers, name: chargers.nameEn, textId: true },
  },
  connectorType: {
    dim: 'connectorType',
    connector: text(connectors.connectorTypeId),
    names: { table: connectorTypes, name: connectorTypes.name },
  },
  paymentMethod: { dim: 'paymentMethod', connector: null },
  promotion: { dim: 'promotion', connector: null, names: { table: promotions, name: promotions.nameEn } },
};

/** The name of every key a split found, as the lists show it (a site's nameEn, a method's label). */
async function labelsOf(db: Db, split: StatSplit, keys: string[]): Promise<Map<string, string>> {
  const spec = SPLITS[split];
  if (split === 'paymentMethod') return new Map(keys.map((key) => [key, paymentMethodLabel(key)]));
  if (!spec.names || keys.length === 0) return new Map();
  const { table, name, textId } = spec.names;
  const ids = textId ? keys : keys.map(Number);
  const rows = await db
    .select({ id: sql<string>`${table.id}::text`, name: sql<string>`${name}` })
    .from(table)
    .where(inArray(table.id, ids));
  return new Map(rows.map((row) => [row.id, row.name]));
}

/** Integer sums of the measures, money in satang: what rows and totals are added up in. */
export interface Sums {
  energyWh: number;
  sessions: number;
  chargingSeconds: number;
  idleSeconds: number;
  delivered: number;
  payments: number;
  amount: number;
  refund: number;
  discount: number;
  point: number;
}

export const emptySums = (): Sums => ({
  energyWh: 0,
  sessions: 0,
  chargingSeconds: 0,
  idleSeconds: 0,
  delivered: 0,
  payments: 0,
  amount: 0,
  refund: 0,
  discount: 0,
  point: 0,
});

/** Adds a booking or payment aggregate into `sums`. */
export function addInto(sums: Sums, part: Partial<BookingSums & PaymentSums>): Sums {
  for (const field of Object.keys(sums) as Array<keyof Sums>) sums[field] += part[field] ?? 0;
  return sums;
}

/** Baht on the wire from integer satang. */
export const baht = (satang: number) => satang / 100;

/** The wire's figures; `connectorSeconds` (connectors × elapsed seconds) null where utilisation does not fit. */
export function figuresOf(sums: Sums, connectorSeconds: number | null): StatFigures {
  return {
    energyWh: sums.energyWh,
    revenue: baht(sums.amount - sums.refund),
    sessions: sums.sessions,
    chargingSeconds: sums.chargingSeconds,
    idleSeconds: sums.idleSeconds,
    utilisation: connectorSeconds ? sums.chargingSeconds / connectorSeconds : null,
    discount: baht(sums.discount),
    point: baht(sums.point),
    refund: baht(sums.refund),
  };
}

const filtersOf = (query: StatisticsQuery): StatFilters => ({
  chargerId: query.chargerId,
  connectorId: query.connectorId,
  landlordId: query.landlordId,
  merchantId: query.merchantId,
  paymentMethod: query.paymentMethod,
});

/** Seconds of [start, end) that have passed by `now`. */
const elapsed = (start: number, end: number, now: number) => Math.max(0, (Math.min(end, now) - start) / 1000);

/**
 * GET /api/statistics: the measures by Bangkok period (and split key) over [from, to), in the caller's scope
 * with the Booking Report's filters. Split none answers every period of the range (an empty one as zeros);
 * a split answers the periods and keys that had a booking or a payment. Rows by period, then label.
 */
export async function statistics(
  db: Db,
  scope: DataScope,
  query: StatisticsQuery,
  now = Date.now(),
): Promise<StatisticsResponse> {
  const spec = SPLITS[query.split];
  const filters = filtersOf(query);
  const range = { from: query.from, to: query.to };
  const [measureRows, connectorCounts] = await Promise.all([
    aggregate(db, scope, filters, range, { period: query.period, key: spec.dim }),
    countConnectors(db, scope, filters, spec.connector ?? none),
  ]);

  const periods = periodsOf(range.from.getTime(), range.to.getTime(), query.period);
  const cells = new Map<string, { period: string; key: string | null; sums: Sums }>();
  const cell = (period: string, key: string | null) => {
    const id = `${period}\u0000${key ?? ''}`;
    let found = cells.get(id);
    if (!found) {
      found = { period, key, sums: emptySums() };
      cells.set(id, found);
    }
    return found.sums;
  };
  if (query.split === 'none') for (const period of periods) cell(period.key, null);
  for (const row of measureRows) addInto(cell(row.group ?? '', row.key), row);

  const keys = [...new Set([...cells.values()].map((c) => c.key).filter((key) => key !== null))];
  const labels = await labelsOf(db, query.split, keys);
  const periodByKey = new Map(periods.map((period) => [period.key, period]));
  const totals = emptySums();
  const rows: StatisticsRow[] = [...cells.values()].map(({ period, key, sums }) => {
    addInto(totals, sums);
    const bounds = periodByKey.get(period);
    const connectorsOfKey = spec.connector ? (connectorCounts.get(key) ?? 0) : 0;
    const connectorSeconds =
      spec.connector && bounds ? connectorsOfKey * elapsed(bounds.start, bounds.end, now) : null;
    return {
      period,
      key,
      label: query.split === 'none' ? null : key === null ? null : (labels.get(key) ?? key),
      ...figuresOf(sums, connectorSeconds),
    };
  });
  rows.sort(
    (a, b) =>
      a.period.localeCompare(b.period) ||
      (a.label ?? '').localeCompare(b.label ?? '') ||
      (a.key ?? '').localeCompare(b.key ?? ''),
  );
  const allConnectors = [...connectorCounts.values()].reduce((sum, count) => sum + count, 0);
  const rangeSeconds = elapsed(range.from.getTime(), range.to.getTime(), now);
  return { rows, totals: figuresOf(totals, allConnectors * rangeSeconds) };
}
