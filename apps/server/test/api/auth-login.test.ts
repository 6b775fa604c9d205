import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { authFailures } from '../../src/db/schema/index.ts';
import { LOGIN_LIMITS } from '../../src/modules/auth/auth.service.ts';
import { createUser } from '../helpers/factories.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
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
  it('refuses the 6th attempt on one account within the window, even with the right password', async () => {
    const user = await createUser(t, { email: 'throttled@example.com' });
    const other = await createUser(t);
    // Failures under any spelling of the address count against the one account.
    const spellings = ['throttled@example.com', 'THROTTLED@example.com', ' Throttled@Example.com'];
    const failures = await Promise.all(
      Array.from({ length: LOGIN_LIMITS.perAccount }, (_, i) => signIn(spellings[i % 3]!, `Wrong-${i}-pass`)),
    );
    expect(failures.map((r) => r.status)).toEqual(Array(LOGIN_LIMITS.perAccount).fill(401));

    const sixth = await signIn(user.email, user.pass);
    expectThrottled(sixth, LOGIN_LIMITS.windowMs);
    expect(sixth.body.accessToken).toBeUndefined();

    // Other accounts are not affected.
    expect((await signIn(other.email, other.pass)).status).toBe(200);
  });

  it('holds the account limit against a burst of parallel guesses', async () => {
    const user = await createUser(t);
    const burst = await Promise.all(Array.from({ length: 12 }, () => signIn(user.email, 'Wrong-pass1')));
    const statuses = burst.map((r) => r.status);
    // Each guess is recorded before it is checked, so no more than the limit are ever tried.
    expect(statuses.filter((status) => status === 401).length).toBeLessThanOrEqual(LOGIN_LIMITS.perAccount);
    expect(statuses.filter((status) => status !== 401 && status !== 429)).toEqual([]);
  });

  it('refuses any account from an address after 20 failures across different emails', async () => {
    const user = await createUser(t);
    const failures = await Promise.all(
      Array.from({ length: LOGIN_LIMITS.perAddress }, (_, i) =>
        signIn(`stranger-${i}@example.com`, 'Wrong-pass1'),
      ),
    );
    expect(failures.map((r) => r.status)).toEqual(Array(LOGIN_LIMITS.perAddress).fill(401));

    // A fresh email, with its right password, from the same address (127.0.0.1).
    expectThrottled(await signIn(user.email, user.pass), LOGIN_LIMITS.windowMs);
  });

  it("clears an account's failure count on a success", async () => {
    const user = await createUser(t);
    const wrong = () => signIn(user.email, 'Wrong-pass1');
    const almostAll = await Promise.all(Array.from({ length: LOGIN_LIMITS.perAccount - 1 }, wrong));
    expect(almostAll.map((r) => r.status)).toEqual([401, 401, 401, 401]);
    expect((await signIn(user.email, user.pass)).status).toBe(200);
    expect((await wrong()).status).toBe(401);
    // Without the reset, that was the 5th failure and this would be refused.
    expect((await signIn(user.email, user.pass)).status).toBe(200);
  });
});
