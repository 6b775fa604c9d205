// Builds the web app when apps/web/dist is missing or older than its sources, so `npm start` and
// `npm test` always serve the current code without rebuilding on every run.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const output = path.join(root, 'apps/web/dist/index.html');
const sources = [
  'apps/web/src',
  'apps/web/index.html',
  'apps/web/vite.config.ts',
  'apps/web/precompress.ts',
  'apps/web/package.json',
  'packages/shared/src',
  'package.json',
];

function newest(entry) {
  const stat = fs.statSync(entry, { throwIfNoEntry: false });
  if (!stat) return 0;
  if (!stat.isDirectory()) return stat.mtimeMs;
  let latest = stat.mtimeMs;
  for (const name of fs.readdirSync(entry)) latest = Math.max(latest, newest(path.join(entry, name)));
  return latest;
}

export function buildIfStale() {
  const built = fs.statSync(output, { throwIfNoEntry: false })?.mtimeMs ?? 0;
  const changed = Math.max(...sources.map((source) => newest(path.join(root, source))));
  if (built >= changed) return false;
  console.log(built ? 'Web app sources changed: rebuilding…' : 'Building the web app (first run)…');
  const result = spawnSync('npm', ['run', 'build', '-w', '@ev/web'], { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
  return true;
}

if (import.meta.url === `file://${process.argv[1]}`) buildIfStale();
