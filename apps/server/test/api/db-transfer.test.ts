import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import { createScratchDatabase, type ScratchDatabase } from '@ev/tools/scratch-database';
import { desc, eq } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BACKUP_ENDPOINT_FILE, BACKUP_PATH, BACKUP_TOKEN_HEADER } from '../../src/db/backup-endpoint.ts';
import {
  PINNED_SESSION,
  pgliteSql,
  pgSql,
  readTables,
  type SqlClient,
  tableSum,
} from '../../src/db/catalog.ts';
import { createEmbeddedClient, openDatabase } from '../../src/db/client.ts';
import { copyAll } from '../../src/db/move.ts';
import { bookings, payments, statisticsDirtyDays, uploadedFiles } from '../../src/db/schema/index.ts';
import { silentOutput } from '../../src/db/tool-output.ts';
import { createBooking } from '../helpers/bookings.ts';
import { uploadFirmware } from '../helpers/charger-files.ts';
import { login } from '../helpers/factories.ts';
import { chargerPlace, createChargers } from '../helpers/ocpp.ts';
import { migratedTemplate } from '../helpers/pglite-template.ts';
import { ADMIN, startTestApp, type TestApp } from '../helpers/test-app.ts';

// Backup, restore and move of the embedded database (docs/operations.md), through the real CLI in a child
// process, against a server on an embedded database in a temporary DATA_DIR.

const ROOT = path.resolve(import.meta.dirname, '../../../..');
const CLI = path.join(ROOT, 'apps/server/src/cli/db.ts');
const PG_URL = process.env.DATABASE_URL || 'postgres://postgres:postgres@127.0.0.1:5432/postgres';

async function postgresAnswers(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => {});
  }
}
const hasPostgres = await postgresAnswers(PG_URL);

interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** `npm run db:… -- args` as an operator runs it, with DATA_DIR set and no DATABASE_URL. */
function cli(args: string[], dataDir: string): Promise<CliResult> {
  const { DATABASE_URL: _, ...env } = process.env;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', CLI, ...args], {
      cwd: ROOT,
      env: { ...env, DATA_DIR: dataDir },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
    });
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** A refusal: exit code 1, and its last stderr line says why (no stack trace). */
function expectRefused(result: CliResult, message: RegExp) {
  expect(result.code, result.stderr).toBe(1);
  const lines = result.stderr.trim().split('\n');
  expect(lines.at(-1)).toMatch(message);
  expect(result.stderr).not.toMatch(/^\s+at /m);
}

/** Row count and checksum of every table, keyed by name. */
async function tableSums(sql: SqlClient): Promise<Record<string, string>> {
  await sql.exec(PINNED_SESSION);
  const sums: Record<string, string> = {};
  for (const table of await readTables(sql)) {
    const sum = await tableSum(sql, table);
    sums[table.name] = `${sum.rows} ${sum.checksum}`;
  }
  return sums;
}

async function restoredSums(dataDir: string) {
  const client = await createEmbeddedClient(dataDir);
  try {
    return await tableSums(pgliteSql(client));
  } finally {
    await client.close();
  }
}

async function queryRestored<T>(dataDir: string, text: string): Promise<T[]> {
  const client = await createEmbeddedClient(dataDir);
  try {
    return (await client.query<T>(text)).rows;
  } finally {
    await client.close();
  }
}

const year = new Date(Date.now() + 7 * 3_600_000).getUTCFullYear();
const invoiceNumber = (invoiceNo: string) => Number(invoiceNo.split('-').at(-1));

let work: string;
let dataDir: string;
let t: TestApp;
let liveClosed = false;
/** Stops the server on the embedded database (once), releasing DATA_DIR. */
const closeLive = async () => {
  if (liveClosed) return;
  liveClosed = true;
  await t.close();
};
let admin: string;
let connectorId: number;
const liveClient = () => (t.database.db as unknown as { $client: PGlite }).$client;

/**
 * Images uploaded through the API (table uploaded_files, bytea): random bytes after a PNG signature, every
 * byte value; three of 5 MB, whose hex text (10 MB each) fills more than one of the move's batches.
 */
const images = [1_000, 5_000_000, 5_000_000, 5_000_000].map((size) =>
  Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), randomBytes(size - 8)]),
);
const imageNames: string[] = [];

async function uploadImage(app: TestApp, token: string, bytes: Buffer): Promise<string> {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(bytes)], { type: 'image/png' }), 'image.png');
  const response = await fetch(`${app.url}/api/upload`, {
    method: 'POST',
    headers: { 'x-access-token': token },
    body: form,
  });
  const body = (await response.json()) as { name: string };
  expect(response.status, JSON.stringify(body)).toBe(201);
  return body.name;
}

/** Each uploaded image, served by `app` byte for byte with its type. */
async function expectImagesServed(app: TestApp) {
  for (const [i, name] of imageNames.entries()) {
    const response = await fetch(`${app.url}/uploads/${name}`);
    expect(response.status, name).toBe(200);
    expect(response.headers.get('content-type')).toBe('image/png');
    expect(response.headers.get('content-length')).toBe(String(images[i]!.length));
    expect(Buffer.from(await response.arrayBuffer()).equals(images[i]!), name).toBe(true);
  }
}

/** A firmware file (issue 32: table charger_files, its bytes in 1 MB rows of charger_file_chunks). */
const firmware = randomBytes(2_500_000);
let firmwareId: number;

/** The firmware file, served by `app` byte for byte. */
async function expectFirmwareServed(app: TestApp) {
  const token = await login(app, ADMIN.email, ADMIN.pass);
  const response = await fetch(`${app.url}/api/charger-file/${firmwareId}/download`, {
    headers: { 'x-access-token': token },
  });
  expect(response.status).toBe(200);
  expect(Buffer.from(await response.arrayBuffer()).equals(firmware)).toBe(true);
}

/** A stopped booking paid by staff through the API: a payment with the next invoice number. */
async function paidBooking(app: TestApp, token: string) {
  const booking = await createBooking(app, connectorId, 'stopped');
  const paid = await app.call('POST', `/api/booking/${booking.id}/pay`, { token });
  expect(paid.status, JSON.stringify(paid.body)).toBe(200);
  const [payment] = await app.database.db.select().from(payments).where(eq(payments.bookingId, booking.id));
  return { booking, payment: payment! };
}

beforeAll(async () => {
  work = fs.mkdtempSync(path.join(os.tmpdir(), 'ev-transfer-'));
  dataDir = path.join(work, 'data');
  // No rollup on the minute: the day marked dirty below must stay so until the move, however slow the machine.
  t = await startTestApp({ STATISTICS_ROLLUP_EVERY_MS: '0' }, { database: await openDatabase({ dataDir }) });
  admin = await login(t, ADMIN.email, ADMIN.pass);
  const place = await chargerPlace(t);
  connectorId = (await createChargers(t, admin, place, ['MOVE-01', 'MOVE-02']))[0]!.connectorIds[0]!;
  for (let i = 0; i < 4; i++) await paidBooking(t, admin);
  await createBooking(t, connectorId, 'charging');
  // A session of last week, rolled up by the statistics, then corrected (its day marked dirty): the copy
  // carries the rollup and the mark as they are, the target's triggers adding none.
  const DAY = 86_400_000;
  const lastWeek = await createBooking(t, connectorId, 'stopped', {
    createdAt: new Date(Date.now() - 7 * DAY),
    startTime: new Date(Date.now() - 7 * DAY),
    stopTime: new Date(Date.now() - 7 * DAY + 3_600_000),
    avaliableAt: new Date(Date.now() - 7 * DAY + 3_600_000),
  });
  expect(await t.app.jobs.rollupStatistics()).toBeGreaterThan(0);
  await t.database.db.update(bookings).set({ energyWh: 13_000 }).where(eq(bookings.id, lastWeek.id));
  await t.database.db.update(bookings).set({ energyWh: 13_500 }).where(eq(bookings.id, lastWeek.id));
  expect(await t.database.db.$count(statisticsDirtyDays)).toBeGreaterThan(0);
  const { payment } = await paidBooking(t, admin);
  const refunded = await t.call('POST', `/api/payment/${payment.id}/refund`, {
    token: admin,
    body: { amount: 40 },
  });
  expect(refunded.status, JSON.stringify(refunded.body)).toBe(200);
  for (const bytes of images) imageNames.push(await uploadImage(t, admin, bytes));
  const uploaded = await uploadFirmware(t.url, admin, firmware, 'move-3.1.bin', 'version=3.1');
  expect(uploaded.status, JSON.stringify(uploaded.body)).toBe(201);
  firmwareId = uploaded.body.file.id;
}, 120_000);

afterAll(async () => {
  if (t) await closeLive();
  fs.rmSync(work, { recursive: true, force: true });
});

describe('backup and restore of the embedded database', () => {
  it('backs up the running server and restores every row into an empty directory', async () => {
    const file = path.join(work, 'idle.tgz');
    const before = await tableSums(pgliteSql(liveClient()));
    const backup = await cli(['backup', file], dataDir);
    expect(backup.code, backup.stderr).toBe(0);
    expect(backup.stdout).toContain(`running server (pid ${process.pid})`);
    expect(await tableSums(pgliteSql(liveClient()))).toEqual(before); // nothing wrote meanwhile
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(fs.readdirSync(work).filter((name) => name.includes('.partial'))).toEqual([]);
    // The endpoint the tool used: its token is in a file only DATA_DIR's owner reads; any other token is a 404.
    const endpointFile = path.join(dataDir, BACKUP_ENDPOINT_FILE);
    expect(fs.statSync(endpointFile).mode & 0o777).toBe(0o600);
    const endpoint = JSON.parse(fs.readFileSync(endpointFile, 'utf8'));
    expect(endpoint).toMatchObject({ pid: process.pid, url: t.url });
    for (const headers of [
      {},
      { [BACKUP_TOKEN_HEADER]: '0'.repeat(64) },
      { [BACKUP_TOKEN_HEADER]: 'short' },
    ]) {
      const refused = await fetch(`${t.url}${BACKUP_PATH}`, { method: 'POST', headers });
      expect(refused.status).toBe(404);
    }

    const restoredDir = path.join(work, 'restored');
    const restore = await cli(['restore', file], restoredDir);
    expect(restore.code, restore.stderr).toBe(0);
    // Every table of the live database, counted from it (a new migration's table counts without editing this).
    expect(restore.stdout).toMatch(
      new RegExp(`Restored .* \\(${Object.keys(before).length} tables, \\d+ migrations\\)`),
    );
    const sums = await restoredSums(restoredDir);
    expect(Object.keys(sums).length).toBeGreaterThan(30);
    expect(sums).toEqual(before);
    expect(sums.uploaded_files).toMatch(/^4 /);
    expect(sums.charger_file_chunks).toMatch(/^3 /);

    // The uploaded images, byte for byte, served by a server on the restored directory.
    const restored = await startTestApp({}, { database: await openDatabase({ dataDir: restoredDir }) });
    try {
      await expectImagesServed(restored);
      await expectFirmwareServed(restored);
    } finally {
      await restored.close();
    }
  }, 120_000);

  it('takes a consistent backup while payments go on', async () => {
    const count = async () =>
      (await liveClient().query<{ n: number }>('select count(*)::int as n from payments')).rows[0]!.n;
    const paymentsBefore = await count();
    let writing = true;
    let written = 0;
    const writer = (async () => {
      while (writing) {
        await paidBooking(t, admin);
        written++;
      }
    })();
    while (written < 2) await new Promise((resolve) => setTimeout(resolve, 20));
    const file = path.join(work, 'busy.tgz');
    const writtenBefore = written;
    const backup = await cli(['backup', file], dataDir);
    const writtenDuring = written - writtenBefore;
    writing = false;
    await writer;
    expect(backup.code, backup.stderr).toBe(0);
    expect(writtenDuring).toBeGreaterThan(0);
    const paymentsAfter = await count();

    const restoredDir = path.join(work, 'restored-busy');
    expect((await cli(['restore', file], restoredDir)).code).toBe(0);
    const [state] = await queryRestored<{
      payments: number;
      paid: number;
      counter: number;
      invoices: number;
      maxInvoice: string;
    }>(
      restoredDir,
      `select (select count(*)::int from payments) as payments,
              (select count(*)::int from bookings where status = 'paid') as paid,
              (select last from document_counters where kind = 'invoice' and year = ${year}) as counter,
              (select count(distinct invoice_no)::int from payments) as invoices,
              (select max(invoice_no) from payments) as "maxInvoice"`,
    );
    // A whole number of payments, each with its booking paid and its invoice number, the counter at the last.
    expect(state!.payments).toBeGreaterThanOrEqual(paymentsBefore);
    expect(state!.payments).toBeLessThanOrEqual(paymentsAfter);
    expect(state!.paid).toBe(state!.payments);
    expect(state!.invoices).toBe(state!.payments);
    expect(state!.counter).toBe(state!.payments);
    expect(invoiceNumber(state!.maxInvoice)).toBe(state!.payments);
  }, 120_000);

  it('refuses to overwrite a backup without --force', async () => {
    const file = path.join(work, 'idle.tgz');
    const size = fs.statSync(file).size;
    expectRefused(await cli(['backup', file], dataDir), /exists: pass --force to overwrite it/);
    expect(fs.statSync(file).size).toBe(size);
    const forced = await cli(['backup', file, '--force'], dataDir);
    expect(forced.code, forced.stderr).toBe(0);
  }, 60_000);

  it('refuses to restore into a directory a server runs on, or one that is not empty', async () => {
    const file = path.join(work, 'idle.tgz');
    expectRefused(
      await cli(['restore', file], dataDir),
      /^A server \(pid \d+ .*\) is running on .*: stop it/,
    );
    const busy = path.join(work, 'not-empty');
    fs.mkdirSync(busy);
    fs.writeFileSync(path.join(busy, 'notes.txt'), 'keep me');
    expectRefused(
      await cli(['restore', file], busy),
      /not-empty is not empty \(notes\.txt\): restore only into/,
    );
    expect(fs.readdirSync(busy)).toEqual(['notes.txt']);
    expectRefused(
      await cli(['restore', path.join(work, 'missing.tgz')], path.join(work, 'x')),
      /No backup file/,
    );
    expectRefused(await cli(['restore', path.join(busy, 'notes.txt')], path.join(work, 'y')), /not a backup/);
    expect(fs.existsSync(path.join(work, 'y'))).toBe(false);
  }, 60_000);
});

describe.runIf(hasPostgres)('move to PostgreSQL', () => {
  const scratches: ScratchDatabase[] = [];
  const apps: TestApp[] = [];
  let target: ScratchDatabase;
  afterAll(async () => {
    for (const app of apps) await app.close();
    for (const scratch of scratches) await scratch.drop();
  });
  const scratch = async () => {
    const created = await createScratchDatabase(PG_URL, 'ev_move');
    scratches.push(created);
    return created;
  };

  it('moves every row and sequence, and the server answers the same on PostgreSQL', async () => {
    target = await scratch();
    expectRefused(await cli(['move', target.url], dataDir), /is running on .*: stop it first/);
    await closeLive(); // the move copies a stopped database
    expect(fs.existsSync(path.join(dataDir, BACKUP_ENDPOINT_FILE))).toBe(false);

    const moved = await cli(['move', target.url], dataDir);
    expect(moved.code, moved.stderr).toBe(0);
    expect(moved.stdout).toMatch(/^bookings\s+\d+\s+\d+\s+ok$/m);
    expect(moved.stdout).toMatch(/^uploaded_files\s+4\s+4\s+ok$/m);
    expect(moved.stdout).toMatch(/^charger_file_chunks\s+3\s+3\s+ok$/m);
    expect(moved.stdout).toMatch(/^sequences\s+\d+\s+\d+\s+ok$/m);
    expect(moved.stdout).toMatch(/^statistics_dirty_days\s+[1-9]\d*\s+[1-9]\d*\s+ok$/m);
    expect(moved.stdout).toMatch(/^statistics_daily\s+[1-9]\d*\s+[1-9]\d*\s+ok$/m);
    expect(moved.stdout).not.toContain('MISMATCH');
    expect(moved.stderr).toContain('payments:');

    const embedded = await startTestApp({}, { database: await openDatabase({ dataDir }) });
    apps.push(embedded);
    const onPostgres = await startTestApp({}, { database: await openDatabase({ databaseUrl: target.url }) });
    apps.push(onPostgres);
    expect(onPostgres.database.kind).toBe('postgres');
    const reads = [
      '/api/booking?page=1&size=100',
      '/api/booking?page=1&size=100&status=paid',
      '/api/charger/MOVE-01',
      '/api/charger?page=1&size=10',
      '/api/payment?page=1&size=100',
    ];
    const tokens = await Promise.all(
      [embedded, onPostgres].map((app) => login(app, ADMIN.email, ADMIN.pass)),
    );
    for (const url of reads) {
      const [a, b] = await Promise.all(
        [embedded, onPostgres].map((app, i) => app.call('GET', url, { token: tokens[i] })),
      );
      expect(a!.status, url).toBe(200);
      expect(b!.body, url).toEqual(a!.body);
    }
    // The uploaded images, byte for byte, with their rows' other columns.
    await expectImagesServed(onPostgres);
    await expectFirmwareServed(onPostgres);
    const rowsOf = (app: TestApp) =>
      app.database.db
        .select({
          name: uploadedFiles.name,
          type: uploadedFiles.contentType,
          size: uploadedFiles.size,
          at: uploadedFiles.createdAt,
        })
        .from(uploadedFiles)
        .orderBy(uploadedFiles.name);
    expect(await rowsOf(onPostgres)).toEqual(await rowsOf(embedded));

    // New rows continue the numbering: ids from the sequences, invoice and credit-note numbers from the counters.
    const [last] = await embedded.database.db
      .select({ id: payments.id, invoiceNo: payments.invoiceNo, bookingId: payments.bookingId })
      .from(payments)
      .orderBy(desc(payments.id))
      .limit(1);
    const next = await paidBooking(onPostgres, tokens[1]!);
    expect(next.payment.id).toBe(last!.id + 1);
    expect(next.booking.id).toBeGreaterThan(last!.bookingId);
    expect(next.payment.invoiceNo).toBe(
      `INV-${year}-${String(invoiceNumber(last!.invoiceNo) + 1).padStart(6, '0')}`,
    );
    const refunded = await onPostgres.call('POST', `/api/payment/${next.payment.id}/refund`, {
      token: tokens[1],
      body: { amount: 10 },
    });
    expect(refunded.status, JSON.stringify(refunded.body)).toBe(200);
    const [credited] = await onPostgres.database.db
      .select({ creditNoteNo: payments.creditNoteNo })
      .from(payments)
      .where(eq(payments.id, next.payment.id));
    expect(credited!.creditNoteNo).toBe(`CN-${year}-000002`);
  }, 180_000);

  it('copies values whose text could differ between the two, and its checksum sees one changed value', async () => {
    const source = await openDatabase({ loadDataDir: await migratedTemplate() });
    const destination = await scratch();
    await (await openDatabase({ databaseUrl: destination.url })).close();
    const target = new pg.Client({ connectionString: destination.url });
    await target.connect();
    try {
      const client = (source.db as unknown as { $client: PGlite }).$client;
      const ddl = `create table tricky (id text primary key, at timestamptz, plain timestamp, t time, n numeric(12,2),
        f float8, j jsonb, a int[], b bytea, s text, big bigint)`;
      await client.exec(ddl);
      await target.query(ddl);
      await client.exec(`insert into tricky values
        ('B', '2026-03-01 12:34:56.123456+07', '2026-03-01 00:00:00.5', '23:59:59.999999', 12.30, 0.1 + 0.2,
         '{"b": [1, 2.50, "ไทย"], "a": null, "c": {"d": 1e2}}', '{1,2}', '\\x00ff', 'สวัสดี "q" \\ ,()', 9007199254740993),
        ('a', null, null, null, -0.01, 1e-300, 'null', '{}', '', '', -1),
        ('_é', 'infinity', '-infinity', '00:00', 0, 'NaN', '"text"', null, null, null, null)`);
      const [sourceSql, targetSql] = [pgliteSql(client), pgSql(target)];
      await sourceSql.exec(PINNED_SESSION);
      await targetSql.exec(PINNED_SESSION);
      const tables = (await readTables(sourceSql)).filter((table) => table.name === 'tricky');
      await copyAll(client, target, tables, silentOutput);
      const sum = await tableSum(sourceSql, tables[0]!);
      expect(sum.rows).toBe(3);
      expect(await tableSum(targetSql, tables[0]!)).toEqual(sum);
      const copied = await target.query(
        `select j is null as "sqlNull", j::text, big::text from tricky where id = 'a'`,
      );
      expect(copied.rows[0]).toEqual({ sqlNull: false, j: 'null', big: '-1' });
      await target.query(`update tricky set j = null where id = 'a'`);
      expect((await tableSum(targetSql, tables[0]!)).checksum).not.toBe(sum.checksum);
    } finally {
      await target.end();
      await source.close();
    }
  }, 60_000);

  it('copies bytea rows exactly, in batches bounded by their text', async () => {
    const source = await openDatabase({ loadDataDir: await migratedTemplate() });
    const destination = await scratch();
    await (await openDatabase({ databaseUrl: destination.url })).close();
    const target = new pg.Client({ connectionString: destination.url });
    await target.connect();
    try {
      const client = (source.db as unknown as { $client: PGlite }).$client;
      const ddl = 'create table blobs (id int primary key, b bytea)';
      await client.exec(ddl);
      await target.query(ddl);
      const every = Buffer.from(Array.from({ length: 256 }, (_, i) => i));
      // 10 MB of hex text each: a batch ends after the second (past 16 MB), the third goes alone.
      const values = [
        every,
        Buffer.from('\\x5c\'"'),
        Buffer.alloc(0),
        ...[1, 2, 3].map(() => randomBytes(5_000_000)),
      ];
      for (const [id, value] of values.entries())
        await client.query('insert into blobs values ($1, $2)', [id, value]);
      const [sourceSql, targetSql] = [pgliteSql(client), pgSql(target)];
      await sourceSql.exec(PINNED_SESSION);
      await targetSql.exec(PINNED_SESSION);
      const tables = (await readTables(sourceSql)).filter((table) => table.name === 'blobs');
      const query = target.query.bind(target);
      let inserts = 0;
      // biome-ignore lint/suspicious/noExplicitAny: counting the statements, whatever their overload
      (target as any).query = (text: unknown, ...rest: unknown[]) => {
        if (typeof text === 'string' && text.startsWith('insert into "blobs"')) inserts++;
        // biome-ignore lint/suspicious/noExplicitAny: passed on as given
        return (query as any)(text, ...rest);
      };
      await copyAll(client, target, tables, silentOutput);
      expect(inserts).toBe(2);
      expect(await tableSum(targetSql, tables[0]!)).toEqual(await tableSum(sourceSql, tables[0]!));
      const copied = await target.query<{ id: number; b: Buffer }>('select id, b from blobs order by id');
      expect(copied.rows.map((row) => row.b.equals(values[row.id]!))).toEqual(values.map(() => true));
    } finally {
      await target.end();
      await source.close();
    }
  }, 60_000);

  it('refuses a target that is not empty', async () => {
    expectRefused(
      await cli(['move', target.url], path.join(work, 'restored')),
      /is not empty \(\d+ tables in schema public and drizzle migrations\)/,
    );
    const stray = await scratch();
    const client = new pg.Client({ connectionString: stray.url });
    await client.connect();
    await client.query('create table stray (x int)');
    await client.end();
    expectRefused(
      await cli(['move', stray.url], path.join(work, 'restored')),
      /is not empty \(1 table in schema public\)/,
    );
    expectRefused(
      await cli(['move', 'mysql://localhost/x'], path.join(work, 'restored')),
      /Not a PostgreSQL URL/,
    );
  }, 60_000);
});
