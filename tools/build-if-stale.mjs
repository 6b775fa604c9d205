// Builds what is missing or older than its sources, so `npm start` and `npm test` always run the current
// code without rebuilding on every run: the web app (apps/web/dist) and the server (dist/, esbuild).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { buildServer, SERVER_OUT, SERVER_SOURCES } from './build-server.mjs';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const WEB = {
  output: path.join(root, 'apps/web/dist/index.html'),
  sources: [
    'apps/web/src',
    'apps/web/index.html',
    'apps/web/vite.config.ts',
    'apps/web/precompress.ts',
    'apps/web/package.json',
    'packages/shared/src',
    'package.json',
  ],
};
const SERVER = {
  output: path.join(SERVER_OUT, 'server.js'),
  sources: [...SERVER_SOURCES, 'package.json', 'package-lock.json'],
};

function newest(entry) {
  const stat = fs.statSync(entry, { throwIfNoEntry: false });
  if (!stat) return 0;
  if (!stat.isDirectory()) return stat.mtimeMs;
  let latest = stat.mtimeMs;
  for (const name of fs.readdirSync(entry)) latest = Math.max(latest, newest(path.join(entry, name)));
  return latest;
}

function stale({ output, sources }) {
  const built = fs.statSync(output, { throwIfNoEntry: false })?.mtimeMs ?? 0;
  const changed = Math.max(...sources.map((source) => newest(path.join(root, source))));
  return built < changed ? (built ? 'changed' : 'missing') : null;
}

/** Builds the web app when it is missing or older than its sources; true when it built. */
export function buildIfStale() {
  const why = stale(WEB);
  if (!why) return false;
  console.log(
    why === 'changed' ? 'Web app sources changed: rebuilding…' : 'Building the web app (first run)…',
  );
  const result = spawnSync('npm', ['run', 'build', '-w', '@ev/web'], { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
  return true;
}

/** Builds the server (dist/) when it is missing or older than its sources; true when it built. */
export async function buildServerIfStale() {
  const why = stale(SERVER);
  if (!why) return false;
  console.log(why === 'changed' ? 'Server sources changed: rebuilding…' : 'Building the server (first run)…');
  await buildServer();
  return true;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const only = process.argv[2];
  if (only !== 'server') buildIfStale();
  if (only !== 'web') await buildServerIfStale();
}
