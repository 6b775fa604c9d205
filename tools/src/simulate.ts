/**
 * `npm run simulate -- --chargers N --url ws://localhost:3000 [--protocol 1.6|2.0.1|mixed] [--v201-share 0.33]`:
 * connects N of the server's chargers (the active ones without a password, found through its API as the admin
 * of ADMIN_EMAIL / ADMIN_PASSWORD) as simulated OCPP chargers that boot, send heartbeats and status changes, run
 * charging sessions (unless --quiet) and answer the back-office's commands. They speak OCPP 1.6J, or 2.0.1 with
 * `--protocol 2.0.1`, or a share of them 2.0.1 with `--protocol mixed` (`--v201-share`, default 0.33, as the
 * demo); a charger whose Protocol setting names a version speaks that one. Ctrl+C disconnects them.
 */
import { parseArgs } from 'node:util';
import { ocppEndpoint, simulateChargers } from './simulator.ts';
import { fleetFromApi, mixProtocols } from './simulator-fleet.ts';

const { values } = parseArgs({
  options: {
    chargers: { type: 'string' },
    url: { type: 'string', default: `ws://localhost:${process.env.PORT ?? 3000}` },
    quiet: { type: 'boolean', default: false },
    protocol: { type: 'string', default: '1.6' },
    'v201-share': { type: 'string', default: '0.33' },
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
const shares: Record<string, number> = { '1.6': 0, '2.0.1': 1, mixed: Number(values['v201-share']) };
const share = shares[values.protocol];
if (share === undefined || !(share >= 0 && share <= 1)) {
  console.error('--protocol must be 1.6, 2.0.1 or mixed (with --v201-share between 0 and 1)');
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
const protocol = mixProtocols(fleet, share);
if (fleet.length === 0) {
  console.error('The server has no active chargers without a password to simulate.');
  process.exit(1);
}
let commands = 0;
const simulation = await simulateChargers(fleet, {
  url: wsUrl,
  protocol,
  activity: !values.quiet,
  activityMs: Number(values['activity-ms']),
  onEvent: (event) => {
    if (event.type === 'command') {
      commands++;
      console.log(`${event.id}: ${event.action} ${JSON.stringify(event.params)}`);
    }
  },
});
const v201 = fleet.filter((spec) => protocol(spec.id) === '2.0.1').length;
console.log(
  `${simulation.chargers.length - simulation.failed.length} of ${fleet.length} simulated chargers ` +
    `(${fleet.length - v201} OCPP 1.6, ${v201} OCPP 2.0.1) connected to ${wsUrl}` +
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
