import fs from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { NodeFS } from '@electric-sql/pglite/nodefs';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import { lockDataDir } from './lock.ts';
import * as schema from './schema/index.ts';

export type Schema = typeof schema;
export type Db = PgDatabase<PgQueryResultHKT, Schema>;
/** A transaction of `Db.transaction`: the same queries, inside it. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
export type DatabaseKind = 'pglite' | 'postgres';

export interface Database {
  db: Db;
  kind: DatabaseKind;
  close(): Promise<void>;
}

export const MIGRATIONS = path.resolve(path.dirname(new URL(import.meta.url).pathname), 'migrations');

/** The extensions the migrations create, loaded into every embedded database (PGlite ships them). */
const EXTENSIONS = { pg_trgm };

/** Counts fsync calls that reached the disk, so a test can prove the embedded database writes durably. */
export const durability = { fsyncCalls: 0 };

/**
 * PGlite 0.5.16 starts Postgres with `-F` (fsync off), and its Node filesystem has no fsync at all, so a
 * commit is only in the OS page cache: safe from a process crash, not from a power cut. We give its
 * filesystem a real fsync, start Postgres without `-F`, and have the WAL synced with fsync (fdatasync is a
 * no-op in its runtime), so a commit returns only once it is on disk.
 */
class DurableNodeFS extends NodeFS {
  override async init(pgInstance: PGlite, emscriptenOptions: Parameters<NodeFS['init']>[1]) {
    const result = await super.init(pgInstance, emscriptenOptions);
    const opts = result.emscriptenOpts as { preRun?: Array<(mod: EmscriptenModule) => void> };
    opts.preRun = [
      ...(opts.preRun ?? []),
      (mod) => {
        mod.NODEFS.stream_ops.fsync = (stream: { nfd?: number }) => {
          if (stream.nfd !== undefined) {
            fs.fsyncSync(stream.nfd);
            durability.fsyncCalls++;
          }
          return 0;
        };
      },
    ];
    return result;
  }
}
interface EmscriptenModule {
  NODEFS: { stream_ops: Record<string, unknown> };
}

const DURABLE_START_PARAMS = [
  ...PGlite.defaultStartParams.filter((param) => param !== '-F'),
  '-c',
  'wal_sync_method=fsync',
];

/**
 * The embedded database's shared buffers: PostgreSQL's own cache of table pages, inside PGlite's WebAssembly
 * memory, which never shrinks. PGlite's default is 128 MB, most of the server's memory at rest. Its files
 * are read through the operating system's page cache anyway, so a smaller cache costs a copy per page read,
 * not a disk read (docs/operations.md, Memory). PGLITE_SHARED_BUFFERS sets another size.
 */
export const PGLITE_SHARED_BUFFERS = '16MB';

/** Opens the embedded database files in `dataDir/pgdata` as they are: no lock, no migrations (the caller's). */
export function createEmbeddedClient(dataDir: string, options: { loadDataDir?: Blob } = {}): Promise<PGlite> {
  return PGlite.create({
    extensions: EXTENSIONS,
    fs: new DurableNodeFS(path.join(dataDir, 'pgdata')),
    startParams: [
      ...DURABLE_START_PARAMS,
      '-c',
      `shared_buffers=${process.env.PGLITE_SHARED_BUFFERS || PGLITE_SHARED_BUFFERS}`,
    ],
    ...(options.loadDataDir ? { loadDataDir: options.loadDataDir } : {}),
  });
}

/** The embedded databases opened on a data directory, by their Drizzle handle (the server's backup endpoint). */
const embeddedStores = new WeakMap<object, { dataDir: string; client: PGlite }>();

/** The PGlite instance and data directory behind `db`, when it is the embedded database on disk. */
export function embeddedStoreOf(db: Db): { dataDir: string; client: PGlite } | undefined {
  return embeddedStores.get(db);
}

export interface OpenOptions {
  /** PostgreSQL server URL; when absent the embedded database is used. */
  databaseUrl?: string;
  /** Embedded database directory; absent = in memory (tests). */
  dataDir?: string;
  /** Told when an idle PostgreSQL connection fails (logged by the server; never fatal). */
  onPoolError?: (error: Error) => void;
  /** In memory only: start from this dump of a data directory (a migrated template) instead of initdb. */
  loadDataDir?: Blob;
}

/** Opens the database (PostgreSQL server when a URL is given, else embedded PGlite) and migrates it. */
export async function openDatabase(options: OpenOptions): Promise<Database> {
  if (options.databaseUrl) {
    const pool = new pg.Pool({ connectionString: options.databaseUrl, max: 10 });
    // An idle connection the server drops (restart, idle timeout, pg_terminate_backend) emits 'error' on
    // the pool; unhandled, it would crash the process. The pool replaces the connection on the next query.
    pool.on('error', (error) => options.onPoolError?.(error));
    // The pool listens only to its idle connections: one checked out (a transaction between two of its
    // statements, e.g. the alerts' pass) that the server drops would emit 'error' to no one and end the
    // process. Every connection gets a listener of its own; the query in flight, or the next, fails instead,
    // and the pool discards the connection when it comes back.
    pool.on('connect', (client) => {
      client.on('error', (error) => options.onPoolError?.(error));
    });
    const db = drizzlePg({ client: pool, schema, casing: 'snake_case' });
    try {
      await migratePg(db, { migrationsFolder: MIGRATIONS });
    } catch (error) {
      await pool.end();
      throw error;
    }
    return { db: db as unknown as Db, kind: 'postgres', close: () => pool.end() };
  }

  let release = () => {};
  let client: PGlite;
  if (options.dataDir) {
    release = lockDataDir(options.dataDir);
    try {
      client = await createEmbeddedClient(options.dataDir);
    } catch (error) {
      release();
      throw error;
    }
  } else {
    client = await PGlite.create({
      extensions: EXTENSIONS,
      ...(options.loadDataDir ? { loadDataDir: options.loadDataDir } : {}),
    });
  }
  const db = drizzlePglite({ client, schema, casing: 'snake_case' });
  try {
    await migratePglite(db, { migrationsFolder: MIGRATIONS });
  } catch (error) {
    await client.close();
    release();
    throw error;
  }
  if (options.dataDir) embeddedStores.set(db, { dataDir: path.resolve(options.dataDir), client });
  return {
    db: db as unknown as Db,
    kind: 'pglite',
    close: async () => {
      await client.close();
      release();
    },
  };
}
