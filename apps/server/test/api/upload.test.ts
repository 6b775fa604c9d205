import { randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { UPLOAD_MAX_BYTES, UPLOAD_MESSAGES } from '@ev/shared';
import { count, eq, max } from 'drizzle-orm';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type Database, openDatabase } from '../../src/db/client.ts';
import { uploadedFiles } from '../../src/db/schema/index.ts';
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

async function upload(
  parts: Part[],
  options: { token?: string; fields?: Record<string, string>; app?: TestApp } = {},
) {
  const form = new FormData();
  for (const [name, value] of Object.entries(options.fields ?? {})) form.append(name, value);
  for (const part of parts)
    form.append(
      part.field ?? 'file',
      new Blob([new Uint8Array(part.bytes)], { type: part.type }),
      part.filename,
    );
  const response = await fetch(`${(options.app ?? t).url}/api/upload`, {
    method: 'POST',
    headers: { 'x-access-token': options.token ?? admin },
    body: form,
  });
  // biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON answers
  const body: any = await response.json();
  return { status: response.status, body, headers: response.headers };
}

/** The stored row of an upload, read from the database directly. */
async function storedRow(name: string) {
  const [row] = await t.database.db.select().from(uploadedFiles).where(eq(uploadedFiles.name, name));
  return row;
}

/**
 * The same database for another server: on PostgreSQL a connection pool of its own, as another process
 * would have; embedded, the same PGlite instance (only one process opens an embedded database), left open
 * when that server closes.
 */
async function sameDatabase(): Promise<Database> {
  if (t.database.kind === 'postgres') {
    const pool = (t.database.db as unknown as { $client: pg.Pool }).$client;
    return openDatabase({ databaseUrl: pool.options.connectionString });
  }
  return { ...t.database, close: async () => {} };
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
    // In the database, not on disk.
    const row = await storedRow(response.body.name);
    expect(row).toEqual({
      name: response.body.name,
      contentType: 'image/png',
      size: PNG.length,
      bytes: PNG,
      createdAt: expect.any(Date),
    });
    expect(fs.existsSync(t.config.uploadDir)).toBe(false);
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
      expect((await storedRow(response.body.name))?.bytes).toEqual(bytes);
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
    const rows = async () => (await t.database.db.select({ n: count() }).from(uploadedFiles))[0]!.n;
    const exactly = Buffer.concat([PNG, Buffer.alloc(UPLOAD_MAX_BYTES - PNG.length)]);
    const ok = await upload([{ bytes: exactly, filename: 'big.png', type: 'image/png' }]);
    expect(ok.status).toBe(201);
    expect(ok.body.size).toBe(UPLOAD_MAX_BYTES);
    expect((await storedRow(ok.body.name))?.bytes.equals(exactly)).toBe(true);
    const before = await rows();

    const over = Buffer.concat([PNG, Buffer.alloc(UPLOAD_MAX_BYTES + 1 - PNG.length)]);
    const response = await upload([{ bytes: over, filename: 'huge.png', type: 'image/png' }]);
    expect(response.status).toBe(413);
    expect(response.body).toEqual({ message: UPLOAD_MESSAGES.tooLarge });
    // Nothing half-written is left behind.
    expect(await rows()).toBe(before);
    const [largest] = await t.database.db.select({ size: max(uploadedFiles.size) }).from(uploadedFiles);
    expect(largest?.size).toBe(UPLOAD_MAX_BYTES);
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

  it('answers 404 to any other name, and never serves a file of UPLOAD_DIR', async () => {
    // Files put in UPLOAD_DIR once the server runs: not in the database, not served.
    const onDiskOnly = `${randomUUID()}.png`;
    fs.mkdirSync(t.config.uploadDir, { recursive: true });
    fs.writeFileSync(path.join(t.config.uploadDir, 'notes.txt'), 'secret');
    fs.writeFileSync(path.join(t.config.uploadDir, onDiskOnly), PNG);
    for (const other of [
      onDiskOnly,
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
    fs.rmSync(t.config.uploadDir, { recursive: true });
  });
});

/** A PNG of `size` bytes holding every byte value (the signature, then random bytes). */
const randomPng = (size: number) => Buffer.concat([PNG.subarray(0, 8), randomBytes(size - 8)]);

describe('images live in the database', () => {
  it('serves an image byte for byte from its row, with no file anywhere', async () => {
    const bytes = randomPng(300_000);
    const { body } = await upload([{ bytes, filename: 'photo.png', type: 'image/png' }]);
    expect(fs.existsSync(t.config.uploadDir)).toBe(false);
    expect((await storedRow(body.name))?.bytes.equals(bytes)).toBe(true);
    const response = await fetch(`${t.url}${body.url}`);
    expect(response.status).toBe(200);
    expect(Buffer.from(await response.arrayBuffer()).equals(bytes)).toBe(true);
    expect(response.headers.get('content-type')).toBe('image/png');
    expect(response.headers.get('content-length')).toBe(String(bytes.length));
    expect(response.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    // The type served is the stored one.
    await t.database.db
      .update(uploadedFiles)
      .set({ contentType: 'image/webp' })
      .where(eq(uploadedFiles.name, body.name));
    expect((await fetch(`${t.url}${body.url}`)).headers.get('content-type')).toBe('image/webp');
  });

  it('serves an image uploaded through one server from another on the same database', async () => {
    const other = await startTestApp({}, { database: await sameDatabase() });
    try {
      const first = randomPng(50_000);
      const second = Buffer.concat([JPEG, randomBytes(70_000)]);
      const a = await upload([{ bytes: first, filename: 'a.png', type: 'image/png' }]);
      const b = await upload([{ bytes: second, filename: 'b.jpg', type: 'image/jpeg' }], { app: other });
      expect([a.status, b.status]).toEqual([201, 201]);
      for (const [server, uploaded, bytes, type] of [
        [other, a, first, 'image/png'],
        [t, b, second, 'image/jpeg'],
      ] as const) {
        const response = await fetch(`${server.url}${uploaded.body.url}`);
        expect(response.status).toBe(200);
        expect(response.headers.get('content-type')).toBe(type);
        expect(response.headers.get('content-length')).toBe(String(bytes.length));
        expect(Buffer.from(await response.arrayBuffer()).equals(bytes)).toBe(true);
      }
    } finally {
      await other.close();
    }
  });
});

describe('images of UPLOAD_DIR (before they lived in the database)', () => {
  let dir: string;
  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ev-legacy-uploads-'));
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('imports them at start, once; what is not an image stays out', async () => {
    const legacy = { png: randomPng(20_000), gif: GIF };
    const names = { png: `${randomUUID()}.png`, gif: `${randomUUID()}.gif` };
    const notImage = `${randomUUID()}.png`;
    const alreadyStored = (await upload([{ bytes: PNG, filename: 'a.png', type: 'image/png' }])).body.name;
    fs.writeFileSync(path.join(dir, names.png), legacy.png);
    fs.writeFileSync(path.join(dir, names.gif), legacy.gif);
    fs.writeFileSync(path.join(dir, notImage), '<html><script>alert(1)</script></html>');
    fs.writeFileSync(path.join(dir, 'notes.txt'), 'not an upload name: never read');
    fs.mkdirSync(path.join(dir, `${randomUUID()}.png`)); // a directory named like one
    // A file under the name of an image already stored: never read, the stored one stays.
    fs.writeFileSync(path.join(dir, alreadyStored), randomPng(100));

    const reads = vi.spyOn(fs.promises, 'readFile');
    const readsOf = () =>
      reads.mock.calls.map(([file]) => String(file)).filter((file) => file.startsWith(dir));
    try {
      const started = await startTestApp({ UPLOAD_DIR: dir }, { database: await sameDatabase() });
      try {
        expect(readsOf().sort()).toEqual(
          [names.png, names.gif, notImage].map((name) => path.join(dir, name)).sort(),
        );
        for (const [name, bytes, type] of [
          [names.png, legacy.png, 'image/png'],
          [names.gif, legacy.gif, 'image/gif'],
          [alreadyStored, PNG, 'image/png'],
        ] as const) {
          const response = await fetch(`${started.url}/uploads/${name}`);
          expect(response.status, name).toBe(200);
          expect(response.headers.get('content-type')).toBe(type);
          expect(response.headers.get('x-content-type-options')).toBe('nosniff');
          expect(Buffer.from(await response.arrayBuffer()).equals(bytes), name).toBe(true);
          // In the database: the first server, which started before the import, serves it too.
          expect((await fetch(`${t.url}/uploads/${name}`)).status).toBe(200);
        }
        expect((await fetch(`${started.url}/uploads/${notImage}`)).status).toBe(404);
        expect(await storedRow(notImage)).toBeUndefined();
        const lines = started
          .logs()
          .trim()
          .split('\n')
          .map((line) => JSON.parse(line));
        expect(lines).toContainEqual(
          expect.objectContaining({ level: 40, msg: expect.stringContaining(`${notImage} not imported`) }),
        );
        expect(lines).toContainEqual(
          expect.objectContaining({ level: 30, msg: expect.stringContaining('imported 2 image(s)') }),
        );
      } finally {
        await started.close();
      }

      // A second start reads only the file that is still no image: the others are in the table.
      reads.mockClear();
      const again = await startTestApp({ UPLOAD_DIR: dir }, { database: await sameDatabase() });
      try {
        expect(readsOf()).toEqual([path.join(dir, notImage)]);
        expect(again.logs()).not.toMatch(/imported \d+ image/);
      } finally {
        await again.close();
      }
    } finally {
      reads.mockRestore();
    }
    // The files stay where they were.
    expect(fs.readFileSync(path.join(dir, names.png)).equals(legacy.png)).toBe(true);
  });

  it('costs nothing when UPLOAD_DIR does not exist', async () => {
    const missing = path.join(dir, 'missing');
    const started = await startTestApp({ UPLOAD_DIR: missing }, { database: await sameDatabase() });
    try {
      expect(fs.existsSync(missing)).toBe(false); // no longer created
      expect(started.logs()).not.toContain('uploads:');
    } finally {
      await started.close();
    }
  });
});
