import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chargerConnections, chargerMessages } from '../../src/db/schema/index.ts';
import { createRPCError } from '../../src/ocpp/rpc.ts';
import { createLandlord, createMerchant, signedInUser } from '../helpers/factories.ts';
import { chargerPlace, createChargers, eventually, rpcClient, simulate } from '../helpers/ocpp.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';

// The message log and connections of a charger (issue 32, section 3): what a charger and the server said to
// each other, stored redacted and bounded, read through the API with filters, paging, a tail and downloads.

const ID = 'MSG-01';
const BOUND = 50;
const AUTH_KEY = 'auth-key-0011223344556677';
const FILE_TOKEN = 'one-time-TOKEN-abc123';
let t: TestApp;
let admin: string;
let place: Awaited<ReturnType<typeof chargerPlace>>;
let client: ReturnType<typeof rpcClient>;

interface Message {
  id: number;
  at: string;
  direction: 'in' | 'out';
  kind: string;
  action: string | null;
  messageId: string;
  protocol: string;
  payload: unknown;
}

const messages = async (query = '', token = admin, id = ID) => {
  await t.app.messageLog.flush();
  return t.call('GET', `/api/charger/${id}/message${query ? `?${query}` : ''}`, { token });
};
const all = async (query = '') => {
  const response = await messages(`size=100${query ? `&${query}` : ''}`);
  expect(response.status).toBe(200);
  return response.body.messages as Message[];
};
const connections = async (id = ID, token = admin) => {
  await t.app.messageLog.flush();
  return t.call('GET', `/api/charger/${id}/connection`, { token });
};

/** A bare OCPP client of the charger, answering the server's commands as a charger would. */
async function connect(id = ID) {
  const c = rpcClient(t, id);
  c.handle('TriggerMessage', async () => ({ status: 'Accepted' }));
  c.handle('ChangeConfiguration', async () => ({ status: 'Accepted' }));
  c.handle('GetConfiguration', async () => ({
    configurationKey: [
      { key: 'HeartbeatInterval', readonly: false, value: '60' },
      { key: 'AuthorizationKey', readonly: false, value: AUTH_KEY },
    ],
    unknownKey: [],
  }));
  c.handle('UnlockConnector', () => {
    throw createRPCError('NotSupported', 'No lock here');
  });
  await c.connect();
  return c;
}

beforeAll(async () => {
  t = await startTestApp({ OCPP_COMMAND_TIMEOUT_MS: '2000', OCPP_MESSAGE_LOG_MAX: String(BOUND) });
  admin = (await signedInUser(t, { role: 'admin' })).token;
  place = await chargerPlace(t);
  await createChargers(t, admin, place, [ID, 'MSG-BOUND', 'MSG-RAW']);
  client = await connect();
  await client.call('BootNotification', { chargePointVendor: 'Acme', chargePointModel: 'M1' });
  await client.call('Heartbeat', {});
});
afterAll(async () => {
  await client?.close({ force: true });
  await t.close();
});

describe('the message log', () => {
  it('holds every frame both ways, results paired with the action of their call', async () => {
    expect(
      (
        await t.call('POST', `/api/charger/${ID}/trigger`, {
          token: admin,
          body: { requestedMessage: 'Heartbeat' },
        })
      ).body,
    ).toEqual({ status: 'Accepted' });
    const rows = (await all()).reverse();
    const seen = rows.map((m) => `${m.direction} ${m.kind} ${m.action}`);
    expect(seen).toEqual([
      'in call BootNotification',
      'out result BootNotification',
      'in call Heartbeat',
      'out result Heartbeat',
      'out call TriggerMessage',
      'in result TriggerMessage',
    ]);
    const [boot, booted] = rows;
    expect(boot).toMatchObject({
      protocol: 'ocpp1.6',
      payload: { chargePointVendor: 'Acme', chargePointModel: 'M1' },
    });
    expect(booted?.messageId).toBe(boot?.messageId);
    expect(booted?.payload).toMatchObject({ status: 'Accepted', interval: 60 });
    expect(rows[4]?.payload).toEqual({ requestedMessage: 'Heartbeat' });
    // Newest first, each with its time.
    const newest = await all();
    expect(newest[0]?.action).toBe('TriggerMessage');
    for (const m of newest) expect(Date.parse(m.at)).not.toBeNaN();
  });

  it('logs CALLERRORs both ways: ours to a call we cannot take, the charger’s to a command', async () => {
    await expect(client.call('NoSuchAction', {})).rejects.toThrow();
    const unlock = await t.call('POST', `/api/charger/${ID}/unlock`, {
      token: admin,
      body: { connectorId: 1 },
    });
    expect(unlock.body).toEqual({ status: 'NotSupported' });
    const errors = await all('kind=error');
    expect(errors.map((m) => `${m.direction} ${m.action} ${(m.payload as { code: string }).code}`)).toEqual([
      'in UnlockConnector NotSupported',
      'out NoSuchAction NotImplemented',
    ]);
    expect(errors[0]?.payload).toMatchObject({ description: 'No lock here' });
  });

  it('logs a malformed frame as text, with the error the server answered, and carries on', async () => {
    const raw = await connect('MSG-RAW');
    const answered = new Promise((resolve) => raw.once('badMessage', resolve));
    raw.sendRaw('this is {not json');
    await answered;
    raw.sendRaw(JSON.stringify([2, 'nul-1', 'DataTransfer', { vendorId: 'V', data: 'a\u0000b\ud800' }]));
    await expect(raw.call('Heartbeat', {})).resolves.toMatchObject({ currentTime: expect.any(String) });
    const [heartbeat, , nulError, nul, error, malformed] = (await messages('size=100', admin, 'MSG-RAW')).body
      .messages as Message[];
    expect(heartbeat?.action).toBe('Heartbeat');
    expect(malformed).toMatchObject({
      direction: 'in',
      kind: 'malformed',
      action: null,
      messageId: '',
      payload: { reason: 'not JSON', text: 'this is {not json' },
    });
    expect(error).toMatchObject({
      direction: 'out',
      kind: 'error',
      messageId: '-1',
      payload: { code: 'FormationViolation' },
    });
    // Text PostgreSQL cannot store is stored replaced; the server answered the frame as the charger's error.
    expect(nul).toMatchObject({
      kind: 'call',
      action: 'DataTransfer',
      payload: { vendorId: 'V', data: 'a\uFFFDb\uFFFD' },
    });
    expect(nulError).toMatchObject({
      kind: 'error',
      action: 'DataTransfer',
      payload: { code: 'PropertyConstraintViolation' },
    });
    await raw.close({ code: 1000, reason: 'done' });
  });

  it('redacts credentials: AuthorizationKey both ways, one-time URL tokens, token parameters', async () => {
    const changed = await t.call('PATCH', `/api/charger/${ID}/configuration`, {
      token: admin,
      body: { key: 'AuthorizationKey', value: AUTH_KEY },
    });
    expect(changed.body).toEqual({ status: 'Accepted' });
    expect((await t.call('GET', `/api/charger/${ID}/configuration`, { token: admin })).status).toBe(200);
    const url = `http://cs.example.com/ocpp-files/firmware/${FILE_TOKEN}/fw.bin?token=${FILE_TOKEN}`;
    await client.call('DataTransfer', { vendorId: 'Acme', data: url });
    const change = (await all('action=ChangeConfiguration&direction=out'))[0];
    expect(change?.payload).toEqual({ key: 'AuthorizationKey', value: '[redacted]' });
    const read = (await all('action=GetConfiguration&kind=result'))[0];
    expect(read?.payload).toEqual({
      configurationKey: [
        { key: 'HeartbeatInterval', readonly: false, value: '60' },
        { key: 'AuthorizationKey', readonly: false, value: '[redacted]' },
      ],
      unknownKey: [],
    });
    const transfer = (await all('action=DataTransfer&direction=in'))[0];
    expect(transfer?.payload).toEqual({
      vendorId: 'Acme',
      data: 'http://cs.example.com/ocpp-files/firmware/[redacted]/fw.bin?token=[redacted]',
    });
    // Nowhere in the database, nor in the server's log lines.
    const result = await t.database.db.execute(sql`select count(*)::int as n from charger_messages
        where payload::text like ${`%${AUTH_KEY}%`} or payload::text like ${`%${FILE_TOKEN}%`}`);
    const [stored] = (result as unknown as { rows: Array<{ n: number }> }).rows;
    expect(stored?.n).toBe(0);
    expect(t.logs()).not.toContain(AUTH_KEY);
    expect(t.logs()).not.toContain(FILE_TOKEN);
  });

  it('filters by action, direction, kind and time, pages, and tails after an id', async () => {
    const everything = await messages('size=5');
    expect(everything.status).toBe(200);
    const total = everything.body.total as number;
    expect(everything.body.messages).toHaveLength(5);
    const second = await messages('size=5&page=2');
    expect(second.body.total).toBe(total);
    const firstIds = (everything.body.messages as Message[]).map((m) => m.id);
    const secondIds = (second.body.messages as Message[]).map((m) => m.id);
    expect(Math.min(...firstIds)).toBeGreaterThan(Math.max(...secondIds));

    const heartbeats = await all('action=Heartbeat&direction=in');
    expect(heartbeats.length).toBeGreaterThan(0);
    for (const m of heartbeats) expect([m.action, m.direction, m.kind]).toEqual(['Heartbeat', 'in', 'call']);
    const outgoing = await all('direction=out');
    expect(outgoing.every((m) => m.direction === 'out')).toBe(true);

    const newest = (everything.body.messages as Message[])[0]!;
    const from = await all(`createdAfter=${encodeURIComponent(newest.at)}`);
    expect(from.map((m) => m.id)).toContain(newest.id);
    expect(from.every((m) => m.at >= newest.at)).toBe(true);
    const until = await messages(`size=1&createdBefore=${encodeURIComponent(newest.at)}`);
    expect(until.body.total).toBe(total);
    const before = await messages(
      `size=1&createdBefore=${encodeURIComponent(new Date(Date.parse(newest.at) - 1).toISOString())}`,
    );
    expect(before.body.total).toBeLessThan(total);

    // The tail: nothing after the newest, then the new frames only.
    const top = newest.id;
    expect((await messages(`afterId=${top}`)).body).toEqual({ total: 0, messages: [] });
    await client.call('Heartbeat', {});
    const tail = await messages(`afterId=${top}`);
    expect(tail.body.total).toBe(2);
    expect((tail.body.messages as Message[]).map((m) => `${m.direction} ${m.action}`)).toEqual([
      'out Heartbeat',
      'in Heartbeat',
    ]);
  });

  it('refuses bad queries with 400 naming the field', async () => {
    for (const [query, field] of [
      ['direction=sideways', 'direction'],
      ['kind=shout', 'kind'],
      ['createdAfter=yesterday', 'createdAfter'],
      ['afterId=-1', 'afterId'],
      ['afterId=abc', 'afterId'],
      ['size=1000', 'size'],
      ['page=0', 'page'],
      ['mode=xlsx', 'mode'],
      ['sort=at', 'sort'],
      [`action=${'A'.repeat(101)}`, 'action'],
    ] as const) {
      const response = await messages(query);
      expect(response.status, query).toBe(400);
      expect(response.body.message, query).toContain(field);
    }
    expect((await t.call('GET', `/api/charger/${ID}/connection?size=0`, { token: admin })).status).toBe(400);
    expect((await t.call('GET', `/api/charger/${ID}/connection?x=1`, { token: admin })).status).toBe(400);
  });

  it('downloads the matching log as CSV and as JSON lines, oldest first; 404 when nothing matches', async () => {
    const { total } = (await messages('size=1')).body as { total: number };
    const csv = await messages('mode=csv');
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(csv.headers.get('content-disposition')).toMatch(
      /^attachment; filename="messages_MSG-01_\d{14}\.csv"$/,
    );
    const lines = (csv.body as string).trimEnd().split('\r\n');
    expect(lines[0]).toBe('Id,Time,Charger Id,Direction,Kind,Action,Message Id,Protocol,Payload');
    expect(lines).toHaveLength(total + 1);
    expect(lines[1]).toMatch(
      /^\d+,[^,]+,MSG-01,in,call,BootNotification,[^,]+,ocpp1\.6,"\{""chargePointModel"":""M1"",""chargePointVendor"":""Acme""\}"$/,
    );

    const jsonl = await messages('mode=jsonl&direction=out&kind=call');
    expect(jsonl.status).toBe(200);
    expect(jsonl.headers.get('content-disposition')).toMatch(/filename="messages_MSG-01_\d{14}\.jsonl"/);
    const rows = (jsonl.body as string)
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as Message & { chargerId: string });
    expect(rows.length).toBeGreaterThan(2);
    expect(rows.every((m) => m.chargerId === ID && m.direction === 'out' && m.kind === 'call')).toBe(true);
    expect(rows.map((m) => m.id)).toEqual([...rows.map((m) => m.id)].sort((a, b) => a - b));

    const none = await messages('mode=csv&action=CancelReservation');
    expect(none.status).toBe(404);
    expect(none.body).toEqual({ message: 'No matched message found' });
  });
});

describe('connections', () => {
  it('records each connection with its address, how it closed, and a replaced one', async () => {
    const first = await connect('MSG-BOUND');
    await first.close({ code: 4001, reason: 'going to sleep' });
    const second = await connect('MSG-BOUND');
    const replacing = await connect('MSG-BOUND');
    // Each close is recorded once the server's socket has closed too.
    const response = await eventually(async () => {
      const answer = await connections('MSG-BOUND');
      const [, replaced, slept] = answer.body.connections ?? [];
      return replaced?.closeReason && slept?.closeReason ? answer : null;
    });
    expect(second.state).toBe(3); // CLOSED
    const [open, replaced, slept] = response.body.connections;
    expect(response.body.total).toBe(3);
    expect(open).toMatchObject({
      remoteAddress: '127.0.0.1',
      protocol: 'ocpp1.6',
      disconnectedAt: null,
      closeCode: null,
      refusedStatus: null,
    });
    expect(replaced).toMatchObject({ closeReason: 'Replaced by a new connection', refusedStatus: null });
    expect(replaced.disconnectedAt).not.toBeNull();
    expect(slept).toMatchObject({ closeCode: 4001, closeReason: 'going to sleep' });
    expect(Date.parse(slept.disconnectedAt)).toBeGreaterThanOrEqual(Date.parse(slept.connectedAt));
    expect(open.node).toEqual(slept.node);
    await replacing.close({ force: true });
  });

  it('closes a connection left open by a server process that stopped, once the charger connects again', async () => {
    const before = new Date(Date.now() - 60_000);
    await t.database.db
      .insert(chargerConnections)
      .values({ chargerId: 'MSG-RAW', node: 'gone:1:abc', connectedAt: before });
    const again = await connect('MSG-RAW');
    const rows = (await connections('MSG-RAW')).body.connections as Array<Record<string, string | null>>;
    const [latest] = rows;
    const left = rows.find((row) => row.node === 'gone:1:abc')!;
    expect(latest).toMatchObject({ disconnectedAt: null });
    expect(left).toMatchObject({
      node: 'gone:1:abc',
      closeCode: null,
      closeReason: 'No close recorded: its server process stopped',
    });
    expect(Date.parse(left.disconnectedAt!)).toBeLessThanOrEqual(Date.parse(latest!.connectedAt!));
    await again.close({ force: true });
  });

  it('records refused attempts of a known charger, never of an unknown id', async () => {
    await createChargers(t, admin, place, ['MSG-LOCKED'], { ocppPassword: 'a-long-ocpp-password-01' });
    const wrong = await simulate(t, [
      { id: 'MSG-LOCKED', connectors: 1, password: 'wrong-password-0123456' },
    ]);
    expect(wrong.failed[0]?.error).toMatch(/401/);
    // Retried at once: not recorded again (a loop of wrong passwords cannot fill the table).
    await simulate(t, [{ id: 'MSG-LOCKED', connectors: 1, password: 'wrong-password-0123456' }]);
    const unknown = await simulate(t, [{ id: 'NOBODY-01', connectors: 1 }]);
    expect(unknown.failed[0]?.error).toMatch(/404/);
    const response = await connections('MSG-LOCKED');
    expect(response.body.total).toBe(1);
    expect(response.body.connections[0]).toMatchObject({
      refusedStatus: 401,
      closeCode: 401,
      closeReason: 'Unauthorized',
      remoteAddress: '127.0.0.1',
    });
    const nobody = await t.database.db
      .select()
      .from(chargerConnections)
      .where(eq(chargerConnections.chargerId, 'NOBODY-01'));
    expect(nobody).toEqual([]);
  });

  it('records the server shutting down (1012)', async () => {
    const other = await startTestApp();
    try {
      const otherAdmin = (await signedInUser(other, { role: 'admin' })).token;
      await createChargers(other, otherAdmin, await chargerPlace(other), ['MSG-STOP']);
      const c = rpcClient(other, 'MSG-STOP');
      const closed = new Promise<{ code: number }>((resolve) => c.once('close', resolve));
      await c.connect();
      await c.call('Heartbeat', {});
      await other.app.close();
      expect((await closed).code).toBe(1012);
      const rows = await other.database.db
        .select()
        .from(chargerConnections)
        .where(eq(chargerConnections.chargerId, 'MSG-STOP'));
      expect(rows).toMatchObject([{ closeCode: 1012, closeReason: 'Server restarting' }]);
      expect(rows[0]?.disconnectedAt).not.toBeNull();
      const frames = await other.database.db
        .select()
        .from(chargerMessages)
        .where(eq(chargerMessages.chargerId, 'MSG-STOP'));
      expect(frames).toHaveLength(2);
    } finally {
      await other.close();
    }
  });
});

describe('who may read it', () => {
  it('answers 404 outside the scope and 403 to a role without the permission', async () => {
    const site = (
      await signedInUser(t, { role: 'landlord', merchantId: place.merchant.id, landlordId: place.site.id })
    ).token;
    expect((await messages('', site)).status).toBe(200);
    expect((await connections(ID, site)).status).toBe(200);
    const other = await createMerchant(t);
    const otherSite = await createLandlord(t, other.id);
    const outsider = (
      await signedInUser(t, { role: 'landlord', merchantId: other.id, landlordId: otherSite.id })
    ).token;
    for (const response of [
      await messages('', outsider),
      await messages('mode=csv', outsider),
      await connections(ID, outsider),
    ]) {
      expect(response.status).toBe(404);
      expect(response.body).toEqual({ message: 'Charger not found' });
    }
    expect((await messages('', admin, 'NO-SUCH-CHARGER')).status).toBe(404);
    const marketing = (await signedInUser(t, { role: 'marketting' })).token;
    expect((await messages('', marketing)).status).toBe(403);
    expect((await connections(ID, marketing)).status).toBe(403);
    const callcenter = (await signedInUser(t, { role: 'callcenter' })).token;
    expect((await messages('', callcenter)).status).toBe(200);
  });
});

describe('the bound', () => {
  it('keeps the newest frames of each charger and nothing older than the days', async () => {
    const c = await connect('MSG-BOUND');
    for (let i = 0; i < BOUND; i++) await c.call('Heartbeat', {});
    await c.call('DataTransfer', { vendorId: 'Last' });
    await t.app.messageLog.flush();
    const count = async (id: string) =>
      (await t.database.db.select().from(chargerMessages).where(eq(chargerMessages.chargerId, id))).length;
    expect(await count('MSG-BOUND')).toBeGreaterThan(BOUND);
    // Frames and a connection from before the bound (8 days ago; the default bound is 7).
    const old = new Date(Date.now() - 8 * 86_400_000);
    await t.database.db.insert(chargerMessages).values(
      Array.from({ length: 3 }, (_, i) => ({
        chargerId: 'MSG-OLD',
        at: old,
        direction: 'in' as const,
        kind: 'call' as const,
        action: 'Heartbeat',
        messageId: `old-${i}`,
        protocol: 'ocpp1.6',
        payload: {},
      })),
    );
    await t.database.db
      .insert(chargerConnections)
      .values({ chargerId: 'MSG-OLD', connectedAt: old, disconnectedAt: old, closeCode: 1000 });
    await t.database.db.insert(chargerConnections).values({ chargerId: 'MSG-OLD', connectedAt: old });

    const deleted = await t.app.messageLog.prune();
    expect(deleted.messages).toBeGreaterThanOrEqual(3);
    expect(await count('MSG-BOUND')).toBe(BOUND);
    expect(await count('MSG-OLD')).toBe(0);
    // The newest stay: the last call and its answer.
    const bound = (await messages('size=2', admin, 'MSG-BOUND')).body.messages as Message[];
    expect(bound.map((m) => `${m.direction} ${m.action}`)).toEqual(['out DataTransfer', 'in DataTransfer']);
    // A connection still open stays, however old.
    const oldConnections = await t.database.db
      .select()
      .from(chargerConnections)
      .where(eq(chargerConnections.chargerId, 'MSG-OLD'));
    expect(oldConnections).toMatchObject([{ disconnectedAt: null }]);
    await c.close({ force: true });
  });
});
