import { PASSWORD_MESSAGES } from '@ev/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CURRENT_PASS_LIMIT } from '../../src/modules/self/self.service.ts';
import { createUser, login, signedInUser } from '../helpers/factories.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const getSelf = (token: string) => t.call('GET', '/api/user/self', { token });
const patchSelf = (token: string, body: unknown) => t.call('PATCH', '/api/user/self', { token, body });
const signIn = (email: string, pass: string) =>
  t.call('POST', '/api/auth/login', { body: { email, pass, type: 'admin' } });

describe('GET /api/user/self', () => {
  it('returns the profile fields and nothing secret', async () => {
    const { user, token } = await signedInUser(t, { role: 'landlord', firstName: 'Malee', lastName: 'Suk' });
    const response = await getSelf(token);
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      user: {
        id: user.id,
        avatar: null,
        firstName: 'Malee',
        lastName: 'Suk',
        email: user.email,
        tel: null,
        point: 0,
        adminRole: 'landlord',
        termAccept: true,
      },
    });
    expect(JSON.stringify(response.body)).not.toMatch(/scrypt|passHash|pass_hash/);
  });
});

describe('PATCH /api/user/self: name', () => {
  let token: string;
  beforeAll(async () => {
    ({ token } = await signedInUser(t));
  });

  it('saves the name trimmed', async () => {
    const response = await patchSelf(token, { firstName: '  สมชาย  ', lastName: ' Jaidee ' });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ message: 'Success' });
    expect((await getSelf(token)).body.user).toMatchObject({ firstName: 'สมชาย', lastName: 'Jaidee' });
  });

  it('accepts 50 characters (after trimming) and refuses 51', async () => {
    const fifty = 'n'.repeat(50);
    expect((await patchSelf(token, { firstName: ` ${fifty} `, lastName: fifty })).status).toBe(200);
    expect((await getSelf(token)).body.user).toMatchObject({ firstName: fifty, lastName: fifty });

    for (const body of [
      { firstName: `${fifty}x`, lastName: 'ok' },
      { firstName: 'ok', lastName: `${fifty}x` },
    ]) {
      const response = await patchSelf(token, body);
      expect(response.status).toBe(400);
      expect(response.body).toEqual({ message: expect.stringContaining('no more than 50') });
    }
    expect((await getSelf(token)).body.user).toMatchObject({ firstName: fifty, lastName: fifty });
  });

  it('accepts an empty name (neither field is required)', async () => {
    expect((await patchSelf(token, { firstName: '', lastName: '   ' })).status).toBe(200);
    expect((await getSelf(token)).body.user).toMatchObject({ firstName: '', lastName: '' });
  });

  it('refuses a body mixing the name and password shapes, or with unknown keys', async () => {
    for (const body of [
      { firstName: 'A', lastName: 'B', currentPass: 'Factory123', pass: 'Mixed1234' },
      { firstName: 'A', lastName: 'B', role: 'admin' },
      { firstName: 'A', lastName: 'B', adminRole: 'admin' },
      { currentPass: 'Factory123', pass: 'Another123', email: 'x@example.com' },
    ]) {
      const response = await patchSelf(token, body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(response.body).toEqual({ message: expect.any(String) });
    }
    const self = (await getSelf(token)).body.user;
    expect(self).toMatchObject({ adminRole: 'admin', firstName: '', lastName: '' });
  });
});

describe('PATCH /api/user/self: password', () => {
  it('refuses a wrong current password with currentPass and keeps the password', async () => {
    const { user, token } = await signedInUser(t);
    const response = await patchSelf(token, { currentPass: 'Not-the-one1', pass: 'Changed123' });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ message: 'currentPass' });
    expect((await signIn(user.email, 'Changed123')).status).toBe(401);
  });

  it('refuses a weak new password with the spec message', async () => {
    const { user, token } = await signedInUser(t);
    const cases = [
      ['nouppercase1', PASSWORD_MESSAGES.strength],
      ['NOLOWERCASE1', PASSWORD_MESSAGES.strength],
      ['NoDigitsHere', PASSWORD_MESSAGES.strength],
      ['Short1a', PASSWORD_MESSAGES.strength],
      ['Passw0rdไทย', PASSWORD_MESSAGES.thai],
      ['รหัสผ่าน', PASSWORD_MESSAGES.thai],
      [`Aa1${'x'.repeat(48)}`, PASSWORD_MESSAGES.maxLength],
    ] as const;
    for (const [pass, message] of cases) {
      const response = await patchSelf(token, { currentPass: user.pass, pass });
      expect(response.status, pass).toBe(400);
      expect(response.body, pass).toEqual({ message: `body.pass: ${message}` });
    }
    // Nothing changed, and these refusals are no wrong current passwords: the right one still works.
    expect((await signIn(user.email, user.pass)).status).toBe(200);
  });

  it('changes the password, keeps this session and ends the others', async () => {
    const { user, token } = await signedInUser(t);
    const other = await login(t, user.email, user.pass);

    const response = await patchSelf(token, { currentPass: user.pass, pass: 'Changed123' });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ message: 'Success' });

    expect((await getSelf(token)).status).toBe(200);
    expect((await getSelf(other)).status).toBe(401);
    expect((await signIn(user.email, 'Changed123')).status).toBe(200);
    expect((await signIn(user.email, user.pass)).status).toBe(401);
  });

  it('refuses the 6th current password within the window, even the right one', async () => {
    const { user, token } = await signedInUser(t);
    for (let i = 0; i < CURRENT_PASS_LIMIT.max; i++) {
      expect((await patchSelf(token, { currentPass: `Wrong-${i}-pass`, pass: 'Changed123' })).status).toBe(
        400,
      );
    }
    const sixth = await patchSelf(token, { currentPass: user.pass, pass: 'Changed123' });
    expect(sixth.status).toBe(429);
    expect(sixth.body).toEqual({ message: expect.any(String) });
    expect(Number(sixth.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await signIn(user.email, 'Changed123')).status).toBe(401);

    // The limit is per user: another user is not affected.
    const other = await createUser(t);
    const otherToken = await login(t, other.email, other.pass);
    expect((await patchSelf(otherToken, { currentPass: other.pass, pass: 'Changed123' })).status).toBe(200);
  });
});
