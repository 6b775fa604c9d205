/**
 * How many OCPP chargers one server process holds, and how fast a Hard Reset All reaches them, against a
 * bare ocpp-rpc server doing the same fan-out. For each fleet size N:
 *
 *  1. baseline: `ocpp-baseline.ts` (RPCServer in strict mode, no database, no SSE) in a child process; the
 *     simulated fleet connects and boots; the baseline sends Reset Hard to all of them at once. Timed from
 *     the request (over IPC) to the last answer.
 *  2. ours: `ocpp-server.ts` (the real app, LOG_LEVEL warn, on a fresh database with N chargers) in a child
 *     process; the same fleet connects, boots and is held for `--hold-s` (heartbeats every `--heartbeat-s`);
 *     then GET /api/charger/batch/hard-reset is timed from the request to the last `update` event read;
 *     then the fleet reboots (after `--reboot-ms`) and reconnects.
 *
 * The fleet is tools/src/simulator.ts (non-strict) in child processes of `--per-fleet` chargers
 * (`ocpp-fleet.ts`), which count the OCPP messages their chargers send and receive. "Held" is what the
 * server says: chargers with a connection (connected_node) and a boot in its database. Server memory is the
 * child's VmRSS and VmHWM (/proc). CPU seconds of each process, and of other processes on the machine (which
 * skew the figures), are shown per phase. PGlite on disk by default; a scratch PostgreSQL database when
 * DATABASE_URL is set.
 *
 * `--protocol 2.0.1` runs it all in OCPP 2.0.1 (issue 33): the fleet is the 2.0.1 simulator, the baseline a bare
 * ocpp-rpc 2.0.1 server sending Reset Immediate, ours translates the batch's Reset Hard to Reset Immediate.
 *
 *   npm run bench:ocpp -- --chargers 1000,10000,20000 [--hold-s 35] [--reboot-ms 10000] [--per-fleet 10000]
 *                         [--connect-concurrency 500] [--heartbeat-s 30] [--profile] [--only ours|baseline]
 *                         [--protocol 1.6|2.0.1]
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { createScratchDatabase } from '@ev/tools/scratch-database';
import { signIn } from './common.ts';
import type { BaselineReset } from './ocpp-baseline.ts';
import type { FleetStart } from './ocpp-fleet.ts';
import {
  Child,
  cpuSecondsOf,
  emptyFleetStats,
  type FleetStats,
  fdsOf,
  machineBusySeconds,
  memoryOf,
  sleep,
} from './ocpp-ipc.ts';
import type { MessageLogSize } from './ocpp-server.ts';

const { values: args } = parseArgs({
  options: {
    chargers: { type: 'string', default: '1000,10000' },
    'hold-s': { type: 'string' },
    'reboot-ms': { type: 'string', default: '10000' },
    'per-fleet': { type: 'string', default: '10000' },
    'connect-concurrency': { type: 'string', default: '500' },
    'heartbeat-s': { type: 'string', default: '30' },
    profile: { type: 'boolean', default: false },
    /** For diagnosis: run only one side (no ratio). */
    only: { type: 'string' },
    /** The OCPP version of the fleet and the baseline (default 1.6). */
    protocol: { type: 'string', default: '1.6' },
  },
});
if (args.protocol !== '1.6' && args.protocol !== '2.0.1') {
  console.error('--protocol must be 1.6 or 2.0.1');
  process.exit(2);
}
const protocol = args.protocol;
const sizes = args.chargers.split(',').map((text) => Number(text.replace(/_/g, '')));
const heartbeatS = Number(args['heartbeat-s']);
// Long enough for every charger to send a heartbeat while held.
const holdS = Number(args['hold-s'] ?? heartbeatS + 5);
const rebootMs = Number(args['reboot-ms']);
const perFleet = Number(args['per-fleet']);
const connectConcurrency = Number(args['connect-concurrency']);
const BATCH_TOKEN = 'bench-batch-token-0123456789';
const ADMIN = { email: 'bench-admin@example.com', pass: 'BenchAdmin1' };
const profileDir = path.join(os.tmpdir(), 'ev-bench-profiles');

/** The simulated chargers 1..n, split over processes of `perFleet`. */
class Fleet {
  readonly children: Child[] = [];

  constructor(url: string, n: number) {
    for (let from = 1; from <= n; from += perFleet) {
      this.children.push(
        new Child(`fleet ${from}`, 'ocpp-fleet.ts', {
          FLEET_URL: url,
          FLEET_FROM: String(from),
          FLEET_TO: String(Math.min(n, from + perFleet - 1)),
          FLEET_REBOOT_MS: String(rebootMs),
          FLEET_CONCURRENCY: String(Math.ceil(connectConcurrency / Math.ceil(n / perFleet))),
          FLEET_PROTOCOL: protocol,
        }),
      );
    }
  }

  async ready(): Promise<void> {
    await Promise.all(this.children.map((child) => child.ready));
  }

  async start(): Promise<FleetStart> {
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
    const total = emptyFleetStats();
    for (const part of parts) {
      for (const key of ['sent', 'received', 'connected', 'boots', 'resets', 'closes', 'cpuS'] as const) {
        total[key] += part[key];
      }
      for (const [reason, n] of Object.entries(part.connectErrors)) {
        total.connectErrors[reason] = (total.connectErrors[reason] ?? 0) + n;
      }
    }
    return total;
  }

  stop(): Promise<unknown> {
    return Promise.all(this.children.map((child) => child.stop()));
  }
}

/**
 * With --profile, a child writes V8 CPU profiles of its whole life to $TMPDIR/ev-bench-profiles/<name>/
 * (one per thread: the main thread's is CPU.*.0.001.cpuprofile, tsx's loader thread has its own).
 */
function profileArgs(name: string): string[] {
  if (!args.profile) return [];
  const dir = path.join(profileDir, name);
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  return ['--cpu-prof', `--cpu-prof-dir=${dir}`];
}

const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);

/** Samples a process's RSS every 100 ms; VmHWM (the kernel's high-water mark) gives the true peak. */
function sampleMemory(pid: number) {
  let peakRss = 0;
  const timer = setInterval(() => {
    try {
      peakRss = Math.max(peakRss, memoryOf(pid).rssMb);
    } catch {
      // exited
    }
  }, 100);
  return {
    peak: () => {
      try {
        return Math.max(peakRss, memoryOf(pid).hwmMb);
      } catch {
        return peakRss;
      }
    },
    stop: () => clearInterval(timer),
  };
}

async function until(probe: () => Promise<boolean>, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await probe()) return true;
    await sleep(100);
  }
  return false;
}

interface Snapshot {
  at: number;
  serverCpuS: number;
  fleet: FleetStats;
  machineBusyS: number;
  benchCpuS: number;
}

/** What happened between two snapshots. */
interface Phase {
  s: number;
  /** OCPP messages sent + received by the fleet per second. */
  msgsPerS: number;
  serverCpuS: number;
  fleetCpuS: number;
  /** Cores' worth of CPU used by processes other than the bench's (other work on the machine skews it). */
  othersCores: number;
}

async function snapshot(serverPid: number, fleet: Fleet, at = performance.now()): Promise<Snapshot> {
  const fleetStats = await fleet.stats();
  const { user, system } = process.cpuUsage();
  return {
    at,
    serverCpuS: cpuSecondsOf(serverPid),
    fleet: fleetStats,
    machineBusyS: machineBusySeconds(),
    benchCpuS: (user + system) / 1e6,
  };
}

function phase(from: Snapshot, to: Snapshot): Phase {
  const s = (to.at - from.at) / 1000;
  const messages = (stats: FleetStats) => stats.sent + stats.received;
  return {
    s,
    msgsPerS: (messages(to.fleet) - messages(from.fleet)) / s,
    serverCpuS: to.serverCpuS - from.serverCpuS,
    fleetCpuS: to.fleet.cpuS - from.fleet.cpuS,
    othersCores:
      (to.machineBusyS -
        from.machineBusyS -
        (to.serverCpuS - from.serverCpuS) -
        (to.fleet.cpuS - from.fleet.cpuS) -
        (to.benchCpuS - from.benchCpuS)) /
      s,
  };
}

const describe = (p: Phase) =>
  `${p.s.toFixed(2)} s, ${p.msgsPerS.toFixed(0)} msg/s, ` +
  `CPU s server ${p.serverCpuS.toFixed(1)} / fleet ${p.fleetCpuS.toFixed(1)}` +
  `${p.othersCores > 0.2 ? ` (other processes busy ${p.othersCores.toFixed(1)} cores: figures skewed)` : ''}`;

interface Figures {
  held: number;
  connect: Phase;
  reset: Phase;
  accepted: number;
  peakMb: number;
}

async function runBaseline(n: number): Promise<Figures> {
  const server = new Child(
    'baseline',
    'ocpp-baseline.ts',
    { OCPP_HEARTBEAT_INTERVAL: String(heartbeatS), BASELINE_PROTOCOL: protocol },
    profileArgs(`baseline-${n}`),
  );
  const { port } = (await server.ready) as { port: number };
  const memory = sampleMemory(server.pid);
  const fleet = new Fleet(`ws://127.0.0.1:${port}`, n);
  try {
    await fleet.ready();
    const beforeConnect = await snapshot(server.pid, fleet);
    const connect = await fleet.start();
    const afterConnect = await snapshot(server.pid, fleet);
    reportFailures('baseline', connect);
    await until(async () => (await server.ask<number>('held')) >= connect.started, 10_000);
    const held = await server.ask<number>('held');
    await sleep(2000);
    const beforeReset = await snapshot(server.pid, fleet);
    const reset = await server.ask<BaselineReset>('reset');
    const afterReset = await snapshot(server.pid, fleet);
    return {
      held,
      connect: phase(beforeConnect, afterConnect),
      reset: phase(beforeReset, afterReset),
      accepted: reset.accepted,
      peakMb: memory.peak(),
    };
  } finally {
    memory.stop();
    await fleet.stop();
    await server.stop();
  }
}

interface OurFigures extends Omit<Figures, 'reset'> {
  hold: Phase;
  /** Null when the reset did not finish (`failure` says why). */
  reset: Phase | null;
  failure: string | null;
  idleRssMb: number;
  holdRssMb: number;
  fds: { open: number; limit: number };
  /** When the stream's headers, its first update and the update of half the chargers came. */
  headersS: number;
  firstUpdateS: number;
  halfUpdateS: number;
  results: Record<string, number>;
  /** From the reset to every accepting charger booted again (null: not all came back). */
  backS: number | null;
  heldAfter: number;
  reconnectErrors: Record<string, number>;
  /** The message log at the end (always on): its rows and bytes, and the messages the fleet counted. */
  log: (MessageLogSize & { fleetMessages: number }) | null;
}

async function runOurs(n: number): Promise<OurFigures> {
  const scratch = process.env.DATABASE_URL
    ? await createScratchDatabase(process.env.DATABASE_URL, 'ev_bench')
    : null;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ev-bench-ocpp-'));
  const env = {
    BENCH_CHARGERS: String(n),
    BENCH_DATA_DIR: dataDir,
    DATABASE_URL: scratch?.url ?? '',
    BATCH_COMMAND_TOKEN: BATCH_TOKEN,
    OCPP_HEARTBEAT_INTERVAL: String(heartbeatS),
    ADMIN_EMAIL: ADMIN.email,
    ADMIN_PASSWORD: ADMIN.pass,
  };
  // Seeded by a process of its own: the server's memory then holds nothing of it.
  const seeding = new Child('seed', 'ocpp-server.ts', { ...env, BENCH_SEED: '1' });
  if ((await seeding.exited) !== 0) throw new Error('seeding the chargers failed');
  const server = new Child('server', 'ocpp-server.ts', env, profileArgs(`server-${n}`));
  let fleet: Fleet | null = null;
  let memory: ReturnType<typeof sampleMemory> | null = null;
  try {
    const { port } = (await server.ready) as { port: number };
    const base = `http://127.0.0.1:${port}`;
    memory = sampleMemory(server.pid);
    const accessToken = await signIn(base, ADMIN);
    const idleRssMb = memoryOf(server.pid).rssMb;

    fleet = new Fleet(`ws://127.0.0.1:${port}`, n);
    await fleet.ready();
    const beforeConnect = await snapshot(server.pid, fleet);
    const connect = await fleet.start();
    const afterConnect = await snapshot(server.pid, fleet);
    reportFailures('ours', connect);
    await until(async () => (await server.ask<number>('held')) >= connect.started, 10_000);
    const held = await server.ask<number>('held');

    const beforeHold = await snapshot(server.pid, fleet);
    await sleep(holdS * 1000);
    const afterHold = await snapshot(server.pid, fleet);
    const holdRssMb = memoryOf(server.pid).rssMb;
    const fds = fdsOf(server.pid);

    const figures: OurFigures = {
      held,
      connect: phase(beforeConnect, afterConnect),
      hold: phase(beforeHold, afterHold),
      reset: null,
      accepted: 0,
      idleRssMb,
      holdRssMb,
      peakMb: 0,
      fds,
      headersS: 0,
      firstUpdateS: 0,
      halfUpdateS: 0,
      results: {},
      backS: null,
      heldAfter: 0,
      reconnectErrors: {},
      failure: null,
      log: null,
    };
    const logSize = async () => {
      const stats = await fleet!.stats();
      const size = await server.ask<MessageLogSize>('messageLog');
      figures.log = { ...size, fleetMessages: stats.sent + stats.received };
    };
    const started = performance.now();
    try {
      const beforeReset = await snapshot(server.pid, fleet, started);
      const response = await fetch(
        `${base}/api/charger/batch/hard-reset?token=${encodeURIComponent(BATCH_TOKEN)}`,
        { headers: { 'x-access-token': accessToken } },
      );
      figures.headersS = (performance.now() - started) / 1000;
      if (response.status !== 200) throw new Error(`batch: ${response.status} ${await response.text()}`);
      const { results, lastUpdate, firstUpdate, halfUpdate } = await readUpdates(response, n);
      figures.reset = phase(beforeReset, await snapshot(server.pid, fleet, lastUpdate));
      figures.results = results;
      figures.accepted = results.Accepted ?? 0;
      figures.firstUpdateS = (firstUpdate - started) / 1000;
      figures.halfUpdateS = (halfUpdate - started) / 1000;
    } catch (error) {
      await sleep(500);
      const exit = server.process.exitCode ?? server.process.signalCode;
      figures.failure = `${(error as Error).message}${exit === null ? '' : ` (server exited: ${exit})`}`;
      figures.peakMb = memory.peak();
      await logSize().catch(() => undefined);
      return figures;
    }

    // The fleet reboots and comes back: every charger that took the reset boots again.
    const back = await until(
      async () => (await fleet!.stats()).boots >= afterConnect.fleet.boots + figures.accepted,
      rebootMs + 60_000,
    );
    figures.backS = back ? (performance.now() - started) / 1000 : null;
    await until(async () => (await server.ask<number>('held')) >= held, back ? 10_000 : 0);
    figures.heldAfter = await server.ask<number>('held');
    const reconnectErrors = (await fleet.stats()).connectErrors;
    for (const [reason, count] of Object.entries(afterConnect.fleet.connectErrors)) {
      reconnectErrors[reason] = (reconnectErrors[reason] ?? 0) - count;
      if (reconnectErrors[reason] === 0) delete reconnectErrors[reason];
    }
    figures.reconnectErrors = reconnectErrors;
    figures.peakMb = memory.peak();
    await logSize();
    return figures;
  } finally {
    memory?.stop();
    await fleet?.stop();
    await server.stop();
    await scratch?.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

/** Reads the batch's event stream to its end: results by kind, and when the first and last `update` came. */
async function readUpdates(response: Response, total: number) {
  const results: Record<string, number> = {};
  let count = 0;
  let halfUpdate = 0;
  let firstUpdate = 0;
  let lastUpdate = 0;
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
      const { result } = JSON.parse(block.slice(block.indexOf('data: ') + 6)) as { result: string };
      results[result] = (results[result] ?? 0) + 1;
      lastUpdate = performance.now();
      firstUpdate ||= lastUpdate;
      if (++count === Math.ceil(total / 2)) halfUpdate = lastUpdate;
    }
  }
  return { results, firstUpdate, halfUpdate, lastUpdate };
}

function reportFailures(which: string, connect: FleetStart) {
  if (connect.failed === 0) return;
  const reasons = Object.entries(connect.reasons)
    .sort((a, b) => b[1] - a[1])
    .slice(0, 5)
    .map(([reason, count]) => `${count}x ${reason}`)
    .join('; ');
  console.log(`  ${which}: ${connect.failed} chargers could not connect or boot: ${reasons}`);
}

const database = process.env.DATABASE_URL ? 'PostgreSQL (scratch database)' : 'PGlite on disk';
console.log(
  `OCPP ${protocol} bench: ${database}; ${os.cpus().length} cores; heartbeat ${heartbeatS} s, hold ${holdS} s, ` +
    `reboot ${rebootMs} ms, ${perFleet} chargers per simulator process, BATCH_CONCURRENCY ` +
    `${process.env.BATCH_CONCURRENCY ?? '1000 (default)'}, server LOG_LEVEL warn`,
);
const rows: Array<{ n: number; baseline: Figures; ours: OurFigures }> = [];
for (const n of sizes) {
  console.log(`\n${n.toLocaleString('en')} chargers`);
  if (args.only === 'ours') {
    await runOurs(n).then(printOurs);
    continue;
  }
  const baseline = await runBaseline(n);
  console.log(`  baseline: held ${baseline.held}, peak RSS ${baseline.peakMb.toFixed(0)} MB`);
  console.log(`    connect+boot ${describe(baseline.connect)}`);
  console.log(`    reset        ${describe(baseline.reset)}, ${baseline.accepted} Accepted`);
  if (args.only === 'baseline') continue;
  const ours = await runOurs(n);
  printOurs(ours);
  rows.push({ n, baseline, ours });
}

/** The message log's cost: rows against the messages the fleet counted, bytes per 1,000 of them. */
function describeLog(log: NonNullable<OurFigures['log']>): string {
  const perThousand = log.rows > 0 ? (log.bytes / log.rows) * 1000 : 0;
  return (
    `${log.rows.toLocaleString('en')} rows for ${log.fleetMessages.toLocaleString('en')} fleet messages, ` +
    `${(log.bytes / 1048576).toFixed(1)} MB with indexes (indexes ${(log.indexBytes / 1048576).toFixed(1)} MB): ` +
    `${(perThousand / 1024).toFixed(0)} KB per 1,000 messages`
  );
}

function printOurs(ours: OurFigures): void {
  console.log(
    `  ours: held ${ours.held} (server fds ${ours.fds.open} of ${ours.fds.limit}), RSS idle ` +
      `${ours.idleRssMb.toFixed(0)} MB, held ${ours.holdRssMb.toFixed(0)} MB, peak ${ours.peakMb.toFixed(0)} MB`,
  );
  console.log(`    connect+boot ${describe(ours.connect)}`);
  console.log(`    hold         ${describe(ours.hold)}`);
  if (ours.log) console.log(`    message log  ${describeLog(ours.log)}`);
  if (!ours.reset) {
    console.log(`    reset        FAILED: ${ours.failure}`);
    return;
  }
  console.log(
    `    reset        ${describe(ours.reset)}, updates first / half at ` +
      `${ours.firstUpdateS.toFixed(2)} / ${ours.halfUpdateS.toFixed(2)} s (headers ${ours.headersS.toFixed(2)} s), ` +
      `${JSON.stringify(ours.results)}`,
  );
  const failed = Object.keys(ours.reconnectErrors).length > 0;
  console.log(
    `    back online  ${ours.backS === null ? 'not all' : `${ours.backS.toFixed(1)} s after the reset`}, ` +
      `${ours.heldAfter} held${failed ? `; failed reconnections: ${JSON.stringify(ours.reconnectErrors)}` : ''}`,
  );
}

const f = (value: number, digits = 0) => value.toFixed(digits);
const k = (value: number) => value.toLocaleString('en');
console.log(`\nOCPP ${protocol}, ${database}, ${os.cpus().length} cores`);
console.log(
  '| chargers | held ours / baseline | connect+boot s ours / baseline | server RSS idle / held / peak MB | ' +
    'baseline peak MB | msg/s connect / hold / reset | reset ours s | reset baseline s | ratio | Accepted |',
);
console.log('|---|---|---|---|---|---|---|---|---|---|');
for (const { n, baseline, ours } of rows) {
  const reset = ours.reset;
  console.log(
    `| ${k(n)} | ${k(ours.held)} / ${k(baseline.held)} | ${f(ours.connect.s, 1)} / ${f(baseline.connect.s, 1)} | ` +
      `${f(ours.idleRssMb)} / ${f(ours.holdRssMb)} / ${f(ours.peakMb)} | ${f(baseline.peakMb)} | ` +
      `${f(ours.connect.msgsPerS)} / ${f(ours.hold.msgsPerS)} / ${reset ? f(reset.msgsPerS) : '-'} | ` +
      `${reset ? f(reset.s, 2) : 'failed'} | ${f(baseline.reset.s, 2)} | ` +
      `${reset ? `${f(reset.s / baseline.reset.s, 2)}x` : '-'} | ${k(ours.accepted)} / ${k(baseline.accepted)} |`,
  );
}
for (const { n, baseline, ours } of rows) {
  if (!ours.reset) {
    console.log(`${k(n)}: ${k(ours.held)} held; the reset failed: ${ours.failure}`);
    continue;
  }
  const ratio = ours.reset.s / baseline.reset.s;
  const goal = ratio <= 2 && ours.reset.s < 5 && ours.held === n && ours.accepted === n;
  console.log(
    `${k(n)}: reset ours/baseline ${f(ratio, 2)}x, ${f(ours.reset.s, 2)} s; ` +
      `goal (all held and Accepted, <= 2x, < 5 s) ${goal ? 'met' : 'NOT met'}; ` +
      `connect+boot ours/baseline ${f(ours.connect.s / baseline.connect.s, 2)}x`,
  );
  if (ours.log) console.log(`${k(n)}: message log ${describeLog(ours.log)}`);
}
if (args.profile) console.log(`\nCPU profiles of the servers: ${profileDir}`);
