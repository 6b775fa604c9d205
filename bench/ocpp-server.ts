/**
 * The server under test of `bench/ocpp.ts`, in a process of its own: the real app (buildApp) on a database
 * holding BENCH_CHARGERS chargers of one connector each: PGlite in BENCH_DATA_DIR on disk (as `npm start`
 * runs it), or the database of DATABASE_URL (a scratch database made by the bench). LOG_LEVEL is warn: at
 * info every connect and disconnect is a log line.
 *
 * With BENCH_SEED=1 it only creates the chargers and exits, so that the server's memory, read later, holds
 * no garbage from seeding.
 */
import { buildApp } from '@ev/server/app';
import { LISTEN_BACKLOG, loadConfig } from '@ev/server/config';
import { openDatabase } from '@ev/server/db/client';
import { ensureFirstAdmin } from '@ev/server/seed/first-admin';
import { sql } from 'drizzle-orm';
import { serveRequests } from './ocpp-ipc.ts';

const chargerCount = Number(process.env.BENCH_CHARGERS ?? 1000);
const dataDir = process.env.BENCH_DATA_DIR!;
const databaseUrl = process.env.DATABASE_URL || undefined;
const database = await openDatabase(databaseUrl ? { databaseUrl } : { dataDir: `${dataDir}/pglite` });
const config = loadConfig({
  ...process.env,
  DATA_DIR: dataDir,
  DATABASE_URL: databaseUrl ?? '',
  WEB_DIST: '',
  LOG_LEVEL: 'warn',
});

const { db } = database;
if (process.env.BENCH_SEED === '1') {
  await seed();
  await database.close();
  process.exit(0);
}

async function seed(): Promise<void> {
  await ensureFirstAdmin(database.db, config.adminEmail, config.adminPassword);
  const idOf = (result: unknown) => Number((result as { rows: Array<{ id: number }> }).rows[0]!.id);
  const merchantId = idOf(
    await db.execute(
      sql`insert into merchants (name_en, name_th) values ('Bench Cluster', 'คลัสเตอร์') returning id`,
    ),
  );
  const landlordId = idOf(
    await db.execute(sql`insert into landlords
        (merchant_id, name_en, name_th, latitude, longitude, business_hours_type)
      values (${merchantId}, 'Bench Site', 'สถานี', 13.7563, 100.5018, '24H') returning id`),
  );
  const brandId = idOf(
    await db.execute(
      sql`insert into charger_brands (name, power_type, min_power_kw)
        values ('Bench DC', 'DC', 50) returning id`,
    ),
  );
  const priceId = idOf(
    await db.execute(sql`insert into prices (desc_en, desc_th, method, calculate_method, baht_per_kwh)
      values ('Bench price', 'ราคา', 'KW', 'BAHT_HRS', 7.5) returning id`),
  );
  // The same ids as benchChargerId(n).
  await db.execute(sql`insert into chargers (id, name_en, name_th, merchant_id, landlord_id, charger_brand_id)
    select 'BENCH-' || lpad(n::text, 6, '0'), 'Bench charger ' || n, 'เครื่องชาร์จ ' || n,
           ${merchantId}, ${landlordId}, ${brandId}
    from generate_series(1, ${chargerCount}) as n`);
  await db.execute(sql`insert into connectors (id, charger_id, token, name_en, name_th, connector_type_id,
      max_power_kw, price_id, ocpp_connector_id)
    select n, 'BENCH-' || lpad(n::text, 6, '0'), 'bench-' || n, 'Connector 1', 'หัวชาร์จ 1', 4, 120,
           ${priceId}, 1
    from generate_series(1, ${chargerCount}) as n`);
}

/** What the message log holds (bench/ocpp.ts reports its cost). */
export interface MessageLogSize {
  rows: number;
  bytes: number;
  indexBytes: number;
}

const app = await buildApp({ db, databaseKind: database.kind, config });
await app.listen({ port: 0, host: '127.0.0.1', backlog: LISTEN_BACKLOG });
const address = app.server.address();
if (!address || typeof address === 'string') throw new Error('no port');

const count = async (where: ReturnType<typeof sql>) => {
  const result = await db.execute(sql`select count(*)::int as n from chargers where ${where}`);
  return Number((result as { rows: Array<{ n: number }> }).rows[0]!.n);
};

serveRequests(
  {
    /** Chargers connected here and booted, as the database has it (the store writes every 200 ms). */
    held: () => count(sql`connected_node is not null and booted_at is not null`),
    /**
     * The message log so far (flushed first): rows, and its bytes on disk with its indexes and TOAST
     * (pg_total_relation_size), of which indexes.
     */
    messageLog: async () => {
      await app.messageLog.flush();
      const result = await db.execute(sql`select count(*)::int as rows,
          pg_total_relation_size('charger_messages')::float8 as bytes,
          pg_indexes_size('charger_messages')::float8 as "indexBytes"
        from charger_messages`);
      return (result as unknown as { rows: MessageLogSize[] }).rows[0];
    },
    stop: async () => {
      await app.close();
      await database.close();
      setImmediate(() => process.exit(0));
    },
  },
  { port: address.port, kind: database.kind },
);
