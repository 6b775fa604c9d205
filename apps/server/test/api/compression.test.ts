import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMPRESS_THRESHOLD_BYTES } from '../../src/plugins/compression.ts';
import { createMerchant, signedInUser } from '../helpers/factories.ts';
import { rawGet as rawHttpGet } from '../helpers/raw-http.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';

/** A built web app in miniature: the HTML and one hashed asset with its build-time .br and .gz beside it. */
const webDist = fs.mkdtempSync(path.join(os.tmpdir(), 'ev-web-dist-'));
const ASSET = `export const words = ${JSON.stringify('สถานีชาร์จ charging station '.repeat(200))};\n`;
fs.mkdirSync(path.join(webDist, 'assets'));
fs.writeFileSync(
  path.join(webDist, 'index.html'),
  '<!doctype html><html><body><div id="root"></div></body></html>',
);
fs.writeFileSync(path.join(webDist, 'assets', 'app.js'), ASSET);
fs.writeFileSync(path.join(webDist, 'assets', 'app.js.br'), brotliCompressSync(ASSET));
fs.writeFileSync(path.join(webDist, 'assets', 'app.js.gz'), gzipSync(ASSET));
// An asset the build left without variants (below its 1 KB floor).
fs.writeFileSync(path.join(webDist, 'assets', 'tiny.js'), 'export const x = 1;\n');

let t: TestApp;
let token: string;
beforeAll(async () => {
  t = await startTestApp({ WEB_DIST: webDist });
  token = (await signedInUser(t, { role: 'admin' })).token;
  for (let i = 0; i < 12; i++)
    await createMerchant(t, { nameEn: `Compressed Cluster ${i} ${'x'.repeat(80)}` });
});
afterAll(async () => {
  await t.close();
  fs.rmSync(webDist, { recursive: true, force: true });
});

/** A GET of the test server, read raw. */
const rawGet = (urlPath: string, headers: Record<string, string> = {}) =>
  rawHttpGet(`${t.url}${urlPath}`, headers);

const decode = (encoding: string | undefined, body: Buffer) =>
  encoding === 'br' ? brotliDecompressSync(body) : encoding === 'gzip' ? gunzipSync(body) : body;

describe('API answers', () => {
  const list = '/api/merchant?page=1&size=50';

  it('are compressed for a client that asks, brotli first, and decode to the same JSON', async () => {
    const plain = await rawGet(list, { 'x-access-token': token });
    expect(plain.status).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.length).toBeGreaterThan(COMPRESS_THRESHOLD_BYTES);
    const expected = JSON.parse(plain.body.toString());
    expect(expected.merchants.length).toBeGreaterThanOrEqual(12);

    for (const [accept, encoding] of [
      ['gzip, deflate, br', 'br'],
      ['gzip', 'gzip'],
    ] as const) {
      const answer = await rawGet(list, { 'x-access-token': token, 'accept-encoding': accept });
      expect(answer.status, accept).toBe(200);
      expect(answer.headers['content-encoding'], accept).toBe(encoding);
      expect(answer.headers.vary, accept).toMatch(/accept-encoding/i);
      expect(answer.body.length, accept).toBeLessThan(plain.body.length / 3);
      expect(JSON.parse(decode(encoding, answer.body).toString()), accept).toEqual(expected);
    }
  });

  it('below the threshold go as they are', async () => {
    const health = await rawGet('/api/health', { 'accept-encoding': 'br, gzip' });
    expect(health.status).toBe(200);
    expect(health.body.length).toBeLessThan(COMPRESS_THRESHOLD_BYTES);
    expect(health.headers['content-encoding']).toBeUndefined();
    expect(JSON.parse(health.body.toString()).status).toBe('ok');
  });

  it('keep their security headers when compressed', async () => {
    const answer = await rawGet(list, { 'x-access-token': token, 'accept-encoding': 'br' });
    expect(answer.headers['content-encoding']).toBe('br');
    expect(answer.headers['cache-control']).toBe('no-store');
    expect(answer.headers['content-security-policy']).toContain("frame-ancestors 'none'");
  });
});

describe('the web app files', () => {
  it('are sent as built: the .br or .gz file the client accepts, immutable, else the plain file', async () => {
    for (const [accept, encoding, variant] of [
      ['gzip, deflate, br', 'br', 'app.js.br'],
      ['gzip', 'gzip', 'app.js.gz'],
    ] as const) {
      const answer = await rawGet('/assets/app.js', { 'accept-encoding': accept });
      expect(answer.status, accept).toBe(200);
      expect(answer.headers['content-encoding'], accept).toBe(encoding);
      expect(answer.headers['content-type'], accept).toMatch(/javascript/);
      expect(answer.headers['cache-control'], accept).toBe('public, max-age=31536000, immutable');
      // The very bytes written at build time, not compressed again per request.
      expect(answer.body.equals(fs.readFileSync(path.join(webDist, 'assets', variant))), accept).toBe(true);
      expect(decode(encoding, answer.body).toString(), accept).toBe(ASSET);
    }
    const plain = await rawGet('/assets/app.js');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.toString()).toBe(ASSET);

    // Without a build-time variant (below the build's 1 KB floor) a file is compressed on the fly, if at all
    // (@fastify/compress cannot size a file stream): the same bytes either way.
    const tiny = await rawGet('/assets/tiny.js', { 'accept-encoding': 'br, gzip' });
    expect(tiny.status).toBe(200);
    expect(decode(tiny.headers['content-encoding'], tiny.body).toString()).toBe('export const x = 1;\n');
  });

  it('serve the app page with no-cache', async () => {
    const page = await rawGet('/charger', { 'accept-encoding': 'br, gzip' });
    expect(page.status).toBe(200);
    expect(page.headers['cache-control']).toBe('no-cache');
    expect(decode(page.headers['content-encoding'], page.body).toString()).toContain('<div id="root">');
  });
});
