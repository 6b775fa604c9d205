// `npm run cluster -- --processes 3 [--port 3000] [--fresh]`: a local cluster to watch work: N server
// processes on one PostgreSQL database, joined through NATS, behind HAProxy on --port (processes on port+1..port+N),
// with the demo (data, simulated chargers and members, all through HAProxy). Ctrl-C stops everything.
// README, "Several processes (cluster)"; docs/cluster.md.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { buildIfStale, buildServerIfStale } from './build-if-stale.mjs';
import { requireNode24 } from './node-version.mjs';

requireNode24();
const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const tty = process.stdout.isTTY === true;
const paint = (code, text) => (tty ? `\x1b[${code}m${text}\x1b[0m` : text);
const say = (message) => console.log(`${paint('1', '[cluster]')} ${message}`);
const shout = (message) => console.error(paint('1;31', `[cluster] ${message}`));
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
/** While stopping: stopAll ends the process. */
const never = () => new Promise(() => undefined);

let options;
try {
  ({ values: options } = parseArgs({
    options: {
      processes: { type: 'string', default: '3' },
      port: { type: 'string', default: '3000' },
      fresh: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
  }));
} catch (error) {
  console.error(`${error.message}\nUsage: npm run cluster -- [--processes N] [--port P] [--fresh]`);
  process.exit(2);
}
if (options.help) {
  console.log(`Usage: npm run cluster -- [--processes N] [--port P] [--fresh]
  --processes N  server processes (default 3); process 1 runs the demo (data, simulated chargers, members)
  --port P       HAProxy's port (default 3000); the processes listen on 127.0.0.1, ports P+1..P+N
  --fresh        drop and recreate the ev_cluster database first
Environment: DATABASE_URL (default postgres://postgres:postgres@127.0.0.1:5432/ev_cluster, created if missing),
NATS_URL (default nats://127.0.0.1:4222), and any server variable (README, Environment variables).`);
  process.exit(0);
}
const count = Number(options.processes);
const lbPort = Number(options.port);
if (!Number.isInteger(count) || count < 1 || count > 16) {
  console.error('--processes: a whole number from 1 to 16');
  process.exit(2);
}
if (!Number.isInteger(lbPort) || lbPort < 1 || lbPort + count > 65535) {
  console.error(`--port: a port from 1 to ${65535 - count}`);
  process.exit(2);
}
const databaseUrl = process.env.DATABASE_URL || 'postgres://postgres:postgres@127.0.0.1:5432/ev_cluster';
const natsUrl = process.env.NATS_URL || 'nats://127.0.0.1:4222';
const shown = (url) => url.replace(/\/\/([^:/@]+):[^@/]*@/, '//$1:***@');

// --- What the cluster needs: HAProxy, NATS, PostgreSQL, free ports (checked first: quick), then the build. ---

// Debian installs HAProxy in /usr/sbin, which is not on an ordinary user's PATH.
const haproxy = ['haproxy', '/usr/sbin/haproxy'].find(
  (command) => !spawnSync(command, ['-v'], { stdio: 'ignore' }).error,
);
if (!haproxy) {
  console.error('HAProxy is not installed. On Debian or Ubuntu: apt-get install -y haproxy');
  process.exit(1);
}

function answers(host, port, timeoutMs = 2000) {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port });
    const done = (ok) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

let nats;
try {
  nats = new URL(natsUrl.split(',')[0].trim());
} catch {
  console.error(`NATS_URL: a nats:// URL such as nats://127.0.0.1:4222, not ${natsUrl}`);
  process.exit(2);
}
if (!(await answers(nats.hostname, Number(nats.port) || 4222))) {
  console.error(`NATS does not answer at ${shown(natsUrl)} (NATS_URL).
Install Debian's nats-server package and start it:
  apt-get install -y nats-server
  nats-server -a 127.0.0.1 -p 4222 -js &`);
  process.exit(1);
}

async function prepareDatabase() {
  const target = new URL(databaseUrl);
  const name = decodeURIComponent(target.pathname.slice(1));
  if (!name) throw new Error(`DATABASE_URL names no database: ${shown(databaseUrl)}`);
  if (options.fresh && !name.startsWith('ev_cluster')) {
    // A DATABASE_URL left in the environment may point at data that matters: drop only what this script made.
    console.error(`--fresh drops only a database named ev_cluster…, not '${name}': drop it yourself.`);
    process.exit(2);
  }
  const maintenance = new URL(databaseUrl);
  maintenance.pathname = '/postgres';
  const client = new pg.Client({ connectionString: maintenance.href, connectionTimeoutMillis: 5000 });
  await client.connect();
  try {
    const quoted = `"${name.replace(/"/g, '""')}"`;
    if (options.fresh) {
      say(`--fresh: dropping the database ${name}`);
      await client.query(`drop database if exists ${quoted} with (force)`);
    }
    const { rowCount } = await client.query('select 1 from pg_database where datname = $1', [name]);
    if (!rowCount) {
      await client.query(`create database ${quoted}`);
      say(`Created the database ${name}: process 1 loads the demo into it`);
    }
  } finally {
    await client.end();
  }
}
try {
  await prepareDatabase();
} catch (error) {
  console.error(`PostgreSQL does not answer at ${shown(databaseUrl)} (DATABASE_URL): ${error.message}
Start it (Debian: pg_ctlcluster 15 main start) or set DATABASE_URL to a server you may create a database on.`);
  process.exit(1);
}

function free(port, host) {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once('error', () => resolve(false));
    server.listen({ port, host, exclusive: true }, () => server.close(() => resolve(true)));
  });
}
const ports = Array.from({ length: count }, (_, i) => lbPort + 1 + i);
for (const [port, host] of [[lbPort, '0.0.0.0'], ...ports.map((port) => [port, '127.0.0.1'])]) {
  if (!(await free(port, host))) {
    console.error(`Port ${port} is in use (npm start, or another cluster?): stop it or pick --port.`);
    process.exit(1);
  }
}
buildIfStale();
await buildServerIfStale();

// --- The children: output prefixed with their name, stopped together. ---

/** @type {Array<{ name: string, port: number | null, child: import('node:child_process').ChildProcess, exited: Promise<void>, done: boolean }>} */
const children = [];
let stopping = false;
const COLORS = ['36', '33', '35', '32', '34', '96', '93', '95'];

function run(name, command, args, env, onLine = () => undefined) {
  const child = spawn(command, args, {
    cwd: root,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
    // A group of its own: Ctrl-C reaches the children through us, once, in the order below.
    detached: true,
  });
  const prefix = paint(name === 'lb' ? '90' : COLORS[children.length % COLORS.length], `[${name}]`);
  for (const [stream, out] of [
    [child.stdout, process.stdout],
    [child.stderr, process.stderr],
  ]) {
    readline.createInterface({ input: stream }).on('line', (line) => {
      out.write(`${prefix} ${line}\n`);
      onLine(line);
    });
  }
  const entry = { name, port: null, child, done: false, exited: null };
  entry.exited = new Promise((resolve) => {
    child.once('error', (error) => {
      shout(`${name} could not start: ${error.message}`);
      entry.done = true;
      resolve();
    });
    child.once('exit', (code, signal) => {
      entry.done = true;
      resolve();
      if (!stopping) unexpectedExit(entry, code, signal);
    });
  });
  children.push(entry);
  return entry;
}

function unexpectedExit(entry, code, signal) {
  const how = signal ? `killed by ${signal}` : `exit code ${code}`;
  if (entry.name === 'lb') {
    shout(`HAProxy exited (${how}): the cluster is unreachable. Stopping.`);
    void stopAll(1);
    return;
  }
  const alive = children.filter((c) => c.name !== 'lb' && !c.done);
  shout(
    `!!! ${entry.name} (port ${entry.port}, pid ${entry.child.pid}) exited unexpectedly (${how}); not restarted.`,
  );
  if (!ready) {
    shout('The cluster was still starting: stopping.');
    void stopAll(1);
  } else if (alive.length === 0) {
    shout('No server process is left: stopping.');
    void stopAll(1);
  } else {
    shout(
      entry.name === 'p1'
        ? '!!! p1 ran the simulated chargers and members: they are gone with it, and their chargers show offline.'
        : `!!! Its chargers reconnect through HAProxy to ${alive.map((c) => c.name).join(', ')} (HAProxy marks ${entry.name} DOWN after 2 failed checks).`,
    );
  }
}

const KILL_AFTER_MS = 12_000;
async function stopChildren(list) {
  const alive = list.filter((c) => !c.done);
  for (const c of alive) c.child.kill('SIGTERM');
  const killer = setTimeout(() => {
    for (const c of alive.filter((c) => !c.done)) {
      shout(`${c.name} did not stop within ${KILL_AFTER_MS / 1000} s: SIGKILL`);
      c.child.kill('SIGKILL');
    }
  }, KILL_AFTER_MS);
  await Promise.all(alive.map((c) => c.exited));
  clearTimeout(killer);
}

let workDir = null;
let signalledAt = 0;
async function stopAll(code) {
  if (stopping) return;
  stopping = true;
  say(
    'Stopping: p1 first (its simulated chargers leave before the other processes close their sockets), then the rest and HAProxy…',
  );
  await stopChildren(children.filter((c) => c.name === 'p1'));
  await stopChildren(children.filter((c) => c.name !== 'p1'));
  if (workDir) fs.rmSync(workDir, { recursive: true, force: true });
  say('Stopped.');
  process.exit(code);
}
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.on(signal, () => {
    if (!stopping) {
      signalledAt = Date.now();
      return void stopAll(0);
    }
    // A second Ctrl-C: out now (not the same one twice, e.g. the terminal's and npm's).
    if (Date.now() - signalledAt < 1000) return;
    for (const c of children.filter((c) => !c.done)) c.child.kill('SIGKILL');
    process.exit(1);
  });
}

async function waitReady(entry, label) {
  const started = Date.now();
  let noted = started;
  for (;;) {
    if (stopping || entry.done) return never();
    const status = await fetch(`http://127.0.0.1:${entry.port}/api/ready`, {
      signal: AbortSignal.timeout(2000),
    })
      .then((response) => response.status)
      .catch(() => 0);
    if (status === 200) return Date.now() - started;
    if (Date.now() - noted >= 15_000) {
      noted = Date.now();
      say(`${entry.name} not ready yet (${Math.round((noted - started) / 1000)} s): ${label}`);
    }
    await sleep(500);
  }
}

// --- The start, in this order, for the demo's chargers to spread over every process:
// 1. p1 alone: it migrates the database and loads the demo into it (other processes migrating at the same time
//    would race it), then listens and starts its simulated chargers and members towards HAProxy, which does not
//    listen yet: with SIMULATOR_URL set they retry every 1 to 3 s (tools/src/demo-main.ts).
// 2. p2..pN, together, on the loaded database.
// 3. HAProxy last, with every process ready: it counts its servers UP from the start (a failed check takes one
//    out), so the waiting chargers' first connections spread over all of them (leastconn). Started first, it
//    would send every charger to p1, the only process up while they connect.

let ready = false;
const startedAt = Date.now();
const shared = {
  // The defaults of `npm start` (tools/start.mjs): a batch token and the PEA token pair. Every process has
  // them: a request may reach any.
  BATCH_COMMAND_TOKEN: 'demo-batch-token',
  PEA_TOKEN: 'demo-pea-token',
  PEA_TOKEN_C: 'demo-pea-token-c',
  // The mail outbox (no SMTP in the demo); uploaded images live in the database.
  DATA_DIR: path.join(root, 'data', 'cluster'),
  // pino-pretty lines on a terminal (the children write to a pipe, which would get JSON).
  ...(tty ? { LOG_FORMAT: 'pretty' } : {}),
  ...process.env,
  DATABASE_URL: databaseUrl,
  NATS_URL: natsUrl,
  // Only HAProxy is reachable from outside; the processes trust its X-Forwarded-For.
  HOST: '127.0.0.1',
  TRUST_PROXY: '1',
  APP_URL: process.env.APP_URL || `http://localhost:${lbPort}`,
};
const serverArgs = (entry) => ['--enable-source-maps', entry];

const processes = [];
// The chargers' line in p1's ready banner, printed once all of them connected through HAProxy.
let chargersConnected;
const connectedLine = new Promise((resolve) => {
  chargersConnected = resolve;
});
const p1 = run(
  'p1',
  process.execPath,
  serverArgs('dist/demo.js'),
  {
    ...shared,
    PORT: String(ports[0]),
    DEMO_DATA: '1',
    SIMULATE_CHARGERS: '1',
    SIMULATOR_URL: `ws://127.0.0.1:${lbPort}`,
  },
  (line) => {
    const match = /Simulated chargers: (\d+) connected/.exec(line);
    if (match) chargersConnected(Number(match[1]));
  },
);
p1.port = ports[0];
processes.push(p1);
say(
  `p1 (pid ${p1.child.pid}) starting on port ${p1.port}: migrations, and the demo data if the database is empty…`,
);
const p1Ms = await waitReady(p1, 'the demo data loads on an empty database (about 20,000 bookings)');
say(`p1 ready in ${(p1Ms / 1000).toFixed(1)} s`);

for (let i = 1; i < count; i++) {
  const entry = run(`p${i + 1}`, process.execPath, serverArgs('dist/server.js'), {
    ...shared,
    PORT: String(ports[i]),
    DEMO_DATA: '0',
    SIMULATE_CHARGERS: '0',
  });
  entry.port = ports[i];
  processes.push(entry);
}
const othersMs = await Promise.all(processes.slice(1).map((entry) => waitReady(entry, 'starting')));
if (othersMs.length) say(`p2..p${count} ready in ${(Math.max(...othersMs) / 1000).toFixed(1)} s`);

workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ev-cluster-'));
const config = path.join(workDir, 'haproxy.cfg');
fs.writeFileSync(config, haproxyConfig());
const lb = run('lb', haproxy, ['-f', config, '-db'], process.env);
for (let i = 0; !(await answers('127.0.0.1', lbPort, 500)); i++) {
  if (stopping || lb.done) await never();
  if (i > 40) {
    shout(`HAProxy does not listen on port ${lbPort} after 20 s: stopping.`);
    await stopAll(1);
  }
  await sleep(500);
}
say(
  `HAProxy (pid ${lb.child.pid}) listens on port ${lbPort}; waiting for p1's simulated chargers to connect through it…`,
);
const connected = await Promise.race([connectedLine, sleep(180_000).then(() => null)]);
if (stopping) await never();
ready = true;
const spread = await chargerSpread();
const password =
  process.env.ADMIN_PASSWORD && process.env.ADMIN_PASSWORD !== 'Admin1234'
    ? 'the password in ADMIN_PASSWORD'
    : 'Admin1234';
console.log(
  [
    '',
    paint('1;32', `  EV Charging back office cluster is ready at http://localhost:${lbPort}`) +
      `  (${((Date.now() - startedAt) / 1000).toFixed(0)} s)`,
    `  Admin login: ${process.env.ADMIN_EMAIL || 'admin@example.com'} / ${password}`,
    `  HAProxy: port ${lbPort}, pid ${lb.child.pid}, stats at http://localhost:${lbPort}/haproxy?stats`,
    ...processes.map(
      (entry, i) =>
        `  ${entry.name}: port ${entry.port}, pid ${entry.child.pid}${spread ? `, ${spread.get(entry.child.pid) ?? 0} chargers connected` : ''}${
          i === 0 ? ' (also runs the demo: its simulated chargers and members go through HAProxy)' : ''
        }`,
    ),
    connected === null
      ? '  The simulated chargers have not all connected yet (see [p1] above).'
      : `  Simulated chargers: ${connected}, spread over the processes by HAProxy (leastconn)`,
    `  Database: ${shown(databaseUrl)}   NATS: ${shown(natsUrl)}`,
    count > 1
      ? `  Failover: kill ${processes[count - 1].child.pid} (${processes[count - 1].name}): its chargers reconnect through HAProxy to the others.`
      : '',
    '  Ctrl-C stops them all.',
    '',
  ]
    .filter((line) => line !== '')
    .join('\n'),
);

/** Chargers per process pid, from the database (connected_node is host:pid:random); null if unreadable. */
async function chargerSpread() {
  // The processes write charger connections in batches: let the last ones land.
  await sleep(2000);
  const client = new pg.Client({ connectionString: databaseUrl, connectionTimeoutMillis: 5000 });
  try {
    await client.connect();
    const { rows } = await client.query(
      'select connected_node as node, count(*)::int as n from chargers where connected_node is not null group by 1',
    );
    return new Map(rows.map(({ node, n }) => [Number(node.split(':').at(-2)), n]));
  } catch {
    return null;
  } finally {
    await client.end().catch(() => undefined);
  }
}

function haproxyConfig() {
  // No log target: HAProxy (in the foreground) still prints servers going DOWN and UP on stderr, and no line per
  // request.
  return `# Generated by npm run cluster (tools/cluster.mjs); docs/haproxy.cfg.example explains each line.
defaults
  mode http
  option forwardfor
  # A request whose server refuses the connection (a process just killed) goes to another one.
  retries 2
  option redispatch 1
  timeout connect 3s
  timeout client 60s
  timeout server 120s
  timeout http-request 10s
  timeout http-keep-alive 10s
  timeout queue 30s
  # A WebSocket (a charger's OCPP connection), once upgraded.
  timeout tunnel 1h

frontend app
  bind :${lbPort}
  stats enable
  stats uri /haproxy?stats
  stats refresh 2s
  default_backend servers

backend servers
  # Chargers hold their connection for hours: leastconn spreads the connections held, roundrobin only new ones.
  balance leastconn
  option httpchk GET /api/ready
  http-check expect status 200
  default-server check inter 1s fall 2 rise 2
${processes.map((entry) => `  server ${entry.name} 127.0.0.1:${entry.port}`).join('\n')}
`;
}
