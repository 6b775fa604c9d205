import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedInUser } from '../helpers/factories.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';

let t: TestApp;
let admin: string;

const form = {
  email: 'help@evcharge.co.th',
  phone: '02-123-45678',
  facebook: 'https://www.facebook.com/evchargeth',
  instagram: 'evchargeth',
  line: '@evchargeth',
  address: '999 Rama IV Road\nKhlong Toei, Bangkok 10110',
  minVersionAndroid: '2.4.0',
  minVersionIOS: '2.4.1',
};

beforeAll(async () => {
  t = await startTestApp();
  admin = (await signedInUser(t, { role: 'admin' })).token;
});
afterAll(() => t.close());

const read = async (token = admin) => {
  const response = await t.call('GET', '/api/contact-us', { token });
  expect(response.status).toBe(200);
  return response.body.contactUs;
};
const patch = (body: unknown, token = admin) => t.call('PATCH', '/api/contact-us', { token, body });

describe('contact us', () => {
  // First in the file: the migration's row is still empty.
  it('starts empty, and requires Email Support, Call Center and LINE while none is stored', async () => {
    expect(await read()).toEqual({
      email: null,
      phone: null,
      facebook: null,
      instagram: null,
      line: null,
      address: null,
      minVersionAndroid: null,
      minVersionIOS: null,
    });
    expect((await patch({ ...form, email: undefined })).body).toEqual({
      message: 'body.email: Email Support is required.',
    });
    expect((await patch({ ...form, email: '' })).body).toEqual({
      message: 'body.email: Email Support is required.',
    });
    expect((await patch({ ...form, phone: null })).body).toEqual({
      message: 'body.phone: Call Center is required.',
    });
    expect((await patch({ ...form, line: undefined })).body).toEqual({
      message: 'body.line: LINE is required.',
    });
    const refused = await patch({ address: 'only this' });
    expect(refused.status).toBe(400);
    expect((await read()).address).toBeNull();
  });

  it('saves every field, the phone as its digits and the address with its line breaks', async () => {
    const saved = await patch(form);
    expect(saved.status).toBe(200);
    expect(saved.body).toEqual({ message: 'Success' });
    expect(await read()).toEqual({ ...form, phone: '0212345678' });
  });

  it('keeps an absent field, clears an empty optional one, and trims', async () => {
    expect((await patch({ facebook: '', instagram: null, minVersionIOS: '  3.0.0  ' })).status).toBe(200);
    expect(await read()).toEqual({
      ...form,
      phone: '0212345678',
      facebook: null,
      instagram: null,
      minVersionIOS: '3.0.0',
    });
    expect((await patch(form)).status).toBe(200);
  });

  it('never lets Email Support, Call Center or LINE end up empty once stored', async () => {
    for (const [field, message] of [
      ['email', 'Email Support is required.'],
      ['phone', 'Call Center is required.'],
      ['line', 'LINE is required.'],
    ] as const) {
      for (const value of ['', null]) {
        const response = await patch({ ...form, [field]: value });
        expect(response.status).toBe(400);
        expect(response.body).toEqual({ message: `body.${field}: ${message}` });
      }
    }
    expect((await read()).email).toBe(form.email);
  });

  it.each([
    [{ email: '   ' }, 'body.email: Email Support is not whitespace'],
    [{ email: `${'a'.repeat(12)}@example.com` }, 'body.email: Please enter no more than 20 characters.'],
    [{ email: 'not-an-email' }, "body.email: Email isn't correct."],
    [{ phone: '    ' }, 'body.phone: Call Center is not whitespace'],
    [{ phone: '0'.repeat(51) }, 'body.phone: Please enter no more than 50 characters.'],
    [{ phone: '021234567' }, 'body.phone: Call Center must have at least 10 digits.'],
    [{ phone: '02-123-4567' }, 'body.phone: Call Center must have at least 10 digits.'],
    [{ phone: '02 123 4567 ext' }, 'body.phone: Call Center may hold only digits, spaces and dashes.'],
    [{ facebook: 'f'.repeat(51) }, 'body.facebook: Please enter no more than 50 characters.'],
    [{ instagram: 'i'.repeat(51) }, 'body.instagram: Please enter no more than 50 characters.'],
    [{ line: 'l'.repeat(51) }, 'body.line: Please enter no more than 50 characters.'],
    [{ line: '   ' }, 'body.line: LINE is required.'],
    [{ address: 'a'.repeat(256) }, 'body.address: Please enter no more than 255 characters.'],
    [
      { minVersionAndroid: 'v'.repeat(256) },
      'body.minVersionAndroid: Please enter no more than 255 characters.',
    ],
    [{ minVersionIOS: 'v'.repeat(256) }, 'body.minVersionIOS: Please enter no more than 255 characters.'],
  ])('refuses an invalid form with the spec message (%#)', async (change, message) => {
    const response = await patch({ ...form, ...change });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ message });
  });

  it('takes the longest values the limits allow', async () => {
    const longest = {
      ...form,
      email: `${'a'.repeat(8)}@example.com`,
      phone: `${'0'.repeat(10)}${'-'.repeat(40)}`,
      facebook: 'f'.repeat(50),
      line: 'l'.repeat(50),
      address: `${'a'.repeat(127)}\n${'b'.repeat(127)}`,
      minVersionAndroid: 'v'.repeat(255),
    };
    expect(longest.email).toHaveLength(20);
    expect((await patch(longest)).status).toBe(200);
    expect(await read()).toMatchObject({ ...longest, phone: '0000000000' });
    expect((await patch(form)).status).toBe(200);
  });
});

describe('permissions', () => {
  it('lets marketting read and save', async () => {
    const { token } = await signedInUser(t, { role: 'marketting' });
    expect((await read(token)).email).toBe(form.email);
    expect((await patch({ minVersionAndroid: '2.5.0' }, token)).status).toBe(200);
    expect((await read()).minVersionAndroid).toBe('2.5.0');
  });

  it.each(['merchant', 'party', 'landlord', 'callcenter', 'station'] as const)(
    'refuses %s (403)',
    async (role) => {
      const { token } = await signedInUser(t, { role });
      expect((await t.call('GET', '/api/contact-us', { token })).status).toBe(403);
      const response = await patch({ address: 'changed' }, token);
      expect(response.status).toBe(403);
      expect((await read()).address).toBe(form.address);
    },
  );

  it('answers 401 signed out', async () => {
    expect((await t.call('GET', '/api/contact-us')).status).toBe(401);
    expect((await t.call('PATCH', '/api/contact-us', { body: form })).status).toBe(401);
    expect((await t.call('GET', '/api/contact-us', { token: 'garbage' })).status).toBe(401);
  });
});
