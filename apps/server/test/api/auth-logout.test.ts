import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sessions } from '../../src/db/schema/index.ts';
import { login, signedInUser } from '../helpers/factories.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const selfStatus = async (token: string) => (await t.call('GET', '/api/user/self', { token })).status;

describe('POST /api/auth/logout', () => {
  it('revokes the token it is called with, and only that one', async () => {
    const { user, token } = await signedInUser(t);
    const other = await login(t, user.email, user.pass);
    expect(await selfStatus(token)).toBe(200);

    const response = await t.call('POST', '/api/auth/logout', { token });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ message: 'Success' });

    expect(await selfStatus(token)).toBe(401);
    expect(await selfStatus(other)).toBe(200);
    // The revoked token cannot log out again.
    expect((await t.call('POST', '/api/auth/logout', { token })).status).toBe(401);
  });

  it('answers 401 without a token or with an unknown one', async () => {
    for (const token of [undefined, 'not-a-real-token']) {
      const response = await t.call('POST', '/api/auth/logout', { token });
      expect(response.status).toBe(401);
      expect(response.body).toEqual({ message: expect.any(String) });
    }
  });
});

describe('session validity', () => {
  // Locking through the API ends the sessions at once (user-access.test.ts). A lock written straight to the
  // database, as another process would, shows once the 2 s session cache has passed (plugins/auth.ts).
  it('ends the sessions of a user locked outside this process once the session cache has passed', async () => {
    const { user, token } = await signedInUser(t, { role: 'merchant' });
    expect(await selfStatus(token)).toBe(200);
    await t.database.db.execute(sql`update users set active = false where id = ${user.id}`);
    const locked = Date.now();
    let status = await selfStatus(token);
    while (status === 200 && Date.now() - locked < 5000) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      status = await selfStatus(token);
    }
    expect(status).toBe(401);
  });

  it('refuses an expired session', async () => {
    const { user, token } = await signedInUser(t);
    await t.database.db.execute(
      sql`update sessions set expires_at = now() - interval '1 minute' where user_id = ${user.id}`,
    );
    expect(await selfStatus(token)).toBe(401);
  });

  it('gives a session the configured lifetime', async () => {
    const { user } = await signedInUser(t);
    const rows = await t.database.db.select().from(sessions).where(eq(sessions.userId, user.id));
    expect(rows).toHaveLength(1);
    const lifetimeMs = rows[0]!.expiresAt.getTime() - rows[0]!.createdAt.getTime();
    // created_at is the database's clock, expires_at the server's: a small tolerance between the two.
    expect(Math.abs(lifetimeMs - t.config.sessionTtlMs)).toBeLessThan(60_000);
  });
});
