import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { payments } from '../../src/db/schema/index.ts';
import { createBooking, createMember } from '../helpers/bookings.ts';
import { steeredChargers, testBytes, uploadFirmware } from '../helpers/charger-files.ts';
import { createChargerBrand, signedInUser } from '../helpers/factories.ts';
import { chargingBooking, signedInMember } from '../helpers/member-session.ts';
import { chargerPlace, createChargers, readEvents, simulate } from '../helpers/ocpp.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';

/**
 * The audit log of the chargers, their commands and files, id tags, bookings, payments, promotions and points
 * (issue 36): each staff action is one entry with who, the entity and its id, the action, what changed (before
 * → after) or, for a command, what was asked and what the charger answered; a refused action writes none.
 */

const OPS = 'AUD-OPS';
const FW = 'AUD-FW';
const OFFLINE = 'AUD-OFF';
const BATCH_TOKEN = 'audit-batch-token';
const SECRET_KEY = 'authorization-key-never-logged';
const OCPP_PASSWORD = 'an-ocpp-password-never-logged';

let t: TestApp;
let admin: { user: { id: number; email: string }; token: string };
let place: Awaited<ReturnType<typeof chargerPlace>>;
let opsConnectors: number[];
let simulation: Awaited<ReturnType<typeof simulate>>;
const { behaviours, transfers, options } = steeredChargers();

type Entry = {
  id: number;
  userId: number | null;
  role: string | null;
  ip: string | null;
  entity: string;
  entityId: string | null;
  action: string;
  changes: Array<{ field: string; before: unknown; after: unknown }>;
  details: Record<string, unknown> | null;
};

/** The entries of a filter, newest first. */
async function entriesOf(filter: Record<string, string | number>): Promise<Entry[]> {
  const query = new URLSearchParams(Object.entries(filter).map(([k, v]): [string, string] => [k, String(v)]));
  const response = await t.call('GET', `/api/audit-log?${query}&size=100`, { token: admin.token });
  expect(response.status).toBe(200);
  return response.body.entries;
}

/** The one newest entry of a filter, checked to be the admin's. */
async function latest(filter: Record<string, string | number>): Promise<Entry> {
  const [entry] = await entriesOf(filter);
  expect(entry, JSON.stringify(filter)).toBeDefined();
  expect(entry).toMatchObject({ userId: admin.user.id, role: 'admin', ip: '127.0.0.1' });
  return entry!;
}

/** An entry's changes as `{ field: [before, after] }` (the last change of a field wins). */
const fields = (entry: Entry) =>
  Object.fromEntries(entry.changes.map((change) => [change.field, [change.before, change.after]]));

/** How many entries there are in all: a refused action must leave it as it was. */
const total = async () =>
  (await t.call('GET', '/api/audit-log?size=1', { token: admin.token })).body.total as number;

/** Runs `refused`, which must answer `status`, and checks that it wrote no entry. */
async function refusedWritesNothing(status: number, refused: () => Promise<{ status: number }>) {
  const before = await total();
  expect((await refused()).status).toBe(status);
  expect(await total()).toBe(before);
}

beforeAll(async () => {
  t = await startTestApp({ OCPP_COMMAND_TIMEOUT_MS: '800', BATCH_COMMAND_TOKEN: BATCH_TOKEN });
  // The firmware links start with APP_URL: here, where the test server listens.
  t.config.appUrl = t.url;
  admin = await signedInUser(t, { role: 'admin' });
  place = await chargerPlace(t);
  opsConnectors = (await createChargers(t, admin.token, place, [OPS], { judjodId: 41 }))[0]!.connectorIds;
  await createChargers(t, admin.token, place, [FW, OFFLINE], { connectors: 1 });
  simulation = await simulate(
    t,
    [OPS, FW].map((id) => ({ id, connectors: id === OPS ? 2 : 1 })),
    options,
  );
});
afterAll(async () => {
  await simulation?.stop();
  await t.close();
});

describe('chargers', () => {
  const ID = 'AUD-CRUD';
  const body = (overrides: Record<string, unknown> = {}) => ({
    id: ID,
    nameEn: 'Audit charger',
    nameTh: 'เครื่องตรวจ',
    landlordId: place.site.id,
    chargerBrandId: place.brand.id,
    ocppPassword: OCPP_PASSWORD,
    connectors: [
      {
        id: 880_001,
        token: 'qr-token-880001',
        nameEn: 'Audit connector',
        nameTh: 'หัวตรวจ',
        connectorTypeId: 4,
        judjodId: null,
        maxPowerKw: 60,
        priceId: place.price.id,
      },
    ],
    ...overrides,
  });

  it('create, update, toggle and delete: one entry each, with the fields before → after', async () => {
    expect((await t.call('POST', '/api/charger', { token: admin.token, body: body() })).status).toBe(200);
    const created = await latest({ entity: 'charger', entityId: ID, action: 'create' });
    expect(fields(created)).toMatchObject({
      nameEn: [null, 'Audit charger'],
      // A password's hash is never written, only that there is one.
      ocppPasswordHash: [null, '[redacted]'],
      'connectors#880001.nameEn': [null, 'Audit connector'],
    });

    const saved = await t.call('PATCH', `/api/charger/${ID}`, {
      token: admin.token,
      body: { ...body({ nameEn: 'Audit charger 2' }), ocppPassword: undefined },
    });
    expect(saved.status).toBe(200);
    expect(fields(await latest({ entity: 'charger', entityId: ID, action: 'update' }))).toEqual({
      nameEn: ['Audit charger', 'Audit charger 2'],
    });

    await refusedWritesNothing(409, () => t.call('DELETE', `/api/charger/${ID}`, { token: admin.token }));
    const off = await t.call('PATCH', `/api/charger/${ID}`, { token: admin.token, body: { active: false } });
    expect(off.status).toBe(200);
    expect(fields(await latest({ entity: 'charger', entityId: ID, action: 'toggle' }))).toEqual({
      active: [true, false],
    });
    expect((await t.call('DELETE', `/api/charger/${ID}`, { token: admin.token })).status).toBe(200);
    const deleted = await latest({ entity: 'charger', entityId: ID, action: 'delete' });
    expect(fields(deleted)).toMatchObject({ nameEn: ['Audit charger 2', null] });
    expect((await entriesOf({ entity: 'charger', entityId: ID })).map((e) => e.action)).toEqual([
      'delete',
      'toggle',
      'update',
      'create',
    ]);
  });
});

describe('commands to one charger: what was asked and the charger’s answer', () => {
  const post = (path: string, body: unknown, id = OPS) =>
    t.call('POST', `/api/charger/${id}/${path}`, { token: admin.token, body });

  it('unlock, availability, trigger, clear cache: the answer word', async () => {
    expect((await post('unlock', { connectorId: 2 })).body).toEqual({ status: 'Unlocked' });
    expect((await latest({ entity: 'charger', entityId: OPS, action: 'command' })).details).toEqual({
      command: 'UnlockConnector',
      parameters: { connectorId: 2 },
      answer: 'Unlocked',
    });
    behaviours.set(OPS, 'reject');
    expect((await post('availability', { connectorId: 1, type: 'Inoperative' })).body).toEqual({
      status: 'Rejected',
    });
    behaviours.clear();
    expect((await latest({ entity: 'charger', entityId: OPS, action: 'command' })).details).toEqual({
      command: 'ChangeAvailability',
      parameters: { connectorId: 1, type: 'Inoperative' },
      answer: 'Rejected',
    });
    expect((await post('trigger', { requestedMessage: 'Heartbeat' })).status).toBe(200);
    expect((await latest({ entity: 'charger', entityId: OPS, action: 'command' })).details).toMatchObject({
      command: 'TriggerMessage',
      parameters: { requestedMessage: 'Heartbeat' },
      answer: 'Accepted',
    });
    expect((await post('clear-cache', {})).body).toEqual({ status: 'Accepted' });
    expect((await latest({ entity: 'charger', entityId: OPS, action: 'command' })).details).toEqual({
      command: 'ClearCache',
      parameters: {},
      answer: 'Accepted',
    });
  });

  it('a configuration change: a credential’s value is never written', async () => {
    const changed = await t.call('PATCH', `/api/charger/${OPS}/configuration`, {
      token: admin.token,
      body: { key: 'AuthorizationKey', value: SECRET_KEY },
    });
    expect(changed.status).toBe(200);
    const entry = await latest({ entity: 'charger', entityId: OPS, action: 'command' });
    expect(entry.details).toEqual({
      command: 'ChangeConfiguration',
      parameters: { key: 'AuthorizationKey', value: '[redacted]' },
      answer: changed.body.status,
    });
  });

  it('no answer in time and an offline charger are recorded with the outcome', async () => {
    behaviours.set(OPS, 'silent');
    expect((await post('reset', { type: 'Soft' })).status).toBe(504);
    behaviours.clear();
    expect((await latest({ entity: 'charger', entityId: OPS, action: 'command' })).details).toEqual({
      command: 'Reset',
      parameters: { type: 'Soft' },
      answer: 'Timeout',
    });
    expect((await post('unlock', { connectorId: 1 }, OFFLINE)).status).toBe(409);
    expect((await latest({ entity: 'charger', entityId: OFFLINE, action: 'command' })).details).toMatchObject(
      {
        command: 'UnlockConnector',
        answer: 'Offline',
      },
    );
  });

  it('a command refused before anything is sent writes nothing', async () => {
    await refusedWritesNothing(400, () => post('unlock', { connectorId: 9 }));
    await refusedWritesNothing(404, () => post('unlock', { connectorId: 1 }, 'NO-SUCH-CHARGER'));
  });

  it('a blocker is its connector’s entry; the local list its charger’s', async () => {
    const connectorId = opsConnectors[0]!;
    const opened = await t.call('POST', `/api/connector/${connectorId}/open-blocker`, { token: admin.token });
    expect(opened.status).toBe(200);
    expect((await latest({ entity: 'connector', entityId: connectorId, action: 'command' })).details).toEqual(
      {
        command: 'OpenBlocker',
        parameters: { chargerId: OPS, judjodId: 41 },
        answer: 'Accepted',
      },
    );

    const sent = await post('local-list', {});
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    expect((await latest({ entity: 'charger', entityId: OPS, action: 'command' })).details).toMatchObject({
      command: 'SendLocalList',
      answer: sent.body.status,
      listVersion: sent.body.listVersion,
      tags: sent.body.tags,
    });
  });
});

describe('batch commands: one entry for the batch', () => {
  it('Config All: the command, how many chargers, its parameters (credentials redacted), the job', async () => {
    const configurations = JSON.stringify([
      { key: 'HeartbeatInterval', value: '300' },
      { key: 'AuthorizationKey', value: SECRET_KEY },
    ]);
    const response = await fetch(
      `${t.url}/api/charger/batch/config?${new URLSearchParams({ accessToken: admin.token, token: BATCH_TOKEN, configurations })}`,
    );
    expect(response.status).toBe(200);
    const events = await readEvents(response);
    const job = events.find((e) => e.event === 'job')?.data as { id: number };
    const size = events.find((e) => e.event === 'size')?.data as number;
    const entry = await latest({ entity: 'charger', action: 'batch' });
    expect(entry.entityId).toBeNull();
    expect(entry.details).toEqual({
      command: 'ChangeConfiguration',
      kind: 'config',
      jobId: job.id,
      chargers: size,
      parameters: {
        configurations: [
          { key: 'HeartbeatInterval', value: '300' },
          { key: 'AuthorizationKey', value: '[redacted]' },
        ],
      },
    });
    // The job's results are the system's bookkeeping: nothing of them joins the entry.
    expect(entry.changes).toEqual([]);
  });

  it('a wrong batch token writes nothing', async () => {
    const before = await total();
    const refused = await fetch(
      `${t.url}/api/charger/batch/hard-reset?${new URLSearchParams({ accessToken: admin.token, token: 'wrong' })}`,
    );
    expect(refused.status).toBe(403);
    expect(await total()).toBe(before);
  });
});

describe('firmware and diagnostics', () => {
  let fileId: number;

  it('an upload is the file’s entry, its completion the change', async () => {
    const bytes = testBytes(10_000);
    const uploaded = await uploadFirmware(t.url, admin.token, bytes, 'audit.bin', 'version=9.9');
    expect(uploaded.status).toBe(201);
    fileId = uploaded.body.file.id;
    const entry = await latest({ entity: 'charger-file', entityId: fileId, action: 'upload' });
    expect(entry.details).toMatchObject({ kind: 'firmware', name: 'audit.bin', version: '9.9' });
    expect(fields(entry)).toMatchObject({ complete: [false, true], size: [0, 10_000] });
  });

  it('UpdateFirmware and GetDiagnostics: the file and the answer, never the one-time link', async () => {
    transfers.set(FW, 'download-fails');
    const firmware = await t.call('POST', `/api/charger/${FW}/firmware`, {
      token: admin.token,
      body: { fileId, retries: 1 },
    });
    expect(firmware.body).toEqual({ status: 'Accepted' });
    const entry = await latest({ entity: 'charger', entityId: FW, action: 'command' });
    expect(entry.details).toMatchObject({
      command: 'UpdateFirmware',
      parameters: { fileId, fileName: 'audit.bin', retries: 1, retrieveDate: expect.any(String) },
      answer: 'Accepted',
    });
    expect(JSON.stringify(entry)).not.toContain('ocpp-files');

    transfers.set(FW, 'no-diagnostics');
    const diagnostics = await t.call('POST', `/api/charger/${FW}/diagnostics`, {
      token: admin.token,
      body: { retries: 2 },
    });
    expect(diagnostics.body).toEqual({ status: 'Accepted' });
    expect((await latest({ entity: 'charger', entityId: FW, action: 'command' })).details).toEqual({
      command: 'GetDiagnostics',
      parameters: { retries: 2 },
      answer: 'Accepted',
    });
    transfers.clear();
  });

  it('a brand’s firmware batch is one entry; deleting a file another', async () => {
    const brand = await createChargerBrand(t, { powerType: 'AC' });
    await createChargers(t, admin.token, { ...place, brand }, ['AUD-FWB-1', 'AUD-FWB-2'], { connectors: 1 });
    const response = await fetch(`${t.url}/api/charger-brand/${brand.id}/firmware`, {
      method: 'POST',
      headers: { 'x-access-token': admin.token, 'content-type': 'application/json' },
      body: JSON.stringify({ fileId, token: BATCH_TOKEN }),
    });
    expect(response.status).toBe(200);
    const events = await readEvents(response);
    const entry = await latest({ entity: 'charger', action: 'batch' });
    expect(entry.details).toMatchObject({
      command: 'UpdateFirmware',
      kind: 'firmware',
      jobId: (events.find((e) => e.event === 'job')!.data as { id: number }).id,
      chargers: 2,
      parameters: { fileId, fileName: 'audit.bin', chargerBrandId: brand.id },
    });

    const other = await uploadFirmware(t.url, admin.token, testBytes(100), 'gone.bin', 'version=1');
    const id = other.body.file.id;
    expect((await t.call('DELETE', `/api/charger-file/${id}`, { token: admin.token })).status).toBe(200);
    expect(fields(await latest({ entity: 'charger-file', entityId: id, action: 'delete' }))).toMatchObject({
      name: ['gone.bin', null],
    });
  });
});

describe('id tags', () => {
  it('a card added, changed and removed; a taken tag writes nothing', async () => {
    const member = await createMember(t);
    const path = `/api/user/${member.id}/id-tag`;
    expect((await t.call('POST', path, { token: admin.token, body: { idTag: 'AUDCARD01' } })).status).toBe(
      200,
    );
    const created = await latest({ entity: 'id-tag', entityId: 'AUDCARD01', action: 'create' });
    expect(fields(created)).toMatchObject({ idTag: [null, 'AUDCARD01'], userId: [null, member.id] });
    await refusedWritesNothing(409, () =>
      t.call('POST', path, { token: admin.token, body: { idTag: 'audcard01' } }),
    );
    const blocked = await t.call('PATCH', `${path}/audcard01`, {
      token: admin.token,
      body: { blocked: true },
    });
    expect(blocked.status).toBe(200);
    expect(fields(await latest({ entity: 'id-tag', entityId: 'AUDCARD01', action: 'update' }))).toEqual({
      blocked: [false, true],
    });
    expect((await t.call('DELETE', `${path}/AUDCARD01`, { token: admin.token })).status).toBe(200);
    expect(fields(await latest({ entity: 'id-tag', entityId: 'AUDCARD01', action: 'delete' }))).toMatchObject(
      { idTag: ['AUDCARD01', null] },
    );
  });
});

describe('bookings and payments', () => {
  const act = (id: number, action: string) =>
    t.call('POST', `/api/booking/${id}/${action}`, { token: admin.token, body: {} });

  it('stop: the charger’s answer, then the charger makes it charged', async () => {
    const id = await chargingBooking(t, admin.token, await signedInMember(t), opsConnectors[1]!);
    expect((await act(id, 'stop')).status).toBe(200);
    const entry = await latest({ entity: 'booking', entityId: id, action: 'stop' });
    expect(entry.details).toMatchObject({
      chargerId: OPS,
      transactionId: expect.any(Number),
      answer: 'Accepted',
    });
    await simulation.chargers[0]!.unplug(2);
  });

  it('force stop: the status before → after; a second click (409) writes nothing', async () => {
    const booking = await createBooking(t, opsConnectors[0]!, 'charging');
    expect((await act(booking.id, 'force-stop')).status).toBe(200);
    const entry = await latest({ entity: 'booking', entityId: booking.id, action: 'force-stop' });
    expect(fields(entry)).toMatchObject({ status: ['charging', 'stopped'] });
    await refusedWritesNothing(409, () => act(booking.id, 'force-stop'));
  });

  it('avaliable, cancel payment and delete', async () => {
    const charged = await createBooking(t, opsConnectors[0]!, 'charged');
    expect((await act(charged.id, 'avaliable')).status).toBe(200);
    expect(
      fields(await latest({ entity: 'booking', entityId: charged.id, action: 'avaliable' })),
    ).toMatchObject({ status: ['charged', 'stopped'] });

    const unpaid = await createBooking(t, opsConnectors[0]!, 'stopped');
    expect((await act(unpaid.id, 'cancel-payment')).status).toBe(200);
    expect(
      fields(await latest({ entity: 'booking', entityId: unpaid.id, action: 'cancel-payment' })),
    ).toMatchObject({ status: ['stopped', 'cancelled'], totalAmount: [100, 0] });

    const created = await createBooking(t, opsConnectors[0]!, 'created');
    expect((await t.call('DELETE', `/api/booking/${created.id}`, { token: admin.token })).status).toBe(200);
    const deleted = await latest({ entity: 'booking', entityId: created.id, action: 'delete' });
    expect(fields(deleted).deletedAt).toEqual([null, expect.any(String)]);
  });

  it('set amount, pay and refund: the amounts and statuses before → after; a second refund writes nothing', async () => {
    const booking = await createBooking(t, opsConnectors[0]!, 'stopped');
    const set = await t.call('PATCH', `/api/booking/${booking.id}`, {
      token: admin.token,
      body: { amount: 80 },
    });
    expect(set.status).toBe(200);
    expect(
      fields(await latest({ entity: 'booking', entityId: booking.id, action: 'set-amount' })),
    ).toMatchObject({ adminAmount: [null, 80], totalAmount: [100, 80] });

    expect((await act(booking.id, 'pay')).status).toBe(200);
    const [payment] = await t.database.db.select().from(payments).where(eq(payments.bookingId, booking.id));
    const paid = await latest({ entity: 'booking', entityId: booking.id, action: 'pay' });
    expect(paid.details).toEqual({ method: 'manual', amount: '80.00' });
    // The intent (the pending charge) and the outcome (the booking paid, its payment) in one entry.
    expect(fields(paid)).toMatchObject({
      status: ['stopped', 'paid'],
      paymentMethod: [null, 'manual'],
      [`payments#${payment!.id}.amount`]: [null, 80],
      [`payments#${payment!.id}.invoiceNo`]: [null, payment!.invoiceNo],
    });
    await refusedWritesNothing(409, () => act(booking.id, 'pay'));

    const refund = (amount: number) =>
      t.call('POST', `/api/payment/${payment!.id}/refund`, { token: admin.token, body: { amount } });
    expect((await refund(80)).status).toBe(200);
    const refunded = await latest({ entity: 'payment', entityId: payment!.id, action: 'refund' });
    expect(refunded.details).toEqual({ invoiceNo: payment!.invoiceNo, amount: '80.00' });
    const changes = fields(refunded);
    expect(changes).toMatchObject({ refundAmount: [null, 80], creditNoteNo: [null, expect.any(String)] });
    expect(refunded.changes).toContainEqual({ field: 'refundStatus', before: null, after: 'pending' });
    expect(changes.refundedAt).toEqual([null, expect.any(String)]);
    await refusedWritesNothing(409, () => refund(80));
  });
});

describe('promotions and points', () => {
  it('a promotion with its codes (counted), saved, switched off and deleted', async () => {
    const code = `AUDIT${Date.now().toString(36).toUpperCase()}`;
    const body = {
      type: 'discount',
      code,
      nameEn: 'Promotion',
      nameTh: 'โปรโมชัน',
      internal: false,
      expose: false,
      validFrom: new Date(Date.now() - 3_600_000).toISOString(),
      validTo: new Date(Date.now() + 3_600_000).toISOString(),
      discountPercent: 10,
      discountBaht: 0,
      count: 3,
      total: 5,
    };
    const response = await t.call('POST', '/api/promotion', { token: admin.token, body });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    const id = response.body.id as number;
    const created = await latest({ entity: 'promotion', entityId: id, action: 'create' });
    expect(created.details).toEqual({ codes: 3 });
    expect(fields(created)).toMatchObject({ code: [null, code], nameEn: [null, 'Promotion'] });

    const saved = await t.call('PATCH', `/api/promotion/${id}`, {
      token: admin.token,
      body: { ...body, nameEn: 'Promotion 2' },
    });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    expect(fields(await latest({ entity: 'promotion', entityId: id, action: 'update' }))).toEqual({
      nameEn: ['Promotion', 'Promotion 2'],
    });
    await refusedWritesNothing(409, () => t.call('DELETE', `/api/promotion/${id}`, { token: admin.token }));
    expect(
      (await t.call('PATCH', `/api/promotion/${id}`, { token: admin.token, body: { active: false } })).status,
    ).toBe(200);
    expect(fields(await latest({ entity: 'promotion', entityId: id, action: 'toggle' }))).toEqual({
      active: [true, false],
    });
    expect((await t.call('DELETE', `/api/promotion/${id}`, { token: admin.token })).status).toBe(200);
    const deleted = await latest({ entity: 'promotion', entityId: id, action: 'delete' });
    expect(deleted.details).toEqual({ codes: 3 });
    expect(fields(deleted)).toMatchObject({ nameEn: ['Promotion 2', null] });
  });

  it('a rate card created, saved and deleted; the same start twice writes nothing', async () => {
    const validFrom = new Date(Date.now() + 86_400_000).toISOString();
    const card = { fromBaht: 10, toPoint: 1, fromPoint: 100, toBaht: 10, validFrom };
    const created = await t.call('POST', '/api/point', { token: admin.token, body: card });
    expect(created.status).toBe(200);
    const id = created.body.id;
    expect(fields(await latest({ entity: 'point', entityId: id, action: 'create' }))).toMatchObject({
      fromBaht: [null, 10],
    });
    await refusedWritesNothing(409, () => t.call('POST', '/api/point', { token: admin.token, body: card }));
    const saved = await t.call('PATCH', `/api/point/${id}`, {
      token: admin.token,
      body: { ...card, toPoint: 2 },
    });
    expect(saved.status).toBe(200);
    expect(fields(await latest({ entity: 'point', entityId: id, action: 'update' }))).toEqual({
      toPoint: [1, 2],
    });
    expect((await t.call('DELETE', `/api/point/${id}`, { token: admin.token })).status).toBe(200);
    expect(fields(await latest({ entity: 'point', entityId: id, action: 'delete' }))).toMatchObject({
      toPoint: [2, null],
    });
  });
});

describe('no secret is ever written', () => {
  it('neither the AuthorizationKey value nor the OCPP password is in any entry', async () => {
    const pages: Entry[][] = [];
    for (let page = 1; page === 1 || pages.at(-1)!.length === 100; page++)
      pages.push(await entriesOf({ page }));
    const all = JSON.stringify(pages);
    expect(all.length).toBeGreaterThan(1000);
    expect(all).not.toContain(SECRET_KEY);
    expect(all).not.toContain(OCPP_PASSWORD);
  });
});
