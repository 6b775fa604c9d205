/**
 * `npm run bench:memory`: the built server's resident memory (RSS, read from /proc) with the demo data, on the
 * embedded database and on PostgreSQL:
 *   1. the demo loads into an empty database (dist/demo.js, no simulators): RSS of that process once ready;
 *   2. the production server (dist/server.js) starts on that data: time to /api/health and RSS at rest;
 *   3. it is killed (kill -9) and started again: time to /api/health after a crash;
 *   4. BENCH_MINUTES (10) of the demo's simulated traffic from this process (every demo charger over OCPP, the
 *      demo members booking, charging and paying through the API): RSS every 30 s, then at rest again.
 * Growth across the traffic with no rest-level return shows a leak.
 *
 *   npm run bench:memory        BENCH_MINUTES=10, BENCH_DATABASES=pglite,postgres,
 *                               DATABASE_URL (PostgreSQL server; default postgres://postgres:postgres@127.0.0.1:5432/postgres)
 *   BENCH_CWD=/other/checkout BENCH_SERVER='node --import tsx apps/server/src/main.ts' BENCH_DEMO='…' to measure another
 *   build of the server (e.g. an older commit) with the same traffic.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { startDemoMemberSimulator } from '@ev/tools/member-simulator';
import { createScratchDatabase } from '@ev/tools/scratch-database';
import { simulateChargers } from '@ev/tools/simulator';
import { fleetFromApi } from '@ev/tools/simulator-fleet';
import { buildServerIfStale } from '../tools/build-if-stale.mjs';

const root = path.resolve(import.meta.dirname, '..');
const cwd = process.env.BENCH_CWD ? path.resolve(process.env.BENCH_CWD) : root;
const minutes = Number(process.env.BENCH_MINUTES ?? 10);
const databases = (process.env.BENCH_DATABASES ?? 'pglite,postgres').split(',');
const serverCommand = (process.env.BENCH_SERVER ?? 'node dist/server.js').split(' ');
const demoCommand = (process.env.BENCH_DEMO ?? 'node dist/demo.js').split(' ');
const postgresUrl = process.env.DATABASE_URL || 'postgres://postgres:postgres@127.0.0.1:5432/postgres';
const ADMIN = { email: 'admin@example.com', pass: 'Admin1234' };
/** The server's own view of its memory (GET /metrics): the JS heap against what the RSS holds besides. */
const METRICS_TOKEN = 'bench-memory-metrics-token';

async function heapOf(port: number): Promise<string> {
  const text = await fetch(`http://127.0.0.1:${port}/metrics`, {
    headers: { authorization: `Bearer ${METRICS_TOKEN}` },
  })
    .then((response) => (response.ok ? response.text() : ''))
    .catch(() => '');
  const value = (name: string) => Number(new RegExp(`^${name} (\\S+)`, 'm').exec(text)?.[1] ?? Number.NaN);
  const used = value('nodejs_heap_size_used_bytes');
  const total = value('nodejs_heap_size_total_bytes');
  const external = value('nodejs_external_memory_bytes');
  return Number.isNaN(used) ? 'heap ?' : `JS heap ${mb(used)} used of ${mb(total)}, external ${mb(external)}`;
}

if (!process.env.BENCH_CWD) await buildServerIfStale();

const mb = (bytes: number) => `${Math.round(bytes / 1024 / 1024)} MB`;

function rssOf(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? Number.NaN);
  return kb * 1024;
}

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

function start(command: string[], env: Record<string, string>): ChildProcess {
  const [program, ...args] = command;
  return spawn(program === 'node' ? process.execPath : program!, args, {
    cwd,
    env: { ...process.env, LOG_LEVEL: 'warn', HOST: '127.0.0.1', WEB_DIST: '', ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
}

/** Milliseconds from `since` until /api/health answers 200. */
async function healthy(port: number, child: ChildProcess, since: number): Promise<number> {
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode}`);
    const ok = await fetch(`http://127.0.0.1:${port}/api/health`)
      .then((response) => response.ok)
      .catch(() => false);
    if (ok) return performance.now() - since;
    await sleep(20);
  }
}

function exited(child: ChildProcess): Promise<void> {
  return child.exitCode !== null
    ? Promise.resolve()
    : new Promise((resolve) => child.once('exit', () => resolve()));
}

async function measure(kind: string) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ev-bench-memory-'));
  const scratch = kind === 'postgres' ? await createScratchDatabase(postgresUrl, 'ev_bench') : null;
  const env = {
    METRICS_TOKEN,
    DATA_DIR: dataDir,
    DATABASE_URL: scratch?.url ?? '',
    DEMO_DATA: '0',
    SIMULATE_CHARGERS: '0',
  };
  const port = await freePort();
  const figures: Record<string, string> = {};
  try {
    // 1. The demo loads into the empty database.
    let since = performance.now();
    const demo = start(demoCommand, { ...env, PORT: String(port), DEMO_DATA: '1' });
    await healthy(port, demo, since);
    await sleep(5000);
    figures['demo loaded, in its process'] = mb(rssOf(demo.pid!));
    demo.kill('SIGTERM');
    await exited(demo);

    // 2. The server starts on the data.
    since = performance.now();
    let server = start(serverCommand, { ...env, PORT: String(port) });
    figures['start to /api/health'] = `${Math.round(await healthy(port, server, since))} ms`;
    await sleep(15_000);
    figures['at rest after start'] = mb(rssOf(server.pid!));

    // 3. A crash and a start again.
    server.kill('SIGKILL');
    await exited(server);
    since = performance.now();
    server = start(serverCommand, { ...env, PORT: String(port) });
    figures['start after kill -9 to /api/health'] = `${Math.round(await healthy(port, server, since))} ms`;
    await sleep(15_000);
    const rest = rssOf(server.pid!);
    figures['at rest after kill -9 and start'] = mb(rest);
    figures['… of which'] = await heapOf(port);

    // 4. The demo's traffic.
    const base = `http://127.0.0.1:${port}`;
    const fleet = await fleetFromApi(base, ADMIN);
    const simulation = await simulateChargers(fleet, {
      url: `ws://127.0.0.1:${port}`,
      activity: true,
      activityMs: 8000,
    });
    let warnings = 0;
    const members = await startDemoMemberSimulator(base, simulation, () => warnings++);
    const samples: number[] = [];
    const ends = performance.now() + minutes * 60_000;
    while (performance.now() < ends) {
      await sleep(Math.min(30_000, Math.max(0, ends - performance.now())));
      samples.push(rssOf(server.pid!));
      console.log(
        `  ${kind}: ${samples.length * 0.5} min of traffic, RSS ${mb(samples.at(-1)!)} (${await heapOf(port)}; ${fleet.length - simulation.failed.length} chargers, journeys ${members.stats.started} started, ${members.stats.paid} paid)`,
      );
    }
    await members.stop();
    await simulation.stop();
    figures[`after ${minutes} min of traffic`] = mb(samples.at(-1) ?? Number.NaN);
    figures['highest during traffic'] = mb(Math.max(...samples));
    await sleep(30_000);
    const after = rssOf(server.pid!);
    figures['at rest after the traffic'] = mb(after);
    figures['… of which '] = await heapOf(port);
    figures['growth at rest'] = `${after >= rest ? '+' : ''}${mb(after - rest)}`;
    figures['simulated members’ warnings'] = String(warnings);
    server.kill('SIGTERM');
    await exited(server);
  } finally {
    await scratch?.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
  return figures;
}

console.log(
  `Memory of ${serverCommand.join(' ')} in ${cwd}, Node ${process.version}, ${minutes} min of traffic per database`,
);
const results: Record<string, Record<string, string>> = {};
for (const kind of databases) results[kind] = await measure(kind);
// One row per figure, one column per database.
const rows: Record<string, Record<string, string>> = {};
for (const [kind, figures] of Object.entries(results)) {
  for (const [figure, value] of Object.entries(figures)) rows[figure] = { ...rows[figure], [kind]: value };
}
console.log('');
console.table(rows);
process.exit(0);
