import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { wrongImports } from './check-imports.mjs';

const roots: string[] = [];
afterAll(() => {
  for (const root of roots) fs.rmSync(root, { recursive: true, force: true });
});

/** A scratch project with these files (path under the root: contents). */
function project(files: Record<string, string>): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'imports-'));
  roots.push(root);
  for (const [file, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    fs.writeFileSync(path.join(root, file), text);
  }
  return root;
}

describe('the import direction check', () => {
  it('passes this repository', () => {
    const { problems, checked } = wrongImports(path.resolve(import.meta.dirname, '..'));
    expect(problems).toEqual([]);
    expect(checked).toBeGreaterThan(200);
  });

  it('finds each wrong way, with its file and line, and lets the right ways be', () => {
    const root = project({
      'apps/web/src/lib/a.ts': "import { x } from '../features/booking/x.ts';\n",
      'apps/web/src/components/b.tsx': "\nexport { y } from '../app/y.ts';\n",
      'apps/web/src/features/payment/c.tsx':
        "import '../booking/booking.css';\nimport { ok } from './ok.ts';\nimport { l } from '../../lib/l.ts';\n",
      'apps/web/src/features/auth/d.tsx': "const page = () => import('../../app/preload.ts');\n",
      'apps/web/src/app/router.tsx': "import { e } from '../features/auth/d.tsx';\n",
      'apps/web/src/features/booking/e.test.ts': "import { f } from '../payment/c.tsx';\n",
      'apps/server/src/ocpp/central.ts':
        "import type { R } from './events.ts';\nimport { g } from '../modules/booking/g.ts';\n",
      'apps/server/src/modules/booking/g.ts': "import { h } from '../../ocpp/transactions.ts';\n",
      'apps/server/src/db/client.ts': "import { i } from '../modules/user/i.ts';\n",
      'apps/server/src/lib/metrics.ts': "import type { C } from '../ocpp/commands.ts';\n",
    });
    expect(wrongImports(root).problems.sort()).toEqual([
      "apps/server/src/db/client.ts:1: imports '../modules/user/i.ts': db may not import modules",
      "apps/server/src/ocpp/central.ts:2: imports '../modules/booking/g.ts': ocpp may not import modules (hand it what it needs through ocpp/events.ts)",
      "apps/web/src/components/b.tsx:2: imports '../app/y.ts': components may not import app",
      "apps/web/src/features/auth/d.tsx:1: imports '../../app/preload.ts': a feature may not import app",
      "apps/web/src/features/payment/c.tsx:1: imports '../booking/booking.css': feature 'payment' may not import feature 'booking' (move what both use to lib or components)",
      "apps/web/src/lib/a.ts:1: imports '../features/booking/x.ts': lib may not import features",
    ]);
  });
});
