/**
 * The production server: `node dist/server.js` (built by `npm run build`). Demo data and simulated chargers
 * belong to `npm start` (tools/src/demo-main.ts), which composes them around the same server.
 */
import { runServer } from './server.ts';

if (process.env.DEMO_DATA === '1' || process.env.SIMULATE_CHARGERS === '1') {
  console.warn(
    'DEMO_DATA and SIMULATE_CHARGERS are settings of the demo (npm start, dist/demo.js): this server ignores them.',
  );
}
await runServer();
