import { randomBytes } from 'node:crypto';
import net from 'node:net';
import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectors, meterValues } from '../../src/db/schema/index.ts';
import { ChargePointStore } from '../../src/ocpp/store.ts';
import { signedInUser } from '../helpers/factories.ts';
import { chargerPlace, createChargers, eventually, rpcClient, simulate } from '../helpers/ocpp.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';

/**
 * A hostile peer on the OCPP endpoint: malformed upgrade paths and headers, malformed frames after boot.
 * Each must get a 4xx or an OCPP 1.6 CALLERROR, while the chargers already connected stay connected and
 * the server stays up.
 */

/** OCPP-J 1.6, section 4.2.3 (the errata keep these spellings). */
const OCPP16_CODES = new Set([
  'NotImplemented',
  'NotSupported',
  'InternalError',
  'ProtocolError',
  'SecurityError',
  'FormationViolation',
  'PropertyConstraintViolation',
  'OccurenceConstraintViolation',
  'TypeConstraintViolation',
  'GenericError',
]);

let t: TestApp;
let admin: string;
let place: Awaited<ReturnType<typeof chargerPlace>>;
let bystanders: Awaited<ReturnType<typeof simulate>>;
const bystanderIds = ['CALM-01', 'CALM-02', 'CALM-03'];
const bystanderClosed: string[] = [];
const PASSWORD = 'a-long-ocpp-password-01';

beforeAll(async () => {
  t = await startTestApp({ OCPP_COMMAND_TIMEOUT_MS: '2000' });
  admin = (await signedInUser(t, { role: 'admin' })).token;
  place = await chargerPlace(t);
  await createChargers(t, admin, place, [...bystanderIds, 'RAW-02', 'DUP-01']);
  await createChargers(t, admin, place, ['LOCKED-01'], { ocppPassword: PASSWORD });
  bystanders = await simulate(
    t,
    bystanderIds.map((id) => ({ id, connectors: 2 })),
    { onEvent: (event) => event.type === 'closed' && bystanderClosed.push(event.id) },
  );
  expect(bystanders.failed).toEqual([]);
  // Their connection is written a moment later (the store's write delay).
  await eventually(async () => {
    for (const id of bystanderIds) {
      if (!(await t.call('GET', `/api/charger/${id}`, { token: admin })).body.charger.online) return false;
    }
    return true;
  });
});
afterAll(async () => {
  await bystanders?.stop();
  await t.close();
});

/** Sends a WebSocket upgrade by hand and returns the status line's code (0 if the server just hung up). */
function rawUpgrade(path: string, headers: Record<string, string | undefined> = {}, method = 'GET') {
  const { port } = new URL(t.url);
  const all: Record<string, string | undefined> = {
    Host: `127.0.0.1:${port}`,
    Connection: 'Upgrade',
    Upgrade: 'websocket',
    'Sec-WebSocket-Version': '13',
    'Sec-WebSocket-Key': randomBytes(16).toString('base64'),
    'Sec-WebSocket-Protocol': 'ocpp1.6',
    ...headers,
  };
  const head = Object.entries(all)
    .filter(([, value]) => value !== undefined)
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('');
  return new Promise<{ status: number; text: string }>((resolve) => {
    const socket = net.connect(Number(port), '127.0.0.1');
    let text = '';
    const done = () => {
      socket.destroy();
      resolve({ status: Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 0), text });
    };
    socket.setTimeout(5000, done);
    socket.on('data', (chunk) => {
      text += chunk.toString('latin1');
      if (text.includes('\r\n\r\n')) done();
    });
    socket.on('error', done);
    socket.on('close', done);
    socket.write(`${method} ${path} HTTP/1.1\r\n${head}\r\n`, 'latin1');
  });
}

async function expectAllWell() {
  expect((await t.call('GET', '/api/health')).status).toBe(200);
  expect(bystanderClosed).toEqual([]);
  for (const id of bystanderIds) {
    const { body } = await t.call('GET', `/api/charger/${id}`, { token: admin });
    expect(body.charger.online).toBe(true);
  }
}

describe('OCPP upgrade requests', () => {
  it('refuses every identity that is not a valid charger id with 400, and stays up', async () => {
    const hostile = [
      '/ocpp/%ZZ',
      '/ocpp/%',
      '/ocpp/%E0%A4%A',
      '/ocpp/%00',
      '/ocpp/CALM-01%00',
      '/ocpp/caf%C3%A9',
      '/ocpp/..%2F..%2Fetc',
      '/ocpp/',
      '/ocpp/CALM-01/extra',
      `/ocpp/${'x'.repeat(49)}`,
      `/ocpp/${'%41'.repeat(49)}`,
      '/ocpp/a%20b',
      '/ocpp/%F0%9F%98%80',
    ];
    for (const path of hostile) {
      const { status } = await rawUpgrade(path);
      expect({ path, status }).toEqual({ path, status: 400 });
    }
    // The same paths without an upgrade are plain HTTP requests: a 4xx from the API, never a 5xx.
    for (const path of ['/ocpp/%ZZ', '/ocpp/%00']) {
      const plain = await t.call('GET', path);
      expect(plain.status).toBeGreaterThanOrEqual(400);
      expect(plain.status).toBeLessThan(500);
    }
    await expectAllWell();
  });

  it('takes a valid id however it is spelled, and answers 404 for one that is unknown', async () => {
    expect((await rawUpgrade(`/ocpp/${'x'.repeat(48)}`)).status).toBe(404);
    // '..' is a valid (unknown) id, not a path to walk.
    expect((await rawUpgrade('/ocpp/%2e%2e')).status).toBe(404);
    // %2D is '-': the same charger id, percent-encoded (and the query is no concern of ours).
    expect((await rawUpgrade('/ocpp/RAW%2D02?foo=%ZZ')).status).toBe(101);
    await eventually(async () => /"chargerId":"RAW-02","msg":"OCPP: charger connected"/.test(t.logs()));
  });

  it('refuses malformed upgrade headers with a 4xx', async () => {
    const cases: Array<[string, Record<string, string | undefined>, string?]> = [
      ['upgrade to something else', { Upgrade: 'h2c' }],
      ['empty subprotocol list', { 'Sec-WebSocket-Protocol': ',' }],
      ['subprotocol list with a hole', { 'Sec-WebSocket-Protocol': 'ocpp1.6,,ocpp2.0.1' }],
      ['repeated subprotocol', { 'Sec-WebSocket-Protocol': 'ocpp1.6, ocpp1.6' }],
      ['subprotocol with a bad character', { 'Sec-WebSocket-Protocol': 'ocpp1.6;x' }],
      ['only unknown subprotocols offered', { 'Sec-WebSocket-Protocol': 'ocpp2.1, ocpp1.5' }],
      ['no subprotocol', { 'Sec-WebSocket-Protocol': undefined }],
      ['no key', { 'Sec-WebSocket-Key': undefined }],
      ['a key that is not 16 bytes', { 'Sec-WebSocket-Key': 'short' }],
      ['unknown WebSocket version', { 'Sec-WebSocket-Version': '99' }],
      ['not a GET', {}, 'POST'],
    ];
    for (const [name, headers, method] of cases) {
      const { status } = await rawUpgrade('/ocpp/RAW-02', headers, method);
      expect({ name, status: status >= 400 && status < 500 }).toEqual({ name, status: true });
    }
    await expectAllWell();
  });

  it('treats a malformed Basic auth header as no password (401), never as an error', async () => {
    const basic = (bytes: Buffer) => `Basic ${bytes.toString('base64')}`;
    const headers = [
      'Basic',
      'Basic %%%%',
      'Basic ====',
      `Basic ${'A'.repeat(20_000)}`,
      basic(Buffer.from([0xff, 0xfe, 0x00, 0x3a])),
      basic(Buffer.from('LOCKED-01')),
      basic(Buffer.from('LOCKED-01:')),
      basic(Buffer.concat([Buffer.from('LOCKED-01:'), Buffer.from([0xc3, 0x28, 0x00])])),
      basic(Buffer.from(`OTHER:${PASSWORD}`)),
      `Bearer ${PASSWORD}`,
    ];
    for (const authorization of headers) {
      const { status } = await rawUpgrade('/ocpp/LOCKED-01', { Authorization: authorization });
      // Past Node's 16 kB header limit the HTTP parser refuses the request itself (431).
      const expected = authorization.length > 16_000 ? 431 : 401;
      expect({ authorization: authorization.slice(0, 40), status }).toEqual({
        authorization: authorization.slice(0, 40),
        status: expected,
      });
    }
    const right = await rawUpgrade('/ocpp/LOCKED-01', {
      Authorization: basic(Buffer.from(`LOCKED-01:${PASSWORD}`)),
    });
    expect(right.status).toBe(101);
    await expectAllWell();
  });

  it('admits good chargers connecting together with a bad one: the bad one fails alone', async () => {
    const ids = Array.from({ length: 7 }, (_, i) => `FLEET-0${i + 1}`);
    await createChargers(t, admin, place, ids, { connectors: 1 });
    const clients = ids.map((identity) => rpcClient(t, identity));
    const [bad, ...good] = await Promise.all([
      rawUpgrade('/ocpp/%00'),
      ...clients.map((client) =>
        client.connect().then(
          () => 'open',
          (error: Error) => error.message,
        ),
      ),
    ]);
    expect(bad?.status ?? bad).toBe(400);
    expect(good).toEqual(ids.map(() => 'open'));
    await Promise.all(clients.map((client) => client.close({ force: true })));
    await expectAllWell();
  });
});

describe('the charger store', () => {
  it('answers a batch of admissions even when one member is not a charger id', async () => {
    const store = new ChargePointStore(t.database.db, t.app.log);
    const [good, nul, unknown] = await Promise.all([
      store.admission('CALM-01'),
      store.admission('CALM\u000001'),
      store.admission('NOBODY'),
    ]);
    expect(good).toMatchObject({ active: true });
    expect(nul).toBeNull();
    expect(unknown).toBeNull();
    await store.close();
  });

  it('writes the other chargers’ states when one state in the batch cannot be written', async () => {
    const store = new ChargePointStore(t.database.db, t.app.log, 60_000);
    const report = (status: string) => ({
      status,
      errorCode: 'NoError',
      vendorErrorCode: null,
      info: null,
      at: new Date(),
    });
    // A connector number no integer column holds: the shared statement fails, the good report must not.
    store.status('CALM-02', 2 ** 40, report('FAULTED'));
    store.status('CALM-02', 2, report('FAULTED'));
    await store.flush();
    const rows = await t.database.db
      .select({ status: connectors.status, number: connectors.ocppConnectorId })
      .from(connectors)
      .where(eq(connectors.chargerId, 'CALM-02'));
    expect(rows.find((row) => row.number === 2)?.status).toBe('FAULTED');
    await store.close();
  });
});

describe('OCPP frames after boot', () => {
  it('answers each malformed frame with its OCPP 1.6 error code and keeps serving', async () => {
    const client = rpcClient(t, 'RAW-02');
    await client.connect();
    await client.call('BootNotification', { chargePointVendor: 'Raw', chargePointModel: 'R2' });
    const inbound: unknown[][] = [];
    client.on('message', ({ message, outbound }: { message: string; outbound: boolean }) => {
      if (!outbound) inbound.push(JSON.parse(message));
    });
    const now = new Date().toISOString();
    const status = { connectorId: 1, errorCode: 'NoError', status: 'Available' };
    const calls: Array<[string, unknown, string]> = [
      ['h-extra', ['Heartbeat', { extra: 1 }], 'FormationViolation'],
      ['h-none', ['Heartbeat'], 'TypeConstraintViolation'],
      ['b-missing', ['BootNotification', { chargePointVendor: 'V' }], 'OccurenceConstraintViolation'],
      [
        'b-type',
        ['BootNotification', { chargePointVendor: 42, chargePointModel: 'M' }],
        'TypeConstraintViolation',
      ],
      [
        's-int32',
        ['StatusNotification', { ...status, connectorId: 2_147_483_648 }],
        'TypeConstraintViolation',
      ],
      [
        's-neg',
        ['StatusNotification', { ...status, connectorId: -2_147_483_649 }],
        'TypeConstraintViolation',
      ],
      ['s-string', ['StatusNotification', { ...status, connectorId: 'one' }], 'TypeConstraintViolation'],
      ['s-float', ['StatusNotification', { ...status, connectorId: 1.5 }], 'TypeConstraintViolation'],
      ['s-enum', ['StatusNotification', { ...status, status: 'Dancing' }], 'PropertyConstraintViolation'],
      ['s-nul', ['StatusNotification', { ...status, info: 'a\u0000b' }], 'PropertyConstraintViolation'],
      [
        's-surrogate',
        ['StatusNotification', { ...status, vendorErrorCode: '\ud800x' }],
        'PropertyConstraintViolation',
      ],
      [
        's-date',
        ['StatusNotification', { ...status, timestamp: '2026-13-45T99:00:00Z' }],
        'PropertyConstraintViolation',
      ],
      [
        'm-date',
        [
          'MeterValues',
          { connectorId: 1, meterValue: [{ timestamp: 'yesterday', sampledValue: [{ value: '1' }] }] },
        ],
        'PropertyConstraintViolation',
      ],
      [
        'st-long',
        ['StartTransaction', { connectorId: 1, idTag: 'x'.repeat(21), meterStart: 0, timestamp: now }],
        'PropertyConstraintViolation',
      ],
      [
        'sp-huge',
        ['StopTransaction', { transactionId: 9_007_199_254_740_991, meterStop: 1, timestamp: now }],
        'TypeConstraintViolation',
      ],
      ['unknown', ['NoSuchAction', {}], 'NotImplemented'],
      ['cs-action', ['Reset', { type: 'Hard' }], 'NotImplemented'],
    ];
    for (const [id, call] of calls) client.sendRaw(JSON.stringify([2, id, ...(call as unknown[])]));
    // Frames that are not OCPP-J at all: answered with id '-1' (the id can't be read).
    const unreadable = [
      'not json',
      '{}',
      '[]',
      '"text"',
      '[2]',
      '[2, 5, "Heartbeat", {}]',
      '[5, "x"]',
      '[2, "x", 7, {}]',
    ];
    for (const frame of unreadable) client.sendRaw(frame);

    const answered = await eventually(async () =>
      calls.every(([id]) => inbound.some((frame) => frame[1] === id)) ? inbound : null,
    );
    for (const [id, , code] of calls) {
      const frame = answered.find((f) => f[1] === id);
      expect({ id, frame: frame?.slice(0, 3) }).toEqual({ id, frame: [4, id, code] });
    }
    const errorFrames = await eventually(async () => {
      const errors = inbound.filter((frame) => frame[0] === 4);
      return errors.length >= calls.length + unreadable.length - 1 ? errors : null;
    });
    for (const frame of errorFrames) expect(OCPP16_CODES.has(String(frame[2]))).toBe(true);
    // 'x' (a CALL whose action is not a string) keeps its readable id.
    expect(errorFrames.filter((frame) => frame[1] === '-1').map((frame) => frame[2])).toEqual(
      Array(unreadable.length - 1).fill('FormationViolation'),
    );
    expect(errorFrames.find((frame) => frame[1] === 'x')?.[2]).toBe('FormationViolation');

    // Still connected and served.
    const heartbeat = (await client.call('Heartbeat', {})) as { currentTime: string };
    expect(Date.parse(heartbeat.currentTime)).toBeGreaterThan(0);
    await client.close({ force: true });
    await expectAllWell();
  });

  it('closes the connection of a charger sending a frame over the size limit, and only that one', async () => {
    const client = rpcClient(t, 'RAW-02');
    await client.connect();
    const closed = new Promise<{ code: number }>((resolve) => client.once('close', resolve));
    client.sendRaw(
      JSON.stringify([2, 'big', 'DataTransfer', { vendorId: 'X', data: 'x'.repeat(3 * 1024 * 1024) }]),
    );
    expect((await closed).code).toBe(1009);
    await expectAllWell();
  });

  it('answers a retransmitted call with the first answer and stores it once', async () => {
    const client = rpcClient(t, 'DUP-01');
    await client.connect();
    const answers: unknown[][] = [];
    client.on('message', ({ message, outbound }: { message: string; outbound: boolean }) => {
      if (!outbound) answers.push(JSON.parse(message));
    });
    const stored = async () =>
      (
        await t.database.db
          .select({ n: count() })
          .from(meterValues)
          .where(eq(meterValues.chargerId, 'DUP-01'))
      )[0]!.n;
    const meter = (value: string) => ({
      connectorId: 1,
      meterValue: [{ timestamp: new Date().toISOString(), sampledValue: [{ value }] }],
    });
    const send = async (id: string, params: unknown) => {
      const before = answers.length;
      client.sendRaw(JSON.stringify([2, id, 'MeterValues', params]));
      return eventually(async () => answers.slice(before).find((frame) => frame[1] === id));
    };
    const first = meter('1000');
    expect(await send('dup-1', first)).toEqual([3, 'dup-1', {}]);
    expect(await stored()).toBe(1);
    expect(await send('dup-1', first)).toEqual([3, 'dup-1', {}]);
    expect(await stored()).toBe(1);
    // The same id with other content is another call (a charger reusing ids), processed as such.
    expect(await send('dup-1', meter('2000'))).toEqual([3, 'dup-1', {}]);
    expect(await stored()).toBe(2);
    await client.close({ force: true });
  });
});
