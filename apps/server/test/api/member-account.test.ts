import { ADMIN_ROLE_LABELS, PASSWORD_MESSAGES } from '@ev/shared';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { authFailures, passwordResets, users } from '../../src/db/schema/index.ts';
import { hashToken } from '../../src/lib/tokens.ts';
import { LOGIN_LIMITS, RESET_LIMITS } from '../../src/modules/auth/auth.service.ts';
import { createUser, memberLogin, signedInUser } from '../helpers/factories.ts';
import { type Mail, mailsSince, outboxFiles, resetToken } from '../helpers/outbox.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';

/** Members (mobile users) who can sign in: staff invite them, and they reset their password in the app. */

const APP_URL = 'https://backoffice.example.com';
const HOUR = 3600_000;
const INVALID_LINK = { message: 'The reset link is invalid or has expired.' };

let t: TestApp;
let admin: string;
beforeAll(async () => {
  t = await startTestApp({ APP_URL });
  admin = (await signedInUser(t, { role: 'admin' })).token;
});
afterAll(() => t.close());
// All calls come from 127.0.0.1; each test starts with no recorded attempts.
beforeEach(async () => {
  await t.database.db.delete(authFailures);
});

let sequence = 0;
const freshEmail = (tag = 'member') => `${tag}-${Date.now()}-${sequence++}@example.com`;

const memberForgot = (email: string) => t.call('POST', '/api/member/forgot-password', { body: { email } });
const memberReset = (emailToken: string, pass: string) =>
  t.call('POST', '/api/member/reset-password', { body: { emailToken, pass } });
const memberSignIn = (email: string, pass: string) =>
  t.call('POST', '/api/member/login', { body: { email, pass } });
const staffForgot = (email: string) =>
  t.call('POST', '/api/auth/forgot-password', { body: { email, type: 'admin' } });
const staffReset = (emailToken: string, pass: string) =>
  t.call('POST', '/api/auth/reset-password', { body: { emailToken, pass } });
const staffSignIn = (email: string, pass: string) =>
  t.call('POST', '/api/auth/login', { body: { email, pass, type: 'admin' } });

/** Runs a call and returns the mails it wrote to the outbox. */
async function mailedBy(call: () => Promise<{ status: number }>, status = 200): Promise<Mail[]> {
  const before = outboxFiles(t);
  expect((await call()).status).toBe(status);
  return mailsSince(t, before);
}

/** The whole set-password link of a mail's text part, query included (the HTML part escapes its `&` as `&#38;`). */
function linkOf(mail: Mail): string {
  const links = new Set(
    mail.text.replaceAll('&#38;', '&').match(/https?:\/\/[^\s"'<>]+\/reset-password\?[^\s"'<>]+/g) ?? [],
  );
  expect([...links]).toHaveLength(1);
  return [...links][0]!;
}

const MEMBER_LINK = new RegExp(`^${APP_URL}/reset-password\\?token=[A-Za-z0-9_-]{43}&app=member$`);
const STAFF_LINK = new RegExp(`^${APP_URL}/reset-password\\?token=[A-Za-z0-9_-]{43}$`);

/** Staff create a member through POST /api/user; answers its id and the one mail it was sent. */
async function createMember(body: Record<string, unknown>): Promise<{ id: number; mail: Mail }> {
  const before = outboxFiles(t);
  const created = await t.call('POST', '/api/user', { token: admin, body: { type: 'mobile', ...body } });
  expect(created.status).toBe(200);
  const mails = mailsSince(t, before);
  expect(mails).toHaveLength(1);
  return { id: created.body.id, mail: mails[0]! };
}

/** Asks the member API for a reset link and returns its mail. */
async function memberResetMail(email: string): Promise<Mail> {
  const mails = await mailedBy(() => memberForgot(email));
  expect(mails).toHaveLength(1);
  return mails[0]!;
}

describe('invitation of a member created by staff', () => {
  it('mails an app invitation; its link sets the password once, then the member signs in', async () => {
    const email = freshEmail();
    const { id, mail } = await createMember({ email, firstName: 'Malee', lastName: 'Sukjai', active: true });
    expect(mail.to).toContain(email);
    expect(mail.subject).toBe('Your EV Charging app account');
    expect(mail.text).toContain('Hello Malee Sukjai');
    expect(mail.text).toContain('An account of the EV Charging app has been made for you.');
    expect(mail.text).toContain(`Your username is ${email}`);
    expect(mail.text).toContain('within 72 hours');
    expect(mail.text).not.toMatch(/back.office|activated/i);
    for (const role of Object.values(ADMIN_ROLE_LABELS)) expect(mail.text).not.toContain(` as ${role}`);
    expect(linkOf(mail)).toMatch(MEMBER_LINK);

    // No password yet: nobody signs in as the member.
    const [saved] = await t.database.db.select().from(users).where(eq(users.id, id));
    expect(saved!.passHash).toBeNull();
    expect(await memberSignIn(email, 'Anything123')).toMatchObject({
      status: 401,
      body: { message: 'pass' },
    });
    const [row] = await t.database.db.select().from(passwordResets).where(eq(passwordResets.userId, id));
    expect(row!.kind).toBe('invite');
    expect(row!.expiresAt.getTime() - row!.createdAt.getTime()).toBe(72 * HOUR);

    const token = resetToken(mail);
    expect(await memberReset(token, 'Welcome2024')).toMatchObject({
      status: 200,
      body: { message: 'Success' },
    });
    const signedIn = await memberSignIn(email, 'Welcome2024');
    expect(signedIn.status).toBe(200);
    expect(signedIn.body).toMatchObject({ accessToken: expect.any(String), idTag: expect.any(String) });
    expect((await t.call('GET', '/api/member/booking', { token: signedIn.body.accessToken })).status).toBe(
      200,
    );
    // A member account opens nothing in the back office.
    expect((await staffSignIn(email, 'Welcome2024')).status).toBe(401);

    // Single use.
    expect(await memberReset(token, 'Another2024')).toMatchObject({ status: 400, body: INVALID_LINK });
    expect((await memberSignIn(email, 'Another2024')).status).toBe(401);
  });

  it('invites a member created locked: the password can be set, sign-in says locked until switched on', async () => {
    const email = freshEmail('locked');
    const { id, mail } = await createMember({ email });
    expect(mail.text).toContain('you can sign in once your account has been activated');
    // The web page's call (POST /api/auth/reset-password) takes a member's link too.
    expect((await staffReset(resetToken(mail), 'Welcome2024')).status).toBe(200);
    expect(await memberSignIn(email, 'Welcome2024')).toMatchObject({
      status: 403,
      body: { message: 'locked' },
    });

    const on = await t.call('PATCH', `/api/user/${id}`, {
      token: admin,
      body: { type: 'mobile', email, active: true },
    });
    expect(on.status).toBe(200);
    expect((await memberSignIn(email, 'Welcome2024')).status).toBe(200);
  });

  it("re-invites at the corrected address when a member's email changes before the password is set", async () => {
    const email = freshEmail();
    const first = await createMember({ email, active: true });
    const corrected = freshEmail('corrected');
    const save = (address: string) =>
      t.call('PATCH', `/api/user/${first.id}`, { token: admin, body: { type: 'mobile', email: address } });
    const [second, ...more] = await mailedBy(() => save(corrected));
    expect(more).toEqual([]);
    expect(second!.to).toContain(corrected);
    expect(linkOf(second!)).toMatch(MEMBER_LINK);
    expect(await memberReset(resetToken(first.mail), 'Welcome2024')).toMatchObject({
      status: 400,
      body: INVALID_LINK,
    });
    expect((await memberReset(resetToken(second!), 'Welcome2024')).status).toBe(200);
    expect((await memberSignIn(corrected, 'Welcome2024')).status).toBe(200);

    // Once the password is set, a new address gets no mail; nor does an edit that keeps the address.
    expect(await mailedBy(() => save(freshEmail('later')))).toEqual([]);
    const member = await createMember({ email: freshEmail(), active: true });
    const [row] = await t.database.db.select().from(users).where(eq(users.id, member.id));
    expect(
      await mailedBy(() =>
        t.call('PATCH', `/api/user/${member.id}`, {
          token: admin,
          body: { type: 'mobile', email: row!.email.toUpperCase(), firstName: 'Renamed' },
        }),
      ),
    ).toEqual([]);
  });

  it('saves the member but says so when the invitation cannot be mailed (502)', async () => {
    const broken = await startTestApp({ SMTP_URL: 'smtp://127.0.0.1:9', APP_URL });
    try {
      const { token } = await signedInUser(broken, { role: 'callcenter' });
      const email = freshEmail();
      const response = await broken.call('POST', '/api/user', { token, body: { type: 'mobile', email } });
      expect(response.status).toBe(502);
      expect(response.body.message).toMatch(/^The user was saved, but the invitation mail could not be sent/);
      expect(response.body.message).toContain('in the app');
      const listed = await broken.call('GET', `/api/user?admin=false&email=${email}`, { token });
      expect(listed.body.total).toBe(1);
    } finally {
      await broken.close();
    }
  });
});

describe('POST /api/member/forgot-password and /api/member/reset-password', () => {
  it("mails a member the app's reset link; it sets the password once and signs the member out everywhere", async () => {
    const member = await createUser(t, { type: 'mobile', firstName: 'Somsak', lastName: '' });
    const sessions = [
      await memberLogin(t, member.email, member.pass),
      await memberLogin(t, member.email, member.pass),
    ];

    const before = outboxFiles(t);
    const asking = Date.now();
    const asked = await memberForgot(member.email.toUpperCase());
    expect(asked).toMatchObject({ status: 200, body: { message: 'Success' } });
    const [mail, ...more] = mailsSince(t, before);
    expect(more).toEqual([]);
    expect(mail!.to).toContain(member.email);
    expect(mail!.subject).toBe('Reset your password - EV Charging app');
    expect(mail!.text).toContain('Hello Somsak');
    expect(mail!.text).toContain('your EV Charging app account');
    expect(mail!.text).not.toMatch(/back.office/i);
    expect(linkOf(mail!)).toMatch(MEMBER_LINK);
    const token = resetToken(mail!);
    const [row] = await t.database.db
      .select()
      .from(passwordResets)
      .where(eq(passwordResets.tokenHash, hashToken(token)));
    expect(row).toMatchObject({ userId: member.id, kind: 'reset' });
    // Valid one hour from the request.
    expect(row!.expiresAt.getTime()).toBeGreaterThanOrEqual(asking + HOUR);
    expect(row!.expiresAt.getTime()).toBeLessThanOrEqual(Date.now() + HOUR);

    expect(await memberReset(token, 'Brand-new-pass1')).toMatchObject({
      status: 200,
      body: { message: 'Success' },
    });
    for (const session of sessions) {
      expect((await t.call('GET', '/api/member/booking', { token: session })).status).toBe(401);
    }
    expect((await memberSignIn(member.email, 'Brand-new-pass1')).status).toBe(200);
    expect((await memberSignIn(member.email, member.pass)).status).toBe(401);
    expect(await memberReset(token, 'Second-pass-22')).toMatchObject({ status: 400, body: INVALID_LINK });
    expect((await memberSignIn(member.email, 'Brand-new-pass1')).status).toBe(200);
  });

  it("spends the member's other open links when one is used", async () => {
    const member = await createUser(t, { type: 'mobile' });
    const older = resetToken(await memberResetMail(member.email));
    const newer = resetToken(await memberResetMail(member.email));
    expect((await memberReset(older, 'From-older-link1')).status).toBe(200);
    expect(await memberReset(newer, 'From-newer-link1')).toMatchObject({ status: 400, body: INVALID_LINK });
  });

  it('answers an unknown, a locked or a staff address the same, and mails none of them', async () => {
    const locked = await createUser(t, { type: 'mobile', active: false });
    const staff = await createUser(t, { role: 'admin' });
    for (const email of ['nobody-at-all@example.com', locked.email, staff.email]) {
      const mails = await mailedBy(async () => {
        const response = await memberForgot(email);
        expect(response.body, email).toEqual({ message: 'Success' });
        return response;
      });
      expect(mails, email).toEqual([]);
    }
  });

  it('the staff forgot-password keeps ignoring member addresses', async () => {
    const member = await createUser(t, { type: 'mobile' });
    expect(await mailedBy(() => staffForgot(member.email))).toEqual([]);
  });

  it('a staff user and a member may share an address: each API mails its own account', async () => {
    const email = freshEmail('shared');
    const staff = await createUser(t, { email, role: 'callcenter' });
    const member = await createUser(t, { email, type: 'mobile' });

    const memberMail = await memberResetMail(email);
    expect(linkOf(memberMail)).toMatch(MEMBER_LINK);
    const [staffMail] = await mailedBy(() => staffForgot(email));
    expect(staffMail!.subject).toBe('Reset your password - EV Charging Back Office');
    expect(linkOf(staffMail!)).toMatch(STAFF_LINK);

    const owner = async (mail: Mail) =>
      (
        await t.database.db
          .select({ userId: passwordResets.userId })
          .from(passwordResets)
          .where(eq(passwordResets.tokenHash, hashToken(resetToken(mail))))
      )[0]?.userId;
    expect(await owner(memberMail)).toBe(member.id);
    expect(await owner(staffMail!)).toBe(staff.id);

    // A staff link is refused by the member API, and stays usable where it belongs.
    expect(await memberReset(resetToken(staffMail!), 'Member-try-123')).toMatchObject({
      status: 400,
      body: INVALID_LINK,
    });
    expect((await memberReset(resetToken(memberMail), 'Member-pass-123')).status).toBe(200);
    expect((await staffReset(resetToken(staffMail!), 'Staff-pass-123')).status).toBe(200);
    expect((await memberSignIn(email, 'Member-pass-123')).status).toBe(200);
    expect((await staffSignIn(email, 'Staff-pass-123')).status).toBe(200);
  });

  it('refuses the 4th request for one address within the hour (429), and mails nothing for it', async () => {
    const email = freshEmail('throttled');
    await createUser(t, { email, type: 'mobile' });
    await createUser(t, { email, role: 'admin' });
    for (let i = 0; i < RESET_LIMITS.perAccount; i++) expect(await memberResetMail(email)).toBeDefined();

    const before = outboxFiles(t);
    const fourth = await memberForgot(email);
    expect(fourth.status).toBe(429);
    expect(fourth.body).toEqual({ message: expect.stringMatching(/^Too many password reset requests\./) });
    const retryAfter = Number(fourth.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(RESET_LIMITS.windowMs / 1000);
    expect(mailsSince(t, before)).toEqual([]);

    // The staff account of the same address is counted apart.
    expect(await mailedBy(() => staffForgot(email))).toHaveLength(1);
  });

  it('refuses an address after 10 requests across emails; staff requests from it still pass', async () => {
    const member = await createUser(t, { type: 'mobile' });
    const staff = await createUser(t, { role: 'admin' });
    for (let i = 0; i < RESET_LIMITS.perAddress; i++) {
      expect((await memberForgot(`unknown-${i}@example.com`)).status).toBe(200);
    }
    expect(await mailedBy(() => memberForgot(member.email), 429)).toEqual([]);
    expect(await mailedBy(() => staffForgot(staff.email))).toHaveLength(1);
  });

  /**
   * The failed sign-ins recorded against the member's and the staff account of an address. Counted in the
   * table rather than through a 429: a sign-in wait lasts seconds, and a test must not race it.
   */
  const failuresOf = async (email: string) => {
    const keys = (await t.database.db.select({ key: authFailures.key }).from(authFailures)).map(
      (row) => row.key,
    );
    const count = (prefix: string) => keys.filter((key) => key.startsWith(`${prefix}:"${email}"@`)).length;
    return { member: count('member-login'), staff: count('login') };
  };
  /** The failures that make a sign-in wait, each recorded (none is refused before it: they are the free ones). */
  const failSignIns = async (signIn: (email: string, pass: string) => Promise<unknown>, email: string) => {
    for (let i = 0; i < LOGIN_LIMITS.freeFailures; i++) await signIn(email, 'Wrong-guess1');
  };

  it("lifts the member's own sign-in wait, not the staff account's of the same address", async () => {
    const email = freshEmail('waiting');
    await createUser(t, { email, type: 'mobile' });
    await createUser(t, { email, role: 'admin' });
    await failSignIns(memberSignIn, email);
    await failSignIns(staffSignIn, email);
    const waiting = { member: LOGIN_LIMITS.freeFailures, staff: LOGIN_LIMITS.freeFailures };
    expect(await failuresOf(email)).toEqual(waiting);

    expect((await memberReset(resetToken(await memberResetMail(email)), 'After-reset-1')).status).toBe(200);
    expect(await failuresOf(email)).toEqual({ ...waiting, member: 0 });
    expect((await memberSignIn(email, 'After-reset-1')).status).toBe(200);
  });

  it("the web page's call (POST /api/auth/reset-password) lifts a member's sign-in wait, not staff's", async () => {
    const email = freshEmail('waiting');
    await createUser(t, { email, type: 'mobile' });
    await createUser(t, { email, role: 'admin' });
    await failSignIns(memberSignIn, email);
    await failSignIns(staffSignIn, email);
    const token = resetToken(await memberResetMail(email));
    expect((await staffReset(token, 'After-reset-2')).status).toBe(200);
    expect(await failuresOf(email)).toEqual({ member: 0, staff: LOGIN_LIMITS.freeFailures });
    expect((await memberSignIn(email, 'After-reset-2')).status).toBe(200);
  });

  it('refuses a password under 8 characters without spending the link, and an unknown token', async () => {
    const member = await createUser(t, { type: 'mobile' });
    const token = resetToken(await memberResetMail(member.email));
    expect(await memberReset(token, 'Ab1defg')).toMatchObject({
      status: 400,
      body: { message: `body.pass: ${PASSWORD_MESSAGES.resetLength}` },
    });
    expect((await memberReset(token, 'Ab1defgh')).status).toBe(200);
    expect(await memberReset('made-up-token', 'whatever-pass')).toMatchObject({
      status: 400,
      body: INVALID_LINK,
    });
  });
});
