import { defineConfig } from 'vitest/config';

/**
 * With DATABASE_URL the suite runs again against a PostgreSQL server: the API tests, which talk to the
 * database. The unit tests touch none (pure functions, or an embedded database of their own) and ran on the
 * embedded run already; VITEST_ALL=1 runs them here too.
 */
const DATABASE_RUN_ONLY = Boolean(process.env.DATABASE_URL && !process.env.VITEST_ALL);

// Unit tests sit beside their code; API tests talk to the real server over HTTP on a fresh database per file.
export default defineConfig({
  test: {
    pool: 'forks',
    maxWorkers: 2,
    // Passwords hashed at scrypt N = 2^12 in the test run (apps/server/src/lib/password.ts: honoured only under
    // NODE_ENV 'test'); production's 2^17 is pinned by password.test.ts.
    env: { SCRYPT_LOG_N: '12' },
    testTimeout: 30_000,
    hookTimeout: 60_000,
    projects: [
      ...(DATABASE_RUN_ONLY
        ? []
        : [
            {
              extends: true as const,
              test: {
                name: 'unit',
                include: [
                  'packages/*/src/**/*.test.ts',
                  'apps/*/src/**/*.test.{ts,tsx}',
                  'tools/**/*.test.ts',
                ],
              },
            },
          ]),
      { extends: true, test: { name: 'api', include: ['apps/server/test/api/**/*.test.ts'] } },
      // Several server processes on one PostgreSQL server and NATS (issue 23): the PostgreSQL run only.
      ...(process.env.DATABASE_URL
        ? [
            {
              extends: true as const,
              test: { name: 'cluster', include: ['apps/server/test/cluster/**/*.test.ts'] },
            },
          ]
        : []),
    ],
  },
});
