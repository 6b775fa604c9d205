import { defineConfig } from 'vitest/config';

// Unit tests sit beside their code; API tests talk to the real server over HTTP on a fresh database per file.
export default defineConfig({
  test: {
    pool: 'forks',
    maxWorkers: 2,
    testTimeout: 30_000,
    hookTimeout: 60_000,
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['packages/*/src/**/*.test.ts', 'apps/*/src/**/*.test.{ts,tsx}', 'tools/**/*.test.ts'],
        },
      },
      { extends: true, test: { name: 'api', include: ['apps/server/test/**/*.test.ts'] } },
    ],
  },
});
