/**
 * `npm run simulate -- --chargers N --url ws://localhost:3000`: connects N of the server's chargers (the
 * active ones without a password, found through its API as the admin of ADMIN_EMAIL / ADMIN_PASSWORD) as
 * simulated OCPP 1.6J chargers that boot, send heartbeats and status changes, run charging sessions
 * (unless --quiet) and answer the back-office's commands. Ctrl+C disconnects them.
 */
import { parseArgs } from 'node:util';
import { ocppEndpoint, simulateChargers } from './simulator.ts';
import { fleetFromApi } from './simulator-fleet.ts';

const { values } = parseArgs({
  options: {
    chargers: { type: 'string' },
    url: { type: 'string', default: `ws://localhost:${process.env.PORT ?? 3000}` },
    quiet: { type: 'boolean', default: false },
    'activity-ms': { type: 'string', default: '5000' },
    email: { type: 'string', default: process.env.ADMIN_EMAIL ?? 'admin@example.com' },
    password: { type: 'string', default: process.env.ADMIN_PASSWORD ?? 'Admin1234' },
  },
});

const limit = values.chargers ? Number(values.chargers) : undefined;
if (limit !== undefined && (!Number.isInteger(limit) || limit < 1)) {
  console.error('--chargers must be a positive whole number');
  process.exit(2);
}
const wsUrl = ocppEndpoint(values.url);
const httpBase = wsUrl.replace(/^ws/, 'http').replace(/\/ocpp$/, '');
const fleet = await fleetFromApi(httpBase, { email: values.email, pass: values.password }, limit).catch(
  (error: Error) => {
    console.error(`Cannot read the chargers from ${httpBase}: ${error.message}`);
    process.exit(1);
  },
);
if (fleet.length === 0) {
  console.error('The server has no active chargers without a password to simulate.');
  process.exit(1);
}
let commands = 0;
const simulation = await simulateChargers(fleet, {
  url: wsUrl,
  activity: !values.quiet,
  activityMs: Number(values['activity-ms']),
  onEvent: (event) => {
    if (event.type === 'command') {
      commands++;
      console.log(`${event.id}: ${event.action} ${JSON.stringify(event.params)}`);
    }
  },
});
console.log(
  `${simulation.chargers.length - simulation.failed.length} of ${fleet.length} simulated chargers connected to ${wsUrl}` +
    (simulation.failed.length
      ? `; refused: ${simulation.failed.map((f) => `${f.id} (${f.error})`).join(', ')}`
      : ''),
);
const stop = async () => {
  console.log(`Disconnecting (${commands} commands answered).`);
  await simulation.stop();
  process.exit(0);
};
process.on('SIGINT', () => void stop());
process.on('SIGTERM', () => void stop());
