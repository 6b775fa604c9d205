/**
 * Bulk inserts for the demo history: each chunk of rows goes to PostgreSQL as one JSON parameter, expanded by
 * json_populate_recordset. Drizzle's multi-row insert binds one parameter per value, and building 20,000 rows
 * of 30 columns that way costs seconds of JavaScript; one JSON text per chunk costs a JSON.stringify.
 */
import { getTableColumns, getTableName, type SQL, sql, type Table } from 'drizzle-orm';
import type { DemoTx } from './demo-data.ts';

const CHUNK = 5000;

export interface BulkOptions {
  /** Answer the new identity ids, in the rows' order. */
  ids?: boolean;
  /** Columns computed in SQL from the row (alias `r`), e.g. a large JSON value shared by many rows. */
  computed?: Record<string, SQL>;
  /** A WITH clause the computed columns may read. */
  with?: SQL;
}

/** Inserts the rows (Drizzle's insert shape) in chunks, in order. */
export async function bulkInsert<T extends Table>(
  tx: DemoTx,
  table: T,
  rows: ReadonlyArray<T['$inferInsert']>,
  options: BulkOptions = {},
): Promise<number[]> {
  if (rows.length === 0) return [];
  const columns = getTableColumns(table) as Record<string, { name: string }>;
  // Every key any row has: a key a row leaves out is null there.
  const keys = [...new Set(rows.flatMap((row) => Object.keys(row)))];
  const names = keys.map((key) => columns[key]!.name);
  const computed = Object.entries(options.computed ?? {});
  const into = sql.raw([...names, ...computed.map(([name]) => name)].map((name) => `"${name}"`).join(', '));
  const values = sql.join(
    [...names.map((name) => sql.raw(`r."${name}"`)), ...computed.map(([, value]) => value)],
    sql`, `,
  );
  const table_ = sql.identifier(getTableName(table));
  const ids: number[] = [];
  for (let at = 0; at < rows.length; at += CHUNK) {
    const json = JSON.stringify(
      rows.slice(at, at + CHUNK).map((row) => {
        const record: Record<string, unknown> = {};
        keys.forEach((key, index) => {
          const value = (row as Record<string, unknown>)[key];
          // A missing key is null to json_populate_recordset: nulls need not travel.
          if (value !== null && value !== undefined) record[names[index]!] = value;
        });
        return record;
      }),
    );
    // Ordinality keeps the rows' order, so identity ids follow it; sorted before the computed columns are
    // added, so the sort stays in memory.
    const rows_ = sql`(select * from json_populate_recordset(null::${table_}, ${json}::json) with ordinality as r order by r.ordinality) as r`;
    const query = sql`${options.with ? sql`with ${options.with} ` : sql``}insert into ${table_} (${into}) select ${values} from ${rows_}`;
    const result = await tx.execute(options.ids ? sql`${query} returning id` : query);
    if (options.ids) {
      const returned = (result as unknown as { rows: Array<{ id: number | string }> }).rows;
      ids.push(...returned.map((row) => Number(row.id)).sort((a, b) => a - b));
    }
  }
  return ids;
}
