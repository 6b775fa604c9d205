import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { authFailures } from '../../src/db/schema/index.ts';
import { LOGIN_LIMITS } from '../../src/modules/auth/auth.service.ts';
import { delayAfter } from '../../src/modules/auth/throttle.ts';
import { createUser } from '../helpers/factories.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ TRUST_PROXY: '1' });
});
afterAll(() => t.close());
// Every test starts unthrottled: all calls come from 127.0.0.1, whose failures would otherwise add up.
beforeEach(async () => {
  await t.database.db.delete(authFailures);
});

const signIn = (email: string, pass: string) =>
  t.call('POST', '/api/auth/login', { body: { email, pass, type: 'admin' } });

function expectThrottled(response: Awaited<ReturnType<typeof signIn>>, windowMs: number) {
  expect(response.status).toBe(429);
  expect(response.body).toEqual({ message: expect.any(String) });
  const retryAfter = Number(response.headers.get('retry-after'));
  expect(Number.isInteger(retryAfter)).toBe(true);
  expect(retryAfter).toBeGreaterThan(0);
  expect(retryAfter).toBeLessThanOrEqual(windowMs / 1000);
}

describe('POST /api/auth/login', () => {
  it('answers Success with a token that works and the role', async () => {
    const user = await createUser(t, { role: 'callcenter' });
    const response = await signIn(user.email, user.pass);
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      message: 'Success',
      accessToken: expect.any(String),
      adminRole: 'callcenter',
    });
    expect(response.body.accessToken.length).toBeGreaterThanOrEqual(32);

    const self = await t.call('GET', '/api/user/self', { token: response.body.accessToken });
    expect(self.status).toBe(200);
    expect(self.body.user).toMatchObject({ id: user.id, email: user.email, adminRole: 'callcenter' });
  });

  it('answers a wrong password and an unknown user with the same 401 pass', async () => {
    const user = await createUser(t);
    const wrong = await signIn(user.email, 'Wrong-password1');
    const unknown = await signIn('nobody-here@example.com', user.pass);
    expect(wrong.status).toBe(401);
    expect(wrong.body).toEqual({ message: 'pass' });
    expect(unknown.status).toBe(401);
    expect(unknown.body).toEqual(wrong.body);
  });

  it('does not sign in a mobile user, even with the right password', async () => {
    const mobile = await createUser(t, { type: 'mobile' });
    const response = await signIn(mobile.email, mobile.pass);
    expect(response.status).toBe(401);
    expect(response.body).toEqual({ message: 'pass' });
  });

  it('signs in the admin account when a mobile account shares the address', async () => {
    const email = 'shared-address@example.com';
    await createUser(t, { type: 'mobile', email });
    const admin = await createUser(t, { email, role: 'marketting' });
    const response = await signIn(email, admin.pass);
    expect(response.status).toBe(200);
    expect(response.body.adminRole).toBe('marketting');
  });

  it('says locked only to the right password of a locked account', async () => {
    const locked = await createUser(t, { active: false });
    const right = await signIn(locked.email, locked.pass);
    expect(right.status).toBe(403);
    expect(right.body).toEqual({ message: 'locked' });

    const wrong = await signIn(locked.email, 'Wrong-password1');
    expect(wrong.status).toBe(401);
    expect(wrong.body).toEqual({ message: 'pass' });
  });

  it('matches the email without regard to case or surrounding spaces', async () => {
    const user = await createUser(t, { email: 'Mixed.Case@Example.com' });
    for (const email of ['MIXED.CASE@EXAMPLE.COM', '  mixed.case@example.com ']) {
      const response = await signIn(email, user.pass);
      expect(response.status, email).toBe(200);
    }
  });
});

describe('sign-in throttling', () => {
  /** The test server trusts X-Forwarded-For, so a test can sign in from several addresses. */
  const from = (address: string, email: string, pass: string) =>
    t.call('POST', '/api/auth/login', {
      body: { email, pass, type: 'admin' },
      headers: { 'x-forwarded-for': address },
    });
  const { freeFailures } = LOGIN_LIMITS;

  it('lets 30 simultaneous right sign-ins to one account all through', async () => {
    const user = await createUser(t);
    const all = await Promise.all(Array.from({ length: 30 }, () => signIn(user.email, user.pass)));
    expect(all.map((r) => r.status)).toEqual(Array(30).fill(200));
    expect(new Set(all.map((r) => r.body.accessToken)).size).toBe(30);
    // One account's sign-ins from one address take turns: 30 scrypt runs in a row.
  }, 120_000);

  it('makes one address wait after its free failures on an account, and the wait grows', async () => {
    const user = await createUser(t, { email: 'throttled@example.com' });
    // Failures under any spelling of the address count against the one account.
    const spellings = ['throttled@example.com', 'THROTTLED@example.com', ' Throttled@Example.com'];
    for (let i = 0; i < freeFailures; i++) {
      expect((await from('10.0.0.1', spellings[i % 3]!, `Wrong-${i}-pass`)).status).toBe(401);
    }
    // Right password, but within the wait: refused without saying whether it was right.
    const waiting = await from('10.0.0.1', user.email, user.pass);
    expectThrottled(waiting, LOGIN_LIMITS.baseDelayMs);
    expect(waiting.body.accessToken).toBeUndefined();
    expect(delayAfter(freeFailures + 1, LOGIN_LIMITS)).toBe(2 * delayAfter(freeFailures, LOGIN_LIMITS));
    expect(delayAfter(1000, LOGIN_LIMITS)).toBe(LOGIN_LIMITS.maxDelayMs);
    // After the wait, the right password goes through.
    await new Promise((resolve) => setTimeout(resolve, LOGIN_LIMITS.baseDelayMs + 100));
    expect((await from('10.0.0.1', user.email, user.pass)).status).toBe(200);
  });

  it('never locks the account out for others: another address signs in at once', async () => {
    const user = await createUser(t);
    for (let i = 0; i < freeFailures + 3; i++) await from('10.0.0.66', user.email, 'Wrong-pass1');
    expect((await from('10.0.0.66', user.email, user.pass)).status).toBe(429);
    expect((await from('10.0.0.7', user.email, user.pass)).status).toBe(200);
  });

  it('holds against a burst of parallel guesses: only the free failures are tried', async () => {
    const user = await createUser(t);
    const burst = await Promise.all(Array.from({ length: 12 }, () => signIn(user.email, 'Wrong-pass1')));
    const statuses = burst.map((r) => r.status);
    // Attempts of one account and address take turns, so each sees the failures before it.
    expect(statuses.filter((status) => status === 401)).toHaveLength(freeFailures);
    expect(statuses.filter((status) => status === 429)).toHaveLength(12 - freeFailures);
  });

  it('stops an address after its failures across accounts reach the ceiling', async () => {
    const user = await createUser(t);
    // All but the last failure recorded as earlier attempts would have (each costs a scrypt run otherwise).
    await t.database.db
      .insert(authFailures)
      .values(Array.from({ length: LOGIN_LIMITS.perAddress - 1 }, () => ({ key: 'login-ip:10.0.0.9' })));
    expect((await from('10.0.0.9', 'stranger@example.com', 'Wrong-pass1')).status).toBe(401);
    // A fresh email, with its right password, from the same address.
    expectThrottled(await from('10.0.0.9', user.email, user.pass), LOGIN_LIMITS.addressWindowMs);
    // Another address is not affected.
    expect((await from('10.0.0.10', user.email, user.pass)).status).toBe(200);
  });

  it("clears an account's failures from that address on a success", async () => {
    const user = await createUser(t);
    const wrong = () => signIn(user.email, 'Wrong-pass1');
    for (let i = 0; i < freeFailures - 1; i++) expect((await wrong()).status).toBe(401);
    expect((await signIn(user.email, user.pass)).status).toBe(200);
    for (let i = 0; i < freeFailures - 1; i++) expect((await wrong()).status).toBe(401);
    // Without the reset, those were failures past the free ones and this would wait.
    expect((await signIn(user.email, user.pass)).status).toBe(200);
  });
});
