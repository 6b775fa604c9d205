import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createScratchDatabase, type ScratchDatabase } from '@ev/tools/scratch-database';
import {
  type SimulatedCharger,
  type SimulatedChargerSpec,
  type SimulatorEvent,
  simulateChargers,
} from '@ev/tools/simulator';
import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, openDatabase } from '../../src/db/client.ts';
import { chargers } from '../../src/db/schema/index.ts';
import { RPCClient } from '../../src/ocpp/rpc.ts';
import { lastLocation, latestReaches, testBytes, uploadFirmware } from '../helpers/charger-files.ts';
import { ChargerBalancer, type NatsServer, startNats } from '../helpers/cluster.ts';
import { createPrice, createUser, signedInUser } from '../helpers/factories.ts';
import { reserveBooking, startBooking } from '../helpers/member-session.ts';
import { chargerPlace, createChargers, eventually, readEvents } from '../helpers/ocpp.ts';
import {
  buildServer,
  exitWithin,
  freePort,
  killServer,
  type ServerProcess,
  startServerProcess,
} from '../helpers/server-process.ts';
import { callsTo, startTestApp, type TestApp } from '../helpers/test-app.ts';

/**
 * Issue 23: several server processes, one network. Three built servers (`node dist/server.js`) on one
 * PostgreSQL database, joined by a NATS server of the test's own; the chargers connect through a load
 * balancer that places each one on the process the test names (and on another when that one is gone).
 */

const BATCH_TOKEN = 'cluster-batch-token-0123456789';
/** Heartbeats every 3 s: a charger whose process died is offline 6 s after it was last heard. */
const HEARTBEAT_S = 3;
/** A command to a charger held nowhere must be answered long before this (it is not a timeout). */
const COMMAND_TIMEOUT_MS = 10_000;
const CMD = 'CMD-1';
/** A raw OCPP 2.0.1 charger (strict ocpp-rpc client), held by C and commanded from A and B (issue 33). */
const V201 = 'V201-1';
const OFF = 'OFF-1';
const DUP = 'DUP-1';
const LOST = 'LOST-1';
/** A charger without the FirmwareManagement profile (UpdateFirmware and GetDiagnostics: NotImplemented). */
const NO_FIRMWARE = 'NOFW-1';
const FLEET = {
  A: ['FLEET-A1', 'FLEET-A2', 'FLEET-A3'],
  B: ['FLEET-B1', 'FLEET-B2'],
  C: ['FLEET-C1', 'FLEET-C2'],
};
/** The kill -9 script's chargers and where they start: two on B (killed), one each on A and C. */
const KILL = { 'KILL-1': 'B', 'KILL-2': 'B', 'KILL-3': 'A', 'KILL-4': 'C' } as const;
const KILL_IDS = Object.keys(KILL);
const WH_PER_READING = 2000;
const METRICS_TOKEN = 'cluster-metrics-token-0123456789';

/** ev_cluster_broker_connected as process A's /metrics has it now. */
const brokerOnA = async () => {
  const text = await (
    await fetch(`${processes.A!.url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })
  ).text();
  return Number(/^ev_cluster_broker_connected (\S+)$/m.exec(text)?.[1]);
};

type Api = ReturnType<typeof callsTo>;
interface Data {
  admin: string;
  /** Another staff session, to sign out. */
  spare: string;
  connectorOf: Map<string, number[]>;
  members: Array<{ token: string; idTag: string }>;
}

/** The same records on any database: chargers, a price of 8.00 baht per kWh without penalties, members. */
async function createData(t: TestApp): Promise<Data> {
  const admin = (await signedInUser(t, { role: 'admin' })).token;
  const spare = (await signedInUser(t, { role: 'admin' })).token;
  const place = await chargerPlace(t);
  place.price = await createPrice(t, {
    method: 'KW',
    bahtPerKwh: '8.00',
    penaltyBahtPerMin: '0.00',
    penaltyDcFullBahtPerMin: '0.00',
  });
  const connectorOf = new Map<string, number[]>();
  const made = [
    ...(await createChargers(t, admin, place, [CMD, OFF, DUP], { judjodId: 9 })),
    ...(await createChargers(
      t,
      admin,
      place,
      [...Object.values(FLEET).flat(), LOST, NO_FIRMWARE, V201, ...KILL_IDS],
      {
        connectors: 1,
      },
    )),
  ];
  for (const { id, connectorIds } of made) connectorOf.set(id, connectorIds);
  const members = [];
  for (let i = 0; i < KILL_IDS.length + 1; i++) {
    const user = await createUser(t, { type: 'mobile' });
    const signIn = await t.call('POST', '/api/member/login', {
      body: { email: user.email, pass: user.pass },
    });
    expect(signIn.status).toBe(200);
    members.push({ token: signIn.body.accessToken as string, idTag: signIn.body.idTag as string });
  }
  return { admin, spare, connectorOf, members };
}

let scratch: ScratchDatabase;
let nats: NatsServer;
let work: string;
/** The cluster's database, read directly where the API does not say (which process holds a charger). */
let database: Database;
let data: Data;
const processes: Record<'A' | 'B' | 'C', ServerProcess | undefined> = {
  A: undefined,
  B: undefined,
  C: undefined,
};
const api = {} as Record<'A' | 'B' | 'C', Api>;
let balancer: ChargerBalancer;
const seen: SimulatorEvent[] = [];
/** How a charger answers commands, when a test says otherwise (default normal). */
const behaviours = new Map<string, 'silent' | 'reject' | 'not-supported'>();
const simulations: Array<Awaited<ReturnType<typeof simulateChargers>>> = [];
const bareClients: Array<InstanceType<typeof RPCClient>> = [];

/** Simulated chargers connected through the balancer, each on the process named. */
async function connect(
  where: 'A' | 'B' | 'C',
  ids: string[],
  connectors = 1,
  spec: Partial<SimulatedChargerSpec> = {},
): Promise<SimulatedCharger[]> {
  for (const id of ids) balancer.placement.set(id, processes[where]!.port);
  const simulation = await simulateChargers(
    ids.map((id) => ({ id, connectors, ...spec })),
    {
      url: balancer.url,
      rebootMs: 100,
      onEvent: (event) => seen.push(event),
      behaviour: (id) => behaviours.get(id) ?? 'normal',
    },
  );
  simulations.push(simulation);
  expect(simulation.failed).toEqual([]);
  // A charger shows online once commands from any process reach it on its holder (cluster/bus.ts, hold).
  const pid = processes[where]!.child.pid;
  await eventually(async () => {
    const rows = await database.db
      .select({ node: chargers.connectedNode })
      .from(chargers)
      .where(inArray(chargers.id, ids));
    return rows.length === ids.length && rows.every((row) => pidOf(row.node) === pid);
  });
  return simulation.chargers;
}

/** The process holding a charger, as the database has it (connected_node: host:pid:random); null offline. */
async function holderOf(chargerId: string): Promise<string | null> {
  const detail = await api.A('GET', `/api/charger/${chargerId}`, { token: data.admin });
  if (!detail.body.charger.online) return null;
  const [row] = await database.db
    .select({ node: chargers.connectedNode })
    .from(chargers)
    .where(eq(chargers.id, chargerId));
  return row?.node ?? null;
}
const pidOf = (node: string | null) => Number(node?.split(':')[1]);

beforeAll(async () => {
  await buildServer();
  nats = await startNats();
  scratch = await createScratchDatabase(
    process.env.DATABASE_URL || 'postgres://postgres:postgres@127.0.0.1:5432/postgres',
    'ev_cluster',
  );
  work = fs.mkdtempSync(path.join(os.tmpdir(), 'ev-cluster-'));
  database = await openDatabase({ databaseUrl: scratch.url });
  const t = await startTestApp({}, { database: await openDatabase({ databaseUrl: scratch.url }) });
  try {
    data = await createData(t);
  } finally {
    await t.close();
  }
  const env = {
    DATABASE_URL: scratch.url,
    NATS_URL: nats.url,
    DATA_DIR: work,
    BATCH_COMMAND_TOKEN: BATCH_TOKEN,
    BATCH_CONCURRENCY: '4',
    OCPP_HEARTBEAT_INTERVAL: String(HEARTBEAT_S),
    OCPP_COMMAND_TIMEOUT_MS: String(COMMAND_TIMEOUT_MS),
    METRICS_TOKEN,
  };
  const ports = { A: await freePort(), B: await freePort(), C: await freePort() };
  // Every process makes the chargers' one-time file links on B's address (APP_URL): any process serves them.
  Object.assign(env, { APP_URL: `http://127.0.0.1:${ports.B}` });
  for (const name of ['A', 'B', 'C'] as const) {
    processes[name] = await startServerProcess(ports[name], env);
    api[name] = callsTo(processes[name]!.url);
  }
  balancer = new ChargerBalancer(() =>
    Object.values(processes).flatMap((server) => (server && !server.exit() ? [server.port] : [])),
  );
  await balancer.listen();
}, 120_000);

afterAll(async () => {
  for (const simulation of simulations) await simulation.stop().catch(() => undefined);
  for (const client of bareClients) await client.close({ force: true }).catch(() => undefined);
  await balancer?.close();
  for (const server of Object.values(processes)) await killServer(server);
  await nats?.stop();
  await database?.close();
  await scratch?.drop();
  if (work) fs.rmSync(work, { recursive: true, force: true });
});

const bookingOn = (which: Api, id: number) =>
  which('GET', `/api/booking/${id}`, { token: data.admin }).then((response) => response.body);
const bookingStatus = (id: number, status: string, timeoutMs = 15_000) =>
  eventually(async () => {
    const detail = await bookingOn(api.A, id);
    return detail.booking?.status === status ? detail : null;
  }, timeoutMs);

/** A member reserves, checks in and starts a session through `via` (staff read it through `staff`). */
const startSession = (via: Api, member: { token: string }, connectorId: number, staff: Api = api.A) =>
  startBooking(via, staff, data.admin, member, connectorId);

describe('commands reach the charger wherever it is connected', () => {
  let cmd: SimulatedCharger | undefined;

  it('a charger on C: the member API on B starts a session on it, a staff Stop sent to A stops it', async () => {
    [cmd] = await connect('C', [CMD], 2);
    expect(pidOf(await eventually(() => holderOf(CMD)))).toBe(processes.C!.child.pid);
    const member = data.members.at(-1)!;
    const id = await startSession(api.B, member, data.connectorOf.get(CMD)![0]!);
    await bookingStatus(id, 'charging');
    expect(seen).toContainEqual({
      type: 'command',
      id: CMD,
      action: 'RemoteStartTransaction',
      params: { connectorId: 1, idTag: member.idTag },
    });

    const stop = await api.A('POST', `/api/booking/${id}/stop`, { token: data.admin });
    expect(stop.status, JSON.stringify(stop.body)).toBe(200);
    expect(
      seen.some((e) => e.type === 'command' && e.id === CMD && e.action === 'RemoteStopTransaction'),
    ).toBe(true);
    await bookingStatus(id, 'charged');
    await cmd!.unplug(1);
    await bookingStatus(id, 'stopped');

    // A single-charger command from the third process: the blocker's DataTransfer, answered by the charger.
    const opened = await api.A('POST', `/api/connector/${data.connectorOf.get(CMD)![1]}/open-blocker`, {
      token: data.admin,
    });
    expect(opened.status, JSON.stringify(opened.body)).toBe(200);
    expect(seen.some((e) => e.type === 'command' && e.id === CMD && e.action === 'DataTransfer')).toBe(true);

    // The operations on one charger (issue 32), from A and B to the charger on C, answered as the charger said.
    const operate = (via: Api, method: 'GET' | 'POST' | 'PATCH', path: string, body?: unknown) =>
      via(method, `/api/charger/${CMD}/${path}`, { token: data.admin, body });
    const answers = [
      await operate(api.A, 'POST', 'unlock', { connectorId: 2 }),
      await operate(api.B, 'POST', 'availability', { connectorId: 2, type: 'Inoperative' }),
      await operate(api.A, 'POST', 'availability', { connectorId: 2, type: 'Operative' }),
      await operate(api.B, 'POST', 'trigger', { requestedMessage: 'Heartbeat' }),
      await operate(api.A, 'PATCH', 'configuration', { key: 'MeterValueSampleInterval', value: '15' }),
      await operate(api.B, 'POST', 'clear-cache', {}),
    ];
    expect(answers.map((answer) => [answer.status, answer.body])).toEqual([
      [200, { status: 'Unlocked' }],
      [200, { status: 'Accepted' }],
      [200, { status: 'Accepted' }],
      [200, { status: 'Accepted' }],
      [200, { status: 'Accepted' }],
      [200, { status: 'Accepted' }],
    ]);
    const configuration = await operate(api.B, 'GET', 'configuration');
    expect(configuration.status).toBe(200);
    expect(configuration.body.configurationKey).toContainEqual({
      key: 'MeterValueSampleInterval',
      readonly: false,
      value: '15',
    });
  });

  it('firmware and diagnostics from A and B to the charger on C; its one-time links served by B, and any process', async () => {
    const image = testBytes(1_500_000, 11);
    const sha256 = createHash('sha256').update(image).digest('hex');
    const uploaded = await uploadFirmware(
      processes.A!.url,
      data.admin,
      image,
      'cluster-4.2.0.bin',
      'version=4.2.0',
    );
    expect(uploaded.status, JSON.stringify(uploaded.body)).toBe(201);
    const fileId = uploaded.body.file.id as number;
    const update = await api.B('POST', `/api/charger/${CMD}/firmware`, {
      token: data.admin,
      body: { fileId },
    });
    expect([update.status, update.body]).toEqual([200, { status: 'Accepted' }]);
    const location = lastLocation(seen, CMD, 'UpdateFirmware');
    expect(location.startsWith(`${processes.B!.url}/ocpp-files/firmware/`)).toBe(true);
    // The steps reach C (the charger's process); A shows them, and the new version after the reboot.
    const done = await latestReaches(processes.A!.url, data.admin, CMD, 'firmware', 'Installed');
    expect(done.steps.map((step) => step.status)).toEqual([
      'Downloading',
      'Downloaded',
      'Installing',
      'Installed',
    ]);
    expect(seen).toContainEqual({ type: 'downloaded', id: CMD, bytes: image.length, sha256 });
    await eventually(async () => {
      const detail = await api.A('GET', `/api/charger/${CMD}`, { token: data.admin });
      return (
        detail.body.charger.firmwareVersion === '4.2.0' &&
        pidOf(await holderOf(CMD)) === processes.C!.child.pid
      );
    });
    // Used for good, on every process.
    for (const process of [processes.A!, processes.C!])
      expect((await fetch(location.replace(processes.B!.url, process.url))).status).toBe(410);

    const diagnostics = await api.A('POST', `/api/charger/${CMD}/diagnostics`, {
      token: data.admin,
      body: {},
    });
    expect(diagnostics.status, JSON.stringify(diagnostics.body)).toBe(200);
    expect(diagnostics.body.fileName).toMatch(/^diagnostics-CMD-1-/);
    const uploadedLog = await latestReaches(processes.C!.url, data.admin, CMD, 'diagnostics', 'Uploaded');
    const log = await fetch(`${processes.B!.url}/api/charger-file/${uploadedLog.fileId}/download`, {
      headers: { 'x-access-token': data.admin },
    });
    expect(await log.text()).toContain(`# Diagnostics of ${CMD}`);

    // A charger without the profile says so through any process; one connected nowhere is offline at once.
    const [noFirmware] = await connect('C', [NO_FIRMWARE], 1, { firmwareManagement: false });
    const notSupported = [
      await api.A('POST', `/api/charger/${NO_FIRMWARE}/firmware`, { token: data.admin, body: { fileId } }),
      await api.B('POST', `/api/charger/${NO_FIRMWARE}/diagnostics`, { token: data.admin, body: {} }),
    ];
    expect(notSupported.map((answer) => [answer.status, answer.body])).toEqual([
      [200, { status: 'NotSupported' }],
      [200, { status: 'NotSupported' }],
    ]);
    const offline = await api.B('POST', `/api/charger/${OFF}/firmware`, {
      token: data.admin,
      body: { fileId },
    });
    expect([offline.status, offline.body]).toEqual([409, { message: `Charger ${OFF} is offline.` }]);
    // Offline again for the batches below, as every charger they do not connect.
    await noFirmware!.stop();
    await eventually(async () => (await holderOf(NO_FIRMWARE)) === null);
  });

  it('a 2.0.1 charger on C gets the 2.0.1 frames of commands sent from A and B, and its answers come back', async () => {
    const asked: Array<{ action: string; params: Record<string, unknown> }> = [];
    const client = new RPCClient({
      endpoint: `${processes.C!.url.replace(/^http/, 'ws')}/ocpp`,
      identity: V201,
      protocols: ['ocpp2.0.1'],
      strictMode: true,
      reconnect: false,
    } as never);
    bareClients.push(client);
    client.handle('UnlockConnector', (({ params }: { params: Record<string, unknown> }) => {
      asked.push({ action: 'UnlockConnector', params });
      return { status: 'Unlocked' };
    }) as never);
    client.handle('SetVariables', (({ params }: { params: Record<string, unknown> }) => {
      asked.push({ action: 'SetVariables', params });
      const [data] = params.setVariableData as Array<{ component: unknown; variable: unknown }>;
      return {
        setVariableResult: [
          { attributeStatus: 'RebootRequired', component: data!.component, variable: data!.variable },
        ],
      };
    }) as never);
    client.handle('GetBaseReport', (({ params }: { params: Record<string, unknown> }) => {
      asked.push({ action: 'GetBaseReport', params });
      setTimeout(
        () =>
          void client.call('NotifyReport', {
            requestId: params.requestId,
            generatedAt: new Date().toISOString(),
            seqNo: 0,
            reportData: [
              {
                component: { name: 'OCPPCommCtrlr' },
                variable: { name: 'HeartbeatInterval' },
                variableAttribute: [{ value: '60', mutability: 'ReadWrite' }],
              },
            ],
          }),
        50,
      );
      return { status: 'Accepted' };
    }) as never);
    await client.connect();
    await client.call('BootNotification', {
      reason: 'PowerUp',
      chargingStation: { model: 'RAW-201', vendorName: 'Raw Test' },
    });
    await eventually(async () => pidOf(await holderOf(V201)) === processes.C!.child.pid);

    const unlocked = await api.A('POST', `/api/charger/${V201}/unlock`, {
      token: data.admin,
      body: { connectorId: 1 },
    });
    expect(unlocked.body).toEqual({ status: 'Unlocked' });
    const changed = await api.B('PATCH', `/api/charger/${V201}/configuration`, {
      token: data.admin,
      body: { key: 'HeartbeatInterval', value: '120' },
    });
    expect(changed.body).toEqual({ status: 'RebootRequired' });
    const unmapped = await api.B('PATCH', `/api/charger/${V201}/configuration`, {
      token: data.admin,
      body: { key: 'BlinkRepeat', value: '2' },
    });
    expect(unmapped.body).toMatchObject({
      status: 'NotSupported',
      detail: expect.stringContaining('BlinkRepeat'),
    });
    expect(
      (await api.A('POST', `/api/charger/${V201}/configuration/report`, { token: data.admin, body: {} }))
        .body,
    ).toEqual({
      status: 'Accepted',
    });
    // The report reached C; A reads what C stored.
    const read = await eventually(async () => {
      const body = (await api.A('GET', `/api/charger/${V201}/configuration`, { token: data.admin })).body;
      return body.variables?.length === 1 ? body : null;
    });
    expect(read.variables[0]).toMatchObject({ key: 'OCPPCommCtrlr.HeartbeatInterval', value: '60' });
    expect(asked.map((entry) => entry.action)).toEqual(['UnlockConnector', 'SetVariables', 'GetBaseReport']);
    expect(asked[0]!.params).toEqual({ evseId: 1, connectorId: 1 });
    expect(asked[1]!.params).toEqual({
      setVariableData: [
        {
          attributeValue: '120',
          component: { name: 'OCPPCommCtrlr' },
          variable: { name: 'HeartbeatInterval' },
        },
      ],
    });
    await client.close({ force: true });
  });

  it('a charger connected nowhere is offline at once ("no responders"), not after the command timeout', async () => {
    const started = performance.now();
    const response = await api.B('POST', `/api/connector/${data.connectorOf.get(OFF)![0]}/open-blocker`, {
      token: data.admin,
    });
    const elapsed = performance.now() - started;
    expect(response.status).toBe(409);
    expect(response.body.message).toBe(`Charger ${OFF} is offline.`);
    // Not the timeout path: that one waits COMMAND_TIMEOUT_MS (10 s) at least.
    expect(elapsed).toBeLessThan(COMMAND_TIMEOUT_MS);
  });
});

describe('id tags and reservations with the charger on C (issue 32 §4)', () => {
  const simulated = (id: string) =>
    simulations.flatMap((simulation) => simulation.chargers).find((charger) => charger.spec.id === id)!;
  const history = async (id: number) =>
    (await api.A('GET', `/api/booking/${id}`, { token: data.admin })).body.history as Array<{
      event: string;
      detail: { answer?: string; reason?: string } | null;
    }>;
  const answersTo = async (id: number, event: string) =>
    (await history(id)).filter((entry) => entry.event === event).map((entry) => entry.detail?.answer);

  it('the local list from A and B reaches it, with each answer the charger gives; offline at once', async () => {
    const cmd = simulated(CMD);
    const list = (via: Api, method: 'GET' | 'POST', id = CMD) =>
      via(method, `/api/charger/${id}/local-list`, {
        token: data.admin,
        body: method === 'POST' ? {} : undefined,
      });
    // The members' app tags, but the one who owes (the first test left its booking Unpaid).
    const sent = await list(api.A, 'POST');
    expect([sent.status, sent.body]).toEqual([
      200,
      { status: 'Accepted', listVersion: 1, tags: data.members.length - 1, messages: 1 },
    ]);
    expect([...cmd.localList.keys()].sort()).toEqual(
      data.members
        .slice(0, -1)
        .map((member) => member.idTag.toUpperCase())
        .sort(),
    );
    expect((await list(api.B, 'GET')).body).toMatchObject({
      status: 'Accepted',
      listVersion: 1,
      sentVersion: 1,
    });
    for (const word of ['VersionMismatch', 'Failed']) {
      cmd.forcedAnswers.set('SendLocalList', word);
      expect((await list(api.B, 'POST')).body).toMatchObject({ status: word, listVersion: 1 });
    }
    cmd.forcedAnswers.clear();
    behaviours.set(CMD, 'not-supported');
    expect((await list(api.A, 'POST')).body).toMatchObject({ status: 'NotSupported', listVersion: 1 });
    expect((await list(api.B, 'GET')).body).toMatchObject({ status: 'NotSupported', listVersion: null });
    behaviours.clear();

    const started = performance.now();
    const offline = await list(api.B, 'POST', OFF);
    expect([offline.status, offline.body.message]).toEqual([409, `Charger ${OFF} is offline.`]);
    expect((await list(api.A, 'GET', OFF)).status).toBe(409);
    expect(performance.now() - started).toBeLessThan(COMMAND_TIMEOUT_MS);
  });

  it('a reservation made on A is held by the charger (ReserveNow) and taken back from B (CancelReservation)', async () => {
    const cmd = simulated(CMD);
    const member = data.members[0]!;
    const id = await reserveBooking(api.A, member, data.connectorOf.get(CMD)![1]!);
    await eventually(async () => (await answersTo(id, 'charger-reserve')).length === 1);
    expect(await answersTo(id, 'charger-reserve')).toEqual(['Accepted']);
    expect(cmd.connectorStates[1]!.reservation).toMatchObject({ id, idTag: member.idTag });
    const cancelled = await api.B('POST', `/api/member/booking/${id}/cancel`, { token: member.token });
    expect(cancelled.status, JSON.stringify(cancelled.body)).toBe(200);
    await eventually(async () => (await answersTo(id, 'charger-cancel-reservation')).length === 1);
    expect(await answersTo(id, 'charger-cancel-reservation')).toEqual(['Accepted']);
    await eventually(async () => cmd.connectorStates[1]!.reservation === null);

    // Any other answer keeps the booking; a charger nowhere connected is Offline at once.
    cmd.forcedAnswers.set('ReserveNow', 'Occupied');
    const occupied = await reserveBooking(api.B, member, data.connectorOf.get(CMD)![1]!);
    await eventually(async () => (await answersTo(occupied, 'charger-reserve')).length === 1);
    cmd.forcedAnswers.clear();
    expect(await answersTo(occupied, 'charger-reserve')).toEqual(['Occupied']);
    expect((await api.A('GET', `/api/booking/${occupied}`, { token: data.admin })).body.booking.status).toBe(
      'created',
    );
    await api.A('POST', `/api/member/booking/${occupied}/cancel`, { token: member.token });
    const away = await reserveBooking(api.C, member, data.connectorOf.get(OFF)![0]!);
    await eventually(async () => (await answersTo(away, 'charger-reserve')).length === 1);
    expect(await answersTo(away, 'charger-reserve')).toEqual(['Offline']);
    await api.C('POST', `/api/member/booking/${away}/cancel`, { token: member.token });
    expect(seen.filter((e) => e.type === 'command' && e.action === 'CancelReservation')).toHaveLength(1);
  });

  it('Send Local List All from B: Accepted from the charger on C, Offline for those connected nowhere', async () => {
    const response = await fetch(
      `${processes.B!.url}/api/charger/batch/local-list?${new URLSearchParams({ accessToken: data.admin, token: BATCH_TOKEN })}`,
    );
    expect(response.status).toBe(200);
    const updates = (await readEvents(response))
      .filter((e) => e.event === 'update')
      .map((e) => e.data as { id: string; result: string });
    // Only CMD is connected by now (on C); the others connect in the tests below.
    expect(Object.fromEntries(updates.map((u) => [u.id, u.result]))).toEqual(
      Object.fromEntries([...data.connectorOf.keys()].map((id) => [id, id === CMD ? 'Accepted' : 'Offline'])),
    );
    expect(simulated(CMD).localListVersion).toBe(2);
  });
});

describe('Hard Reset All from A over chargers on A, B and C', () => {
  it('every connected charger gets it once; one progress stream and one CSV, as in one process', async () => {
    await connect('A', FLEET.A);
    await connect('B', FLEET.B);
    await connect('C', FLEET.C);
    const connected = [CMD, ...Object.values(FLEET).flat()];
    const resetsBefore = seen.filter((e) => e.type === 'command' && e.action === 'Reset').length;
    const bootsBefore = seen.filter((e) => e.type === 'booted').length;

    const response = await fetch(
      `${processes.A!.url}/api/charger/batch/hard-reset?${new URLSearchParams({ accessToken: data.admin, token: BATCH_TOKEN })}`,
    );
    expect(response.status).toBe(200);
    const events = await readEvents(response);
    const total = events.find((e) => e.event === 'size')?.data as number;
    const updates = events
      .filter((e) => e.event === 'update')
      .map((e) => e.data as { id: string; result: string });
    expect(total).toBe(data.connectorOf.size);
    expect(updates).toHaveLength(total);
    expect(new Set(updates.map((u) => u.id)).size).toBe(total);
    const resultOf = new Map(updates.map((u) => [u.id, u.result]));
    // Progress of the chargers held by B and C reached A's stream.
    for (const id of connected) expect(resultOf.get(id), id).toBe('Accepted');
    for (const id of data.connectorOf.keys())
      if (!connected.includes(id)) expect(resultOf.get(id), id).toBe('Offline');
    expect(events.some((e) => e.event === 'error')).toBe(false);

    // Each charger was reset exactly once.
    const resets = seen.filter((e) => e.type === 'command' && e.action === 'Reset').slice(resetsBefore);
    expect(resets.map((e) => (e as { id: string }).id).sort()).toEqual([...connected].sort());

    // The job, its counts and its CSV, read from the other processes.
    const jobId = (events.find((e) => e.event === 'job')!.data as { id: number }).id;
    const jobs = (await api.B('GET', '/api/charger/batch/jobs', { token: data.admin })).body.jobs;
    expect(jobs[0]).toMatchObject({ id: jobId, status: 'finished', total, done: total });
    expect(jobs[0].counts).toMatchObject({ Accepted: connected.length, Offline: total - connected.length });
    const csv = await api.C('GET', `/api/charger/batch/jobs/${jobId}/csv`, { token: data.admin });
    expect(csv.status).toBe(200);
    const lines = (csv.body as string).trim().split('\r\n');
    expect(lines).toHaveLength(total + 1);
    expect(lines.find((line) => line.startsWith('FLEET-C2,'))).toMatch(/^FLEET-C2,Accepted,/);
    // The reset chargers are back (each reconnects through the balancer to its process).
    await eventually(
      async () => seen.filter((e) => e.type === 'booted').length >= bootsBefore + connected.length,
    );
  });
});

describe('live screens', () => {
  it('a staff user on A sees a status change of a charger on C within two seconds', async () => {
    const charger = simulations.flatMap((s) => s.chargers).find((c) => c.spec.id === 'FLEET-C1')!;
    await eventually(
      async () => charger.connected && pidOf(await holderOf('FLEET-C1')) === processes.C!.child.pid,
    );
    const statusOnA = async () => {
      const detail = await api.A('GET', '/api/charger/FLEET-C1', { token: data.admin });
      return (detail.body.charger.connectors as Array<{ status: string }>)[0]!.status;
    };
    expect(await statusOnA()).toBe('AVAILABLE');
    await charger.setStatus(1, 'Preparing');
    // From the charger's answered StatusNotification to A's screen: the store's flush (200 ms) and a read.
    await eventually(async () => (await statusOnA()) === 'PREPARING', 2000);
    await charger.setStatus(1, 'Available');
  });
});

describe('one charger, one socket', () => {
  it('a charger connecting to B while its socket on A lingers: B wins, A closes, commands reach B', async () => {
    const socketTo = (where: 'A' | 'B', answers: string[], closes: number[]) => {
      const client = new RPCClient({
        endpoint: `${processes[where]!.url.replace(/^http/, 'ws')}/ocpp`,
        identity: DUP,
        protocols: ['ocpp1.6'],
        reconnect: false,
      } as never);
      client.handle('DataTransfer', async () => {
        answers.push(where);
        return { status: 'Accepted' };
      });
      client.on('close', (event) => closes.push((event as { code: number }).code));
      bareClients.push(client);
      return client;
    };
    const answers: string[] = [];
    const closesA: number[] = [];
    const closesB: number[] = [];
    const onA = socketTo('A', answers, closesA);
    await onA.connect();
    await onA.call('BootNotification', { chargePointVendor: 'Test', chargePointModel: 'Dup' });
    await eventually(async () => pidOf(await holderOf(DUP)) === processes.A!.child.pid);

    const onB = socketTo('B', answers, closesB);
    await onB.connect();
    await onB.call('BootNotification', { chargePointVendor: 'Test', chargePointModel: 'Dup' });
    await eventually(async () => closesA.length > 0);
    expect(closesA).toEqual([1000]);
    expect(closesB).toEqual([]);
    await eventually(async () => pidOf(await holderOf(DUP)) === processes.B!.child.pid);

    const opened = await api.C('POST', `/api/connector/${data.connectorOf.get(DUP)![0]}/open-blocker`, {
      token: data.admin,
    });
    expect(opened.status, JSON.stringify(opened.body)).toBe(200);
    expect(answers).toEqual(['B']);
  });
});

describe('sessions', () => {
  it("a sign-out on B ends the session on A at once, not after A's two-second session cache", async () => {
    const self = () => api.A('GET', '/api/user/self', { token: data.spare });
    expect((await self()).status).toBe(200); // A has the session in its cache now
    const cachedAt = performance.now();
    expect((await api.B('POST', '/api/auth/logout', { token: data.spare })).status).toBe(200);
    await eventually(async () => (await self()).status === 401, 1000);
    // Still within A's cache window (SESSION_CACHE_MS, 2 s): only B's word through NATS can have told A.
    expect(performance.now() - cachedAt).toBeLessThan(2000);
  });
});

describe('NATS restarted', () => {
  it('the processes reconnect by themselves and commands work again', async () => {
    const blocker = () =>
      api.A('POST', `/api/connector/${data.connectorOf.get(CMD)![1]}/close-blocker`, { token: data.admin });
    expect((await blocker()).status).toBe(200);
    expect(await brokerOnA()).toBe(1);
    await nats.stop();
    await eventually(async () => (await brokerOnA()) === 0);
    // Meanwhile the processes live on: their own chargers and the API still answer.
    const during = await blocker();
    expect(during.status).toBe(502);
    for (const server of Object.values(processes))
      expect((await fetch(`${server!.url}/api/health`)).status).toBe(200);
    await nats.start();
    await eventually(async () => (await blocker()).status === 200, 20_000);
    expect(await brokerOnA()).toBe(1);
  }, 60_000);
});

/**
 * The kill -9 script: four members charge on chargers spread over A, B and C, each reading acknowledged;
 * `midway` runs after the first two readings (the cluster kills B there); then two more readings, the stop,
 * the unplug and the payment. What is left is each booking as the API shows it, for comparison.
 */
async function chargingScript(
  apis: { member: Api; staff: Api; pay: Api },
  chargers: Map<string, SimulatedCharger>,
  midway: () => Promise<void>,
) {
  const ids: number[] = [];
  for (const [i, chargerId] of KILL_IDS.entries()) {
    ids.push(
      await startSession(apis.member, data.members[i]!, data.connectorOf.get(chargerId)![0]!, apis.staff),
    );
  }
  const status = (id: number, wanted: string) =>
    eventually(async () => {
      const detail = await bookingOn(apis.staff, id);
      return detail.booking?.status === wanted ? detail : null;
    }, 20_000);
  for (const id of ids) await status(id, 'charging');
  for (const chargerId of KILL_IDS) {
    for (let n = 0; n < 2; n++) await chargers.get(chargerId)!.sendMeterValue(1, { addWh: WH_PER_READING });
  }
  await midway();
  for (const chargerId of KILL_IDS) {
    const charger = chargers.get(chargerId)!;
    for (let n = 0; n < 2; n++) await charger.sendMeterValue(1, { addWh: WH_PER_READING });
    await charger.stopCharging(1, 'Local');
    await charger.unplug(1);
  }
  const summaries = [];
  for (const [i, id] of ids.entries()) {
    const stopped = await status(id, 'stopped');
    const paid = await apis.pay('POST', `/api/member/booking/${id}/pay`, {
      token: data.members[i]!.token,
      body: { method: 'credit', amount: stopped.booking.totalAmount },
    });
    expect(paid.status, JSON.stringify(paid.body)).toBe(200);
    const detail = await status(id, 'paid');
    const payments = await apis.staff('GET', `/api/payment?bookingId=${id}`, { token: data.admin });
    summaries.push({
      charger: KILL_IDS[i],
      status: detail.booking.status,
      totalEnergyKwh: detail.booking.totalEnergyKwh,
      priceByPower: detail.booking.priceByPower,
      priceByDuration: detail.booking.priceByDuration,
      priceByPenalty: detail.booking.priceByPenalty,
      totalAmount: detail.booking.totalAmount,
      payments: (payments.body.payments as Array<{ amount: number; method: string }>).map((p) => ({
        amount: p.amount,
        method: p.method,
      })),
      events: (detail.history as Array<{ event: string; toStatus: string }>).map(
        (e) => `${e.event}:${e.toStatus}`,
      ),
    });
  }
  return summaries;
}

describe('a process killed during sessions', () => {
  it('its chargers reconnect to A or C; every session finishes and is priced once, as in one process', async () => {
    // The same script on one process first (no NATS), on a database of its own with the same records.
    const alone = await startTestApp();
    let expected: Awaited<ReturnType<typeof chargingScript>>;
    try {
      const single = await createData(alone);
      const simulation = await simulateChargers(
        KILL_IDS.map((id) => ({ id, connectors: 1 })),
        { url: alone.url.replace(/^http/, 'ws'), rebootMs: 100 },
      );
      const call = callsTo(alone.url);
      const saved = data;
      data = single;
      try {
        expected = await chargingScript(
          { member: call, staff: call, pay: call },
          new Map(simulation.chargers.map((c) => [c.spec.id, c])),
          async () => undefined,
        );
      } finally {
        data = saved;
        await simulation.stop();
      }
    } finally {
      await alone.close();
    }

    const chargers = new Map<string, SimulatedCharger>();
    for (const where of ['A', 'B', 'C'] as const) {
      const here = KILL_IDS.filter((id) => KILL[id as keyof typeof KILL] === where);
      for (const charger of await connect(where, here)) chargers.set(charger.spec.id, charger);
    }
    const [lost] = await connect('B', [LOST]);
    for (const id of KILL_IDS) balancer.placement.delete(id);
    balancer.placement.delete(LOST);

    const actual = await chargingScript({ member: api.A, staff: api.C, pay: api.C }, chargers, async () => {
      await killServer(processes.B);
      // The chargers of B see their sockets drop and connect again, through the balancer, to A or C.
      const orphans = KILL_IDS.filter((id) => KILL[id as keyof typeof KILL] === 'B');
      for (const id of orphans) {
        const charger = chargers.get(id)!;
        await eventually(async () => !charger.connected);
        await charger.start();
        // The database names the new holder once its flush ran (B's name stays until then).
        const holder = await eventually(async () => {
          const node = await holderOf(id);
          return node && pidOf(node) !== processes.B!.child.pid ? node : null;
        });
        expect([processes.A!.child.pid, processes.C!.child.pid]).toContain(pidOf(holder));
      }
      await eventually(async () => !lost!.connected);
    });
    expect(actual).toEqual(expected!);
    for (const summary of actual) {
      expect(summary.totalEnergyKwh).toBe((4 * WH_PER_READING) / 1000);
      expect(summary.payments).toHaveLength(1);
    }

    // LOST-1 never came back: the others mark it offline once its heartbeat is overdue (twice the interval).
    const detail = await eventually(async () => {
      const response = await api.A('GET', `/api/charger/${LOST}`, { token: data.admin });
      const { charger } = response.body;
      return charger.online === false &&
        (charger.connectors as Array<{ status: string }>).every((c) => c.status === 'UNAVAILABLE')
        ? charger
        : null;
    }, 20_000);
    expect(detail.online).toBe(false);
  }, 120_000);
});

describe('a stop while NATS is away', () => {
  it('still ends within the 10-second bound, exit code 0', async () => {
    const late = await startServerProcess(await freePort(), {
      DATABASE_URL: scratch.url,
      NATS_URL: nats.url,
      DATA_DIR: work,
    });
    try {
      await nats.stop();
      late.child.kill('SIGTERM');
      expect(await exitWithin(late, 10_000)).toEqual({ code: 0, signal: null });
    } finally {
      await killServer(late);
      await nats.start();
    }
  }, 30_000);
});
