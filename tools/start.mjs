// `npm start`: builds the web app and the server if needed, then runs the demo: the built server
// (dist/demo.js) with demo data on an empty database and simulated chargers.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { buildIfStale, buildServerIfStale } from './build-if-stale.mjs';
import { requireNode24 } from './node-version.mjs';

requireNode24();
const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
buildIfStale();
await buildServerIfStale();
const child = spawn(process.execPath, ['--enable-source-maps', 'dist/demo.js'], {
  cwd: root,
  stdio: 'inherit',
  // A group of its own: Ctrl+C reaches the server once, through us, not twice (the terminal's and ours).
  detached: true,
  // The demo: sample data, its chargers live over OCPP (simulated), a batch token to try the batch commands and
  // a PEA token pair for the admin's 'See pea token'.
  env: {
    DEMO_DATA: '1',
    SIMULATE_CHARGERS: '1',
    BATCH_COMMAND_TOKEN: 'demo-batch-token',
    PEA_TOKEN: 'demo-pea-token',
    PEA_TOKEN_C: 'demo-pea-token-c',
    ...process.env,
  },
});
// The server stops on the first signal and exits at once on a second (apps/server/src/server.ts): pass each on.
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
