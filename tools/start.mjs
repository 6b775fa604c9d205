// `npm start`: builds the web app if needed, then runs the server with demo data on an empty database.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { buildIfStale } from './build-if-stale.mjs';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
buildIfStale();
const child = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
  cwd: root,
  stdio: 'inherit',
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
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
