import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildApp } from '@ev/server/app';
import { loadConfig } from '@ev/server/config';
import { openDatabase } from '@ev/server/db/client';
import { tuneHeap } from '@ev/server/lib/heap';
import type { PaymentGateway } from '@ev/server/modules/payment/payment-gateway';
import { ensureFirstAdmin } from '@ev/server/seed/first-admin';
import { createScratchDatabase } from '@ev/tools/scratch-database';

export const BENCH_ADMIN = { email: 'bench-admin@example.com', pass: 'BenchAdmin1' };

/**
 * The real app in this process, listening on a free port, on a fresh database (PGlite in memory, or a scratch
 * database on the server of `databaseUrl`), with the bench admin. `webDist` '' serves the API only.
 */
export async function startInProcessServer({
  webDist,
  databaseUrl,
  paymentGateway,
  existingDatabaseUrl,
  env = {},
}: {
  webDist: string;
  databaseUrl?: string;
  paymentGateway?: PaymentGateway;
  /** Serve this database as it is (migrated, never dropped) instead of a fresh one. */
  existingDatabaseUrl?: string;
  /** More of the server's environment (bench:power: OCPP_UNKNOWN_TAGS=accept). */
  env?: Record<string, string>;
}) {
  // As the server process does (apps/server/src/main.ts).
  tuneHeap();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ev-bench-'));
  const scratch =
    databaseUrl && !existingDatabaseUrl ? await createScratchDatabase(databaseUrl, 'ev_bench') : null;
  // BENCH_DISK=1: the embedded database on disk, as the server runs it (shared buffers, fsync), not in memory.
  const database = await openDatabase(
    existingDatabaseUrl
      ? { databaseUrl: existingDatabaseUrl }
      : scratch
        ? { databaseUrl: scratch.url }
        : process.env.BENCH_DISK === '1'
          ? { dataDir: path.join(dataDir, 'db') }
          : {},
  );
  const config = loadConfig({
    ...env,
    DATA_DIR: dataDir,
    WEB_DIST: webDist,
    LOG_LEVEL: 'warn',
    ADMIN_EMAIL: BENCH_ADMIN.email,
    ADMIN_PASSWORD: BENCH_ADMIN.pass,
  });
  await ensureFirstAdmin(database.db, BENCH_ADMIN.email, BENCH_ADMIN.pass);
  const app = await buildApp({ db: database.db, databaseKind: database.kind, config, paymentGateway });
  const base = await app.listen({ port: 0, host: '127.0.0.1' });
  return {
    base,
    app,
    db: database.db,
    kind: database.kind,
    async close() {
      await app.close();
      await database.close();
      await scratch?.drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
