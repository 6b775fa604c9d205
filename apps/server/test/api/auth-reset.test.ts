import { PASSWORD_MESSAGES } from '@ev/shared';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { authFailures, passwordResets } from '../../src/db/schema/index.ts';
import { hashToken } from '../../src/lib/tokens.ts';
import { LOGIN_LIMITS, RESET_LIMITS } from '../../src/modules/auth/auth.service.ts';
import { createUser, login } from '../helpers/factories.ts';
import { mailsSince, outboxFiles, resetLinks, resetToken } from '../helpers/outbox.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';

const APP_URL = 'https://backoffice.example.com';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ APP_URL: `${APP_URL}/` });
});
afterAll(() => t.close());
// All calls come from 127.0.0.1; each test starts with no recorded requests.
beforeEach(async () => {
  await t.database.db.delete(authFailures);
});

const forgot = (email: string) =>
  t.call('POST', '/api/auth/forgot-password', { body: { email, type: 'admin' } });
const reset = (emailToken: string, pass: string) =>
  t.call('POST', '/api/auth/reset-password', { body: { emailToken, pass } });
const signIn = (email: string, pass: string) =>
  t.call('POST', '/api/auth/login', { body: { email, pass, type: 'admin' } });

/** Asks for a reset link and returns its token, read from the mail in the outbox. */
async function requestLink(email: string): Promise<string> {
  const before = outboxFiles(t);
  expect((await forgot(email)).status).toBe(200);
  const mails = mailsSince(t, before);
  expect(mails).toHaveLength(1);
  return resetToken(mails[0]!);
}

describe('POST /api/auth/forgot-password', () => {
  it('mails an existing admin a reset link based on APP_URL', async () => {
    const user = await createUser(t, { firstName: 'Somchai' });
    const before = outboxFiles(t);
    const response = await forgot(user.email);
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ message: 'Success' });

    const mails = mailsSince(t, before);
    expect(mails).toHaveLength(1);
    const mail = mails[0]!;
    expect(mail.to).toContain(user.email);
    expect(mail.subject).toMatch(/reset/i);
    expect(mail.text).toContain('Somchai');
    const [link] = resetLinks(mail);
    expect(link).toMatch(new RegExp(`^${APP_URL}/reset-password\\?token=[A-Za-z0-9_-]{43}$`));

    // Only the token's hash is stored.
    const token = resetToken(mail);
    const rows = await t.database.db.select().from(passwordResets).where(eq(passwordResets.userId, user.id));
    expect(rows.map((row) => row.tokenHash)).toEqual([hashToken(token)]);
  });

  it('finds the account whatever the case of the address', async () => {
    const user = await createUser(t, { email: 'Case.Reset@Example.com' });
    const token = await requestLink('case.reset@EXAMPLE.com');
    const rows = await t.database.db.select().from(passwordResets).where(eq(passwordResets.userId, user.id));
    expect(rows.map((row) => row.tokenHash)).toEqual([hashToken(token)]);
  });

  it('answers an unknown, a mobile or a locked account the same, and mails none of them', async () => {
    const mobile = await createUser(t, { type: 'mobile' });
    const locked = await createUser(t, { active: false });
    const before = outboxFiles(t);
    for (const email of ['nobody-at-all@example.com', mobile.email, locked.email]) {
      const response = await forgot(email);
      expect(response.status, email).toBe(200);
      expect(response.body, email).toEqual({ message: 'Success' });
    }
    expect(mailsSince(t, before)).toEqual([]);
  });

  it('refuses the 4th request for one account within the hour, and mails nothing for it', async () => {
    const user = await createUser(t);
    const other = await createUser(t);
    const before = outboxFiles(t);
    for (const email of [user.email, user.email.toUpperCase(), user.email]) {
      expect((await forgot(email)).status).toBe(200);
    }
    expect(mailsSince(t, before)).toHaveLength(RESET_LIMITS.perAccount);

    const fourth = await forgot(user.email);
    expect(fourth.status).toBe(429);
    expect(fourth.body).toEqual({ message: expect.any(String) });
    const retryAfter = Number(fourth.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(RESET_LIMITS.windowMs / 1000);
    expect(mailsSince(t, before)).toHaveLength(RESET_LIMITS.perAccount);

    // Another account still gets its mail.
    await requestLink(other.email);
  });

  it('refuses an address after 10 requests across different emails', async () => {
    const user = await createUser(t);
    for (let i = 0; i < RESET_LIMITS.perAddress; i++) {
      expect((await forgot(`unknown-${i}@example.com`)).status).toBe(200);
    }
    const before = outboxFiles(t);
    expect((await forgot(user.email)).status).toBe(429);
    expect(mailsSince(t, before)).toEqual([]);
  });
});

describe('POST /api/auth/reset-password', () => {
  it('sets the new password and signs the user out everywhere', async () => {
    const user = await createUser(t);
    const sessions = [await login(t, user.email, user.pass), await login(t, user.email, user.pass)];
    const token = await requestLink(user.email);

    const response = await reset(token, 'brand-new-pass');
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ message: 'Success' });

    for (const session of sessions) {
      expect((await t.call('GET', '/api/user/self', { token: session })).status).toBe(401);
    }
    expect((await signIn(user.email, 'brand-new-pass')).status).toBe(200);
    expect((await signIn(user.email, user.pass)).status).toBe(401);
  });

  it('lifts the sign-in wait that failed attempts put on the account', async () => {
    const user = await createUser(t);
    for (let i = 0; i < LOGIN_LIMITS.freeFailures + 1; i++) await signIn(user.email, 'Wrong-guess1');
    expect((await signIn(user.email, user.pass)).status).toBe(429);
    const token = await requestLink(user.email);
    expect((await reset(token, 'After-reset-1')).status).toBe(200);
    expect((await signIn(user.email, 'After-reset-1')).status).toBe(200);
  });

  it('works once: a second use answers 400 with a message', async () => {
    const user = await createUser(t);
    const token = await requestLink(user.email);
    expect((await reset(token, 'first-new-pass')).status).toBe(200);

    const again = await reset(token, 'second-new-pass');
    expect(again.status).toBe(400);
    expect(again.body).toEqual({ message: expect.stringMatching(/.+/) });
    expect((await signIn(user.email, 'first-new-pass')).status).toBe(200);
  });

  it('refuses an expired link and leaves the password as it was', async () => {
    const user = await createUser(t);
    const token = await requestLink(user.email);
    await t.database.db
      .update(passwordResets)
      .set({ expiresAt: new Date(Date.now() - 60_000) })
      .where(eq(passwordResets.tokenHash, hashToken(token)));

    const response = await reset(token, 'too-late-pass');
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ message: expect.any(String) });
    expect((await signIn(user.email, user.pass)).status).toBe(200);
  });

  it("spends the user's other open links when one is used", async () => {
    const user = await createUser(t);
    const older = await requestLink(user.email);
    const newer = await requestLink(user.email);
    expect(newer).not.toBe(older);

    expect((await reset(older, 'from-older-link')).status).toBe(200);
    expect((await reset(newer, 'from-newer-link')).status).toBe(400);
    expect((await signIn(user.email, 'from-older-link')).status).toBe(200);
  });

  it("leaves other users' links open", async () => {
    const [first, second] = [await createUser(t), await createUser(t)];
    const firstToken = await requestLink(first.email);
    const secondToken = await requestLink(second.email);
    expect((await reset(firstToken, 'first-user-pass')).status).toBe(200);
    expect((await reset(secondToken, 'second-user-pass')).status).toBe(200);
  });

  it('refuses a password under 8 characters without spending the link', async () => {
    const user = await createUser(t);
    const token = await requestLink(user.email);
    const short = await reset(token, 'Ab1defg');
    expect(short.status).toBe(400);
    expect(short.body).toEqual({ message: `body.pass: ${PASSWORD_MESSAGES.resetLength}` });

    expect((await reset(token, 'Ab1defgh')).status).toBe(200);
  });

  it('refuses an unknown token', async () => {
    const response = await reset('made-up-token', 'whatever-pass');
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ message: expect.any(String) });
  });
});
