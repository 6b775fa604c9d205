import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedInUser } from '../helpers/factories.ts';
import { type CallOptions, startTestApp, type TestApp } from '../helpers/test-app.ts';

let t: TestApp;
let token: string;
beforeAll(async () => {
  t = await startTestApp();
  ({ token } = await signedInUser(t));
});
afterAll(() => t.close());

interface Endpoint {
  name: string;
  method: string;
  path: string;
  signedIn: boolean;
  /** A body that passes validation; the cases below break one thing in it. */
  valid: Record<string, unknown>;
  /** Longest accepted length of each string field. */
  maxLength: Record<string, number>;
  /** Wrong values per field, beyond the generic wrong types. */
  wrong?: Record<string, unknown[]>;
}

const ENDPOINTS: Endpoint[] = [
  {
    name: 'login',
    method: 'POST',
    path: '/api/auth/login',
    signedIn: false,
    valid: { email: 'someone@example.com', pass: 'Some-pass1', type: 'admin' },
    maxLength: { email: 255, pass: 128 },
    wrong: { type: ['mobile', 'ruejai', 'ADMIN', ''], email: ['', '   '], pass: [''] },
  },
  {
    name: 'forgot password',
    method: 'POST',
    path: '/api/auth/forgot-password',
    signedIn: false,
    valid: { email: 'someone@example.com', type: 'admin' },
    maxLength: { email: 255 },
    wrong: { type: ['mobile'], email: ['', 'not-an-email', 'a@', '@example.com'] },
  },
  {
    name: 'reset password',
    method: 'POST',
    path: '/api/auth/reset-password',
    signedIn: false,
    valid: { emailToken: 'some-token', pass: 'long-enough' },
    maxLength: { emailToken: 200, pass: 50 },
    wrong: { emailToken: [''], pass: ['', 'short'] },
  },
  {
    name: 'change name',
    method: 'PATCH',
    path: '/api/user/self',
    signedIn: true,
    valid: { firstName: 'Somchai', lastName: 'Jaidee' },
    maxLength: { firstName: 50, lastName: 50 },
  },
  {
    name: 'change password',
    method: 'PATCH',
    path: '/api/user/self',
    signedIn: true,
    valid: { currentPass: 'Factory123', pass: 'Changed123' },
    maxLength: { currentPass: 50, pass: 50 },
    wrong: { currentPass: [''], pass: ['', 'weakpassword'] },
  },
  {
    name: 'accept terms',
    method: 'POST',
    path: '/api/user/self/term-accept',
    signedIn: true,
    valid: { termsId: null, privacyId: null },
    maxLength: {},
    wrong: { termsId: ['1', 1.5, 0, -1, 2 ** 60], privacyId: ['', 1.5, 0] },
  },
];

/** Values of the wrong type for a field whose valid value is a string, or a number or null. */
const wrongTypes = (valid: unknown): unknown[] =>
  typeof valid === 'string' ? [123, true, null, [], {}, ['a']] : ['1', true, [], {}, [1]];
const NUL = '\u0000';

/** The variants of one endpoint's body, each with one thing wrong. */
function badBodies(endpoint: Endpoint): Array<[string, unknown]> {
  const cases: Array<[string, unknown]> = [
    ['empty object', {}],
    ['array', [endpoint.valid]],
    ['string', 'text'],
    ['number', 42],
    ['null', null],
  ];
  // The sign-in calls ignore unknown keys; the profile calls take exactly one shape.
  if (endpoint.signedIn) cases.push(['unknown key', { ...endpoint.valid, extra: 'x' }]);
  for (const field of Object.keys(endpoint.valid)) {
    const { [field]: _dropped, ...missing } = endpoint.valid;
    cases.push([`missing ${field}`, missing]);
    for (const value of [...wrongTypes(endpoint.valid[field]), ...(endpoint.wrong?.[field] ?? [])]) {
      cases.push([`${field} = ${JSON.stringify(value)}`, { ...endpoint.valid, [field]: value }]);
    }
  }
  for (const [field, max] of Object.entries(endpoint.maxLength)) {
    const long = field === 'email' ? `${'a'.repeat(max)}@example.com` : `Aa1${'x'.repeat(max)}`;
    cases.push([`${field} over ${max} characters`, { ...endpoint.valid, [field]: long }]);
  }
  for (const field of Object.keys(endpoint.valid)) {
    if (typeof endpoint.valid[field] === 'string') {
      cases.push([`${field} holding NUL`, { ...endpoint.valid, [field]: `Ab1${NUL}defgh` }]);
      // A lone surrogate has no UTF-8 form: refused, never silently replaced on its way to the database.
      cases.push([`${field} holding a lone surrogate`, { ...endpoint.valid, [field]: 'Ab1\ud800defgh' }]);
    }
  }
  return cases;
}

async function send(endpoint: Endpoint, options: CallOptions) {
  return t.call(endpoint.method, endpoint.path, { ...options, token: endpoint.signedIn ? token : undefined });
}

const json = { 'content-type': 'application/json' };

describe.each(ENDPOINTS)('$name: $method $path', (endpoint) => {
  it('answers 400 {message} to each malformed body', async () => {
    const cases = badBodies(endpoint);
    expect(cases.length).toBeGreaterThan(10);
    for (const [label, body] of cases) {
      const response = await send(endpoint, { raw: JSON.stringify(body), headers: json });
      expect(response.status, label).toBe(400);
      expect(response.body, label).toEqual({ message: expect.any(String) });
    }
  });

  it('answers 400 {message} to invalid or empty JSON', async () => {
    for (const raw of [
      '{"email":',
      '{bad json}',
      "{'single':'quotes'}",
      '',
      '{"__proto__":{"admin":true}}',
    ]) {
      const response = await send(endpoint, { raw, headers: json });
      expect(response.status, raw).toBe(400);
      expect(response.body, raw).toEqual({ message: expect.any(String) });
    }
  });

  it('answers 415 to a content type it does not read, 400 to plain text', async () => {
    for (const type of [
      'application/xml',
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=x',
    ]) {
      const response = await send(endpoint, {
        raw: JSON.stringify(endpoint.valid),
        headers: { 'content-type': type },
      });
      expect(response.status, type).toBe(415);
      expect(response.body, type).toEqual({ message: expect.any(String) });
    }
    const text = await send(endpoint, {
      raw: JSON.stringify(endpoint.valid),
      headers: { 'content-type': 'text/plain' },
    });
    expect(text.status).toBe(400);
    expect(text.body).toEqual({ message: expect.any(String) });
  });

  it('answers 400 to no body at all', async () => {
    const response = await send(endpoint, {});
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ message: expect.any(String) });
  });

  it('answers 413 {message} to a 2 MB body', async () => {
    const big = { ...endpoint.valid, filler: 'x'.repeat(2 * 1024 * 1024) };
    const response = await send(endpoint, { raw: JSON.stringify(big), headers: json });
    expect(response.status).toBe(413);
    expect(response.body).toEqual({ message: expect.any(String) });
  });
});

describe('logout', () => {
  it('answers 400 to an invalid JSON body and keeps the session', async () => {
    const { token: own } = await signedInUser(t);
    const response = await t.call('POST', '/api/auth/logout', { token: own, raw: '{oops', headers: json });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ message: expect.any(String) });
    expect((await t.call('GET', '/api/user/self', { token: own })).status).toBe(200);
  });
});

describe('queries and paths', () => {
  it('never answers 500 to odd queries and paths', async () => {
    const cases: Array<[string, number]> = [
      ['/api/province?name=%00', 400],
      ['/api/province?a=%E0%A4%A', 200],
      ['/api/province?a[b][c]=1&a=2', 200],
      ['/api/user/self?accessToken=whatever', 200],
      [`/api/province?${'q=1&'.repeat(2000)}`, 200],
      ['/api/%E0%A4%A', 400],
      [`/api/${'x'.repeat(5000)}`, 404],
    ];
    for (const [path, status] of cases) {
      const response = await t.call('GET', path, { token });
      expect(response.status, path.slice(0, 60)).toBe(status);
      expect(response.body, path.slice(0, 60)).toEqual(
        status === 200 ? expect.anything() : { message: expect.any(String) },
      );
    }
  });
});
