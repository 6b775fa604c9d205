import fs from 'node:fs';
import path from 'node:path';
import { UPLOAD_MAX_BYTES, UPLOAD_MESSAGES } from '@ev/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedInUser } from '../helpers/factories.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';

let t: TestApp;
let admin: string;

beforeAll(async () => {
  t = await startTestApp();
  admin = (await signedInUser(t, { role: 'admin' })).token;
});
afterAll(() => t.close());

/** A 1×1 transparent PNG. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);
const JPEG = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01]);
const GIF = Buffer.from('GIF89a\x01\x00\x01\x00\x00\x00\x00;', 'latin1');
const WEBP = Buffer.concat([Buffer.from('RIFF'), Buffer.from([26, 0, 0, 0]), Buffer.from('WEBPVP8L')]);

interface Part {
  bytes: Uint8Array;
  filename: string;
  type: string;
  field?: string;
}

async function upload(parts: Part[], options: { token?: string; fields?: Record<string, string> } = {}) {
  const form = new FormData();
  for (const [name, value] of Object.entries(options.fields ?? {})) form.append(name, value);
  for (const part of parts)
    form.append(
      part.field ?? 'file',
      new Blob([new Uint8Array(part.bytes)], { type: part.type }),
      part.filename,
    );
  const response = await fetch(`${t.url}/api/upload`, {
    method: 'POST',
    headers: { 'x-access-token': options.token ?? admin },
    body: form,
  });
  // biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON answers
  const body: any = await response.json();
  return { status: response.status, body, headers: response.headers };
}

describe('POST /api/upload', () => {
  it('stores an image under a new name with the type its bytes show, whatever its name says', async () => {
    const response = await upload([{ bytes: PNG, filename: 'notes.txt', type: 'text/plain' }]);
    expect(response.status).toBe(201);
    expect(response.body).toEqual({
      url: `/uploads/${response.body.name}`,
      name: expect.stringMatching(/^[0-9a-f-]{36}\.png$/),
      size: PNG.length,
    });
    const stored = path.join(t.dataDir, 'uploads', response.body.name);
    expect(fs.readFileSync(stored)).toEqual(PNG);
  });

  it('recognises JPEG, GIF and WebP', async () => {
    for (const [bytes, extension] of [
      [JPEG, 'jpg'],
      [GIF, 'gif'],
      [WEBP, 'webp'],
    ] as const) {
      const response = await upload([{ bytes, filename: 'image.bin', type: 'application/octet-stream' }]);
      expect(response.status, extension).toBe(201);
      expect(response.body.name.endsWith(`.${extension}`)).toBe(true);
    }
  });

  it('refuses what is not a PNG, JPEG, GIF or WebP, whatever its name and type say', async () => {
    const html = Buffer.from('<html><script>alert(document.cookie)</script></html>');
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>');
    for (const [bytes, filename] of [
      [html, 'photo.png'],
      [svg, 'logo.svg'],
      [Buffer.alloc(0), 'empty.png'],
      [PNG.subarray(0, 7), 'short.png'],
    ] as const) {
      const response = await upload([{ bytes, filename, type: 'image/png' }]);
      expect(response.status, filename).toBe(415);
      expect(response.body).toEqual({ message: UPLOAD_MESSAGES.notImage });
    }
  });

  it('takes up to 5 MB and refuses more with 413', async () => {
    const exactly = Buffer.concat([PNG, Buffer.alloc(UPLOAD_MAX_BYTES - PNG.length)]);
    const ok = await upload([{ bytes: exactly, filename: 'big.png', type: 'image/png' }]);
    expect(ok.status).toBe(201);
    expect(ok.body.size).toBe(UPLOAD_MAX_BYTES);

    const over = Buffer.concat([PNG, Buffer.alloc(UPLOAD_MAX_BYTES + 1 - PNG.length)]);
    const response = await upload([{ bytes: over, filename: 'huge.png', type: 'image/png' }]);
    expect(response.status).toBe(413);
    expect(response.body).toEqual({ message: UPLOAD_MESSAGES.tooLarge });
    // Nothing half-written is left behind.
    const sizes = fs
      .readdirSync(path.join(t.dataDir, 'uploads'))
      .map((name) => fs.statSync(path.join(t.dataDir, 'uploads', name)).size);
    expect(Math.max(...sizes)).toBe(UPLOAD_MAX_BYTES);
  });

  it('refuses a request without the file', async () => {
    const fieldsOnly = await upload([], { fields: { name: 'x' } });
    expect(fieldsOnly.status).toBe(400);
    expect(fieldsOnly.body).toEqual({ message: UPLOAD_MESSAGES.missing });
    const otherField = await upload([{ bytes: PNG, filename: 'a.png', type: 'image/png', field: 'image' }]);
    expect(otherField.status).toBe(400);
    expect(otherField.body).toEqual({ message: UPLOAD_MESSAGES.missing });
    const json = await t.call('POST', '/api/upload', { token: admin, body: { file: 'x' } });
    expect(json.status).toBe(415);
    expect(json.body).toEqual({ message: expect.stringContaining(UPLOAD_MESSAGES.missing) });
    const none = await t.call('POST', '/api/upload', { token: admin });
    expect(none.status).toBe(415);
    const broken = await t.call('POST', '/api/upload', {
      token: admin,
      raw: '--x\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\n\r\nabc',
      headers: { 'content-type': 'multipart/form-data; boundary=x' },
    });
    expect([400, 415]).toContain(broken.status);
    expect(broken.body).toEqual({ message: expect.any(String) });
    const noBoundary = await t.call('POST', '/api/upload', {
      token: admin,
      raw: 'abc',
      headers: { 'content-type': 'multipart/form-data' },
    });
    expect(noBoundary.status).toBe(400);
    expect(noBoundary.body).toEqual({ message: expect.any(String) });
  });

  it('needs page.write: admin and marketting only', async () => {
    const marketing = (await signedInUser(t, { role: 'marketting' })).token;
    expect(
      (await upload([{ bytes: PNG, filename: 'a.png', type: 'image/png' }], { token: marketing })).status,
    ).toBe(201);
    for (const role of ['merchant', 'party', 'landlord', 'callcenter', 'station'] as const) {
      const { token } = await signedInUser(t, { role });
      const response = await upload([{ bytes: PNG, filename: 'a.png', type: 'image/png' }], { token });
      expect(response.status, role).toBe(403);
    }
    const signedOut = await fetch(`${t.url}/api/upload`, { method: 'POST', body: new FormData() });
    expect(signedOut.status).toBe(401);
  });

  it('leaves the JSON routes as they were: no multipart, same body limits', async () => {
    const form = new FormData();
    form.append('type', 'guide');
    const multipart = await fetch(`${t.url}/api/page`, {
      method: 'POST',
      headers: { 'x-access-token': admin },
      body: form,
    });
    expect(multipart.status).toBe(415);
    // The app-wide 1 MiB limit on another route; the page routes' own (~6 MB) beyond it.
    const tooBig = await t.call('POST', '/api/party', {
      token: admin,
      body: { nameEn: 'x'.repeat(1024 * 1024), nameTh: 'y', landlordIds: [1] },
    });
    expect(tooBig.status).toBe(413);
    expect(tooBig.body).toEqual({ message: expect.any(String) });
    const pageTooBig = await t.call('POST', '/api/page', {
      token: admin,
      body: {
        type: 'guide',
        titleEn: 'a',
        titleTh: 'b',
        detailEn: 'x'.repeat(7 * 1024 * 1024),
        detailTh: 'y',
      },
    });
    expect(pageTooBig.status).toBe(413);
    expect(pageTooBig.body).toEqual({ message: expect.any(String) });
  });
});

describe('GET /uploads/{name}', () => {
  let name: string;
  beforeAll(async () => {
    name = (await upload([{ bytes: PNG, filename: 'pixel.png', type: 'image/png' }])).body.name;
  });

  it('serves the image to anyone, with headers that keep it an image', async () => {
    const response = await fetch(`${t.url}/uploads/${name}`);
    expect(response.status).toBe(200);
    expect(Buffer.from(await response.arrayBuffer())).toEqual(PNG);
    const header = (key: string) => response.headers.get(key);
    expect(header('content-type')).toBe('image/png');
    expect(header('content-length')).toBe(String(PNG.length));
    expect(header('x-content-type-options')).toBe('nosniff');
    expect(header('content-security-policy')).toBe("default-src 'none'; sandbox");
    expect(header('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(header('cross-origin-resource-policy')).toBe('cross-origin');
    expect(header('content-disposition')).toBe('inline');
    const head = await fetch(`${t.url}/uploads/${name}`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-type')).toBe('image/png');
  });

  it('answers 404 to any other name, with no way out of the directory', async () => {
    fs.writeFileSync(path.join(t.dataDir, 'uploads', 'notes.txt'), 'secret');
    for (const other of [
      'notes.txt',
      name.toUpperCase(),
      name.replace('.png', '.html'),
      `${name}.png`,
      '00000000-0000-0000-0000-000000000000.png',
      '..%2F..%2Fetc%2Fpasswd',
      '%2e%2e%2fpgdata',
      `..%2Fuploads%2F${name}`,
      '',
    ]) {
      const response = await fetch(`${t.url}/uploads/${other}`);
      expect(response.status, other).toBe(404);
      expect(await response.json()).toEqual({ message: expect.any(String) });
    }
  });
});
