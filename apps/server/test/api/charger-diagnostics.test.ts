import http from 'node:http';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chargerFiles, chargerFileTokens } from '../../src/db/schema/index.ts';
import { hashToken } from '../../src/lib/tokens.ts';
import { lastLocation, latestReaches, requestsOf, steeredChargers } from '../helpers/charger-files.ts';
import { signedInUser } from '../helpers/factories.ts';
import { chargerPlace, createChargers, eventually, simulate } from '../helpers/ocpp.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';

// Diagnostics (issue 32 §2): GetDiagnostics to a simulated charger, which uploads its log to a one-time link
// on our server (POST multipart or PUT); the file lands in the charger's list for the admin to download. Each
// answer a charger can give; the upload link's refusals.

const POSTS = 'DG-01';
const PUTS = 'DG-02';
const NOT_SUPPORTED = 'DG-NS';
const OFFLINE = 'DG-OFF';

let t: TestApp;
let admin: string;
let siteUser: string;
const { seen, behaviours, transfers, options } = steeredChargers();
const simulations: Array<Awaited<ReturnType<typeof simulate>>> = [];

const diagnostics = (chargerId: string, body: unknown = {}, token = admin) =>
  t.call('POST', `/api/charger/${chargerId}/diagnostics`, { token, body });
const put = (location: string, body: string | Buffer) =>
  fetch(location, { method: 'PUT', body }).then(async (r) => ({ status: r.status, body: await r.json() }));
/** A PUT of `megabytes` MB (its headers as given) read to the answer, or the error that ended it. */
function rawPut(location: string, headers: Record<string, string>, megabytes: number) {
  return new Promise<{ status: number; body: string }>((resolve, reject) => {
    const request = http.request(location, { method: 'PUT', headers });
    request.on('response', (response) => {
      let body = '';
      response.on('data', (chunk) => (body += chunk));
      response.on('end', () => {
        resolve({ status: response.statusCode!, body });
        request.destroy();
      });
    });
    request.on('error', reject);
    const chunk = Buffer.alloc(1024 * 1024, 65);
    let sent = 0;
    const more = () => {
      while (sent < megabytes) {
        sent++;
        if (!request.write(chunk)) return void request.once('drain', more);
      }
      if (!headers['content-length']) request.end();
    };
    more();
  });
}

/** A diagnostics link of our own, as GetDiagnostics makes them, for the refusal cases. */
async function freshLink(): Promise<string> {
  transfers.set(PUTS, 'no-diagnostics');
  behaviours.set(PUTS, 'silent');
  await diagnostics(PUTS);
  behaviours.delete(PUTS);
  transfers.delete(PUTS);
  return lastLocation(seen, PUTS, 'GetDiagnostics');
}

beforeAll(async () => {
  t = await startTestApp({ OCPP_COMMAND_TIMEOUT_MS: '1000' });
  t.config.appUrl = t.url;
  admin = (await signedInUser(t, { role: 'admin' })).token;
  const place = await chargerPlace(t);
  siteUser = (
    await signedInUser(t, { role: 'landlord', merchantId: place.merchant.id, landlordId: place.site.id })
  ).token;
  await createChargers(t, admin, place, [POSTS, PUTS, NOT_SUPPORTED, OFFLINE], { connectors: 2 });
  simulations.push(
    await simulate(t, [{ id: POSTS, connectors: 2 }], options),
    await simulate(t, [{ id: PUTS, connectors: 2 }], { ...options, diagnosticsUpload: 'put' }),
    await simulate(t, [{ id: NOT_SUPPORTED, connectors: 2, firmwareManagement: false }], options),
  );
});
afterAll(async () => {
  for (const simulation of simulations) await simulation.stop();
  await t.close();
});

describe('GetDiagnostics', () => {
  it('the charger uploads its log (multipart) to the one-time link; the admin downloads it from its list', async () => {
    const answer = await diagnostics(POSTS, {
      startTime: '2026-01-01T00:00:00+07:00',
      stopTime: '2026-01-02T00:00:00+07:00',
      retries: 1,
      retryInterval: 1,
    });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      status: 'Accepted',
      fileName: expect.stringMatching(/^diagnostics-DG-01-.+\.log$/),
    });
    const location = lastLocation(seen, POSTS, 'GetDiagnostics');
    expect(location).toMatch(new RegExp(`^${t.url}/ocpp-files/diagnostics/[A-Za-z0-9_-]{43}$`));
    const done = await latestReaches(t.url, admin, POSTS, 'diagnostics', 'Uploaded');
    expect(done.steps.map((s) => s.status)).toEqual(['Uploading', 'Uploaded']);
    expect(done).toMatchObject({ answer: 'Accepted', answerFileName: answer.body.fileName, open: false });

    const files = await t.call('GET', `/api/charger/${POSTS}/file`, { token: admin });
    expect(files.body.total).toBe(1);
    const [file] = files.body.files;
    expect(file).toMatchObject({
      kind: 'diagnostics',
      chargerId: POSTS,
      name: answer.body.fileName,
      id: done.fileId,
    });
    const log = await fetch(`${t.url}/api/charger-file/${file.id}/download`, {
      headers: { 'x-access-token': admin },
    });
    expect(log.headers.get('content-disposition')).toContain(`filename="${answer.body.fileName}"`);
    const text = await log.text();
    expect(text).toContain('# Diagnostics of DG-01');
    expect(text).toContain('# period 2026-01-01T00:00:00+07:00 .. 2026-01-02T00:00:00+07:00');
    expect(file.size).toBe(Buffer.byteLength(text));

    // One upload per link.
    const again = await put(location, 'again');
    expect([again.status, again.body]).toEqual([410, { message: 'This link was used already.' }]);
  });

  it('takes a PUT of the raw log as well; the file is named as the charger said', async () => {
    const answer = await diagnostics(PUTS);
    const done = await latestReaches(t.url, admin, PUTS, 'diagnostics', 'Uploaded');
    const [file] = (await t.call('GET', `/api/charger/${PUTS}/file`, { token: admin })).body.files;
    expect(file).toMatchObject({ id: done.fileId, name: answer.body.fileName });
  });

  it('every answer: nothing to upload, UploadFailed, NotSupported, offline, no answer, an error', async () => {
    transfers.set(POSTS, 'no-diagnostics');
    expect((await diagnostics(POSTS)).body).toEqual({ status: 'Accepted' });
    // Nothing will come: the link is dead at once and the request is not open.
    expect((await put(lastLocation(seen, POSTS, 'GetDiagnostics'), 'x')).status).toBe(410);
    expect((await requestsOf(t.url, admin, POSTS, 'diagnostics'))[0]).toMatchObject({
      answer: 'Accepted',
      answerFileName: null,
      open: false,
    });

    transfers.set(POSTS, 'upload-fails');
    expect((await diagnostics(POSTS)).body.status).toBe('Accepted');
    const failed = await latestReaches(t.url, admin, POSTS, 'diagnostics', 'UploadFailed');
    expect(failed.steps.map((s) => s.status)).toEqual(['Uploading', 'UploadFailed']);
    transfers.clear();

    expect((await diagnostics(NOT_SUPPORTED)).body).toEqual({ status: 'NotSupported' });
    const offline = await diagnostics(OFFLINE);
    expect([offline.status, offline.body]).toEqual([409, { message: `Charger ${OFFLINE} is offline.` }]);
    behaviours.set(POSTS, 'silent');
    expect((await diagnostics(POSTS)).status).toBe(504);
    behaviours.set(POSTS, 'reject');
    expect((await diagnostics(POSTS)).status).toBe(502);
    behaviours.clear();
    expect((await requestsOf(t.url, admin, NOT_SUPPORTED, 'diagnostics'))[0]?.answer).toBe('NotSupported');
    expect((await requestsOf(t.url, admin, OFFLINE, 'diagnostics'))[0]?.answer).toBe('Offline');
    expect((await requestsOf(t.url, admin, POSTS, 'diagnostics')).slice(0, 2).map((r) => r.answer)).toEqual([
      'Error',
      'Timeout',
    ]);
  });

  it('the upload link refuses the unknown, the empty, the too large and a second sender meanwhile', async () => {
    expect((await put(`${t.url}/ocpp-files/diagnostics/${'a'.repeat(43)}`, 'x')).status).toBe(404);
    expect((await put(`${t.url}/ocpp-files/diagnostics/short`, 'x')).status).toBe(404);
    const location = await freshLink();
    const empty = await put(location, '');
    expect([empty.status, empty.body]).toEqual([400, { message: 'The file is empty.' }]);

    // 33 MB sent in chunks, no length declared: refused at 32 MB, nothing kept, the link still good. The
    // rest is read and dropped, so the sender gets the answer.
    const tooLarge = await rawPut(location, { 'transfer-encoding': 'chunked' }, 33);
    expect([tooLarge.status, JSON.parse(tooLarge.body)]).toEqual([
      413,
      { message: 'The diagnostics file is larger than 32 MB.' },
    ]);
    const incomplete = () =>
      t.database.db
        .select({ id: chargerFiles.id })
        .from(chargerFiles)
        .where(eq(chargerFiles.complete, false));
    await eventually(async () => (await incomplete()).length === 0);
    const declared = await rawPut(location, { 'content-length': String(40 * 1024 * 1024) }, 1);
    expect(declared.status).toBe(413);

    // A sender mid-upload holds the link: another one meanwhile is a 409; once it fails, the link is free again.
    const slow = http.request(location, { method: 'PUT', headers: { 'transfer-encoding': 'chunked' } });
    slow.on('error', () => undefined);
    slow.write('first bytes');
    const [token] = /[A-Za-z0-9_-]{43}$/.exec(location)!;
    await eventually(async () => {
      const [row] = await t.database.db
        .select({ usedAt: chargerFileTokens.usedAt })
        .from(chargerFileTokens)
        .where(eq(chargerFileTokens.tokenHash, hashToken(token)));
      return row?.usedAt != null;
    });
    const meanwhile = await put(location, 'second sender');
    expect([meanwhile.status, meanwhile.body]).toEqual([
      409,
      { message: 'An upload with this link is under way.' },
    ]);
    slow.destroy();
    await eventually(async () => (await put(location, 'the charger retries')).status === 200);
    const files = (await t.call('GET', `/api/charger/${PUTS}/file`, { token: admin })).body.files;
    expect(files[0]).toMatchObject({ size: 'the charger retries'.length });
  });

  it('is for the admin: other roles 403, an unknown charger 404', async () => {
    expect((await diagnostics(POSTS, {}, siteUser)).status).toBe(403);
    expect((await t.call('GET', `/api/charger/${POSTS}/diagnostics`, { token: siteUser })).status).toBe(403);
    expect((await t.call('GET', `/api/charger/${POSTS}/file`, { token: siteUser })).status).toBe(403);
    expect((await diagnostics('NOPE-1')).status).toBe(404);
    expect((await t.call('GET', '/api/charger/NOPE-1/file', { token: admin })).status).toBe(404);
    expect(
      (await diagnostics(POSTS, { startTime: '2026-01-02T00:00:00Z', stopTime: '2026-01-01T00:00:00Z' }))
        .status,
    ).toBe(400);
    expect((await diagnostics(POSTS, { retries: 1000 })).status).toBe(400);
  });
});
