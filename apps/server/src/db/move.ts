import type { PGlite, Transaction } from '@electric-sql/pglite';
import pg from 'pg';
import { hasEmbeddedDatabase } from './backup.ts';
import {
  foreignKeyOrder,
  ident,
  migrationState,
  PINNED_SESSION,
  pgliteSql,
  pgSql,
  readSequences,
  readTables,
  rowOrder,
  type SqlClient,
  type Table,
  tableSum,
} from './catalog.ts';
import { type Database, openDatabase } from './client.ts';
import { DataDirLockedError, lockHolder } from './lock.ts';
import { redactUrl, seconds, ToolError, type ToolOutput, throttled } from './tool-output.ts';

/** Rows per round trip: a batch is one INSERT of parallel text arrays (a few MB at most). */
const BATCH_ROWS = 2000;
/**
 * A batch also ends past this much text: a bytea value is copied as hex, twice its size (an uploaded image:
 * up to 10 MB of text). The rows of a table with a bytea column are fetched one at a time for the same reason.
 */
const BATCH_TEXT = 16 * 1024 * 1024;

export interface MoveOptions {
  dataDir: string;
  url: string;
  output: ToolOutput;
}

export interface MoveCheck {
  name: string;
  source: string;
  target: string;
  ok: boolean;
}

export interface MoveResult {
  rows: number;
  checks: MoveCheck[];
}

/**
 * Copies the embedded database of `dataDir` (no server running on it) into the empty PostgreSQL database of
 * `url`: migrations there, every table in foreign-key order, every sequence where it stood, then a check of
 * row counts and checksums on both sides. The embedded database is left as it was.
 */
export async function moveToPostgres(options: MoveOptions): Promise<MoveResult> {
  const { dataDir, output } = options;
  const shown = redactUrl(options.url);
  let protocol = '';
  try {
    protocol = new URL(options.url).protocol;
  } catch {}
  if (protocol !== 'postgres:' && protocol !== 'postgresql:') {
    throw new ToolError(
      `Not a PostgreSQL URL: ${shown} (expected postgres://user:password@host:5432/database)`,
    );
  }
  if (!hasEmbeddedDatabase(dataDir)) {
    throw new ToolError(`No embedded database in ${dataDir} (no pgdata/PG_VERSION): nothing to move`);
  }
  const running = lockHolder(dataDir);
  if (running) throw serverRunning(dataDir, `pid ${running.pid} on ${running.host}`);

  const target = new pg.Client({ connectionString: options.url });
  try {
    await target.connect();
  } catch (error) {
    throw new ToolError(`Cannot connect to ${shown}: ${(error as Error).message}`);
  }
  target.on('error', () => {}); // a dropped connection fails the next query, which reports it
  let source: Database | null = null;
  try {
    await refuseNonEmpty(target, shown);
    const started = performance.now();
    try {
      source = await openDatabase({ dataDir });
    } catch (error) {
      if (error instanceof DataDirLockedError) throw serverRunning(dataDir, 'another process');
      throw error;
    }
    const client = (source.db as unknown as { $client: PGlite }).$client;
    const sourceSql = pgliteSql(client);
    const targetSql = pgSql(target);
    output.progress(`Migrating ${shown}…`);
    const migrated = await openDatabase({ databaseUrl: options.url });
    await migrated.close();

    await sourceSql.exec(PINNED_SESSION);
    await targetSql.exec(PINNED_SESSION);
    const tables = await foreignKeyOrder(sourceSql, await readTables(sourceSql));
    sameColumns(tables, await readTables(targetSql));
    const rows = await copyAll(client, target, tables, output);
    output.progress(`Copied ${rows} rows in ${seconds(started)}; checking both sides…`);
    const checks = await compare(sourceSql, targetSql, tables);
    return { rows, checks };
  } finally {
    await source?.close();
    await target.end().catch(() => {});
  }
}

function serverRunning(dataDir: string, who: string) {
  return new ToolError(
    `A server (${who}) is running on ${dataDir}: stop it first, a move copies a stopped database ` +
      '(or move a copy: db:backup, db:restore into another DATA_DIR, move from there)',
  );
}

async function refuseNonEmpty(target: pg.Client, shown: string) {
  const { rows } = await target.query<{ tables: number; migrated: boolean }>(
    `select (select count(*)::int from pg_tables where schemaname = 'public') as tables,
            to_regclass('drizzle.__drizzle_migrations') is not null as migrated`,
  );
  const { tables, migrated } = rows[0]!;
  if (tables > 0 || migrated) {
    const holds = [
      tables > 0 ? `${tables} table${tables === 1 ? '' : 's'} in schema public` : '',
      migrated ? 'drizzle migrations' : '',
    ]
      .filter(Boolean)
      .join(' and ');
    throw new ToolError(
      `${shown} is not empty (${holds}): move only into a new, empty database (CREATE DATABASE …)`,
    );
  }
}

/** The target, migrated by this version, must have the source's columns with their types. */
function sameColumns(source: Table[], target: Table[]) {
  const targets = new Map(target.map((table) => [table.name, table]));
  for (const table of source) {
    const other = targets.get(table.name);
    const describe = (t: Table | undefined) => t?.columns.map((c) => `${c.name} ${c.type}`).join(', ') ?? '';
    if (describe(table) !== describe(other)) {
      throw new ToolError(
        `Table ${table.name} differs between the embedded database and the migrated target ` +
          `(${describe(table)} | ${describe(other) || 'missing'}): move with the version that wrote the data`,
      );
    }
  }
}

/**
 * One transaction on the target: the rows the migrations seeded (provinces, connector types, …) go, then
 * every table is copied in foreign-key order and every sequence set. A failure leaves only the schema.
 * The tables' own triggers are off meanwhile (as pg_restore --disable-triggers): a copy is the rows as they
 * are, not new writes (the statistics' triggers would mark again the days of every past session copied).
 */
export async function copyAll(source: PGlite, target: pg.Client, tables: Table[], output: ToolOutput) {
  let total = 0;
  const triggers = async (state: 'enable' | 'disable') => {
    for (const table of tables) await target.query(`alter table ${ident(table.name)} ${state} trigger user`);
  };
  await target.query('begin');
  try {
    // Off first: the audit log's own triggers refuse a TRUNCATE (the target's is empty: a fresh schema).
    await triggers('disable');
    await target.query(`truncate ${tables.map((table) => ident(table.name)).join(', ')}`);
    for (const table of tables) total += await copyTable(source, target, table, output);
    await triggers('enable');
    for (const sequence of await readSequences(pgliteSql(source))) {
      await target.query('select setval($1::regclass, $2::bigint, $3)', [
        ident(sequence.name),
        sequence.lastValue,
        sequence.isCalled,
      ]);
    }
    await target.query('commit');
  } catch (error) {
    await target.query('rollback').catch(() => {});
    throw new ToolError(
      `The copy failed (${(error as Error).message}). The target now holds the schema only: ` +
        'drop and create it again before another move',
    );
  }
  return total;
}

/** Reads a table through a cursor, as text, and inserts each batch as parallel text arrays cast back. */
async function copyTable(source: PGlite, target: pg.Client, table: Table, output: ToolOutput) {
  const started = performance.now();
  const names = table.columns.map((column) => ident(column.name));
  const [{ n }] = (await source.query<{ n: number }>(`select count(*)::int as n from ${ident(table.name)}`))
    .rows as [{ n: number }];
  const report = throttled(output.progress);
  const insert =
    `insert into ${ident(table.name)} (${names.join(', ')}) overriding system value ` +
    `select ${table.columns.map((column, i) => `u.${names[i]}::${column.type}`).join(', ')} ` +
    `from unnest(${names.map((_, i) => `$${i + 1}::text[]`).join(', ')}) as u(${names.join(', ')})`;
  const fetchRows = table.columns.some((column) => column.type === 'bytea') ? 1 : BATCH_ROWS;
  let copied = 0;
  let pending: Array<Array<string | null>> = [];
  let pendingText = 0;
  const flush = async () => {
    if (pending.length === 0) return;
    const arrays = names.map((_, i) => pending.map((row) => row[i] ?? null));
    await target.query(insert, arrays);
    copied += pending.length;
    pending = [];
    pendingText = 0;
    report(`  ${table.name}: ${copied}/${n} rows`);
  };
  await source.transaction(async (tx: Transaction) => {
    await tx.query(
      `declare copy_rows no scroll cursor for select ${names.map((name) => `${name}::text`).join(', ')} ` +
        `from ${ident(table.name)} order by ${rowOrder(table)}`,
    );
    for (;;) {
      const batch = await tx.query<Array<string | null>>(`fetch forward ${fetchRows} from copy_rows`, [], {
        rowMode: 'array',
      });
      if (batch.rows.length === 0) break;
      for (const row of batch.rows) {
        pending.push(row);
        for (const value of row) pendingText += value?.length ?? 0;
      }
      if (pending.length >= BATCH_ROWS || pendingText >= BATCH_TEXT) await flush();
    }
    await flush();
    await tx.query('close copy_rows');
  });
  report(`  ${table.name}: ${copied}/${n} rows (${seconds(started)})`, true);
  return copied;
}

/** Row counts and checksums of every table, the sequences and the migrations, on both sides. */
async function compare(source: SqlClient, target: SqlClient, tables: Table[]): Promise<MoveCheck[]> {
  const checks: MoveCheck[] = [];
  for (const table of [...tables].sort((a, b) => a.name.localeCompare(b.name))) {
    const [a, b] = [await tableSum(source, table), await tableSum(target, table)];
    checks.push({
      name: table.name,
      source: String(a.rows),
      target: String(b.rows),
      ok: a.rows === b.rows && a.checksum === b.checksum,
    });
  }
  const [sourceSequences, targetSequences] = [await readSequences(source), await readSequences(target)];
  const states = new Map(targetSequences.map((s) => [s.name, `${s.lastValue}/${s.isCalled}`]));
  const differing = sourceSequences.filter((s) => states.get(s.name) !== `${s.lastValue}/${s.isCalled}`);
  checks.push({
    name: differing.length ? `sequences (differ: ${differing.map((s) => s.name).join(', ')})` : 'sequences',
    source: String(sourceSequences.length),
    target: String(targetSequences.length),
    ok: differing.length === 0 && sourceSequences.length === targetSequences.length,
  });
  const [m, n] = [await migrationState(source), await migrationState(target)];
  checks.push({
    name: 'drizzle migrations',
    source: String(m.count),
    target: String(n.count),
    ok: m.count === n.count && m.checksum === n.checksum,
  });
  return checks;
}

/** The checks as a table for the terminal. */
export function formatChecks(checks: MoveCheck[]): string {
  const width = Math.max(5, ...checks.map((check) => check.name.length));
  const lines = [`${'table'.padEnd(width)}  ${'source'.padStart(10)}  ${'target'.padStart(10)}  checksum`];
  for (const check of checks) {
    lines.push(
      `${check.name.padEnd(width)}  ${check.source.padStart(10)}  ${check.target.padStart(10)}  ${check.ok ? 'ok' : 'MISMATCH'}`,
    );
  }
  return lines.join('\n');
}
