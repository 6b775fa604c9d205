import type { PGlite } from '@electric-sql/pglite';
import type pg from 'pg';
import { ToolError } from './tool-output.ts';

/** The few calls the move and its checks make, on PGlite and on a PostgreSQL connection alike. */
export interface SqlClient {
  query<T>(text: string, params?: unknown[]): Promise<T[]>;
  exec(text: string): Promise<void>;
}

export function pgliteSql(client: PGlite): SqlClient {
  return {
    query: async <T>(text: string, params?: unknown[]) => (await client.query<T>(text, params)).rows,
    exec: async (text) => {
      await client.exec(text);
    },
  };
}

export function pgSql(client: pg.ClientBase): SqlClient {
  return {
    query: async <T>(text: string, params?: unknown[]) => (await client.query(text, params)).rows as T[],
    exec: async (text) => {
      await client.query(text);
    },
  };
}

/**
 * Text renderings that depend on the session, pinned alike on both sides: a row's text (the checksum) and
 * the text a value is copied as are then the same on PGlite and on PostgreSQL (timestamptz in UTC, ISO dates,
 * shortest exact floats, hex bytea).
 */
export const PINNED_SESSION =
  "set TimeZone = 'UTC'; set DateStyle = 'ISO, MDY'; set IntervalStyle = 'postgres'; " +
  "set extra_float_digits = 1; set bytea_output = 'hex'";

export interface Column {
  name: string;
  /** As `format_type` writes it: the cast a copied text value takes. */
  type: string;
  collatable: boolean;
}

export interface Table {
  name: string;
  /** Stored columns (generated ones are computed again by the target). */
  columns: Column[];
  /** The primary key's columns, in key order; empty when the table has none. */
  key: Column[];
}

export const ident = (name: string) => `"${name.replace(/"/g, '""')}"`;

/** The tables of schema public with their columns and primary keys. */
export async function readTables(sql: SqlClient): Promise<Table[]> {
  const rows = await sql.query<{
    table: string;
    column: string;
    type: string;
    collatable: boolean;
    generated: boolean;
    keyPosition: number | null;
  }>(
    `select c.relname::text as "table", a.attname::text as "column", format_type(a.atttypid, a.atttypmod) as "type",
            a.attcollation <> 0 as "collatable", a.attgenerated <> '' as "generated",
            array_position(k.conkey, a.attnum) as "keyPosition"
       from pg_class c
       join pg_attribute a on a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped
       left join pg_constraint k on k.conrelid = c.oid and k.contype = 'p'
      where c.relnamespace = 'public'::regnamespace and c.relkind in ('r', 'p')
      order by c.relname, a.attnum`,
  );
  const tables = new Map<string, Table & { keyed: Array<[number, Column]> }>();
  for (const row of rows) {
    let table = tables.get(row.table);
    if (!table) {
      table = { name: row.table, columns: [], key: [], keyed: [] };
      tables.set(row.table, table);
    }
    const column = { name: row.column, type: row.type, collatable: row.collatable };
    if (!row.generated) table.columns.push(column);
    if (row.keyPosition !== null) table.keyed.push([row.keyPosition, column]);
  }
  return [...tables.values()].map(({ keyed, ...table }) => ({
    ...table,
    key: keyed.sort((a, b) => a[0] - b[0]).map(([, column]) => column),
  }));
}

/** Tables in an order where each comes after those its foreign keys name (a table's own rows: by key). */
export async function foreignKeyOrder(sql: SqlClient, tables: Table[]): Promise<Table[]> {
  const edges = await sql.query<{ child: string; parent: string }>(
    `select distinct ch.relname::text as child, pa.relname::text as parent
       from pg_constraint k
       join pg_class ch on ch.oid = k.conrelid
       join pg_class pa on pa.oid = k.confrelid
      where k.contype = 'f' and ch.relnamespace = 'public'::regnamespace`,
  );
  const byName = new Map(tables.map((table) => [table.name, table]));
  const parents = new Map(tables.map((table) => [table.name, new Set<string>()]));
  for (const { child, parent } of edges) {
    if (child !== parent && byName.has(parent)) parents.get(child)?.add(parent);
  }
  const ordered: Table[] = [];
  const done = new Set<string>();
  while (ordered.length < tables.length) {
    const ready = tables.filter(
      (table) => !done.has(table.name) && [...parents.get(table.name)!].every((parent) => done.has(parent)),
    );
    if (ready.length === 0) {
      const left = tables.filter((table) => !done.has(table.name)).map((table) => table.name);
      throw new ToolError(
        `The foreign keys of ${left.join(', ')} form a cycle: no copy order keeps them valid`,
      );
    }
    for (const table of ready) {
      ordered.push(table);
      done.add(table.name);
    }
  }
  return ordered;
}

/** The order rows are read and summed in: by primary key, text compared bytewise so both sides agree. */
export function rowOrder(table: Table): string {
  const collated = (column: Column) => `${ident(column.name)}${column.collatable ? ' collate "C"' : ''}`;
  if (table.key.length > 0) return table.key.map(collated).join(', ');
  return `row(${table.columns.map((column) => ident(column.name)).join(', ')})::text collate "C"`;
}

export interface TableSum {
  rows: number;
  /** md5 over the md5 of each row's text, in key order; '' for an empty table. */
  checksum: string;
}

/** Row count and checksum of a table, computed the same way on PGlite and PostgreSQL (after PINNED_SESSION). */
export async function tableSum(sql: SqlClient, table: Table): Promise<TableSum> {
  const columns = table.columns.map((column) => ident(column.name)).join(', ');
  const [row] = await sql.query<{ rows: string; checksum: string }>(
    `select count(*)::text as rows,
            coalesce(md5(string_agg(md5(row(${columns})::text), '' order by ${rowOrder(table)})), '') as checksum
       from ${ident(table.name)}`,
  );
  return { rows: Number(row!.rows), checksum: row!.checksum };
}

export interface SequenceState {
  name: string;
  lastValue: string;
  isCalled: boolean;
}

/** Every sequence of schema public (identity and serial columns' included) with where it stands. */
export async function readSequences(sql: SqlClient): Promise<SequenceState[]> {
  const names = await sql.query<{ name: string }>(
    `select relname::text as name from pg_class
      where relkind = 'S' and relnamespace = 'public'::regnamespace order by relname`,
  );
  const states: SequenceState[] = [];
  for (const { name } of names) {
    const [state] = await sql.query<{ lastValue: string; isCalled: boolean }>(
      `select last_value::text as "lastValue", is_called as "isCalled" from ${ident(name)}`,
    );
    states.push({ name, ...state! });
  }
  return states;
}

/** The migrations a database has run (drizzle's journal), as one comparable line; '' when it has none. */
export async function migrationState(sql: SqlClient): Promise<{ count: number; checksum: string }> {
  const [exists] = await sql.query<{ present: boolean }>(
    `select to_regclass('drizzle.__drizzle_migrations') is not null as present`,
  );
  if (!exists?.present) return { count: 0, checksum: '' };
  const [row] = await sql.query<{ count: string; checksum: string }>(
    `select count(*)::text as count, coalesce(md5(string_agg(hash || ':' || created_at::text, ',' order by created_at, hash)), '') as checksum
       from drizzle.__drizzle_migrations`,
  );
  return { count: Number(row!.count), checksum: row!.checksum };
}
