/**
 * `npm run bench:cluster` (issue 23): three server processes joined by NATS against one process holding the
 * same fleet, in one run, on one scratch PostgreSQL database:
 *
 *  1. one process: the built server (`dist/server.js`, without NATS_URL: one process as it runs today) holds
 *     all 3 × N simulated chargers; `GET /api/charger/batch/hard-reset` is timed from the request to the end of
 *     its event stream (every charger answered and the results written); the fleet then reboots and comes
 *     back; then BENCH_ROUND_TRIPS sequential Open blocker calls (a DataTransfer) to each of two chargers;
 *  2. cluster: three processes (NATS_URL and DATABASE_URL), N chargers connected directly to each (charger n on
 *     process (n - 1) mod 3 by default, as a balancer spreads them; BENCH_PLACEMENT=blocks: 1..N on A); Hard Reset
 *     All started on A, timed the same way; back online; then Open blocker calls on A, alternately to a
 *     charger held by A (in-process) and to one held by B (through NATS).
 *
 * The fleet is the same in both: three `ocpp-fleet.ts` processes of N chargers each (tools/src/simulator.ts,
 * non-strict, as bench/ocpp.ts), which answer Reset Hard with Accepted, close their socket 50 ms later and
 * reconnect after BENCH_REBOOT_MS (20 s: after the reset's time, so the timed window holds the disconnects but
 * not the reconnect storm). A NATS server of the bench's own on a free port (monitoring on, so the messages it
 * carried are counted). Printed: the times and their ratio (goal ≤ 1.5x), the round trips' p50/p99, the CPU
 * seconds each process used during each reset, and the RSS of every process at the end.
 *
 *   npm run bench:cluster     BENCH_CHARGERS_PER_PROCESS (3000), BENCH_REBOOT_MS (20000), BENCH_HOLD_S (10),
 *                             BENCH_ROUND_TRIPS (500), BENCH_WARMUP (50), BENCH_PHASES (one,cluster),
 *                             BENCH_ONE_NATS=1 (the one process with NATS_URL too), BENCH_PROFILE=1 (V8 CPU
 *                             profiles of the servers in $TMPDIR/ev-bench-cluster-profiles), BATCH_CONCURRENCY,
 *                             BENCH_PLACEMENT (interleaved | blocks), BENCH_SERVER_JS (another build's server.js),
 *                             DATABASE_URL (the PostgreSQL server; default postgres://postgres:postgres@127.0.0.1:5432/postgres)
 */
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { createScratchDatabase, type ScratchDatabase } from '@ev/tools/scratch-database';
import pg from 'pg';
import { freePort } from '../apps/server/test/helpers/server-process.ts';
import { buildServerIfStale } from '../tools/build-if-stale.mjs';
import { percentile, signIn } from './common.ts';
import type { FleetStart } from './ocpp-fleet.ts';
import {
  Child,
  cpuSecondsOf,
  emptyFleetStats,
  type FleetStats,
  machineBusySeconds,
  memoryOf,
  sleep,
} from './ocpp-ipc.ts';

const root = path.resolve(import.meta.dirname, '..');
const env = process.env;
const perProcess = Number((env.BENCH_CHARGERS_PER_PROCESS ?? '3000').replace(/_/g, ''));
const rebootMs = Number(env.BENCH_REBOOT_MS ?? 20_000);
const holdS = Number(env.BENCH_HOLD_S ?? 10);
const roundTrips = Number(env.BENCH_ROUND_TRIPS ?? 500);
const warmup = Number(env.BENCH_WARMUP ?? 50);
const phases = (env.BENCH_PHASES ?? 'one,cluster').split(',');
/**
 * Which charger each process holds: `interleaved` (default) charger n on process (n - 1) mod 3, as a load
 * balancer spreads connections; `blocks` 1..N on A, N+1..2N on B, 2N+1..3N on C. The batch commands the
 * chargers in id order, so with blocks its window of BATCH_CONCURRENCY walks one process's chargers at a time.
 */
const placement = env.BENCH_PLACEMENT === 'blocks' ? 'blocks' : 'interleaved';
const oneWithNats = env.BENCH_ONE_NATS === '1';
const postgresUrl = env.DATABASE_URL || 'postgres://postgres:postgres@127.0.0.1:5432/postgres';
const NATS_SERVER_BIN = env.NATS_SERVER_BIN ?? '/usr/sbin/nats-server';
/** Another build of the server to measure (e.g. a patched copy of dist/ beside a node_modules); no rebuild then. */
const serverJs = env.BENCH_SERVER_JS ? path.resolve(env.BENCH_SERVER_JS) : path.join(root, 'dist/server.js');
const BATCH_TOKEN = 'bench-batch-token-0123456789';
const ADMIN = { email: 'bench-admin@example.com', pass: 'BenchAdmin1' };
const HEARTBEAT_S = 30;
const NAMES = ['A', 'B', 'C'] as const;
const total = perProcess * NAMES.length;
const profileDir = path.join(os.tmpdir(), 'ev-bench-cluster-profiles');

// ---------------------------------------------------------------------------------------------------------
// What the bench starts, and how everything is stopped (at the end, on a failure, on Ctrl-C).

/** Stops what is still running, newest first; each runs once. */
const cleanups: Array<() => Promise<unknown>> = [];
function onCleanup(stop: () => Promise<unknown>): () => Promise<void> {
  let done = false;
  const once = async () => {
    if (done) return;
    done = true;
    const index = cleanups.indexOf(once);
    if (index >= 0) cleanups.splice(index, 1);
    await stop().catch((error: unknown) => console.log(`  cleanup: ${(error as Error).message}`));
  };
  cleanups.push(once);
  return once;
}
let cleaning: Promise<void> | null = null;
/** Everything still running, stopped once (the end of the run and a signal may both ask). */
function cleanUp(): Promise<void> {
  cleaning ??= (async () => {
    while (cleanups.length > 0) await cleanups[cleanups.length - 1]!();
  })();
  return cleaning;
}
let interrupted = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (interrupted) process.exit(130);
    interrupted = true;
    console.log(`\n${signal}: stopping everything the bench started`);
    void cleanUp().finally(() => process.exit(130));
  });
}

async function until(probe: () => Promise<boolean>, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await probe()) return true;
    await sleep(100);
  }
  return false;
}

function exitOf(child: ChildProcess): Promise<void> {
  return child.exitCode !== null || child.signalCode !== null
    ? Promise.resolve()
    : new Promise((resolve) => child.once('exit', () => resolve()));
}

/** A server log line (pino JSON) as its message and error; anything else cut at 300 characters. */
function shorten(line: string): string {
  try {
    const entry = JSON.parse(line) as { msg?: string; err?: { message?: string } } | null;
    if (typeof entry !== 'object' || entry === null || !entry.msg) throw new Error('not a log line');
    return [entry.msg, entry.err?.message?.split('\n')[0]?.slice(0, 120)].filter(Boolean).join(': ');
  } catch {
    return line.length > 300 ? `${line.slice(0, 300)}…` : line;
  }
}

/** A NATS server of the bench's own, with its monitoring endpoint (/varz: messages carried, its CPU). */
async function startNats() {
  if (!fs.existsSync(NATS_SERVER_BIN))
    throw new Error(`${NATS_SERVER_BIN} is missing: apt-get install nats-server (or set NATS_SERVER_BIN)`);
  const port = await freePort();
  const monitor = await freePort();
  const child = spawn(NATS_SERVER_BIN, ['-a', '127.0.0.1', '-p', String(port), '-m', String(monitor)], {
    stdio: 'ignore',
  });
  const stop = onCleanup(async () => {
    child.kill('SIGKILL');
    await exitOf(child);
  });
  const varz = async () =>
    (await (await fetch(`http://127.0.0.1:${monitor}/varz`)).json()) as {
      in_msgs: number;
      out_msgs: number;
      in_bytes: number;
      out_bytes: number;
    };
  if (
    !(await until(
      () =>
        varz().then(
          () => true,
          () => false,
        ),
      10_000,
    ))
  )
    throw new Error('the NATS server did not start');
  return { url: `nats://127.0.0.1:${port}`, pid: child.pid!, varz, stop };
}
type Nats = Awaited<ReturnType<typeof startNats>>;

/** `node dist/server.js` on a free port, until /api/ready answers. */
async function startServer(name: string, extra: Record<string, string>) {
  const port = await freePort();
  const execArgv = ['--enable-source-maps'];
  if (env.BENCH_PROFILE === '1') {
    const dir = path.join(profileDir, name);
    fs.rmSync(dir, { recursive: true, force: true });
    fs.mkdirSync(dir, { recursive: true });
    execArgv.push('--cpu-prof', `--cpu-prof-dir=${dir}`);
  }
  const child = spawn(process.execPath, [...execArgv, serverJs], {
    cwd: root,
    env: {
      PATH: env.PATH ?? '',
      PORT: String(port),
      HOST: '127.0.0.1',
      WEB_DIST: '',
      LOG_LEVEL: 'warn',
      LOG_FORMAT: 'json',
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.pass,
      BATCH_COMMAND_TOKEN: BATCH_TOKEN,
      OCPP_HEARTBEAT_INTERVAL: String(HEARTBEAT_S),
      ...(env.BATCH_CONCURRENCY ? { BATCH_CONCURRENCY: env.BATCH_CONCURRENCY } : {}),
      ...extra,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  // Its log lines (warn and above) and errors; of the ready banner only its first line.
  createInterface({ input: child.stdout! }).on('line', (line) => {
    if (line.startsWith('{') || line.includes(' is ready at ')) console.log(`  [${name}] ${shorten(line)}`);
  });
  createInterface({ input: child.stderr! }).on('line', (line) => console.log(`  [${name}] ${shorten(line)}`));
  // SIGTERM: the server closes its sockets, flushes its writes and (with --cpu-prof) writes its profile.
  const stop = onCleanup(async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
    child.kill('SIGTERM');
    await exitOf(child);
    clearTimeout(timer);
  });
  const base = `http://127.0.0.1:${port}`;
  const ready = await until(async () => {
    if (child.exitCode !== null) throw new Error(`server ${name} exited with ${child.exitCode}`);
    return (await fetch(`${base}/api/ready`).catch(() => null))?.status === 200;
  }, 60_000);
  if (!ready) throw new Error(`server ${name} was not ready within 60 s`);
  return { name, port, base, pid: child.pid!, child, stop };
}
type Server = Awaited<ReturnType<typeof startServer>>;

/** The process (0: A, 1: B, 2: C) holding charger number n in the cluster. */
const holderOf = (n: number) => (placement === 'blocks' ? Math.floor((n - 1) / perProcess) : (n - 1) % 3);
/** The charger numbers of process i: from, to, step. */
const chargersOf = (i: number) =>
  placement === 'blocks'
    ? { from: i * perProcess + 1, to: (i + 1) * perProcess, step: 1 }
    : { from: i + 1, to: total, step: NAMES.length };

/** Three simulated fleets of N chargers each (those `chargersOf` process A, B, C), each to the URL given. */
class Fleets {
  readonly children: Child[];
  readonly stop: () => Promise<void>;

  constructor(urls: string[]) {
    this.children = urls.map(
      (url, i) =>
        new Child(`fleet ${NAMES[i]}`, 'ocpp-fleet.ts', {
          FLEET_URL: url,
          FLEET_FROM: String(chargersOf(i).from),
          FLEET_TO: String(chargersOf(i).to),
          FLEET_STEP: String(chargersOf(i).step),
          FLEET_REBOOT_MS: String(rebootMs),
          FLEET_CONCURRENCY: '200',
        }),
    );
    this.stop = onCleanup(() => Promise.all(this.children.map((child) => child.stop())));
  }

  async start(): Promise<FleetStart> {
    await Promise.all(this.children.map((child) => child.ready));
    const parts = await Promise.all(this.children.map((child) => child.ask<FleetStart>('start')));
    const reasons: Record<string, number> = {};
    for (const part of parts) {
      for (const [reason, n] of Object.entries(part.reasons)) reasons[reason] = (reasons[reason] ?? 0) + n;
    }
    return {
      started: sum(parts.map((part) => part.started)),
      failed: sum(parts.map((part) => part.failed)),
      reasons,
      ms: Math.max(...parts.map((part) => part.ms)),
    };
  }

  async stats(): Promise<FleetStats> {
    const parts = await Promise.all(this.children.map((child) => child.ask<FleetStats>('stats')));
    const all = emptyFleetStats();
    for (const part of parts) {
      for (const key of ['sent', 'received', 'connected', 'boots', 'resets', 'closes', 'cpuS'] as const) {
        all[key] += part[key];
      }
      for (const [reason, n] of Object.entries(part.connectErrors)) {
        all.connectErrors[reason] = (all.connectErrors[reason] ?? 0) + n;
      }
    }
    return all;
  }
}

const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);

// ---------------------------------------------------------------------------------------------------------
// The database: chargers seeded once, held counted per process (connected_node is host:pid:random).

let scratch: ScratchDatabase;
let pool: pg.Pool;

async function heldByPid(): Promise<Map<number, number>> {
  const { rows } = await pool.query<{ node: string; n: number }>(
    `select connected_node as node, count(*)::int as n from chargers
     where connected_node is not null and booted_at is not null group by connected_node`,
  );
  return new Map(rows.map((row) => [Number(row.node.split(':')[1]), row.n]));
}

/** Waits until each server holds its share (the store writes every 200 ms); the counts by server. */
async function waitHeld(servers: Server[], each: number, timeoutMs = 120_000): Promise<number[]> {
  let counts: number[] = [];
  await until(async () => {
    const held = await heldByPid();
    counts = servers.map((server) => held.get(server.pid) ?? 0);
    return counts.every((n) => n >= each);
  }, timeoutMs);
  return counts;
}

const login = (base: string) => signIn(base, ADMIN);

// ---------------------------------------------------------------------------------------------------------
// The measures.

interface Usage {
  at: number;
  cpu: number[];
  natsCpu: number;
  fleetCpu: number;
  machine: number;
  bench: number;
  natsMsgs: number;
}

async function usage(servers: Server[], nats: Nats, fleets: Fleets): Promise<Usage> {
  const { user, system } = process.cpuUsage();
  const varz = await nats.varz();
  return {
    at: performance.now(),
    cpu: servers.map((server) => cpuSecondsOf(server.pid)),
    natsCpu: cpuSecondsOf(nats.pid),
    fleetCpu: (await fleets.stats()).cpuS,
    machine: machineBusySeconds(),
    bench: (user + system) / 1e6,
    natsMsgs: varz.in_msgs + varz.out_msgs,
  };
}

/**
 * Connections the kernel dropped because a listener's accept queue was full (TcpExt ListenOverflows, the whole
 * machine's): a reconnect storm faster than a server accepts. The queue is min(backlog, net.core.somaxconn).
 */
function listenOverflows(): number {
  const [names, values] = fs
    .readFileSync('/proc/net/netstat', 'utf8')
    .split('\n')
    .filter((line) => line.startsWith('TcpExt:'))
    .map((line) => line.split(/\s+/));
  return Number(values?.[names?.indexOf('ListenOverflows') ?? -1] ?? Number.NaN);
}

/** CPU seconds each part used between two readings; "others" is mostly PostgreSQL. */
function cpuBetween(from: Usage, to: Usage) {
  const servers = to.cpu.map((cpu, i) => cpu - from.cpu[i]!);
  const nats = to.natsCpu - from.natsCpu;
  const fleet = to.fleetCpu - from.fleetCpu;
  const bench = to.bench - from.bench;
  const machine = to.machine - from.machine;
  return {
    servers,
    nats,
    fleet,
    others: machine - sum(servers) - nats - fleet - bench,
    machine,
    natsMsgs: to.natsMsgs - from.natsMsgs,
  };
}

interface Reset {
  s: number;
  lastUpdateS: number;
  firstUpdateS: number;
  results: Record<string, number>;
  /** When the last update came for the chargers held by each process (s from the request). */
  lastByHolder: number[];
  cpu: ReturnType<typeof cpuBetween>;
  backS: number | null;
  heldAfter: number[];
  /** Reconnections that failed after the reset, by reason (the simulator does not try again). */
  reconnectErrors: Record<string, number>;
  /** Accept-queue overflows from the reset to every charger back (machine-wide). */
  overflows: number;
}

/** Hard Reset All through `via`, to the stream's end; then waits for every accepting charger to boot again. */
async function hardResetAll(via: Server, token: string, servers: Server[], nats: Nats, fleets: Fleets) {
  const before = await usage(servers, nats, fleets);
  const { boots: bootsBefore, connectErrors: errorsBefore } = await fleets.stats();
  const overflowsBefore = listenOverflows();
  const started = performance.now();
  // The monotonic clock (µs), as V8 stamps its CPU profiles' samples: the reset's window in them.
  const monotonic = () => process.hrtime.bigint() / 1000n;
  const window = [monotonic(), 0n];
  const response = await fetch(
    `${via.base}/api/charger/batch/hard-reset?token=${encodeURIComponent(BATCH_TOKEN)}`,
    { headers: { 'x-access-token': token } },
  );
  if (response.status !== 200) throw new Error(`batch: ${response.status} ${await response.text()}`);
  const read = await readUpdates(response, started);
  const ended = performance.now();
  window[1] = monotonic();
  if (env.BENCH_PROFILE === '1')
    console.log(`  the reset in the CPU profiles' clock: ${window.join('..')} µs`);
  const after = await usage(servers, nats, fleets);
  const accepted = read.results.Accepted ?? 0;
  const back = await until(
    async () => (await fleets.stats()).boots >= bootsBefore + accepted,
    rebootMs + 120_000,
  );
  const backS = back ? (performance.now() - started) / 1000 : null;
  const heldAfter = await waitHeld(
    servers,
    servers.length === 1 ? total : perProcess,
    back ? 120_000 : 10_000,
  );
  const reconnectErrors = (await fleets.stats()).connectErrors;
  for (const [reason, n] of Object.entries(errorsBefore)) {
    reconnectErrors[reason] = (reconnectErrors[reason] ?? 0) - n;
    if (reconnectErrors[reason] === 0) delete reconnectErrors[reason];
  }
  return {
    s: (ended - started) / 1000,
    lastUpdateS: read.lastS,
    firstUpdateS: read.firstS,
    results: read.results,
    lastByHolder: read.lastByHolder,
    cpu: cpuBetween(before, after),
    backS,
    heldAfter,
    reconnectErrors,
    overflows: listenOverflows() - overflowsBefore,
  } satisfies Reset;
}

/** Reads the batch's event stream to its end: results by kind, when the first and last `update` came. */
async function readUpdates(response: Response, started: number) {
  const results: Record<string, number> = {};
  const lastByHolder = NAMES.map(() => 0);
  let firstS = 0;
  let lastS = 0;
  const decoder = new TextDecoder();
  let buffer = '';
  for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
    buffer += decoder.decode(chunk, { stream: true });
    let end = buffer.indexOf('\n\n');
    while (end >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      end = buffer.indexOf('\n\n');
      if (!block.startsWith('event: update\n')) {
        if (block.startsWith('event: error\n')) {
          const { message } = JSON.parse(block.slice(block.indexOf('data: ') + 6)) as { message: string };
          throw new Error(`the stream sent an error event: ${message}`);
        }
        continue;
      }
      const { id, result } = JSON.parse(block.slice(block.indexOf('data: ') + 6)) as {
        id: string;
        result: string;
      };
      results[result] = (results[result] ?? 0) + 1;
      lastS = (performance.now() - started) / 1000;
      firstS ||= lastS;
      // BENCH-000001 …
      const holder = holderOf(Number(id.slice(6)));
      if (holder >= 0 && holder < lastByHolder.length) lastByHolder[holder] = lastS;
    }
  }
  return { results, firstS, lastS, lastByHolder };
}

/** Open blocker (POST /api/connector/:id/open-blocker: one DataTransfer) through `base`: ms per call. */
async function blocker(base: string, token: string, connectorId: number): Promise<number> {
  const started = performance.now();
  const response = await fetch(`${base}/api/connector/${connectorId}/open-blocker`, {
    method: 'POST',
    headers: { 'x-access-token': token, 'content-type': 'application/json' },
    body: '{}',
  });
  const text = await response.text();
  const ms = performance.now() - started;
  if (response.status !== 200) throw new Error(`open-blocker ${connectorId}: ${response.status} ${text}`);
  return ms;
}

/**
 * `roundTrips` sequential calls to each connector after `warmup` of each; the connectors' calls alternate
 * (and which goes first alternates), so both see the same machine.
 */
async function roundTripsOf(base: string, token: string, connectorIds: number[]): Promise<number[][]> {
  const times = connectorIds.map(() => [] as number[]);
  for (let i = 0; i < warmup + roundTrips; i++) {
    const order = i % 2 === 0 ? connectorIds.keys() : [...connectorIds.keys()].reverse();
    for (const k of order) {
      const ms = await blocker(base, token, connectorIds[k]!);
      if (i >= warmup) times[k]!.push(ms);
    }
  }
  return times;
}

const stats = (values: number[]) => ({
  p50: percentile(values, 50),
  p99: percentile(values, 99),
  mean: sum(values) / values.length,
});

// ---------------------------------------------------------------------------------------------------------
// The phases.

interface PhaseFigures {
  label: string;
  connect: FleetStart;
  held: number[];
  reset: Reset;
  trips: Record<string, ReturnType<typeof stats>>;
  rss: Record<string, { rssMb: number; hwmMb: number }>;
}

function rssOf(label: string, servers: Server[], fleets: Fleets, nats: Nats | null) {
  const rss: PhaseFigures['rss'] = {};
  const read = (name: string, pid: number) => {
    try {
      rss[name] = memoryOf(pid);
    } catch {
      // exited
    }
  };
  for (const server of servers) read(`${label} server ${server.name}`, server.pid);
  for (const child of fleets.children) read(`${label} ${child.name}`, child.pid);
  if (nats) read('nats-server', nats.pid);
  return rss;
}

async function runPhase(label: string, nats: Nats, cluster: boolean): Promise<PhaseFigures> {
  const names = cluster ? NAMES : (['one'] as const);
  const extra: Record<string, string> = { DATABASE_URL: scratch.url };
  if (cluster || oneWithNats) extra.NATS_URL = nats.url;
  const servers: Server[] = [];
  let fleets: Fleets | null = null;
  try {
    for (const name of names) {
      const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ev-bench-cluster-'));
      onCleanup(async () => fs.rmSync(dataDir, { recursive: true, force: true }));
      servers.push(await startServer(name, { ...extra, DATA_DIR: dataDir }));
    }
    const urls = NAMES.map((_, i) => `ws://127.0.0.1:${servers[cluster ? i : 0]!.port}`);
    fleets = new Fleets(urls);
    const connect = await fleets.start();
    if (connect.failed > 0)
      console.log(`  ${connect.failed} chargers failed: ${JSON.stringify(connect.reasons)}`);
    const held = await waitHeld(servers, cluster ? perProcess : total);
    console.log(
      `  ${label}: ${servers.map((s, i) => `${s.name} holds ${held[i]}`).join(', ')} ` +
        `(connect+boot ${(connect.ms / 1000).toFixed(1)} s); holding ${holdS} s`,
    );
    await sleep(holdS * 1000);
    const token = await login(servers[0]!.base);

    const reset = await hardResetAll(servers[0]!, token, servers, nats, fleets);
    console.log(
      `  ${label}: Hard Reset All ${reset.s.toFixed(2)} s (last update ${reset.lastUpdateS.toFixed(2)} s), ` +
        `${JSON.stringify(reset.results)}; back online ${reset.backS === null ? 'not all' : `${reset.backS.toFixed(1)} s after the request`}, ` +
        `${sum(reset.heldAfter)} held` +
        (Object.keys(reset.reconnectErrors).length > 0
          ? `; failed reconnections: ${JSON.stringify(reset.reconnectErrors)}`
          : '') +
        `; accept-queue overflows ${reset.overflows}`,
    );
    // PostgreSQL takes 0.1–0.2 of a core during a reset; more is other work on the machine.
    const othersCores = reset.cpu.others / reset.s;
    if (othersCores > 0.4)
      console.log(
        `  WARNING: other processes (PostgreSQL and the rest) used ${othersCores.toFixed(1)} cores during the reset: figures skewed`,
      );
    await sleep(2000);

    // Connector n belongs to charger n: the first of A's and the first of B's (both on the one process).
    const local = chargersOf(0).from;
    const remote = chargersOf(1).from;
    const [localTimes, remoteTimes] = await roundTripsOf(servers[0]!.base, token, [local, remote]);
    const trips: PhaseFigures['trips'] = cluster
      ? { 'in-process (A → A)': stats(localTimes!), 'through NATS (A → B)': stats(remoteTimes!) }
      : {
          [`${label}, charger ${local}`]: stats(localTimes!),
          [`${label}, charger ${remote}`]: stats(remoteTimes!),
        };
    return { label, connect, held, reset, trips, rss: rssOf(label, servers, fleets, nats) };
  } finally {
    await fleets?.stop();
    for (const server of servers) await server.stop();
  }
}

// ---------------------------------------------------------------------------------------------------------

const f = (value: number, digits = 2) => value.toFixed(digits);
const k = (value: number) => value.toLocaleString('en');
const signed = (value: number) => `${value >= 0 ? '+' : '−'}${f(Math.abs(value))}`;

async function main(): Promise<void> {
  if (!env.BENCH_SERVER_JS) await buildServerIfStale();
  const cpu = os.cpus();
  console.log(
    `Cluster bench: ${cpu.length} cores (${cpu[0]?.model.trim()}), ${f(os.totalmem() / 2 ** 30, 1)} GB, ` +
      `Node ${process.version}; ${k(perProcess)} chargers per process (${k(total)} in all); ` +
      `BATCH_CONCURRENCY ${env.BATCH_CONCURRENCY ?? '1000 (default)'}; reboot ${rebootMs} ms; ` +
      `one process ${oneWithNats ? 'with' : 'without'} NATS_URL; placement ${placement}` +
      (env.BENCH_SERVER_JS ? `; server ${serverJs}` : ''),
  );
  const nats = await startNats();
  scratch = await createScratchDatabase(postgresUrl, 'ev_bench_cluster');
  const dropScratch = onCleanup(() => scratch.drop());
  pool = new pg.Pool({ connectionString: scratch.url, max: 2 });
  const closePool = onCleanup(() => pool.end());
  // Migrations, the admin and the chargers, by a process of its own (bench/ocpp-server.ts).
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ev-bench-cluster-seed-'));
  const seeding = new Child('seed', 'ocpp-server.ts', {
    BENCH_SEED: '1',
    BENCH_CHARGERS: String(total),
    BENCH_DATA_DIR: dataDir,
    DATABASE_URL: scratch.url,
    ADMIN_EMAIL: ADMIN.email,
    ADMIN_PASSWORD: ADMIN.pass,
  });
  const seeded = await seeding.exited;
  fs.rmSync(dataDir, { recursive: true, force: true });
  if (seeded !== 0) throw new Error('seeding the chargers failed');
  // A blocker on every connector, for the round trips' Open blocker.
  await pool.query('update connectors set judjod_id = 1');

  const results: PhaseFigures[] = [];
  if (phases.includes('one'))
    results.push(await runPhase(`one process${oneWithNats ? ' (NATS_URL set)' : ''}`, nats, false));
  if (phases.includes('cluster')) results.push(await runPhase('cluster', nats, true));

  console.log('\nHard Reset All (request to the end of the event stream)');
  console.table(
    results.map(({ label, held, reset }) => ({
      setup: label,
      held: held.join(' / '),
      's to stream end': f(reset.s),
      's to last update': f(reset.lastUpdateS),
      "last update of A's / B's / C's s": reset.lastByHolder.map((s) => f(s)).join(' / '),
      results: JSON.stringify(reset.results),
      'back online s': reset.backS === null ? `not all (${sum(reset.heldAfter)} held)` : f(reset.backS, 1),
      'CPU s servers': reset.cpu.servers.map((s) => f(s, 1)).join(' + '),
      'CPU s fleet / NATS / others': `${f(reset.cpu.fleet, 1)} / ${f(reset.cpu.nats, 1)} / ${f(reset.cpu.others, 1)}`,
      'NATS msgs': k(reset.cpu.natsMsgs),
    })),
  );
  const one = results.find((r) => !r.label.startsWith('cluster'));
  const cluster = results.find((r) => r.label.startsWith('cluster'));
  if (one && cluster) {
    const ratio = cluster.reset.s / one.reset.s;
    console.log(
      `cluster / one process: ${f(ratio)}x (${f(cluster.reset.s)} s against ${f(one.reset.s)} s); ` +
        `goal <= 1.5x ${ratio <= 1.5 ? 'met' : 'NOT met'}`,
    );
  }

  console.log(
    `\nCommand round trip: Open blocker (DataTransfer) through the API, ${roundTrips} sequential calls`,
  );
  const tripRows = results.flatMap(({ trips }) =>
    Object.entries(trips).map(([route, s]) => ({
      route,
      'p50 ms': f(s.p50),
      'p99 ms': f(s.p99),
      'mean ms': f(s.mean),
    })),
  );
  console.table(tripRows);
  if (cluster) {
    const local = cluster.trips['in-process (A → A)']!;
    const remote = cluster.trips['through NATS (A → B)']!;
    console.log(
      `through NATS − in-process: p50 ${signed(remote.p50 - local.p50)} ms (${f(remote.p50 / local.p50)}x), ` +
        `p99 ${signed(remote.p99 - local.p99)} ms (${f(remote.p99 / local.p99)}x)`,
    );
  }

  console.log('\nRSS at the end of each phase (MB; high-water mark)');
  console.table(
    Object.fromEntries(
      results.flatMap(({ rss }) =>
        Object.entries(rss).map(([name, m]) => [name, { 'RSS MB': f(m.rssMb, 0), 'peak MB': f(m.hwmMb, 0) }]),
      ),
    ),
  );
  if (env.BENCH_PROFILE === '1') console.log(`CPU profiles of the servers: ${profileDir}`);
  await closePool();
  await dropScratch();
}

try {
  await main();
} catch (error) {
  // Stopped by a signal: what failed then is the processes going away under the measures.
  if (!interrupted) throw error;
} finally {
  await cleanUp();
}
if (interrupted) process.exit(130);
