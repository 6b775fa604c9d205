import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memberTag } from '../../src/modules/member/member.service.ts';
import { clearChargingProfile, setChargingProfile } from '../../src/ocpp/commands.ts';
import type { RPCClient as RPCClientClass } from '../../src/ocpp/rpc.ts';
import { requestsOf, testBytes, uploadFirmware } from '../helpers/charger-files.ts';
import { signedInUser } from '../helpers/factories.ts';
import {
  chargerPlace,
  createChargers,
  eventually,
  readEvents,
  rpcClient,
  rpcClient201,
} from '../helpers/ocpp.ts';
import { memberWithSession } from '../helpers/promotions.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';

// Issue 33: every command staff (and the server) send, against a raw OCPP 2.0.1 charger (a bare ocpp-rpc
// client in strict mode: each frame it receives and each it sends is checked against the official 2.0.1
// schemas), each answer shown to staff as for 1.6. Then a mixed fleet's Hard Reset All and Config All.

const BATCH_TOKEN = 'batch-token-for-201-tests';
const HOUR = 3_600_000;
let t: TestApp;
let admin: string;
let place: Awaited<ReturnType<typeof chargerPlace>>;
let connectorIds: number[];
type RPCClient = InstanceType<typeof RPCClientClass>;
const clients: RPCClient[] = [];

type Params = Record<string, unknown>;
type Answer = (params: Params) => unknown;
interface Raw {
  client: RPCClient;
  asked: Array<{ action: string; params: Params }>;
  /** The charger's answers by action; change them per test. */
  answers: Record<string, Answer>;
  /** The frames of `action` asked since the last take, and forgets them. */
  take(action: string): Params[];
}

const ACTIONS_201 = [
  'Reset',
  'UnlockConnector',
  'ChangeAvailability',
  'TriggerMessage',
  'ClearCache',
  'SetVariables',
  'GetVariables',
  'GetBaseReport',
  'SendLocalList',
  'GetLocalListVersion',
  'ReserveNow',
  'CancelReservation',
  'UpdateFirmware',
  'GetLog',
  'SetChargingProfile',
  'ClearChargingProfile',
  'DataTransfer',
];

/** A connected raw charger that answers each action as `answers` says and records what it was asked. */
async function connectRaw(
  id: string,
  version: '2.0.1' | '1.6',
  answers: Record<string, Answer>,
  actions = ACTIONS_201,
): Promise<Raw> {
  const client = version === '2.0.1' ? rpcClient201(t, id) : rpcClient(t, id);
  clients.push(client);
  const asked: Raw['asked'] = [];
  for (const action of actions) {
    client.handle(action, (({ params }: { params: Params }) => {
      asked.push({ action, params });
      const answer = answers[action];
      if (!answer) throw Object.assign(new Error('no'), { rpcErrorCode: 'NotImplemented' });
      return answer(params);
    }) as never);
  }
  await client.connect();
  return {
    client,
    asked,
    answers,
    take(action) {
      const taken = asked.filter((entry) => entry.action === action).map((entry) => entry.params);
      for (let i = asked.length - 1; i >= 0; i--) if (asked[i]!.action === action) asked.splice(i, 1);
      return taken;
    },
  };
}

let raw: Raw;
const accepted = () => ({ status: 'Accepted' });
const post = (path: string, body: unknown = {}) =>
  t.call('POST', `/api/charger/V201-CMD/${path}`, { token: admin, body });

beforeAll(async () => {
  t = await startTestApp({ OCPP_COMMAND_TIMEOUT_MS: '2000', BATCH_COMMAND_TOKEN: BATCH_TOKEN });
  t.config.appUrl = t.url;
  admin = (await signedInUser(t, { role: 'admin' })).token;
  place = await chargerPlace(t);
  [{ connectorIds }] = (await createChargers(t, admin, place, ['V201-CMD'], {
    connectors: 2,
    judjodId: 7,
    ocppProtocol: '2.0.1',
  })) as [{ id: string; connectorIds: number[] }];
  raw = await connectRaw('V201-CMD', '2.0.1', {
    Reset: ({ type }) => ({ status: type === 'OnIdle' ? 'Scheduled' : 'Accepted' }),
    UnlockConnector: () => ({ status: 'Unlocked' }),
    ChangeAvailability: accepted,
    TriggerMessage: accepted,
    ClearCache: accepted,
    ReserveNow: accepted,
    CancelReservation: accepted,
    SetChargingProfile: accepted,
    ClearChargingProfile: accepted,
    DataTransfer: accepted,
  });
  await raw.client.call('BootNotification', {
    reason: 'PowerUp',
    chargingStation: { model: 'RAW-201', vendorName: 'Raw Test', firmwareVersion: '1.0.0' },
  });
  for (const evseId of [1, 2]) {
    await raw.client.call('StatusNotification', {
      timestamp: new Date().toISOString(),
      connectorStatus: 'Available',
      evseId,
      connectorId: 1,
    });
  }
});
afterAll(async () => {
  for (const client of clients) await client.close({ force: true }).catch(() => undefined);
  await t.close();
});

describe('staff operations on a 2.0.1 charger', () => {
  it('unlock, reset (both types), availability (charger and connector), trigger, clear cache', async () => {
    expect((await post('unlock', { connectorId: 2 })).body).toEqual({ status: 'Unlocked' });
    expect(raw.take('UnlockConnector')).toEqual([{ evseId: 2, connectorId: 1 }]);
    expect((await post('reset', { type: 'Soft' })).body).toEqual({ status: 'Scheduled' });
    expect((await post('reset', { type: 'Hard' })).body).toEqual({ status: 'Accepted' });
    expect(raw.take('Reset')).toEqual([{ type: 'OnIdle' }, { type: 'Immediate' }]);
    expect((await post('availability', { connectorId: 0, type: 'Inoperative' })).body).toEqual({
      status: 'Accepted',
    });
    expect((await post('availability', { connectorId: 1, type: 'Operative' })).body).toEqual({
      status: 'Accepted',
    });
    expect(raw.take('ChangeAvailability')).toEqual([
      { operationalStatus: 'Inoperative' },
      { operationalStatus: 'Operative', evse: { id: 1 } },
    ]);
    raw.answers.TriggerMessage = ({ requestedMessage }) => ({
      status: requestedMessage === 'MeterValues' ? 'Rejected' : 'Accepted',
    });
    expect((await post('trigger', { requestedMessage: 'DiagnosticsStatusNotification' })).body).toEqual({
      status: 'Accepted',
    });
    expect((await post('trigger', { requestedMessage: 'MeterValues', connectorId: 1 })).body).toEqual({
      status: 'Rejected',
    });
    expect(raw.take('TriggerMessage')).toEqual([
      { requestedMessage: 'LogStatusNotification' },
      { requestedMessage: 'MeterValues', evse: { id: 1, connectorId: 1 } },
    ]);
    expect((await post('clear-cache')).body).toEqual({ status: 'Accepted' });
    expect(raw.take('ClearCache')).toEqual([{}]);
  });

  it("the blockers' DataTransfer", async () => {
    const opened = await t.call('POST', `/api/connector/${connectorIds[0]}/open-blocker`, { token: admin });
    expect(opened.status, JSON.stringify(opened.body)).toBe(200);
    expect(opened.body).toEqual({ message: 'Send open blocker successfully!' });
    expect(raw.take('DataTransfer')).toEqual([
      {
        vendorId: 'JudJod',
        messageId: 'OpenBlocker',
        data: JSON.stringify({ judjodId: 7, connectorId: connectorIds[0] }),
      },
    ]);
    raw.answers.DataTransfer = () => ({ status: 'UnknownMessageId' });
    const closed = await t.call('POST', `/api/connector/${connectorIds[0]}/close-blocker`, { token: admin });
    expect(closed.status).toBe(502);
    raw.take('DataTransfer');
  });
});

describe('configuration: the device model', () => {
  const report = (requestId: number, seqNo: number, tbc: boolean, reportData: unknown[]) =>
    raw.client.call('NotifyReport', {
      requestId,
      generatedAt: new Date().toISOString(),
      seqNo,
      tbc,
      reportData,
    });
  const entry = (
    component: Params,
    variable: Params,
    value: string,
    mutability: string,
    dataType = 'integer',
    unit?: string,
  ) => ({
    component,
    variable,
    variableAttribute: [{ type: 'Actual', value, mutability }],
    variableCharacteristics: { dataType, supportsMonitoring: false, ...(unit ? { unit } : {}) },
  });
  const configuration = async () => {
    const response = await t.call('GET', '/api/charger/V201-CMD/configuration', { token: admin });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    return response.body;
  };

  it('nothing stored at first; asked, the report (in parts) is then the configuration', async () => {
    raw.answers.GetBaseReport = ({ requestId }) => {
      // The report follows the answer, in two parts.
      setTimeout(async () => {
        await report(requestId as number, 0, true, [
          entry({ name: 'OCPPCommCtrlr' }, { name: 'HeartbeatInterval' }, '60', 'ReadWrite', 'integer', 's'),
          entry(
            { name: 'EVSE', evse: { id: 1 } },
            { name: 'AvailabilityState' },
            'Available',
            'ReadOnly',
            'OptionList',
          ),
        ]);
        await report(requestId as number, 1, false, [
          entry({ name: 'SampledDataCtrlr' }, { name: 'TxUpdatedInterval' }, '30', 'ReadWrite'),
          entry(
            { name: 'OCPPCommCtrlr' },
            { name: 'MessageAttempts', instance: 'TransactionEvent' },
            '3',
            'ReadWrite',
          ),
        ]);
      }, 50);
      return { status: 'Accepted' };
    };
    expect(await configuration()).toEqual({
      protocol: 'ocpp2.0.1',
      configurationKey: [],
      unknownKey: [],
      variables: [],
      reportedAt: null,
    });
    // A read asks the charger nothing; the screen asks for a report when it finds none.
    expect(raw.take('GetBaseReport')).toEqual([]);
    expect((await post('configuration/report')).body).toEqual({ status: 'Accepted' });
    const [asked] = raw.take('GetBaseReport');
    expect(asked).toEqual({ requestId: expect.any(Number), reportBase: 'FullInventory' });

    const read = await eventually(async () => {
      const body = await configuration();
      return body.variables.length === 4 ? body : null;
    });
    expect(read.reportedAt).toEqual(expect.any(String));
    expect(read.variables).toEqual([
      {
        key: 'EVSE@1.AvailabilityState',
        component: 'EVSE',
        componentInstance: null,
        evseId: 1,
        evseConnectorId: null,
        variable: 'AvailabilityState',
        variableInstance: null,
        attributeType: 'Actual',
        value: 'Available',
        mutability: 'ReadOnly',
        dataType: 'OptionList',
        unit: null,
      },
      expect.objectContaining({ key: 'OCPPCommCtrlr.HeartbeatInterval', value: '60', unit: 's' }),
      expect.objectContaining({
        key: 'OCPPCommCtrlr.MessageAttempts[TransactionEvent]',
        variableInstance: 'TransactionEvent',
      }),
      expect.objectContaining({ key: 'SampledDataCtrlr.TxUpdatedInterval', mutability: 'ReadWrite' }),
    ]);
    expect(raw.take('GetBaseReport')).toEqual([]);
  });

  it('a change is SetVariables: 1.6 keys mapped, variables named directly, the answer in 1.6 words', async () => {
    const change = (key: string, value: string) =>
      t.call('PATCH', '/api/charger/V201-CMD/configuration', { token: admin, body: { key, value } });
    const results: Record<string, string> = {
      HeartbeatInterval: 'Accepted',
      MessageAttempts: 'RebootRequired',
      TxUpdatedInterval: 'UnknownVariable',
      Enabled: 'Rejected',
    };
    raw.answers.SetVariables = ({ setVariableData }) => ({
      setVariableResult: (setVariableData as Array<{ component: Params; variable: Params }>).map((data) => ({
        attributeStatus: results[data.variable.name as string] ?? 'Rejected',
        component: data.component,
        variable: data.variable,
      })),
    });
    expect((await change('HeartbeatInterval', '120')).body).toEqual({ status: 'Accepted' });
    expect((await change('TransactionMessageAttempts', '5')).body).toEqual({ status: 'RebootRequired' });
    expect((await change('SampledDataCtrlr.TxUpdatedInterval', '15')).body).toEqual({
      status: 'NotSupported',
      detail: 'UnknownVariable',
    });
    expect((await change('AuthCacheCtrlr.Enabled', 'false')).body).toEqual({ status: 'Rejected' });
    expect(raw.take('SetVariables')).toEqual([
      {
        setVariableData: [
          {
            attributeValue: '120',
            component: { name: 'OCPPCommCtrlr' },
            variable: { name: 'HeartbeatInterval' },
          },
        ],
      },
      {
        setVariableData: [
          {
            attributeValue: '5',
            component: { name: 'OCPPCommCtrlr' },
            variable: { name: 'MessageAttempts', instance: 'TransactionEvent' },
          },
        ],
      },
      {
        setVariableData: [
          {
            attributeValue: '15',
            component: { name: 'SampledDataCtrlr' },
            variable: { name: 'TxUpdatedInterval' },
          },
        ],
      },
      {
        setVariableData: [
          { attributeValue: 'false', component: { name: 'AuthCacheCtrlr' }, variable: { name: 'Enabled' } },
        ],
      },
    ]);
    // The accepted value is in the stored model at once; the one needing a reboot is not yet.
    const variables = (await configuration()).variables as Array<{ key: string; value: string }>;
    expect(variables.find((v) => v.key === 'OCPPCommCtrlr.HeartbeatInterval')?.value).toBe('120');
    expect(variables.find((v) => v.key === 'OCPPCommCtrlr.MessageAttempts[TransactionEvent]')?.value).toBe(
      '3',
    );

    // A variable of an EVSE, and one written with its instance and attribute type.
    await change('EVSE@1.AvailabilityState', 'x');
    await change('TxCtrlr[main].EVConnectionTimeOut#Target', '90');
    expect(raw.take('SetVariables')).toEqual([
      {
        setVariableData: [
          {
            attributeValue: 'x',
            component: { name: 'EVSE', evse: { id: 1 } },
            variable: { name: 'AvailabilityState' },
          },
        ],
      },
      {
        setVariableData: [
          {
            attributeType: 'Target',
            attributeValue: '90',
            component: { name: 'TxCtrlr', instance: 'main' },
            variable: { name: 'EVConnectionTimeOut' },
          },
        ],
      },
    ]);
  });

  it('a 1.6 key with no 2.0.1 counterpart is answered NotSupported naming it, and nothing is sent', async () => {
    for (const key of ['BlinkRepeat', 'SomeVendorKey']) {
      const response = await t.call('PATCH', '/api/charger/V201-CMD/configuration', {
        token: admin,
        body: { key, value: '1' },
      });
      expect(response.status).toBe(200);
      expect(response.body).toEqual({
        status: 'NotSupported',
        detail: `NotSupported: OCPP 2.0.1 has no counterpart of the key ${key} (name a variable as Component.Variable)`,
      });
    }
    expect(raw.take('SetVariables')).toEqual([]);
  });

  it('Refresh asks a new report, which replaces the stored one when complete', async () => {
    raw.answers.GetBaseReport = ({ requestId }) => {
      setTimeout(
        () =>
          void report(requestId as number, 0, false, [
            entry({ name: 'OCPPCommCtrlr' }, { name: 'HeartbeatInterval' }, '300', 'ReadWrite'),
          ]),
        50,
      );
      return { status: 'Accepted' };
    };
    const before = (await configuration()).reportedAt;
    expect((await post('configuration/report')).body).toEqual({ status: 'Accepted' });
    const after = await eventually(async () => {
      const body = await configuration();
      return body.variables.length === 1 ? body : null;
    });
    expect(after.variables[0]).toMatchObject({ key: 'OCPPCommCtrlr.HeartbeatInterval', value: '300' });
    expect(new Date(after.reportedAt).getTime()).toBeGreaterThanOrEqual(new Date(before).getTime());
    raw.take('GetBaseReport');
  });
});

describe('local list and reservations', () => {
  it('SendLocalList with its capacity read through GetVariables, and GetLocalListVersion', async () => {
    const { user } = await memberWithSession(t);
    const tag = await memberTag(t.database.db, user.id);
    raw.answers.GetVariables = ({ getVariableData }) => ({
      getVariableResult: (getVariableData as Array<{ component: Params; variable: Params }>).map((data) => ({
        attributeStatus: 'Accepted',
        attributeValue: '100',
        component: data.component,
        variable: data.variable,
      })),
    });
    raw.answers.SendLocalList = accepted;
    raw.answers.GetLocalListVersion = () => ({ versionNumber: 1 });
    const sent = await post('local-list');
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    expect(sent.body).toMatchObject({ status: 'Accepted', listVersion: 1, messages: 1 });
    // LocalAuthListMaxLength has no 2.0.1 variable GetVariables reads: only the message size is asked.
    expect(raw.take('GetVariables')).toEqual([
      {
        getVariableData: [
          { component: { name: 'LocalAuthListCtrlr' }, variable: { name: 'ItemsPerMessage' } },
        ],
      },
    ]);
    const [list] = raw.take('SendLocalList') as Array<{
      versionNumber: number;
      updateType: string;
      localAuthorizationList: Array<{ idToken: { idToken: string } }>;
    }>;
    expect(list).toMatchObject({ versionNumber: 1, updateType: 'Full' });
    expect(list!.localAuthorizationList.find((e) => e.idToken.idToken === tag)).toEqual({
      idToken: { idToken: tag, type: 'ISO14443' },
      idTokenInfo: { status: 'Accepted' },
    });
    const version = await t.call('GET', '/api/charger/V201-CMD/local-list', { token: admin });
    expect(version.body).toEqual({
      status: 'Accepted',
      listVersion: 1,
      sentVersion: 1,
      sentAt: expect.any(String),
    });
    expect(raw.take('GetLocalListVersion')).toEqual([{}]);
  });

  it('ReserveNow for a reservation for now, CancelReservation when the member cancels', async () => {
    const { user, token } = await memberWithSession(t);
    const tag = await memberTag(t.database.db, user.id);
    const start = Date.now();
    const booked = await t.call('POST', '/api/member/booking', {
      token,
      body: {
        connectorId: connectorIds[1],
        slotStart: new Date(start).toISOString(),
        slotEnd: new Date(start + HOUR).toISOString(),
      },
    });
    expect(booked.status, JSON.stringify(booked.body)).toBe(200);
    await t.app.jobs.settled();
    const booking = booked.body.booking as { id: number; slotEnd: string };
    expect(raw.take('ReserveNow')).toEqual([
      {
        id: booking.id,
        expiryDateTime: new Date(booking.slotEnd).toISOString(),
        idToken: { idToken: tag, type: 'Central' },
        evseId: 2,
      },
    ]);
    const cancelled = await t.call('POST', `/api/member/booking/${booking.id}/cancel`, { token, body: {} });
    expect(cancelled.status, JSON.stringify(cancelled.body)).toBe(200);
    await t.app.jobs.settled();
    expect(raw.take('CancelReservation')).toEqual([{ reservationId: booking.id }]);
    const history = (await t.call('GET', `/api/booking/${booking.id}`, { token: admin })).body
      .history as Array<{
      event: string;
      detail: Params | null;
    }>;
    expect(
      history.filter((e) => e.event.startsWith('charger-')).map((e) => [e.event, e.detail?.answer]),
    ).toEqual([
      ['charger-reserve', 'Accepted'],
      ['charger-cancel-reservation', 'Accepted'],
    ]);
  });
});

describe('firmware and logs', () => {
  it('UpdateFirmware with our request id; FirmwareStatusNotification steps land on that request', async () => {
    const uploaded = await uploadFirmware(t.url, admin, testBytes(2048), 'fw-2.0.1.bin');
    expect(uploaded.status).toBe(201);
    const fileId = uploaded.body.file.id as number;
    raw.answers.UpdateFirmware = accepted;
    const retrieveDate = new Date(Date.now() + 60_000).toISOString();
    const sent = await post('firmware', { fileId, retrieveDate, retries: 2, retryInterval: 30 });
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    expect(sent.body).toEqual({ status: 'Accepted' });
    const [frame] = raw.take('UpdateFirmware') as Array<{
      requestId: number;
      firmware: { location: string };
    }>;
    expect(frame).toEqual({
      requestId: expect.any(Number),
      firmware: {
        location: expect.stringMatching(/\/ocpp-files\/firmware\/[\w-]{43}\/fw-2\.0\.1\.bin$/),
        retrieveDateTime: retrieveDate,
      },
      retries: 2,
      retryInterval: 30,
    });
    const [request] = await requestsOf(t.url, admin, 'V201-CMD', 'firmware');
    expect(request!.id).toBe(frame!.requestId);
    // The charger downloads over our link, then reports each step with the request's id.
    const download = await fetch(frame!.firmware.location);
    expect(download.status).toBe(200);
    await download.arrayBuffer();
    for (const status of [
      'Downloading',
      'Downloaded',
      'SignatureVerified',
      'Installing',
      'InstallRebooting',
      'Installed',
    ])
      await raw.client.call('FirmwareStatusNotification', { status, requestId: frame!.requestId });
    const [done] = await requestsOf(t.url, admin, 'V201-CMD', 'firmware');
    expect(done).toMatchObject({ answer: 'Accepted', status: 'Installed', open: false });
    expect(done!.steps.map((step) => step.status)).toEqual([
      'Downloading',
      'Downloaded',
      'SignatureVerified',
      'Installing',
      'InstallRebooting',
      'Installed',
    ]);
    // The link was used: the charger has the file.
    expect((await fetch(frame!.firmware.location)).status).toBe(410);

    // A charger refusing it says so in its own word; the request is closed.
    raw.answers.UpdateFirmware = () => ({ status: 'InvalidCertificate' });
    expect((await post('firmware', { fileId })).body).toEqual({ status: 'InvalidCertificate' });
    raw.take('UpdateFirmware');
    const [refused] = await requestsOf(t.url, admin, 'V201-CMD', 'firmware');
    expect(refused).toMatchObject({ answer: 'InvalidCertificate', open: false });
  });

  it('GetDiagnostics is GetLog (DiagnosticsLog); the file name comes back, LogStatusNotification steps follow', async () => {
    raw.answers.GetLog = () => ({ status: 'Accepted', filename: 'diag-201.log' });
    const startTime = new Date(Date.now() - HOUR).toISOString();
    const sent = await post('diagnostics', { startTime });
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    expect(sent.body).toEqual({ status: 'Accepted', fileName: 'diag-201.log' });
    const [frame] = raw.take('GetLog') as Array<{ requestId: number; log: { remoteLocation: string } }>;
    expect(frame).toEqual({
      logType: 'DiagnosticsLog',
      requestId: expect.any(Number),
      log: {
        remoteLocation: expect.stringMatching(/\/ocpp-files\/diagnostics\/[\w-]{43}$/),
        oldestTimestamp: startTime,
      },
    });
    await raw.client.call('LogStatusNotification', { status: 'Uploading', requestId: frame!.requestId });
    const upload = await fetch(frame!.log.remoteLocation, { method: 'PUT', body: 'log line\n' });
    expect(upload.status).toBe(200);
    await raw.client.call('LogStatusNotification', { status: 'Uploaded', requestId: frame!.requestId });
    const [request] = await requestsOf(t.url, admin, 'V201-CMD', 'diagnostics');
    expect(request).toMatchObject({
      id: frame!.requestId,
      answer: 'Accepted',
      status: 'Uploaded',
      open: false,
    });
    expect(request!.steps.map((step) => step.status)).toEqual(['Uploading', 'Uploaded']);
    const files = await t.call('GET', '/api/charger/V201-CMD/file', { token: admin });
    expect(files.body.files[0]).toMatchObject({ name: 'diag-201.log' });

    // 2.0.1's own failure words end a request as 1.6's do.
    await post('diagnostics', {});
    const [again] = raw.take('GetLog') as Array<{ requestId: number }>;
    await raw.client.call('LogStatusNotification', {
      status: 'PermissionDenied',
      requestId: again!.requestId,
    });
    const [failed] = await requestsOf(t.url, admin, 'V201-CMD', 'diagnostics');
    expect(failed).toMatchObject({ status: 'PermissionDenied', open: false });
  });
});

describe('charging profiles', () => {
  it('SetChargingProfile in 1.6 shape reaches the charger as 2.0.1 chargingProfile on EVSE n', async () => {
    const outcome = await setChargingProfile(t.app.commands, 'V201-CMD', 1, {
      chargingProfileId: 11,
      stackLevel: 2,
      chargingProfilePurpose: 'TxDefaultProfile',
      chargingProfileKind: 'Absolute',
      chargingSchedule: {
        chargingRateUnit: 'W',
        chargingSchedulePeriod: [
          { startPeriod: 0, limit: 11000 },
          { startPeriod: 600, limit: 7400, numberPhases: 3 },
        ],
      },
    });
    expect(outcome).toEqual({ status: 'answered', response: { status: 'Accepted' } });
    expect(raw.take('SetChargingProfile')).toEqual([
      {
        evseId: 1,
        chargingProfile: {
          id: 11,
          stackLevel: 2,
          chargingProfilePurpose: 'TxDefaultProfile',
          chargingProfileKind: 'Absolute',
          chargingSchedule: [
            {
              id: 11,
              chargingRateUnit: 'W',
              chargingSchedulePeriod: [
                { startPeriod: 0, limit: 11000 },
                { startPeriod: 600, limit: 7400, numberPhases: 3 },
              ],
            },
          ],
        },
      },
    ]);
    expect(
      await clearChargingProfile(t.app.commands, 'V201-CMD', {
        connectorId: 1,
        chargingProfilePurpose: 'TxDefaultProfile',
      }),
    ).toEqual({ status: 'answered', response: { status: 'Accepted' } });
    expect(raw.take('ClearChargingProfile')).toEqual([
      { chargingProfileCriteria: { evseId: 1, chargingProfilePurpose: 'TxDefaultProfile' } },
    ]);
  });
});

describe('a mixed fleet', () => {
  const updates = (events: Array<{ event: string; data: unknown }>) =>
    events.filter((e) => e.event === 'update').map((e) => e.data as { id: string; result: string });
  const batch = (path: string, query: Record<string, string>) =>
    fetch(`${t.url}/api/charger/batch/${path}?${new URLSearchParams({ token: BATCH_TOKEN, ...query })}`, {
      headers: { 'x-access-token': admin },
    });
  const csvOf = async (events: Array<{ event: string; data: unknown }>) => {
    const job = events.find((e) => e.event === 'job')?.data as { id: number };
    const csv = await t.call('GET', `/api/charger/batch/jobs/${job.id}/csv`, { token: admin });
    return new Map(
      (csv.body as string)
        .trim()
        .split('\r\n')
        .slice(1)
        .map((line) => [line.split(',')[0]!, line] as const),
    );
  };
  let v16: Raw;
  let v201: Raw;

  beforeAll(async () => {
    await createChargers(t, admin, place, ['MIX-16', 'MIX-201'], { connectors: 1 });
    v16 = await connectRaw(
      'MIX-16',
      '1.6',
      {
        Reset: accepted,
        ChangeConfiguration: accepted,
      },
      ['Reset', 'ChangeConfiguration', 'GetBaseReport'],
    );
    v201 = await connectRaw('MIX-201', '2.0.1', {
      Reset: accepted,
      SetVariables: ({ setVariableData }) => ({
        setVariableResult: (setVariableData as Array<{ component: Params; variable: Params }>).map(
          (data) => ({
            attributeStatus: 'Accepted',
            component: data.component,
            variable: data.variable,
          }),
        ),
      }),
    });
    // The 2.0.1 charger of the other tests is part of the fleet too: it resets as asked.
  });

  it('Hard Reset All: each charger in its own protocol, one progress, one CSV', async () => {
    const events = await readEvents(await batch('hard-reset', {}));
    const results = new Map(updates(events).map((u) => [u.id, u.result]));
    expect(results.get('MIX-16')).toBe('Accepted');
    expect(results.get('MIX-201')).toBe('Accepted');
    expect(results.get('V201-CMD')).toBe('Accepted');
    expect(v16.take('Reset')).toEqual([{ type: 'Hard' }]);
    expect(v201.take('Reset')).toEqual([{ type: 'Immediate' }]);
    raw.take('Reset');
    const csv = await csvOf(events);
    expect(csv.get('MIX-16')).toMatch(/^MIX-16,Accepted,,/);
    expect(csv.get('MIX-201')).toMatch(/^MIX-201,Accepted,,/);
  });

  it('Config All: mapped keys set on both; a key 2.0.1 lacks is reported on the 2.0.1 row', async () => {
    const configurations = [
      { key: 'HeartbeatInterval', value: '90' },
      { key: 'BlinkRepeat', value: '3' },
    ];
    const events = await readEvents(
      await batch('config', { configurations: JSON.stringify(configurations) }),
    );
    const results = new Map(updates(events).map((u) => [u.id, u.result]));
    expect(results.get('MIX-16')).toBe('Accepted');
    expect(results.get('MIX-201')).toBe('NotSupported');
    expect(v16.take('ChangeConfiguration')).toEqual([
      { key: 'HeartbeatInterval', value: '90' },
      { key: 'BlinkRepeat', value: '3' },
    ]);
    expect(v201.take('SetVariables')).toEqual([
      {
        setVariableData: [
          {
            attributeValue: '90',
            component: { name: 'OCPPCommCtrlr' },
            variable: { name: 'HeartbeatInterval' },
          },
        ],
      },
    ]);
    raw.take('SetVariables');
    const csv = await csvOf(events);
    expect(csv.get('MIX-16')).toMatch(/^MIX-16,Accepted,HeartbeatInterval=Accepted; BlinkRepeat=Accepted,/);
    expect(csv.get('MIX-201')).toContain(
      'MIX-201,NotSupported,HeartbeatInterval=Accepted; BlinkRepeat=NotSupported: OCPP 2.0.1 has no counterpart of the key BlinkRepeat',
    );
  });

  it('GetBaseReport is 2.0.1 only: a 1.6 charger is answered NotSupported without a frame', async () => {
    const response = await t.call('POST', '/api/charger/MIX-16/configuration/report', {
      token: admin,
      body: {},
    });
    expect(response.body).toEqual({
      status: 'NotSupported',
      detail: 'GetBaseReport is an OCPP 2.0.1 command; this charger speaks OCPP 1.6',
    });
    expect(v16.take('GetBaseReport')).toEqual([]);
  });
});
