#!/usr/bin/env node
/**
 * Imports run one way (DEVELOPERS.md, "Keep the house easy to walk"); this fails `npm run check` when they don't.
 * - web (apps/web/src): `lib` and `components` import neither `features` nor `app`; a feature imports no other
 *   feature and not `app` (what two features share moves down to `lib` or `components`).
 * - server (apps/server/src): `ocpp` never imports `modules` (modules use ocpp; ocpp/events.ts is how the
 *   charger side reaches them); `lib` and `db` never import `modules`.
 * Every relative import, re-export and dynamic import() of .ts/.tsx/.css files is read.
 */
import fs from 'node:fs';
import path from 'node:path';

const SPECIFIER = /(?:\bfrom\s*|\bimport\s*\(?\s*)['"]([^'"]+)['"]/g;

function* sourceFiles(dir) {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* sourceFiles(full);
    else if (/\.(ts|tsx|mts)$/.test(entry.name)) yield full;
  }
}

/** The top folder (and, for web features and server modules, the sub-folder) a file sits in, under `base`. */
function place(base, file) {
  const parts = path.relative(base, file).split(path.sep);
  if (parts.length < 2) return { top: '', sub: '' };
  return { top: parts[0], sub: parts.length > 2 ? parts[1] : '' };
}

const rules = (root) => [
  {
    base: path.join(root, 'apps/web/src'),
    refuse(from, to) {
      if ((from.top === 'lib' || from.top === 'components') && (to.top === 'features' || to.top === 'app'))
        return `${from.top} may not import ${to.top}`;
      if (from.top === 'features' && to.top === 'app') return 'a feature may not import app';
      if (from.top === 'features' && to.top === 'features' && from.sub !== to.sub)
        return `feature '${from.sub}' may not import feature '${to.sub}' (move what both use to lib or components)`;
      return null;
    },
  },
  {
    base: path.join(root, 'apps/server/src'),
    refuse(from, to) {
      if (from.top === 'ocpp' && to.top === 'modules')
        return 'ocpp may not import modules (hand it what it needs through ocpp/events.ts)';
      if ((from.top === 'lib' || from.top === 'db') && to.top === 'modules')
        return `${from.top} may not import modules`;
      return null;
    },
  },
];

/** The imports under `root` that run the wrong way, as 'file:line: imports …: why', and how many files were read. */
export function wrongImports(root) {
  const problems = [];
  let checked = 0;
  for (const rule of rules(root)) {
    for (const file of sourceFiles(rule.base)) {
      if (/\.test\.tsx?$/.test(file)) continue;
      checked++;
      const text = fs.readFileSync(file, 'utf8');
      const from = place(rule.base, file);
      for (const match of text.matchAll(SPECIFIER)) {
        const specifier = match[1];
        if (!specifier.startsWith('.')) continue;
        const target = path.resolve(path.dirname(file), specifier);
        if (!target.startsWith(rule.base + path.sep)) continue;
        const why = rule.refuse(from, place(rule.base, target));
        if (why) {
          const line = text.slice(0, match.index).split('\n').length;
          problems.push(`${path.relative(root, file)}:${line}: imports '${specifier}': ${why}`);
        }
      }
    }
  }
  return { problems, checked };
}

if (process.argv[1] === import.meta.filename) {
  const { problems, checked } = wrongImports(path.resolve(import.meta.dirname, '..'));
  if (problems.length) {
    console.error(`Imports that run the wrong way (tools/check-imports.mjs):\n${problems.join('\n')}`);
    process.exit(1);
  }
  console.log(`Imports run one way: ${checked} files checked.`);
}
