import { createHash } from 'node:crypto';
import http from 'node:http';
import { FIRMWARE_MAX_BYTES } from '@ev/shared';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chargerFileChunks, chargerFiles, chargerFileTokens } from '../../src/db/schema/index.ts';
import { hashToken } from '../../src/lib/tokens.ts';
import {
  lastLocation,
  latestReaches,
  requestsOf,
  steeredChargers,
  testBytes,
  uploadFirmware,
} from '../helpers/charger-files.ts';
import { createChargerBrand, signedInUser } from '../helpers/factories.ts';
import { chargerPlace, createChargers, eventually, readEvents, simulate } from '../helpers/ocpp.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';

// Firmware (issue 32 §2): files uploaded by the admin, UpdateFirmware to a simulated charger that downloads
// through its one-time link and walks every step, each answer a charger can give, and a brand's batch.

const MAIN = 'FW-01';
const FAILS = 'FW-02';
const NOT_SUPPORTED = 'FW-NS';
const OFFLINE = 'FW-OFF';
const BATCH = ['FWB-1', 'FWB-2', 'FWB-OFF'];
const BATCH_TOKEN = 'firmware-batch-token';
const IMAGE = testBytes(3 * 1024 * 1024 + 12_345);
const IMAGE_SHA = createHash('sha256').update(IMAGE).digest('hex');

let t: TestApp;
let admin: string;
let callcenter: string;
let place: Awaited<ReturnType<typeof chargerPlace>>;
let otherBrand: Awaited<ReturnType<typeof createChargerBrand>>;
let fileId: number;
const { seen, behaviours, transfers, options } = steeredChargers();
const simulations: Array<Awaited<ReturnType<typeof simulate>>> = [];

const firmware = (chargerId: string, body: unknown, token = admin) =>
  t.call('POST', `/api/charger/${chargerId}/firmware`, { token, body });
const download = (url: string) =>
  fetch(url).then(async (r) => ({ status: r.status, r, bytes: Buffer.from(await r.arrayBuffer()) }));

beforeAll(async () => {
  t = await startTestApp({ OCPP_COMMAND_TIMEOUT_MS: '1000', BATCH_COMMAND_TOKEN: BATCH_TOKEN });
  // The one-time links start with APP_URL: here, where the test server listens.
  t.config.appUrl = t.url;
  admin = (await signedInUser(t, { role: 'admin' })).token;
  callcenter = (await signedInUser(t, { role: 'callcenter' })).token;
  place = await chargerPlace(t);
  otherBrand = await createChargerBrand(t, { powerType: 'AC' });
  await createChargers(t, admin, place, [MAIN, FAILS, NOT_SUPPORTED, OFFLINE], { connectors: 1 });
  await createChargers(t, admin, { ...place, brand: otherBrand }, BATCH, { connectors: 1 });
  simulations.push(
    await simulate(
      t,
      [MAIN, FAILS, 'FWB-1', 'FWB-2'].map((id) => ({ id, connectors: 1 })),
      options,
    ),
    await simulate(t, [{ id: NOT_SUPPORTED, connectors: 1, firmwareManagement: false }], options),
  );
});
afterAll(async () => {
  for (const simulation of simulations) await simulation.stop();
  await t.close();
});

describe('firmware files', () => {
  it('streams an upload into 1 MB chunks with its SHA-256, and gives it back byte for byte', async () => {
    const uploaded = await uploadFirmware(
      t.url,
      admin,
      IMAGE,
      'ev-sim-2.0.1.bin',
      `version=2.0.1&chargerBrandId=${place.brand.id}`,
    );
    expect(uploaded.status, JSON.stringify(uploaded.body)).toBe(201);
    const file = uploaded.body.file;
    expect(file).toMatchObject({
      kind: 'firmware',
      name: 'ev-sim-2.0.1.bin',
      version: '2.0.1',
      size: IMAGE.length,
      sha256: IMAGE_SHA,
      chargerBrandId: place.brand.id,
      chargerBrandName: place.brand.name,
      chargerId: null,
    });
    fileId = file.id;
    const chunks = await t.database.db
      .select({ seq: chargerFileChunks.seq })
      .from(chargerFileChunks)
      .where(eq(chargerFileChunks.fileId, fileId));
    expect(chunks.map((c) => c.seq).sort()).toEqual([0, 1, 2, 3]);

    const back = await fetch(`${t.url}/api/charger-file/${fileId}/download`, {
      headers: { 'x-access-token': admin },
    });
    expect(back.status).toBe(200);
    expect(back.headers.get('content-type')).toBe('application/octet-stream');
    expect(back.headers.get('content-length')).toBe(String(IMAGE.length));
    expect(back.headers.get('content-disposition')).toMatch(/^attachment; filename="ev-sim-2\.0\.1\.bin"/);
    expect(back.headers.get('x-content-type-options')).toBe('nosniff');
    const bytes = Buffer.from(await back.arrayBuffer());
    expect(createHash('sha256').update(bytes).digest('hex')).toBe(IMAGE_SHA);
    expect(bytes.equals(IMAGE)).toBe(true);

    const list = await t.call('GET', `/api/charger-file?kind=firmware&chargerBrandId=${place.brand.id}`, {
      token: admin,
    });
    expect(list.body.files.map((f: { id: number }) => f.id)).toEqual([fileId]);
    expect(
      (
        await t.call('GET', `/api/charger-file?kind=firmware&chargerBrandId=${otherBrand.id}`, {
          token: admin,
        })
      ).body,
    ).toEqual({
      total: 0,
      files: [],
    });
  });

  it('refuses an empty file, no file, no version, an unknown brand, a body that is not multipart', async () => {
    const empty = await uploadFirmware(t.url, admin, new Uint8Array(), 'empty.bin');
    expect([empty.status, empty.body]).toEqual([400, { message: 'The file is empty.' }]);
    const form = new FormData();
    form.append('other', new Blob([IMAGE.subarray(0, 10)]), 'x.bin');
    const noFile = await fetch(`${t.url}/api/charger-file?version=1`, {
      method: 'POST',
      headers: { 'x-access-token': admin },
      body: form,
    });
    expect(noFile.status).toBe(400);
    const noVersion = await uploadFirmware(t.url, admin, IMAGE.subarray(0, 10), 'a.bin', '');
    expect(noVersion.status).toBe(400);
    expect(noVersion.body.message).toMatch(/version/i);
    const badBrand = await uploadFirmware(
      t.url,
      admin,
      IMAGE.subarray(0, 10),
      'a.bin',
      'version=1&chargerBrandId=999999',
    );
    expect([badBrand.status, badBrand.body]).toEqual([404, { message: 'No such charger brand' }]);
    const json = await t.call('POST', '/api/charger-file?version=1', { token: admin, body: { file: 'x' } });
    expect(json.status).toBe(415);
    const rows = await t.database.db.select({ id: chargerFiles.id }).from(chargerFiles);
    expect(rows.map((r) => r.id)).toEqual([fileId]);
  });

  it('refuses a declared size over 256 MB before reading it, and a cut upload leaves nothing', async () => {
    const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const request = http.request(`${t.url}/api/charger-file?version=1`, {
        method: 'POST',
        headers: {
          'x-access-token': admin,
          'content-type': 'multipart/form-data; boundary=x',
          'content-length': String(FIRMWARE_MAX_BYTES + 1024 * 1024),
        },
      });
      request.on('response', (response) => {
        let body = '';
        response.on('data', (chunk) => (body += chunk));
        response.on('end', () => {
          resolve({ status: response.statusCode!, body });
          request.destroy();
        });
      });
      request.on('error', reject);
      request.write('--x\r\nContent-Disposition: form-data; name="file"; filename="big.bin"\r\n\r\n');
    });
    expect(answer.status).toBe(413);
    expect(JSON.parse(answer.body)).toEqual({ message: 'The firmware file is larger than 256 MB.' });

    // Half a file, then the connection goes: the incomplete file and its chunks are removed.
    const head = '--x\r\nContent-Disposition: form-data; name="file"; filename="cut.bin"\r\n\r\n';
    await new Promise<void>((resolve) => {
      const request = http.request(`${t.url}/api/charger-file?version=1`, {
        method: 'POST',
        headers: {
          'x-access-token': admin,
          'content-type': 'multipart/form-data; boundary=x',
          'content-length': String(head.length + IMAGE.length + 8),
        },
      });
      request.on('error', () => resolve());
      request.write(head);
      request.write(IMAGE.subarray(0, 2 * 1024 * 1024 + 10), () => setTimeout(() => request.destroy(), 300));
      request.on('close', () => resolve());
    });
    await eventually(async () => {
      const rows = await t.database.db.select({ id: chargerFiles.id }).from(chargerFiles);
      return rows.length === 1;
    });
    const chunks = await t.database.db.select({ fileId: chargerFileChunks.fileId }).from(chargerFileChunks);
    expect(new Set(chunks.map((c) => c.fileId))).toEqual(new Set([fileId]));
  });

  it('is for the admin only: other roles 403, signed out 401', async () => {
    expect((await uploadFirmware(t.url, callcenter, IMAGE.subarray(0, 10), 'a.bin')).status).toBe(403);
    expect((await uploadFirmware(t.url, undefined, IMAGE.subarray(0, 10), 'a.bin')).status).toBe(401);
    expect((await t.call('GET', '/api/charger-file?kind=firmware', { token: callcenter })).status).toBe(403);
    expect((await t.call('GET', `/api/charger-file/${fileId}/download`, { token: callcenter })).status).toBe(
      403,
    );
    expect((await t.call('DELETE', `/api/charger-file/${fileId}`, { token: callcenter })).status).toBe(403);
    expect((await firmware(MAIN, { fileId }, callcenter)).status).toBe(403);
    expect((await t.call('GET', `/api/charger/${MAIN}/firmware`, { token: callcenter })).status).toBe(403);
  });
});

describe('UpdateFirmware to one charger', () => {
  it('the charger downloads the file through its one-time link and walks every step to Installed', async () => {
    const answer = await firmware(MAIN, { fileId, retries: 2, retryInterval: 1 });
    expect([answer.status, answer.body]).toEqual([200, { status: 'Accepted' }]);
    const location = lastLocation(seen, MAIN, 'UpdateFirmware');
    expect(location).toMatch(
      new RegExp(`^${t.url}/ocpp-files/firmware/[A-Za-z0-9_-]{43}/ev-sim-2\\.0\\.1\\.bin$`),
    );
    const command = seen.findLast((e) => e.type === 'command' && e.action === 'UpdateFirmware') as {
      params: Record<string, unknown>;
    };
    expect(command.params).toMatchObject({ retries: 2, retryInterval: 1 });

    const done = await latestReaches(t.url, admin, MAIN, 'firmware', 'Installed');
    expect(done.steps.map((s) => s.status)).toEqual(['Downloading', 'Downloaded', 'Installing', 'Installed']);
    const times = [done.requestedAt, ...done.steps.map((s) => s.at)].map((at) => new Date(at).getTime());
    expect(times).toEqual([...times].sort((a, b) => a - b));
    expect(done).toMatchObject({
      answer: 'Accepted',
      fileId,
      fileName: 'ev-sim-2.0.1.bin',
      version: '2.0.1',
      open: false,
    });
    expect(seen).toContainEqual({ type: 'downloaded', id: MAIN, bytes: IMAGE.length, sha256: IMAGE_SHA });
    // The reboot's BootNotification gave the new version (boot data is written within the store's 200 ms batch).
    await eventually(
      async () =>
        (await t.call('GET', `/api/charger/${MAIN}`, { token: admin })).body.charger.firmwareVersion ===
        '2.0.1',
    );

    // The charger has the file: its link is used.
    const again = await download(location);
    expect([again.status, JSON.parse(again.bytes.toString())]).toEqual([
      410,
      { message: 'This link was used already.' },
    ]);
  });

  it('serves a retried download until the charger reports Downloaded; a link the server refuses is DownloadFailed', async () => {
    transfers.set(FAILS, 'download-fails');
    expect((await firmware(FAILS, { fileId })).body).toEqual({ status: 'Accepted' });
    const failed = await latestReaches(t.url, admin, FAILS, 'firmware', 'DownloadFailed');
    expect(failed.steps.map((s) => s.status)).toEqual(['Downloading', 'DownloadFailed']);
    // The real link was never used: it serves the file (as often as asked) until it expires.
    const location = lastLocation(seen, FAILS, 'UpdateFirmware');
    for (let n = 0; n < 2; n++) {
      const again = await download(location);
      expect(again.status).toBe(200);
      expect(again.r.headers.get('content-length')).toBe(String(IMAGE.length));
      expect(again.bytes.equals(IMAGE)).toBe(true);
    }
    const [token] = /[A-Za-z0-9_-]{43}/.exec(location)!;
    await t.database.db
      .update(chargerFileTokens)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(chargerFileTokens.tokenHash, hashToken(token)));
    const expired = await download(location);
    expect([expired.status, JSON.parse(expired.bytes.toString())]).toEqual([
      410,
      { message: 'This link has expired.' },
    ]);
    for (const bad of ['x'.repeat(43), 'short', `${token}x`]) {
      expect((await download(`${t.url}/ocpp-files/firmware/${bad}/a.bin`)).status).toBe(404);
    }
    transfers.delete(FAILS);

    transfers.set(FAILS, 'install-fails');
    await firmware(FAILS, { fileId });
    const install = await latestReaches(t.url, admin, FAILS, 'firmware', 'InstallationFailed');
    expect(install.steps.map((s) => s.status)).toEqual([
      'Downloading',
      'Downloaded',
      'Installing',
      'InstallationFailed',
    ]);
    transfers.delete(FAILS);
  });

  it('answers NotSupported, 409 offline at once, 504 without an answer, 502 on another error: each recorded', async () => {
    expect((await firmware(NOT_SUPPORTED, { fileId })).body).toEqual({ status: 'NotSupported' });
    const offline = await firmware(OFFLINE, { fileId });
    expect([offline.status, offline.body]).toEqual([409, { message: `Charger ${OFFLINE} is offline.` }]);
    behaviours.set(FAILS, 'silent');
    const silent = await firmware(FAILS, { fileId });
    expect([silent.status, silent.body]).toEqual([
      504,
      { message: `Charger ${FAILS} did not answer the update firmware command within 1 s.` },
    ]);
    behaviours.set(FAILS, 'reject');
    const refused = await firmware(FAILS, { fileId });
    expect([refused.status, refused.body]).toEqual([
      502,
      { message: `Charger ${FAILS} answered the update firmware command with an error (GenericError).` },
    ]);
    behaviours.clear();
    expect((await requestsOf(t.url, admin, NOT_SUPPORTED, 'firmware'))[0]).toMatchObject({
      answer: 'NotSupported',
      open: false,
    });
    expect((await requestsOf(t.url, admin, OFFLINE, 'firmware'))[0]).toMatchObject({
      answer: 'Offline',
      open: false,
    });
    const [error, timeout] = await requestsOf(t.url, admin, FAILS, 'firmware');
    expect(error).toMatchObject({ answer: 'Error', open: false });
    // No answer in time: the charger may have taken it, so its steps would still be shown.
    expect(timeout).toMatchObject({ answer: 'Timeout', open: true });
    // A link of a request not taken is dead at once; one unanswered in time still serves.
    expect((await download(lastLocation(seen, NOT_SUPPORTED, 'UpdateFirmware'))).status).toBe(410);
    const commands = seen.filter(
      (e) => e.type === 'command' && e.id === FAILS && e.action === 'UpdateFirmware',
    );
    const timedOut = (commands.at(-2) as { params: { location: string } }).params.location;
    expect((await download(timedOut)).status).toBe(200);
  });

  it('refuses bad bodies, an unknown file, an unknown charger', async () => {
    for (const body of [
      {},
      { fileId: 'x' },
      { fileId, retries: -1 },
      { fileId, retryInterval: 1.5 },
      { fileId, x: 1 },
      { fileId, retrieveDate: 'tomorrow' },
    ]) {
      const response = await firmware(MAIN, body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(typeof response.body.message).toBe('string');
    }
    expect(await firmware(MAIN, { fileId: 999_999 })).toMatchObject({
      status: 404,
      body: { message: 'No such firmware file' },
    });
    expect(await firmware('NOPE-1', { fileId })).toMatchObject({
      status: 404,
      body: { message: 'Charger not found' },
    });
    expect((await t.call('GET', '/api/charger/NOPE-1/firmware', { token: admin })).status).toBe(404);
  });

  it('keeps a file a live link may still download (409), and deletes it once none may', async () => {
    const kept = await t.call('DELETE', `/api/charger-file/${fileId}`, { token: admin });
    expect([kept.status, kept.body.message]).toEqual([
      409,
      "Can't delete: a firmware update in progress may still download this file.",
    ]);
    await t.database.db
      .update(chargerFileTokens)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(and(eq(chargerFileTokens.fileId, fileId)));
    const spare = await uploadFirmware(t.url, admin, IMAGE.subarray(0, 5000), 'spare-1.0.bin', 'version=1.0');
    expect((await t.call('DELETE', `/api/charger-file/${spare.body.file.id}`, { token: admin })).status).toBe(
      200,
    );
    expect(
      (await t.call('GET', `/api/charger-file/${spare.body.file.id}/download`, { token: admin })).status,
    ).toBe(404);
    const chunks = await t.database.db
      .select()
      .from(chargerFileChunks)
      .where(eq(chargerFileChunks.fileId, spare.body.file.id));
    expect(chunks).toEqual([]);
  });
});

describe('firmware to every charger of a brand', () => {
  it('a batch job: progress over SSE, each charger its request and steps, a CSV at the end', async () => {
    const refused = await t.call('POST', `/api/charger-brand/${otherBrand.id}/firmware`, {
      token: admin,
      body: { fileId, token: 'wrong' },
    });
    expect([refused.status, refused.body]).toEqual([403, { message: 'The batch token is not valid.' }]);
    expect(
      (
        await t.call('POST', `/api/charger-brand/${otherBrand.id}/firmware`, {
          token: callcenter,
          body: { fileId, token: BATCH_TOKEN },
        })
      ).status,
    ).toBe(403);
    expect(
      (
        await t.call('POST', '/api/charger-brand/999999/firmware', {
          token: admin,
          body: { fileId, token: BATCH_TOKEN },
        })
      ).status,
    ).toBe(404);

    const response = await fetch(`${t.url}/api/charger-brand/${otherBrand.id}/firmware`, {
      method: 'POST',
      headers: { 'x-access-token': admin, 'content-type': 'application/json' },
      body: JSON.stringify({ fileId, token: BATCH_TOKEN }),
    });
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const events = await readEvents(response);
    expect(events[0]).toEqual({ event: 'size', data: 3 });
    const jobId = (events[1]!.data as { id: number }).id;
    const updates = events.filter((e) => e.event === 'update').map((e) => e.data);
    expect(updates).toHaveLength(3);
    expect(updates).toEqual(
      expect.arrayContaining([
        { id: 'FWB-1', result: 'Accepted' },
        { id: 'FWB-2', result: 'Accepted' },
        { id: 'FWB-OFF', result: 'Offline' },
      ]),
    );
    for (const id of ['FWB-1', 'FWB-2']) {
      const done = await latestReaches(t.url, admin, id, 'firmware', 'Installed');
      expect(done).toMatchObject({ jobId, answer: 'Accepted', version: '2.0.1' });
    }
    expect((await requestsOf(t.url, admin, 'FWB-OFF', 'firmware'))[0]).toMatchObject({
      jobId,
      answer: 'Offline',
    });

    const csv = await t.call('GET', `/api/charger/batch/jobs/${jobId}/csv`, { token: admin });
    expect(csv.headers.get('content-disposition')).toMatch(/filename="Firmware_\d+\.csv"/);
    const lines = (csv.body as string).trim().split('\r\n');
    expect(lines[0]).toBe('Charger Id,Result,Detail,Time');
    expect(lines.slice(1).map((line) => line.split(',').slice(0, 2).join(','))).toEqual([
      'FWB-1,Accepted',
      'FWB-2,Accepted',
      'FWB-OFF,Offline',
    ]);
    const jobs = await t.call('GET', '/api/charger/batch/jobs', { token: admin });
    expect(jobs.body.jobs[0]).toMatchObject({
      id: jobId,
      kind: 'firmware',
      status: 'finished',
      total: 3,
      done: 3,
      firmware: { fileName: 'ev-sim-2.0.1.bin', version: '2.0.1', brandName: otherBrand.name },
    });
  });
});
