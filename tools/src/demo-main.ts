/**
 * `npm start`: the server with the demo around it (dist/demo.js). On an empty database (DEMO_DATA=1) it
 * loads the demo records; with SIMULATE_CHARGERS=1 the server's chargers connect as simulated OCPP chargers
 * and, with the demo data, demo members book, charge and pay through the member API.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import fs from 'node:fs';
import path from 'node:path';
import { loadConfig } from '@ev/server/config';
import { openDatabase } from '@ev/server/db/client';
import { ensureFirstAdmin } from '@ev/server/seed/first-admin';
import { runServer } from '@ev/server/server';
import { DEMO_FAULT_CHARGER, startDemoFaults } from './demo-alerts.ts';
import { loadDemoData } from './demo-data.ts';
import { demoTagPool, startDemoMemberSimulator } from './member-simulator.ts';
import { simulateChargers } from './simulator.ts';
import { chargersAtLimitedSites, fleetFromDatabase, mixProtocols } from './simulator-fleet.ts';

/**
 * A new embedded database gets the demo from a process of its own, which exits before the server opens the
 * database: loading 20,000 bookings grows PGlite's WebAssembly memory (and the heap around it) by a few
 * hundred MB that a process never gives back, and the server would carry that for its whole life
 * (docs/operations.md, Memory). An existing database, or a PostgreSQL server, goes through the server's own
 * `beforeBuild` below, which finds the demo there already or loads it.
 */
const LOAD_ONLY = '--load-demo-only';

async function loadDemo(config: ReturnType<typeof loadConfig>): Promise<void> {
  const database = await openDatabase({ dataDir: config.dataDir });
  try {
    await ensureFirstAdmin(database.db, config.adminEmail, config.adminPassword);
    const loaded = await loadDemoData(database.db, { history: true });
    if (loaded) console.log(`Demo data loaded: ${loaded.summary}`);
  } finally {
    await database.close();
  }
}

async function loadDemoApart(): Promise<void> {
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig();
  } catch {
    return; // runServer reports a bad environment
  }
  if (!config.demoData || config.databaseUrl) return;
  if (fs.existsSync(path.join(config.dataDir, 'pgdata', 'PG_VERSION'))) return;
  console.log('New embedded database: loading the demo data…');
  const loader = spawn(process.execPath, [...process.execArgv, process.argv[1]!, LOAD_ONLY], {
    stdio: 'inherit',
  });
  const [code] = (await once(loader, 'exit')) as [number | null];
  if (code !== 0) {
    console.error(`Loading the demo data failed (exit code ${code})`);
    process.exit(1);
  }
}

if (process.argv.includes(LOAD_ONLY)) {
  await loadDemo(loadConfig());
  process.exit(0);
}

/**
 * SIMULATOR_URL: where the simulated chargers (ws://…) and members (the same address over http://) connect
 * instead of this server itself: a load balancer's address spreads them over several processes (`npm run
 * cluster`). Then a charger that cannot connect yet or loses its connection tries again every few seconds, as a
 * real one does: it waits for the balancer and fails over to another process.
 */
const simulatorUrl = process.env.SIMULATOR_URL?.trim().replace(/(\/ocpp)?\/*$/, '') || undefined;
if (simulatorUrl && !/^wss?:\/\/[^/\s]+$/.test(simulatorUrl)) {
  console.error(
    `SIMULATOR_URL: a ws:// or wss:// address such as ws://127.0.0.1:3000, not ${process.env.SIMULATOR_URL}`,
  );
  process.exit(1);
}

/**
 * DEMO_V201_SHARE (0..1, default 0.33): the share of the simulated chargers on Automatic that speak OCPP 2.0.1
 * (the same chargers at every start); the others, and any charger set to 1.6, speak 1.6.
 */
const v201Share = Number(process.env.DEMO_V201_SHARE?.trim() || '0.33');
if (!(v201Share >= 0 && v201Share <= 1)) {
  console.error(`DEMO_V201_SHARE: a share between 0 and 1 such as 0.33, not ${process.env.DEMO_V201_SHARE}`);
  process.exit(1);
}

await loadDemoApart();
await runServer({
  beforeBuild: async ({ database, config }) => {
    if (!config.demoData) return undefined;
    const loaded = await loadDemoData(database.db, { history: true });
    return loaded ? `Demo data loaded: ${loaded.summary}` : undefined;
  },
  afterListen: async ({ database, config, app }) => {
    if (!config.simulateChargers) return undefined;
    const url = simulatorUrl ?? `ws://127.0.0.1:${config.port}`;
    const fleet = await fleetFromDatabase(database.db);
    const protocol = mixProtocols(fleet, v201Share);
    const v201 = fleet.filter((spec) => protocol(spec.id) === '2.0.1').length;
    // With the demo data the chargers' own sessions start with demo members' tags (an unknown tag is Invalid).
    const tags = config.demoData ? await demoTagPool(database.db) : undefined;
    const simulation = await simulateChargers(fleet, {
      url,
      protocol,
      activity: true,
      activityMs: 8000,
      unlockFailureRate: 0.1,
      ...(simulatorUrl ? { reconnectMs: 2000 } : {}),
      ...(tags ? { idTags: tags } : {}),
    });
    const lines = [
      `  Simulated chargers: ${fleet.length - simulation.failed.length} connected over OCPP (${fleet.length - v201} 1.6, ${v201} 2.0.1: DEMO_V201_SHARE)${simulatorUrl ? ` through ${simulatorUrl}` : ''} (SIMULATE_CHARGERS=1)`,
    ];
    if (!config.demoData) return { lines, stop: () => simulation.stop() };
    // One demo charger faults now and then and recovers: the alerts' bell rings on a fresh start (demo-alerts.ts).
    const faults = startDemoFaults(simulation.chargers, (message) => app.log.warn(message));
    lines.push(
      `  Alerts: charger ${DEMO_FAULT_CHARGER} faults 30 s after the start for 3 minutes, then every 20 minutes ('Charger faulted' fires after 1 minute in the demo)`,
    );
    // Demo members book, charge and pay through the member API, so bookings move on the booking list; some
    // charge first at the sites with a power limit, so their live load shows the sharing.
    const members = await startDemoMemberSimulator(
      url.replace(/^ws/, 'http'),
      simulation,
      (message) => app.log.warn(message),
      tags,
      await chargersAtLimitedSites(database.db),
    );
    lines.push(
      '  Simulated members: demo members book, charge and pay through the member API (password Demo1234)',
    );
    return {
      lines,
      stop: async () => {
        faults.stop();
        tags?.stop();
        await members.stop();
        await simulation.stop();
      },
    };
  },
});
