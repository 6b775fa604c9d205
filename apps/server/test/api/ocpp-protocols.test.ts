import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RPCClient } from '../../src/ocpp/rpc.ts';
import { signedInUser } from '../helpers/factories.ts';
import { chargerPlace, createChargers, eventually, ocppUrl, rpcClient201 } from '../helpers/ocpp.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';

// One endpoint, two protocols (issue 33 §1): the subprotocol chosen by the charger's list and its Protocol
// setting, 2.0.1 frames checked against the 2.0.1 schemas and answered with 2.0.1's codes, and staff's
// commands turned into 2.0.1 frames for a 2.0.1 charger. The charger here is a bare ocpp-rpc client in strict
// mode, not our simulator.

let t: TestApp;
let admin: string;
let place: Awaited<ReturnType<typeof chargerPlace>>;
const clients: Array<InstanceType<typeof RPCClient>> = [];

/** An upgrade request offering `protocols`: the status and the body of a refusal, or 101. */
function upgrade(chargerId: string, protocols: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const request = http.get(`${ocppUrl(t).replace(/^ws/, 'http')}/${chargerId}`, {
      headers: {
        Connection: 'Upgrade',
        Upgrade: 'websocket',
        'Sec-WebSocket-Version': '13',
        'Sec-WebSocket-Key': 'dGhlIHNhbXBsZSBub25jZQ==',
        'Sec-WebSocket-Protocol': protocols,
      },
    });
    request.on('upgrade', (response, socket) => {
      socket.destroy();
      resolve({ status: response.statusCode ?? 0, body: String(response.headers['sec-websocket-protocol']) });
    });
    request.on('response', (response) => {
      let body = '';
      response.on('data', (chunk: Buffer) => {
        body += chunk.toString();
      });
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body: body.trim() }));
    });
    request.on('error', reject);
  });
}

const charger = async (id: string) =>
  (await t.call('GET', `/api/charger/${id}`, { token: admin })).body.charger;

/** A connected 2.0.1 client that answers what `answers` says and records what it was asked. */
async function connect201(id: string, answers: Record<string, (params: Record<string, unknown>) => unknown>) {
  const client = rpcClient201(t, id);
  clients.push(client);
  const asked: Array<{ action: string; params: Record<string, unknown> }> = [];
  for (const [action, answer] of Object.entries(answers)) {
    client.handle(action, (({ params }: { params: Record<string, unknown> }) => {
      asked.push({ action, params });
      return answer(params);
    }) as never);
  }
  await client.connect();
  return { client, asked };
}

beforeAll(async () => {
  t = await startTestApp({ OCPP_COMMAND_TIMEOUT_MS: '2000' });
  admin = (await signedInUser(t, { role: 'admin' })).token;
  place = await chargerPlace(t);
  await createChargers(t, admin, place, ['AUTO-01']);
  await createChargers(t, admin, place, ['ONLY16-01'], { ocppProtocol: '1.6' });
  await createChargers(t, admin, place, ['ONLY201-01'], { ocppProtocol: '2.0.1' });
  await createChargers(t, admin, place, ['V201-01'], { connectors: 2 });
});
afterAll(async () => {
  for (const client of clients) await client.close({ force: true }).catch(() => undefined);
  await t.close();
});

describe('subprotocol negotiation', () => {
  it('Automatic takes the newest both speak; the list shows the protocol of the last connection', async () => {
    expect(await upgrade('AUTO-01', 'ocpp1.6, ocpp2.0.1')).toEqual({ status: 101, body: 'ocpp2.0.1' });
    expect(await upgrade('AUTO-01', 'ocpp1.6')).toEqual({ status: 101, body: 'ocpp1.6' });
    expect(await charger('AUTO-01')).toMatchObject({ ocppProtocol: 'auto' });
    await eventually(async () => (await charger('AUTO-01')).protocol === 'ocpp1.6');
  });

  it('a version setting takes only that version, and says what to offer', async () => {
    expect(await upgrade('ONLY16-01', 'ocpp2.0.1, ocpp1.6')).toEqual({ status: 101, body: 'ocpp1.6' });
    expect(await upgrade('ONLY201-01', 'ocpp1.6')).toEqual({
      status: 400,
      body: 'This charger is set to OCPP 2.0.1: offer the subprotocol ocpp2.0.1',
    });
    expect(await upgrade('ONLY201-01', 'ocpp2.0.1, ocpp1.6')).toEqual({ status: 101, body: 'ocpp2.0.1' });
  });

  it('a charger offering only protocols we do not speak is refused with a clear HTTP answer', async () => {
    expect(await upgrade('AUTO-01', 'ocpp2.1, ocpp1.5')).toEqual({
      status: 400,
      body: 'Subprotocol ocpp2.0.1 or ocpp1.6 required',
    });
  });

  it('the Protocol setting is saved and validated like every field', async () => {
    const body = await charger('AUTO-01');
    const { id, nameEn, nameTh, landlordId, chargerBrandId, connectors } = body;
    const put = (ocppProtocol: unknown) =>
      t.call('PATCH', '/api/charger/AUTO-01', {
        token: admin,
        body: {
          id,
          nameEn,
          nameTh,
          landlordId,
          chargerBrandId,
          ocppProtocol,
          connectors: connectors.map((c: Record<string, unknown>) => ({
            id: c.id,
            token: c.token,
            nameEn: c.nameEn,
            nameTh: c.nameTh,
            connectorTypeId: c.connectorTypeId,
            judjodId: c.judjodId,
            maxPowerKw: c.maxPowerKw,
            oldQr: c.oldQr,
            priceId: c.priceId,
          })),
        },
      });
    const refused = await put('2.1');
    expect(refused.status).toBe(400);
    expect(refused.body.message).toMatch(/Protocol must be auto, 1.6 or 2.0.1/);
    expect((await put('1.6')).status).toBe(200);
    expect((await charger('AUTO-01')).ocppProtocol).toBe('1.6');
    expect(await upgrade('AUTO-01', 'ocpp2.0.1, ocpp1.6')).toEqual({ status: 101, body: 'ocpp1.6' });
    expect((await put('auto')).status).toBe(200);
  });
});

describe('an OCPP 2.0.1 charger', () => {
  it('boots, reports its EVSEs and is answered in 2.0.1 (schema-checked both ways)', async () => {
    const { client } = await connect201('V201-01', {});
    const boot = (await client.call('BootNotification', {
      reason: 'PowerUp',
      chargingStation: { model: 'RAW-201', vendorName: 'Raw Test', firmwareVersion: '2.0.1-raw' },
    })) as { status: string; interval: number };
    expect(boot.status).toBe('Accepted');
    expect(boot.interval).toBeGreaterThan(0);
    for (const [evseId, connectorStatus] of [
      [1, 'Available'],
      [2, 'Faulted'],
    ] as const) {
      await client.call('StatusNotification', {
        timestamp: new Date().toISOString(),
        connectorStatus,
        evseId,
        connectorId: 1,
      });
    }
    expect(await client.call('Heartbeat', {})).toHaveProperty('currentTime');
    const seen = await eventually(async () => {
      const c = await charger('V201-01');
      return c.vendor === 'Raw Test' && c.connectors[1]?.status === 'FAULTED' ? c : null;
    });
    expect(seen).toMatchObject({ protocol: 'ocpp2.0.1', model: 'RAW-201', firmwareVersion: '2.0.1-raw' });
    expect(seen.connectors.map((c: { status: string }) => c.status)).toEqual(['AVAILABLE', 'FAULTED']);
  });

  it("answers a frame that breaks the schema with its version's own error code", async () => {
    // Clients that check nothing themselves (strict mode off), so the server's check is what answers.
    const sloppy = (protocol: string) => {
      const client = new RPCClient({
        endpoint: ocppUrl(t),
        identity: 'AUTO-01',
        protocols: [protocol],
        reconnect: false,
      } as never);
      clients.push(client);
      return client;
    };
    const codeOf = (client: InstanceType<typeof RPCClient>, params: Record<string, unknown>) =>
      client.call('StatusNotification', params).then(
        () => 'answered',
        (caught: { rpcErrorCode?: string }) => caught.rpcErrorCode,
      );
    const v201 = sloppy('ocpp2.0.1');
    await v201.connect();
    // No evseId: 'OccurrenceConstraintViolation', as 2.0.1 spells it.
    expect(await codeOf(v201, { timestamp: new Date().toISOString(), connectorStatus: 'Available' })).toBe(
      'OccurrenceConstraintViolation',
    );
    // A property 2.0.1's StatusNotification does not have.
    expect(
      await codeOf(v201, {
        timestamp: new Date().toISOString(),
        connectorStatus: 'Available',
        evseId: 1,
        connectorId: 1,
        errorCode: 'NoError',
      }),
    ).toBe('FormatViolation');
    await v201.close({ force: true });
    const v16 = sloppy('ocpp1.6');
    await v16.connect();
    // 1.6 keeps its own codes and spelling on its connections.
    expect(await codeOf(v16, { status: 'Available', errorCode: 'NoError' })).toBe(
      'OccurenceConstraintViolation',
    );
    await v16.close({ force: true });
  });

  it("turns staff's commands into 2.0.1 frames and answers the charger's own words", async () => {
    const { asked } = await connect201('V201-01', {
      Reset: ({ type }) => ({ status: type === 'OnIdle' ? 'Scheduled' : 'Accepted' }),
      UnlockConnector: () => ({ status: 'Unlocked' }),
      ChangeAvailability: () => ({ status: 'Accepted' }),
      TriggerMessage: () => ({ status: 'Accepted' }),
      ClearCache: () => ({ status: 'Accepted' }),
    });
    const post = (path: string, body: unknown) =>
      t.call('POST', `/api/charger/V201-01/${path}`, { token: admin, body });

    expect((await post('reset', { type: 'Soft' })).body).toEqual({ status: 'Scheduled' });
    expect((await post('reset', { type: 'Hard' })).body).toEqual({ status: 'Accepted' });
    expect((await post('unlock', { connectorId: 2 })).body).toEqual({ status: 'Unlocked' });
    expect((await post('availability', { connectorId: 0, type: 'Inoperative' })).body).toEqual({
      status: 'Accepted',
    });
    expect((await post('availability', { connectorId: 1, type: 'Operative' })).body).toEqual({
      status: 'Accepted',
    });
    expect((await post('trigger', { requestedMessage: 'DiagnosticsStatusNotification' })).body).toEqual({
      status: 'Accepted',
    });
    expect((await post('trigger', { requestedMessage: 'StatusNotification', connectorId: 2 })).body).toEqual({
      status: 'Accepted',
    });
    expect((await post('clear-cache', {})).body).toEqual({ status: 'Accepted' });

    expect(asked).toEqual([
      { action: 'Reset', params: { type: 'OnIdle' } },
      { action: 'Reset', params: { type: 'Immediate' } },
      { action: 'UnlockConnector', params: { evseId: 2, connectorId: 1 } },
      { action: 'ChangeAvailability', params: { operationalStatus: 'Inoperative' } },
      { action: 'ChangeAvailability', params: { operationalStatus: 'Operative', evse: { id: 1 } } },
      { action: 'TriggerMessage', params: { requestedMessage: 'LogStatusNotification' } },
      {
        action: 'TriggerMessage',
        params: { requestedMessage: 'StatusNotification', evse: { id: 2, connectorId: 1 } },
      },
      { action: 'ClearCache', params: {} },
    ]);
  });
});
