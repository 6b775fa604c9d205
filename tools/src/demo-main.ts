/**
 * `npm start`: the server with the demo around it (dist/demo.js). On an empty database (DEMO_DATA=1) it
 * loads the demo records; with SIMULATE_CHARGERS=1 the server's chargers connect as simulated OCPP chargers
 * and, with the demo data, demo members book, charge and pay through the member API.
 */
import { runServer } from '@ev/server/server';
import { loadDemoData } from './demo-data.ts';
import { startDemoMemberSimulator } from './member-simulator.ts';
import { simulateChargers } from './simulator.ts';
import { fleetFromDatabase } from './simulator-fleet.ts';

await runServer({
  beforeBuild: async ({ database, config }) => {
    if (!config.demoData) return undefined;
    const loaded = await loadDemoData(database.db, { history: true });
    return loaded ? `Demo data loaded: ${loaded.summary}` : undefined;
  },
  afterListen: async ({ database, config, app }) => {
    if (!config.simulateChargers) return undefined;
    const fleet = await fleetFromDatabase(database.db);
    const simulation = await simulateChargers(fleet, {
      url: `ws://127.0.0.1:${config.port}`,
      activity: true,
      activityMs: 8000,
    });
    const lines = [
      `  Simulated chargers: ${fleet.length - simulation.failed.length} connected over OCPP (SIMULATE_CHARGERS=1)`,
    ];
    if (!config.demoData) return { lines, stop: () => simulation.stop() };
    // Demo members book, charge and pay through the member API, so bookings move on the booking list.
    const members = await startDemoMemberSimulator(`http://127.0.0.1:${config.port}`, simulation, (message) =>
      app.log.warn(message),
    );
    lines.push(
      '  Simulated members: demo members book, charge and pay through the member API (password Demo1234)',
    );
    return {
      lines,
      stop: async () => {
        await members.stop();
        await simulation.stop();
      },
    };
  },
});
