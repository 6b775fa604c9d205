import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';

// Only the PostgreSQL server has connections to lose; this file runs in the DATABASE_URL pass of CI.
describe.runIf(Boolean(process.env.DATABASE_URL))('PostgreSQL connection loss', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('keeps serving after the server drops its idle connections', async () => {
    const rows = await t.database.db.execute(sql`select current_database() as name`);
    const name = (rows as unknown as { rows: Array<{ name: string }> }).rows[0]!.name;
    await Promise.all([1, 2, 3].map(() => t.call('GET', '/api/health')));

    const admin = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await admin.connect();
    const killed = await admin.query(
      'select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()',
      [name],
    );
    await admin.end();
    expect(killed.rowCount).toBeGreaterThan(0);

    // The dropped connections emit 'error' on the pool; the process must survive it and reconnect.
    await new Promise((resolve) => setTimeout(resolve, 200));
    const response = await t.call('GET', '/api/health');
    expect(response.status).toBe(200);
  });

  it('a connection dropped inside a transaction fails that transaction, not the process', async () => {
    // A transaction holds its connection between statements (the alerts' pass does, a savepoint per
    // condition); the server dropping it then used to emit 'error' to no listener: an uncaught exception.
    const outcome = t.database.db.transaction(async (tx) => {
      const rows = await tx.execute(sql`select pg_backend_pid() as pid`);
      const pid = (rows as unknown as { rows: Array<{ pid: number }> }).rows[0]!.pid;
      const admin = new pg.Client({ connectionString: process.env.DATABASE_URL });
      await admin.connect();
      await admin.query('select pg_terminate_backend($1)', [pid]);
      await admin.end();
      await new Promise((resolve) => setTimeout(resolve, 300));
      await tx.execute(sql`select 1`);
    });
    await expect(outcome).rejects.toThrow();
    const response = await t.call('GET', '/api/health');
    expect(response.status).toBe(200);
  });
});
