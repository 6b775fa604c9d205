import { performance } from 'node:perf_hooks';
import { buildApp } from './app.ts';
import { DEFAULT_ADMIN_PASSWORD, LISTEN_BACKLOG, loadConfig } from './config.ts';
import { openDatabase } from './db/client.ts';
import { tuneHeap } from './lib/heap.ts';
import { ensureFirstAdmin } from './seed/first-admin.ts';

tuneHeap();
const started = performance.now();
let config: ReturnType<typeof loadConfig>;
try {
  config = loadConfig();
} catch (error) {
  console.error((error as Error).message);
  process.exit(1);
}

let database: Awaited<ReturnType<typeof openDatabase>>;
try {
  database = await openDatabase({
    databaseUrl: config.databaseUrl,
    dataDir: config.databaseUrl ? undefined : config.dataDir,
    onPoolError: (error) =>
      console.error(`PostgreSQL connection lost (the pool reconnects): ${error.message}`),
  });
} catch (error) {
  console.error(`Cannot open the database: ${(error as Error).message}`);
  process.exit(1);
}

const createdAdmin = await ensureFirstAdmin(database.db, config.adminEmail, config.adminPassword);
if (config.demoData) {
  const { loadDemoData } = await import('@ev/tools/demo-data');
  const loaded = await loadDemoData(database.db, { history: true });
  if (loaded) console.log(`Demo data loaded: ${loaded.summary}`);
}

const app = await buildApp({ db: database.db, databaseKind: database.kind, config });
let closing = false;
/** The demo members' journeys (SIMULATE_CHARGERS with DEMO_DATA), ended before the server closes. */
let stopMembers: (() => Promise<void>) | null = null;
async function shutdown(signal: string) {
  if (closing) return;
  closing = true;
  app.log.info({ signal }, 'shutting down');
  try {
    await stopMembers?.();
    await app.close();
  } finally {
    await database.close();
    process.exit(0);
  }
}
process.on('SIGINT', () => void shutdown('SIGINT'));
process.on('SIGTERM', () => void shutdown('SIGTERM'));
/**
 * Last resort, not a fix: every input path handles its own errors (docs/decisions.md, Hardening). Should a
 * bug still throw past them, the process state can't be trusted: log it as one fatal line and exit, for the
 * supervisor to restart (README: "Run under a supervisor"). Chargers reconnect by themselves.
 */
function fatal(kind: string) {
  return (error: unknown) => {
    app.log.fatal({ err: error }, `${kind}: exiting for the supervisor to restart the server`);
    process.exit(1);
  };
}
process.on('uncaughtException', fatal('uncaught exception'));
process.on('unhandledRejection', fatal('unhandled rejection'));

try {
  await app.listen({ port: config.port, host: config.host, backlog: LISTEN_BACKLOG });
} catch (error) {
  console.error(`Cannot listen on port ${config.port}: ${(error as Error).message}`);
  await database.close();
  process.exit(1);
}

let simulated = '';
if (config.simulateChargers) {
  const { simulateChargers } = await import('@ev/tools/simulator');
  const { fleetFromDatabase } = await import('@ev/tools/simulator-fleet');
  const fleet = await fleetFromDatabase(database.db);
  const simulation = await simulateChargers(fleet, {
    url: `ws://127.0.0.1:${config.port}`,
    activity: true,
    activityMs: 8000,
  });
  simulated = `  Simulated chargers: ${fleet.length - simulation.failed.length} connected over OCPP (SIMULATE_CHARGERS=1)`;
  if (config.demoData) {
    // Demo members book, charge and pay through the member API, so bookings move on the booking list.
    const { startDemoMemberSimulator } = await import('@ev/tools/member-simulator');
    const members = await startDemoMemberSimulator(`http://127.0.0.1:${config.port}`, simulation, (message) =>
      app.log.warn(message),
    );
    stopMembers = () => members.stop();
    simulated +=
      '\n  Simulated members: demo members book, charge and pay through the member API (password Demo1234)';
  }
}

const where =
  database.kind === 'postgres' ? 'PostgreSQL server (DATABASE_URL)' : `embedded PGlite in ${config.dataDir}`;
const url = `http://localhost:${config.port}`;
const password =
  config.adminPassword === DEFAULT_ADMIN_PASSWORD
    ? ` / ${DEFAULT_ADMIN_PASSWORD} (the local default: set ADMIN_PASSWORD for any real use)`
    : createdAdmin
      ? ' / the password in ADMIN_PASSWORD'
      : '';
console.log(
  [
    '',
    `  EV Charging back office ${config.version} is ready at ${url}  (${Math.round(performance.now() - started)} ms)`,
    `  Database: ${where}`,
    `  Admin login: ${config.adminEmail}${password}${createdAdmin ? '  [admin account created]' : ''}`,
    config.webDist ? '' : '  (web app not built: API only)',
    `  API docs: ${url}/api/docs`,
    `  OCPP 1.6J: ws://localhost:${config.port}/ocpp/{chargerId}`,
    ...(simulated ? [simulated] : []),
    config.batch.token
      ? `  Batch token (Hard Reset All, Config All): ${config.batch.token === 'demo-batch-token' ? 'demo-batch-token' : 'set in BATCH_COMMAND_TOKEN'}`
      : '  Batch commands are off (set BATCH_COMMAND_TOKEN)',
    '',
  ].join('\n'),
);
