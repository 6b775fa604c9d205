/**
 * Requests per second and p99 latency of an authenticated GET /api/user/self (token lookup, role check,
 * profile and terms queries) against the unauthenticated GET /api/health (one trivial query), measured on
 * the same server in the same run, and their ratio. The server runs in a child process on a fresh
 * database (PGlite, or PostgreSQL when DATABASE_URL is set) so the load generator does not share its core.
 *
 *   npm run bench            BENCH_SECONDS=10 BENCH_CONNECTIONS=10 by default
 */
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createScratchDatabase } from '@ev/tools/scratch-database';
import autocannon from 'autocannon';
import { signIn } from './common.ts';

const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 10);
const port = 3900 + Math.floor(Math.random() * 90);
const base = `http://127.0.0.1:${port}`;
const root = path.resolve(import.meta.dirname, '..');
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ev-bench-'));
const ADMIN = { email: 'bench-admin@example.com', pass: 'BenchAdmin1' };

async function waitForHealth(child: ChildProcess): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
    try {
      if ((await fetch(`${base}/api/health`)).ok) return;
    } catch {
      // not up yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('server did not become ready');
}

interface Figures {
  name: string;
  rps: number;
  p99: number;
  p50: number;
  errors: number;
  non2xx: number;
}

async function measure(name: string, url: string, headers: Record<string, string>): Promise<Figures> {
  // Warm up (JIT, connection pool, caches) before the measured run.
  await autocannon({ url, headers, connections, duration: 2 });
  const result = await autocannon({ url, headers, connections, duration: seconds });
  return {
    name,
    rps: result.requests.average,
    p99: result.latency.p99,
    p50: result.latency.p50,
    errors: result.errors,
    non2xx: result.non2xx,
  };
}

// With DATABASE_URL, the bench gets a database of its own on that server, dropped at the end.
const scratch = process.env.DATABASE_URL
  ? await createScratchDatabase(process.env.DATABASE_URL, 'ev_bench')
  : null;

const child = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
  cwd: root,
  env: {
    ...process.env,
    DATABASE_URL: scratch?.url ?? '',
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    WEB_DIST: '',
    DEMO_DATA: '0',
    LOG_LEVEL: 'warn',
    ADMIN_EMAIL: ADMIN.email,
    ADMIN_PASSWORD: ADMIN.pass,
  },
  stdio: ['ignore', 'ignore', 'inherit'],
});

try {
  await waitForHealth(child);
  const accessToken = await signIn(base, ADMIN);
  const health = await measure('GET /api/health (baseline)', `${base}/api/health`, {});
  const self = await measure('GET /api/user/self (authenticated)', `${base}/api/user/self`, {
    'x-access-token': accessToken,
  });
  const database = process.env.DATABASE_URL ? 'PostgreSQL server' : 'PGlite (embedded)';
  console.log(
    `\n${database}, ${connections} connections, ${seconds} s per endpoint, ${os.cpus().length} cores\n`,
  );
  console.log('endpoint                              req/s     p50 ms   p99 ms   errors  non-2xx');
  for (const f of [health, self]) {
    console.log(
      `${f.name.padEnd(36)} ${f.rps.toFixed(0).padStart(7)} ${f.p50.toFixed(1).padStart(9)} ${f.p99.toFixed(1).padStart(8)} ${String(f.errors).padStart(8)} ${String(f.non2xx).padStart(8)}`,
    );
  }
  console.log(
    `\nratio self/health: throughput ${(self.rps / health.rps).toFixed(2)}x, p99 latency ${(self.p99 / Math.max(health.p99, 0.001)).toFixed(2)}x`,
  );
  if (self.non2xx > 0 || health.non2xx > 0) {
    console.error('some requests failed: the figures are not valid');
    process.exitCode = 1;
  }
} finally {
  child.kill('SIGTERM');
  await new Promise((resolve) => child.once('exit', resolve));
  fs.rmSync(dataDir, { recursive: true, force: true });
  await scratch?.drop();
}
