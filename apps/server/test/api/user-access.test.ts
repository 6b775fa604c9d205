import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authFailures, passwordResets, sessions, users } from '../../src/db/schema/index.ts';
import { createLandlord, createMerchant, createParty, login, signedInUser } from '../helpers/factories.ts';
import { type Mail, mailsSince, outboxFiles, resetLinks, resetToken } from '../helpers/outbox.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';

/** The invitation and what a change of role, links or status does to a signed-in user. */

const APP_URL = 'https://backoffice.example.com';
const HOUR = 3600_000;

let t: TestApp;
let admin: string;
let bangkok: { id: number };
let chiangMai: { id: number };
let siam: { id: number };
let silom: { id: number };
let nimman: { id: number };
let north: { id: number };

beforeAll(async () => {
  t = await startTestApp({ APP_URL });
  admin = (await signedInUser(t, { role: 'admin' })).token;
  bangkok = await createMerchant(t, { nameEn: 'Bangkok Cluster' });
  chiangMai = await createMerchant(t, { nameEn: 'Chiang Mai Cluster' });
  siam = await createLandlord(t, bangkok.id, { nameEn: 'Siam Paragon' });
  silom = await createLandlord(t, bangkok.id, { nameEn: 'Silom Complex' });
  nimman = await createLandlord(t, chiangMai.id, { nameEn: 'One Nimman' });
  north = await createParty(t, [nimman.id], { nameEn: 'Northern Route' });
});
afterAll(() => t.close());

let sequence = 0;
const freshEmail = () => `invitee-${Date.now()}-${sequence++}@example.com`;
const form = (overrides: Record<string, unknown> = {}) => ({
  type: 'admin',
  email: freshEmail(),
  firstName: 'Nattapong',
  lastName: 'Srisuk',
  adminRole: 'merchant',
  merchantId: bangkok.id,
  ...overrides,
});
const reset = (emailToken: string, pass: string) =>
  t.call('POST', '/api/auth/reset-password', { body: { emailToken, pass } });
const signIn = (email: string, pass: string) =>
  t.call('POST', '/api/auth/login', { body: { email, pass, type: 'admin' } });
const sitesOf = async (token: string) => {
  const response = await t.call('GET', '/api/landlord?sort=id', { token });
  return response.status === 200
    ? response.body.landlords.map((site: { id: number }) => site.id)
    : response.status;
};

/** Creates an admin user and returns its id and the one mail it was sent. */
async function invite(body: Record<string, unknown>): Promise<{ id: number; mail: Mail }> {
  const before = outboxFiles(t);
  const created = await t.call('POST', '/api/user', { token: admin, body });
  expect(created.status).toBe(200);
  const mails = mailsSince(t, before);
  expect(mails).toHaveLength(1);
  return { id: created.body.id, mail: mails[0]! };
}

describe('invitation of a new admin user', () => {
  it('mails an invitation link; the invitee sets a password once and signs in', async () => {
    const body = form();
    const { id, mail } = await invite(body);
    expect(mail.to).toContain(body.email);
    expect(mail.subject).toBe('Invitation to the EV Charging Back Office');
    expect(mail.text).toContain('Hello Nattapong Srisuk');
    expect(mail.text).toContain('You have been invited to the EV Charging back-office as Cluster.');
    expect(mail.text).toContain(`Your username is ${body.email}`);
    expect(mail.text).toContain('within 72 hours');
    const [link] = resetLinks(mail);
    expect(link).toMatch(new RegExp(`^${APP_URL}/reset-password\\?token=[A-Za-z0-9_-]{43}$`));

    // No password yet: nobody can sign in as the invitee.
    const [saved] = await t.database.db.select().from(users).where(eq(users.id, id));
    expect(saved!.passHash).toBeNull();
    expect((await signIn(body.email, 'Anything123')).status).toBe(401);
    const [row] = await t.database.db.select().from(passwordResets).where(eq(passwordResets.userId, id));
    expect(row!.kind).toBe('invite');
    expect(row!.expiresAt.getTime() - row!.createdAt.getTime()).toBe(72 * HOUR);

    const token = resetToken(mail);
    expect(await reset(token, 'Welcome2024')).toMatchObject({ status: 200, body: { message: 'Success' } });
    const signedIn = await signIn(body.email, 'Welcome2024');
    expect(signedIn.status).toBe(200);
    expect(signedIn.body.adminRole).toBe('merchant');
    const self = await t.call('GET', '/api/user/self', { token: signedIn.body.accessToken });
    expect(self.body.user).toMatchObject({ email: body.email, firstName: 'Nattapong' });

    // Single use.
    const again = await reset(token, 'Another2024');
    expect(again.status).toBe(400);
    expect(again.body).toEqual({ message: 'The reset link is invalid or has expired.' });
    expect((await signIn(body.email, 'Another2024')).status).toBe(401);
  });

  it('works until 72 hours have passed, and not after', async () => {
    const early = await invite(form());
    // 71 hours later: still good.
    await t.database.db
      .update(passwordResets)
      .set({ expiresAt: sql`${passwordResets.expiresAt} - interval '71 hours'` })
      .where(eq(passwordResets.userId, early.id));
    expect((await reset(resetToken(early.mail), 'Welcome2024')).status).toBe(200);

    const body = form();
    const late = await invite(body);
    await t.database.db
      .update(passwordResets)
      .set({
        createdAt: sql`${passwordResets.createdAt} - interval '72 hours 1 second'`,
        expiresAt: sql`${passwordResets.expiresAt} - interval '72 hours 1 second'`,
      })
      .where(eq(passwordResets.userId, late.id));
    const expired = await reset(resetToken(late.mail), 'Welcome2024');
    expect(expired.status).toBe(400);
    expect(expired.body).toEqual({ message: 'The reset link is invalid or has expired.' });

    // An expired invitee asks for a reset link like anyone else.
    await t.database.db.delete(authFailures);
    const before = outboxFiles(t);
    const forgot = await t.call('POST', '/api/auth/forgot-password', {
      body: { email: body.email, type: 'admin' },
    });
    expect(forgot.status).toBe(200);
    const [resetMail] = mailsSince(t, before);
    expect(resetMail!.subject).toMatch(/reset/i);
    expect((await reset(resetToken(resetMail!), 'Welcome2024')).status).toBe(200);
    expect((await signIn(body.email, 'Welcome2024')).status).toBe(200);
  });

  it('re-invites at the corrected address when the email changes before the password is set', async () => {
    const body = form();
    const first = await invite(body);
    const corrected = freshEmail();
    const before = outboxFiles(t);
    const saved = await t.call('PATCH', `/api/user/${first.id}`, {
      token: admin,
      body: { ...body, email: corrected },
    });
    expect(saved.status).toBe(200);
    const [second] = mailsSince(t, before);
    expect(second!.to).toContain(corrected);
    expect((await reset(resetToken(first.mail), 'Welcome2024')).status).toBe(400);
    expect((await reset(resetToken(second!), 'Welcome2024')).status).toBe(200);
    expect((await signIn(corrected, 'Welcome2024')).status).toBe(200);

    // Once the password is set, a new address gets no mail.
    const quiet = outboxFiles(t);
    await t.call('PATCH', `/api/user/${first.id}`, { token: admin, body: { ...body, email: freshEmail() } });
    expect(mailsSince(t, quiet)).toEqual([]);
  });

  it('saves the user but says so when the invitation mail cannot be sent (502)', async () => {
    const broken = await startTestApp({ SMTP_URL: 'smtp://127.0.0.1:9', APP_URL });
    try {
      const { token } = await signedInUser(broken, { role: 'admin' });
      const email = freshEmail();
      const response = await broken.call('POST', '/api/user', {
        token,
        body: form({ email, adminRole: 'callcenter', merchantId: undefined }),
      });
      expect(response.status).toBe(502);
      expect(response.body.message).toMatch(/^The user was saved, but the invitation mail could not be sent/);
      const listed = await broken.call('GET', `/api/user?admin=true&email=${email}`, { token });
      expect(listed.body.total).toBe(1);
    } finally {
      await broken.close();
    }
  });
});

describe('changes apply from the next request', () => {
  const save = (id: number, body: Record<string, unknown>) =>
    t.call('PATCH', `/api/user/${id}`, { token: admin, body });

  it("a new cluster, site or group narrows the user's next call at once", async () => {
    const { user, token } = await signedInUser(t, { role: 'merchant', merchantId: bangkok.id });
    const body = { type: 'admin', email: user.email, firstName: 'Test', lastName: 'User' };
    expect(await sitesOf(token)).toEqual([siam.id, silom.id]);

    expect((await save(user.id, { ...body, adminRole: 'merchant', merchantId: chiangMai.id })).status).toBe(
      200,
    );
    expect(await sitesOf(token)).toEqual([nimman.id]);

    await save(user.id, { ...body, adminRole: 'landlord', merchantId: bangkok.id, landlordId: silom.id });
    expect(await sitesOf(token)).toEqual([silom.id]);

    await save(user.id, { ...body, adminRole: 'party', partyId: north.id });
    expect(await sitesOf(token)).toEqual([nimman.id]);
  });

  it('a new role changes what the user may call at once, in the same session', async () => {
    const { user, token } = await signedInUser(t, { role: 'merchant', merchantId: bangkok.id });
    const body = { type: 'admin', email: user.email, firstName: 'Test', lastName: 'User' };
    expect((await t.call('GET', '/api/user?admin=false', { token })).status).toBe(403);
    expect((await t.call('GET', '/api/merchant', { token })).status).toBe(403);

    await save(user.id, { ...body, adminRole: 'callcenter' });
    expect((await t.call('GET', '/api/user?admin=false', { token })).status).toBe(200);
    expect((await t.call('GET', '/api/user?admin=true', { token })).status).toBe(403);
    expect((await t.call('GET', '/api/merchant', { token })).status).toBe(200);
    expect((await t.call('GET', '/api/user/self', { token })).body.user.adminRole).toBe('callcenter');

    await save(user.id, { ...body, adminRole: 'admin' });
    expect((await t.call('GET', '/api/user?admin=true', { token })).status).toBe(200);
  });

  it('a locked user is signed out everywhere: the next call is 401 and the sessions are gone', async () => {
    const { user, token } = await signedInUser(t, { role: 'callcenter' });
    const second = await login(t, user.email, user.pass);
    const body = {
      type: 'admin',
      email: user.email,
      firstName: 'Test',
      lastName: 'User',
      adminRole: 'callcenter',
    };
    expect((await t.call('GET', '/api/user/self', { token })).status).toBe(200);

    expect((await save(user.id, { ...body, active: false })).status).toBe(200);
    for (const session of [token, second]) {
      const response = await t.call('GET', '/api/user/self', { token: session });
      expect(response.status).toBe(401);
    }
    expect(await t.database.db.select().from(sessions).where(eq(sessions.userId, user.id))).toEqual([]);
    const locked = await signIn(user.email, user.pass);
    expect(locked.status).toBe(403);
    expect(locked.body).toEqual({ message: 'locked' });

    // Unlocking does not bring the old sessions back; signing in again works.
    expect((await save(user.id, { ...body, active: true })).status).toBe(200);
    expect((await t.call('GET', '/api/user/self', { token })).status).toBe(401);
    const fresh = await login(t, user.email, user.pass);
    expect((await t.call('GET', '/api/user/self', { token: fresh })).status).toBe(200);
  });
});
