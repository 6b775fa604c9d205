import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedInUser } from '../helpers/factories.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';

/** A built web app in miniature: the HTML and one hashed asset. */
const webDist = fs.mkdtempSync(path.join(os.tmpdir(), 'ev-web-dist-'));
fs.mkdirSync(path.join(webDist, 'assets'));
fs.writeFileSync(
  path.join(webDist, 'index.html'),
  '<!doctype html><html><head><script type="module" src="/assets/x.js"></script></head><body></body></html>',
);
fs.writeFileSync(path.join(webDist, 'assets', 'x.js'), 'export const x = 1;\n');
fs.writeFileSync(path.join(webDist, 'assets', 'x.svg'), '<svg xmlns="http://www.w3.org/2000/svg"></svg>\n');

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({
    WEB_DIST: webDist,
    MAP_TILE_URL: 'https://{s}.tiles.example.com/{z}/{x}/{y}.png',
  });
});
afterAll(async () => {
  await t.close();
  fs.rmSync(webDist, { recursive: true, force: true });
});

/** The CSP as directive -> sources. */
function csp(headers: Headers): Map<string, string[]> {
  const value = headers.get('content-security-policy');
  expect(value, 'Content-Security-Policy header').toBeTruthy();
  return new Map(
    value!
      .split(';')
      .map((part) => part.trim().split(/\s+/))
      .filter((words) => words[0])
      .map(([name, ...sources]) => [name!, sources]),
  );
}

/** The headers every answer carries, whatever it is. */
function expectBaseHeaders(headers: Headers) {
  const policy = csp(headers);
  expect(policy.get('frame-ancestors')).toEqual(["'none'"]);
  expect(policy.get('object-src')).toEqual(["'none'"]);
  expect(headers.get('x-frame-options')).toBe('DENY');
  expect(headers.get('x-content-type-options')).toBe('nosniff');
  expect(headers.get('referrer-policy')).toBe('strict-origin');
  return policy;
}

const get = (urlPath: string, headers: Record<string, string> = {}) =>
  fetch(t.url + urlPath, { headers, redirect: 'manual' });

describe('the web app', () => {
  it('serves index.html under a CSP that allows the app and the map tiles, and forbids framing', async () => {
    for (const urlPath of ['/', '/landlord/1']) {
      const response = await get(urlPath);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toMatch(/^text\/html/);
      const policy = expectBaseHeaders(response.headers);
      expect(policy.get('default-src')).toEqual(["'self'"]);
      expect(policy.get('script-src')).toEqual(["'self'"]);
      expect(policy.get('style-src')).toEqual(["'self'", "'unsafe-inline'"]);
      expect(policy.get('img-src')).toEqual(["'self'", 'data:', 'https://*.tiles.example.com']);
      expect(policy.get('connect-src')).toEqual(["'self'"]);
      expect(policy.get('frame-src')).toEqual([
        "'self'",
        'https://www.youtube.com',
        'https://youtube.com',
        'https://www.youtube-nocookie.com',
        'https://player.vimeo.com',
      ]);
      expect(policy.get('font-src')).toEqual(["'self'"]);
      expect(policy.get('base-uri')).toEqual(["'self'"]);
      expect(policy.get('form-action')).toEqual(["'self'"]);
      // The HTML is revalidated on every load; HSTS only over HTTPS.
      expect(response.headers.get('cache-control')).toBe('no-cache');
      expect(response.headers.get('strict-transport-security')).toBeNull();
    }
  });

  it('keeps a hashed script immutable, with nosniff and CORP but without the document-only headers', async () => {
    const response = await get('/assets/x.js');
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('cross-origin-resource-policy')).toBe('same-origin');
    for (const name of [
      'content-security-policy',
      'x-frame-options',
      'referrer-policy',
      'x-xss-protection',
    ]) {
      expect(response.headers.get(name), name).toBeNull();
    }
  });

  it('keeps every header on an asset that a browser could render as a document (an SVG)', async () => {
    const response = await get('/assets/x.svg');
    expect(response.status).toBe(200);
    expectBaseHeaders(response.headers);
  });

  it('sends the headers on a missing asset too', async () => {
    const response = await get('/assets/missing.js');
    expect(response.status).toBe(404);
    expectBaseHeaders(response.headers);
  });
});

describe('the API', () => {
  it('marks an answer to a signed-in request no-store', async () => {
    const { token } = await signedInUser(t);
    const response = await t.call('GET', '/api/user/self', { token });
    expect(response.status).toBe(200);
    expectBaseHeaders(response.headers);
    expect(response.headers.get('cache-control')).toBe('no-store');
  });

  it('marks the sign-in answer (it holds the token) and a refused token no-store', async () => {
    const signIn = await t.call('POST', '/api/auth/login', {
      body: { email: 'nobody@example.com', pass: 'Wrong1234', type: 'admin' },
    });
    expect(signIn.status).toBeGreaterThanOrEqual(400);
    expectBaseHeaders(signIn.headers);
    expect(signIn.headers.get('cache-control')).toBe('no-store');

    const refused = await t.call('GET', '/api/user/self', { token: 'not-a-session' });
    expect(refused.status).toBe(401);
    expectBaseHeaders(refused.headers);
    expect(refused.headers.get('cache-control')).toBe('no-store');
  });

  it('leaves the caching of a public answer alone, with the other headers', async () => {
    for (const urlPath of ['/api/health', '/api/app-config']) {
      const response = await t.call('GET', urlPath);
      expect(response.status).toBe(200);
      expectBaseHeaders(response.headers);
      expect(response.headers.get('cache-control')).toBeNull();
    }
  });

  it('sends the headers on a 404 and on a 401', async () => {
    const missing = await t.call('GET', '/api/nothing-here');
    expect(missing.status).toBe(404);
    expectBaseHeaders(missing.headers);

    const signedOut = await t.call('GET', '/api/user/self');
    expect(signedOut.status).toBe(401);
    expectBaseHeaders(signedOut.headers);
  });

  it('serves the API docs under the same policy: Swagger UI needs nothing more', async () => {
    const response = await get('/api/docs');
    expect(response.status).toBe(200);
    expect(await response.text()).toContain('swagger-initializer.js');
    const policy = expectBaseHeaders(response.headers);
    // Swagger UI loads its scripts from files, styles itself inline and fetches its spec from here.
    expect(policy.get('script-src')).toEqual(["'self'"]);
    expect(policy.get('style-src')).toEqual(["'self'", "'unsafe-inline'"]);
    expect(policy.get('connect-src')).toEqual(["'self'"]);
  });
});

describe('HSTS', () => {
  it('is not sent for X-Forwarded-Proto without a trusted proxy', async () => {
    const response = await get('/api/health', { 'x-forwarded-proto': 'https' });
    expect(response.status).toBe(200);
    expectBaseHeaders(response.headers);
    expect(response.headers.get('strict-transport-security')).toBeNull();
  });

  describe('behind a trusted proxy (TRUST_PROXY=1)', () => {
    let proxied: TestApp;
    beforeAll(async () => {
      proxied = await startTestApp({ TRUST_PROXY: '1', MAP_TILE_URL: '' });
    });
    afterAll(() => proxied.close());

    it('is sent when the proxy says the request came over HTTPS, and only then', async () => {
      const https = await proxied.call('GET', '/api/health', { headers: { 'x-forwarded-proto': 'https' } });
      expect(https.headers.get('strict-transport-security')).toBe('max-age=31536000');
      expectBaseHeaders(https.headers);

      const http = await proxied.call('GET', '/api/health', { headers: { 'x-forwarded-proto': 'http' } });
      expect(http.headers.get('strict-transport-security')).toBeNull();
      const direct = await proxied.call('GET', '/api/health');
      expect(direct.headers.get('strict-transport-security')).toBeNull();
      expectBaseHeaders(direct.headers);
    });

    it('allows no tile host when MAP_TILE_URL is empty', async () => {
      const response = await proxied.call('GET', '/api/app-config');
      expect(response.body.mapTileUrl).toBeNull();
      expect(csp(response.headers).get('img-src')).toEqual(["'self'", 'data:']);
    });
  });
});
