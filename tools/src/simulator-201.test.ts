import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { RPCServer } from '@ev/server/ocpp/rpc';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  type AnySimulatedCharger,
  SimulatedCharger,
  SimulatedCharger201,
  type SimulatedChargerSpec,
  type SimulatorClock,
  type SimulatorOptions,
  simulateChargers,
} from './simulator.ts';
import { mixProtocols } from './simulator-fleet.ts';

/**
 * The simulated OCPP 2.0.1 charger against a bare ocpp-rpc server offering both protocols in strict mode: every
 * frame either way is checked against the official schemas of the protocol chosen (a frame that breaks them
 * fails the call, and the test). The same script on a 1.6 and a 2.0.1 charger delivers the same energy.
 */
interface Received {
  chargerId: string;
  protocol: string;
  action: string;
  params: Record<string, unknown>;
}
interface ServerSide {
  identity: string;
  protocol: string;
  call(action: string, params: unknown): Promise<Record<string, unknown>>;
}
let server: InstanceType<typeof RPCServer>;
let url = '';
const received: Received[] = [];
const clients = new Map<string, ServerSide>();
let nextTransaction = 1;

const from = (chargerId: string, action?: string) =>
  received.filter((r) => r.chargerId === chargerId && (!action || r.action === action));

beforeAll(async () => {
  server = new RPCServer({ protocols: ['ocpp2.0.1', 'ocpp1.6'], strictMode: true });
  server.on('client', (client: unknown) => {
    const c = client as ServerSide & {
      handle(handler: (call: { method: string; params: Record<string, unknown> }) => unknown): void;
    };
    clients.set(c.identity, c);
    c.handle(async ({ method, params }) => {
      received.push({ chargerId: c.identity, protocol: c.protocol, action: method, params });
      const now = new Date().toISOString();
      const v201 = c.protocol === 'ocpp2.0.1';
      switch (method) {
        case 'BootNotification':
          return { status: 'Accepted', currentTime: now, interval: 3600 };
        case 'Heartbeat':
          return { currentTime: now };
        case 'Authorize': {
          const tag = v201 ? (params.idToken as { idToken: string }).idToken : (params.idTag as string);
          const status = tag === 'NOBODY' ? 'Invalid' : 'Accepted';
          return v201 ? { idTokenInfo: { status } } : { idTagInfo: { status } };
        }
        case 'TransactionEvent': {
          const tag = (params.idToken as { idToken?: string } | undefined)?.idToken;
          return params.eventType === 'Started' && tag === 'BUSY'
            ? { idTokenInfo: { status: 'ConcurrentTx' } }
            : {};
        }
        case 'StartTransaction':
          return { transactionId: nextTransaction++, idTagInfo: { status: 'Accepted' } };
        case 'StopTransaction':
          return { idTagInfo: { status: 'Accepted' } };
        default:
          return {};
      }
    });
  });
  const http = await server.listen(0, '127.0.0.1');
  url = `ws://127.0.0.1:${(http.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await server?.close({ code: 1001, force: true });
});

const chargers: AnySimulatedCharger[] = [];
afterEach(async () => {
  await Promise.all(chargers.splice(0).map((charger) => charger.stop()));
  received.length = 0;
});

function testClock() {
  let now = Date.UTC(2027, 0, 20, 3, 0, 0);
  const clock: SimulatorClock = {
    now: () => now,
    sleep: async (ms) => {
      now += ms;
    },
  };
  return {
    clock,
    pass: (ms: number) => {
      now += ms;
    },
  };
}

async function connect201(spec: SimulatedChargerSpec, options: Partial<SimulatorOptions> = {}) {
  const charger = new SimulatedCharger201(spec, { url, rebootMs: 50, ...options });
  chargers.push(charger);
  await charger.start();
  return charger;
}

async function eventually<T>(probe: () => T | undefined | false | null, timeoutMs = 5000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

type Sample = { value: number; measurand?: string; context?: string; unitOfMeasure?: { unit: string } };
const samplesOf = (event: Received) =>
  ((event.params.meterValue as Array<{ sampledValue: Sample[] }> | undefined) ?? []).flatMap(
    (m) => m.sampledValue,
  );
const energyOf = (event: Received) =>
  samplesOf(event).find((s) => s.measurand === 'Energy.Active.Import.Register')?.value;

describe('a simulated OCPP 2.0.1 charger', () => {
  it('offers ocpp2.0.1 only, boots as a 2.0.1 station and reports each EVSE with connector 1', async () => {
    const charger = await connect201({ id: 'S201-BOOT', connectors: 2 });
    expect(clients.get('S201-BOOT')?.protocol).toBe('ocpp2.0.1');
    const [boot] = from('S201-BOOT', 'BootNotification');
    expect(boot?.params).toEqual({
      reason: 'PowerUp',
      chargingStation: {
        vendorName: 'EV Simulator',
        model: 'SIM201-2C',
        serialNumber: 'SN-S201-BOOT',
        firmwareVersion: charger.firmwareVersion,
      },
    });
    expect(from('S201-BOOT', 'StatusNotification').map((r) => r.params)).toEqual([
      { timestamp: expect.any(String), connectorStatus: 'Available', evseId: 1, connectorId: 1 },
      { timestamp: expect.any(String), connectorStatus: 'Available', evseId: 2, connectorId: 1 },
    ]);
    expect(charger.model.value('OCPPCommCtrlr', 'HeartbeatInterval')).toBe('3600');
  });

  it('runs a session as TransactionEvent Started / Updated / Ended, seqNo in order, the register and SoC in Wh and %', async () => {
    const time = testClock();
    const charger = await connect201(
      { id: 'S201-TX', connectors: 1, maxPowerKw: [150] },
      { clock: time.clock, random: () => 1 },
    );
    charger.plugIn(1, { batteryKwh: 60, soc: 70 });
    await charger.setStatus(1, 'Preparing');
    const transactionId = await charger.startCharging(1, 'CARD-1');
    expect(transactionId).toMatch(/^[0-9a-f-]{36}$/);
    for (let minute = 0; minute < 3; minute++) {
      time.pass(60_000);
      await charger.sendMeterValue(1);
    }
    await charger.fill(1);
    await charger.stopCharging(1, 'Local');
    await charger.unplug(1);

    const events = from('S201-TX', 'TransactionEvent');
    expect(events.map((e) => [e.params.eventType, e.params.triggerReason, e.params.seqNo])).toEqual([
      ['Started', 'Authorized', 0],
      ['Updated', 'MeterValuePeriodic', 1],
      ['Updated', 'MeterValuePeriodic', 2],
      ['Updated', 'MeterValuePeriodic', 3],
      ['Updated', 'MeterValuePeriodic', 4],
      ['Updated', 'ChargingStateChanged', 5],
      ['Ended', 'StopAuthorized', 6],
    ]);
    for (const event of events) {
      expect(event.params.evse).toEqual({ id: 1, connectorId: 1 });
      expect((event.params.transactionInfo as { transactionId: string }).transactionId).toBe(transactionId);
    }
    const [started] = events;
    expect(started!.params).toMatchObject({
      idToken: { idToken: 'CARD-1', type: 'ISO14443' },
      transactionInfo: { chargingState: 'Charging' },
    });
    expect(samplesOf(started!)).toEqual([
      {
        value: 1_000_000,
        context: 'Transaction.Begin',
        measurand: 'Energy.Active.Import.Register',
        unitOfMeasure: { unit: 'Wh' },
      },
    ]);
    // A minute at 95 % of 150 kW, then the SoC rising with the energy.
    expect(energyOf(events[1]!)! - 1_000_000).toBeCloseTo(150 * 0.95 * (1000 / 60), -1);
    const soc = samplesOf(events[1]!).find((s) => s.measurand === 'SoC');
    expect(soc).toEqual({
      value: 73,
      context: 'Sample.Periodic',
      measurand: 'SoC',
      unitOfMeasure: { unit: 'Percent' },
    });
    expect(samplesOf(events[4]!).find((s) => s.measurand === 'SoC')?.value).toBe(100);
    expect(events[5]!.params.transactionInfo).toMatchObject({ chargingState: 'SuspendedEV' });
    // The end: the register as last read, the cable still in (EVConnected) until unplugged.
    expect(events[6]!.params.transactionInfo).toMatchObject({
      stoppedReason: 'Local',
      chargingState: 'EVConnected',
    });
    expect(energyOf(events[6]!)).toBe(energyOf(events[4]!));
    expect(samplesOf(events[6]!)[0]?.context).toBe('Transaction.End');
    expect(from('S201-TX', 'StatusNotification').map((r) => r.params.connectorStatus)).toEqual([
      'Available',
      'Occupied',
      'Available',
    ]);
    // Outside a transaction a reading is a MeterValues.
    await charger.sendMeterValue(1, { addWh: 0 });
    expect(from('S201-TX', 'MeterValues').at(-1)?.params).toMatchObject({ evseId: 1 });
  });

  it('delivers exactly what its 1.6 twin delivers on the same script, clock and draws', async () => {
    const script = async (charger: AnySimulatedCharger, pass: (ms: number) => void) => {
      charger.plugIn(1, { batteryKwh: 40, soc: 60 });
      await charger.setStatus(1, 'Preparing');
      await charger.startCharging(1, 'TWIN');
      for (const ms of [1_000, 30_000, 60_000, 600_000, 20, 0, 900_000, 45_000]) {
        pass(ms);
        await charger.sendMeterValue(1);
      }
      await charger.setStatus(1, 'SuspendedEV');
      pass(300_000);
      await charger.sendMeterValue(1);
      await charger.setStatus(1, 'Charging');
      pass(120_000);
      await charger.sendMeterValue(1, { addWh: 250 });
      pass(60_000);
      await charger.sendMeterValue(1);
      await charger.stopCharging(1, 'EVDisconnected');
      return charger.connectorStates[0]!.meterWh;
    };
    const spec = { connectors: 1, maxPowerKw: [50], powerType: 'DC' as const };
    const t16 = testClock();
    const v16 = new SimulatedCharger(
      { id: 'TWIN-16', ...spec },
      { url, clock: t16.clock, random: () => 0.3 },
    );
    const t201 = testClock();
    const v201 = await connect201({ id: 'TWIN-201', ...spec }, { clock: t201.clock, random: () => 0.3 });
    chargers.push(v16);
    await v16.start();
    const [wh16, wh201] = [await script(v16, t16.pass), await script(v201, t201.pass)];
    expect(wh201).toBe(wh16);
    expect(wh16 - 1_000_000).toBeGreaterThan(10_000);
    // The readings agree one by one: 1.6's MeterValues against 2.0.1's TransactionEvent Updated.
    const readings16 = from('TWIN-16', 'MeterValues').map((r) =>
      Number(
        (
          r.params.meterValue as Array<{ sampledValue: Array<{ value: string; measurand: string }> }>
        )[0]!.sampledValue.find((s) => s.measurand === 'Energy.Active.Import.Register')!.value,
      ),
    );
    const readings201 = from('TWIN-201', 'TransactionEvent')
      .filter((e) => e.params.triggerReason === 'MeterValuePeriodic')
      .map((e) => energyOf(e));
    expect(readings201).toEqual(readings16);
    const stop16 = from('TWIN-16', 'StopTransaction')[0]!.params;
    const ended = from('TWIN-201', 'TransactionEvent').at(-1)!;
    expect(energyOf(ended)).toBe(stop16.meterStop);
    // 1.6's EVDisconnected here leaves the cable in (Finishing): over 2.0.1 the EV stopped; the cable is out at
    // the Available of `unplug`, as for the 1.6 twin.
    expect(ended.params).toMatchObject({
      triggerReason: 'ChargingStateChanged',
      transactionInfo: { stoppedReason: 'StoppedByEV', chargingState: 'EVConnected' },
    });
  });

  it('ends a transaction the Started answer refused (StopTxOnInvalidId), and skips a refused walk-in', async () => {
    const charger = await connect201({ id: 'S201-REFUSED', connectors: 1 });
    await charger.setStatus(1, 'Preparing');
    await charger.startCharging(1, 'BUSY');
    const events = from('S201-REFUSED', 'TransactionEvent');
    expect(events.map((e) => [e.params.eventType, e.params.triggerReason])).toEqual([
      ['Started', 'Authorized'],
      ['Ended', 'Deauthorized'],
    ]);
    expect(events[1]!.params.transactionInfo).toMatchObject({ stoppedReason: 'DeAuthorized' });
    expect(charger.connectorStates[0]!.transactionId).toBeNull();
  });

  it('starts and stops on request: remoteStartId and the idToken type carried into Started; RemoteStop', async () => {
    const charger = await connect201({ id: 'S201-REMOTE', connectors: 2 });
    const side = clients.get('S201-REMOTE')!;
    expect(
      await side.call('RequestStartTransaction', {
        evseId: 2,
        remoteStartId: 4711,
        idToken: { idToken: 'APP0123456789ABCDEF', type: 'Central' },
      }),
    ).toEqual({ status: 'Accepted' });
    const started = await eventually(() => from('S201-REMOTE', 'TransactionEvent')[0]);
    expect(started.params).toMatchObject({
      eventType: 'Started',
      triggerReason: 'RemoteStart',
      seqNo: 0,
      evse: { id: 2, connectorId: 1 },
      idToken: { idToken: 'APP0123456789ABCDEF', type: 'Central' },
      transactionInfo: { remoteStartId: 4711, chargingState: 'Charging' },
    });
    // AuthorizeRemoteStart is false: no Authorize.
    expect(from('S201-REMOTE', 'Authorize')).toEqual([]);
    const transactionId = (started.params.transactionInfo as { transactionId: string }).transactionId;
    await eventually(() => charger.connectorStates[1]!.status === 'Charging');
    expect(
      await side.call('RequestStartTransaction', {
        evseId: 2,
        remoteStartId: 1,
        idToken: started.params.idToken,
      }),
    ).toEqual({
      status: 'Rejected',
    });
    expect(await side.call('RequestStopTransaction', { transactionId: 'not-ours' })).toEqual({
      status: 'Rejected',
    });
    expect(await side.call('RequestStopTransaction', { transactionId })).toEqual({ status: 'Accepted' });
    const ended = await eventually(() =>
      from('S201-REMOTE', 'TransactionEvent').find((e) => e.params.eventType === 'Ended'),
    );
    expect(ended.params).toMatchObject({
      triggerReason: 'RemoteStop',
      seqNo: 1,
      transactionInfo: { transactionId, stoppedReason: 'Remote' },
    });
  });

  it('reads and writes its device model: GetVariables, SetVariables, GetBaseReport in parts', async () => {
    const charger = await connect201({ id: 'S201-MODEL', connectors: 2, maxPowerKw: [22, 22] });
    const side = clients.get('S201-MODEL')!;
    const ref = (component: string, variable: string, more: Record<string, unknown> = {}) => ({
      component: { name: component },
      variable: { name: variable },
      ...more,
    });
    const set = await side.call('SetVariables', {
      setVariableData: [
        { ...ref('SampledDataCtrlr', 'TxUpdatedInterval'), attributeValue: '30' },
        { ...ref('OCPPCommCtrlr', 'HeartbeatInterval'), attributeValue: 'soon' },
        { ...ref('TxCtrlr', 'TxStartPoint'), attributeValue: 'EVConnected' },
        { ...ref('NoSuchCtrlr', 'Enabled'), attributeValue: 'true' },
        { ...ref('AuthCtrlr', 'NoSuchVariable'), attributeValue: 'true' },
        { ...ref('SecurityCtrlr', 'BasicAuthPassword'), attributeValue: 'a-new-password-0123456789' },
        { ...ref('AuthCtrlr', 'AuthorizeRemoteStart'), attributeValue: 'true', attributeType: 'Target' },
      ],
    });
    expect(
      (set.setVariableResult as Array<{ attributeStatus: string }>).map((r) => r.attributeStatus),
    ).toEqual([
      'Accepted',
      'Rejected',
      'Rejected',
      'UnknownComponent',
      'UnknownVariable',
      'RebootRequired',
      'NotSupportedAttributeType',
    ]);
    const got = await side.call('GetVariables', {
      getVariableData: [
        ref('SampledDataCtrlr', 'TxUpdatedInterval'),
        ref('OCPPCommCtrlr', 'HeartbeatInterval'),
        ref('SecurityCtrlr', 'BasicAuthPassword'),
        ref('OCPPCommCtrlr', 'MessageAttempts'),
        {
          component: { name: 'OCPPCommCtrlr' },
          variable: { name: 'MessageAttempts', instance: 'TransactionEvent' },
        },
        { component: { name: 'EVSE', evse: { id: 2 } }, variable: { name: 'AvailabilityState' } },
        { component: { name: 'EVSE', evse: { id: 3 } }, variable: { name: 'AvailabilityState' } },
      ],
    });
    expect(
      (got.getVariableResult as Array<{ attributeStatus: string; attributeValue?: string }>).map((r) => [
        r.attributeStatus,
        r.attributeValue,
      ]),
    ).toEqual([
      ['Accepted', '30'],
      ['Accepted', '3600'],
      ['Rejected', undefined],
      ['UnknownVariable', undefined],
      ['Accepted', '3'],
      ['Accepted', 'Available'],
      ['UnknownComponent', undefined],
    ]);

    expect(await side.call('GetBaseReport', { requestId: 9, reportBase: 'FullInventory' })).toEqual({
      status: 'Accepted',
    });
    const total = charger.model.report('FullInventory').length;
    const parts = Math.ceil(total / 10);
    const reports = await eventually(() => {
      const all = from('S201-MODEL', 'NotifyReport');
      return all.length === parts ? all : null;
    });
    expect(reports.map((r) => [r.params.requestId, r.params.seqNo, r.params.tbc])).toEqual(
      Array.from({ length: parts }, (_, i) => [9, i, i < parts - 1]),
    );
    const data = reports.flatMap((r) => r.params.reportData as Array<Record<string, unknown>>);
    expect(data).toHaveLength(total);
    expect(data).toContainEqual({
      component: { name: 'SampledDataCtrlr' },
      variable: { name: 'TxUpdatedInterval' },
      variableAttribute: [{ type: 'Actual', mutability: 'ReadWrite', value: '30' }],
      variableCharacteristics: { dataType: 'integer', supportsMonitoring: false, unit: 's' },
    });
    // A write-only variable is reported without its value.
    expect(
      data.find((d) => (d.variable as { name: string }).name === 'BasicAuthPassword')?.variableAttribute,
    ).toEqual([{ type: 'Actual', mutability: 'WriteOnly' }]);
    const config = charger.model.report('ConfigurationInventory');
    expect(
      config.every(
        (d) => (d.variableAttribute as Array<{ mutability: string }>)[0]!.mutability !== 'ReadOnly',
      ),
    ).toBe(true);
  });

  it('answers the operations: Reset, ChangeAvailability, UnlockConnector, TriggerMessage, ClearCache, DataTransfer, charging profiles', async () => {
    const charger = await connect201({ id: 'S201-OPS', connectors: 2 });
    const side = clients.get('S201-OPS')!;
    expect(await side.call('UnlockConnector', { evseId: 1, connectorId: 1 })).toEqual({ status: 'Unlocked' });
    expect(await side.call('UnlockConnector', { evseId: 3, connectorId: 1 })).toEqual({
      status: 'UnknownConnector',
    });
    expect(await side.call('ClearCache', {})).toEqual({ status: 'Accepted' });
    expect(
      await side.call('DataTransfer', { vendorId: 'JudJod', messageId: 'OpenBlocker', data: '{}' }),
    ).toEqual({
      status: 'Accepted',
    });
    expect(await side.call('DataTransfer', { vendorId: 'JudJod', messageId: 'Other' })).toEqual({
      status: 'UnknownMessageId',
    });

    // Availability: the EVSE goes Unavailable; while charging it is Scheduled, applied at the stop.
    expect(
      await side.call('ChangeAvailability', { operationalStatus: 'Inoperative', evse: { id: 1 } }),
    ).toEqual({
      status: 'Accepted',
    });
    await eventually(() => charger.connectorStates[0]!.status === 'Unavailable');
    expect(await side.call('ChangeAvailability', { operationalStatus: 'Operative' })).toEqual({
      status: 'Accepted',
    });
    await eventually(() => charger.connectorStates[0]!.status === 'Available');
    await charger.setStatus(2, 'Preparing');
    await charger.startCharging(2, 'CARD-2');
    expect(await side.call('UnlockConnector', { evseId: 2, connectorId: 1 })).toEqual({
      status: 'OngoingAuthorizedTransaction',
    });
    expect(
      await side.call('ChangeAvailability', { operationalStatus: 'Inoperative', evse: { id: 2 } }),
    ).toEqual({
      status: 'Scheduled',
    });

    // Triggered messages follow their answer.
    expect(await side.call('TriggerMessage', { requestedMessage: 'SignV2GCertificate' })).toEqual({
      status: 'NotImplemented',
    });
    const before = received.length;
    for (const requestedMessage of [
      'StatusNotification',
      'MeterValues',
      'TransactionEvent',
      'LogStatusNotification',
    ]) {
      expect(
        await side.call('TriggerMessage', { requestedMessage, evse: { id: 2, connectorId: 1 } }),
      ).toEqual({
        status: 'Accepted',
      });
    }
    const triggered = await eventually(() => {
      const after = received.slice(before).filter((r) => r.chargerId === 'S201-OPS');
      return after.length >= 4 ? after : null;
    });
    expect(triggered.map((r) => r.action).sort()).toEqual(
      ['LogStatusNotification', 'MeterValues', 'StatusNotification', 'TransactionEvent'].sort(),
    );
    expect(triggered.find((r) => r.action === 'TransactionEvent')?.params).toMatchObject({
      eventType: 'Updated',
      triggerReason: 'Trigger',
    });

    // Charging profiles are installed (simulator-profiles.ts applies them; tested below).
    const profile = {
      id: 7,
      stackLevel: 0,
      chargingProfilePurpose: 'TxDefaultProfile',
      chargingProfileKind: 'Absolute',
      chargingSchedule: [
        { id: 1, chargingRateUnit: 'W', chargingSchedulePeriod: [{ startPeriod: 0, limit: 11000 }] },
      ],
    };
    expect(await side.call('SetChargingProfile', { evseId: 2, chargingProfile: profile })).toEqual({
      status: 'Accepted',
    });
    expect(charger.chargingProfiles.get(7)?.connectorId).toBe(2);
    expect(await side.call('ClearChargingProfile', { chargingProfileId: 8 })).toEqual({ status: 'Unknown' });
    expect(await side.call('ClearChargingProfile', { chargingProfileCriteria: { evseId: 2 } })).toEqual({
      status: 'Accepted',
    });

    // Reset OnIdle waits for the transaction: Scheduled, then the stop, the scheduled Inoperative, the reboot.
    expect(await side.call('Reset', { type: 'OnIdle' })).toEqual({ status: 'Scheduled' });
    await charger.stopCharging(2, 'Local');
    await eventually(() => from('S201-OPS', 'BootNotification').length === 2);
    expect(from('S201-OPS', 'BootNotification')[1]!.params.reason).toBe('RemoteReset');
    await eventually(() => charger.connected);
    expect(charger.connectorStates[1]!.status).toBe('Unavailable');

    // Reset Immediate ends a transaction first (ImmediateReset).
    await charger.setStatus(1, 'Preparing');
    await charger.startCharging(1, 'CARD-1');
    expect(await clients.get('S201-OPS')!.call('Reset', { type: 'Immediate' })).toEqual({
      status: 'Accepted',
    });
    const ended = await eventually(() =>
      from('S201-OPS', 'TransactionEvent').find(
        (e) => e.params.eventType === 'Ended' && e.params.triggerReason === 'ResetCommand',
      ),
    );
    expect(ended.params.transactionInfo).toMatchObject({ stoppedReason: 'ImmediateReset' });
    await eventually(() => from('S201-OPS', 'BootNotification').length === 3 && charger.connected);
  });

  it('keeps a local list and reservations: SendLocalList, GetLocalListVersion, ReserveNow, CancelReservation, expiry', async () => {
    const charger = await connect201({ id: 'S201-AUTH', connectors: 2 });
    const side = clients.get('S201-AUTH')!;
    expect(await side.call('GetLocalListVersion', {})).toEqual({ versionNumber: 0 });
    const entry = (idToken: string, status?: string) => ({
      idToken: { idToken, type: 'ISO14443' },
      ...(status ? { idTokenInfo: { status, groupIdToken: { idToken: 'GROUP', type: 'Central' } } } : {}),
    });
    expect(
      await side.call('SendLocalList', {
        versionNumber: 3,
        updateType: 'Full',
        localAuthorizationList: [entry('CARD-A', 'Accepted'), entry('CARD-B', 'Blocked')],
      }),
    ).toEqual({ status: 'Accepted' });
    expect(
      await side.call('SendLocalList', {
        versionNumber: 2,
        updateType: 'Differential',
      }),
    ).toEqual({ status: 'VersionMismatch' });
    expect(
      await side.call('SendLocalList', {
        versionNumber: 4,
        updateType: 'Differential',
        localAuthorizationList: [entry('CARD-B')],
      }),
    ).toEqual({ status: 'Accepted' });
    expect(await side.call('GetLocalListVersion', {})).toEqual({ versionNumber: 4 });
    expect([...charger.localList.keys()]).toEqual(['CARD-A']);
    expect(charger.localList.get('CARD-A')?.idTagInfo?.parentIdTag).toBe('GROUP');

    const inAMinute = new Date(Date.now() + 60_000).toISOString();
    const reserve = (
      id: number,
      evseId: number | undefined,
      idToken = 'CARD-A',
      expiryDateTime = inAMinute,
    ) =>
      side.call('ReserveNow', {
        id,
        expiryDateTime,
        idToken: { idToken, type: 'ISO14443' },
        ...(evseId === undefined ? {} : { evseId }),
      });
    expect(await reserve(1, undefined)).toEqual({ status: 'Rejected' });
    expect(await reserve(1, 1)).toEqual({ status: 'Accepted' });
    const reserved = await eventually(() =>
      from('S201-AUTH', 'StatusNotification').find((r) => r.params.connectorStatus === 'Reserved'),
    );
    expect(reserved.params).toMatchObject({
      connectorStatus: 'Reserved',
      evseId: 1,
    });
    await expect(charger.startCharging(1, 'CARD-Z')).rejects.toThrow(/reserved for another id tag/);
    await charger.startCharging(1, 'CARD-A');
    const started = from('S201-AUTH', 'TransactionEvent')[0]!;
    expect(started.params).toMatchObject({ eventType: 'Started', reservationId: 1 });

    expect(await reserve(2, 2)).toEqual({ status: 'Accepted' });
    await eventually(() => charger.connectorStates[1]!.status === 'Reserved');
    expect(await side.call('CancelReservation', { reservationId: 99 })).toEqual({ status: 'Rejected' });
    expect(await side.call('CancelReservation', { reservationId: 2 })).toEqual({ status: 'Accepted' });
    await eventually(() => charger.connectorStates[1]!.status === 'Available');
    // An expiry is reported (ReservationStatusUpdate Expired); a cancel is not.
    expect(await reserve(3, 2, 'CARD-A', new Date(Date.now() + 200).toISOString())).toEqual({
      status: 'Accepted',
    });
    const update = await eventually(() => from('S201-AUTH', 'ReservationStatusUpdate')[0]);
    expect(update.params).toEqual({ reservationId: 3, reservationUpdateStatus: 'Expired' });
    expect(from('S201-AUTH', 'ReservationStatusUpdate')).toHaveLength(1);
  });

  it('reports a fault as a NotifyEvent on its connector', async () => {
    const charger = await connect201({ id: 'S201-FAULT', connectors: 1 });
    await charger.setStatus(1, 'Unavailable', 'GroundFailure');
    const [event] = from('S201-FAULT', 'NotifyEvent');
    expect(event?.params).toMatchObject({
      seqNo: 0,
      eventData: [
        {
          trigger: 'Delta',
          actualValue: 'true',
          techCode: 'GroundFailure',
          component: { name: 'Connector', evse: { id: 1, connectorId: 1 } },
          variable: { name: 'Problem' },
        },
      ],
    });
  });
});

describe('charging profiles over OCPP 2.0.1', () => {
  /** A 2.0.1 chargingProfile of one period from the start. */
  const profile201 = (
    id: number,
    chargingProfilePurpose: string,
    limit: number,
    more: Record<string, unknown> = {},
    unit: 'W' | 'A' = 'W',
  ) => ({
    id,
    stackLevel: 0,
    chargingProfilePurpose,
    chargingProfileKind: 'Absolute',
    chargingSchedule: [{ id, chargingRateUnit: unit, chargingSchedulePeriod: [{ startPeriod: 0, limit }] }],
    ...more,
  });

  it('applies them as the 1.6 charger does: the power and energy of its readings follow; 0 is SuspendedEVSE; cleared back', async () => {
    const time = testClock();
    const charger = await connect201(
      { id: 'S201-PROFILES', connectors: 2, maxPowerKw: [22, 22] },
      { clock: time.clock, random: () => 1 },
    );
    const side = clients.get('S201-PROFILES')!;
    const set = (evseId: number, chargingProfile: unknown) =>
      side.call('SetChargingProfile', { evseId, chargingProfile });
    await charger.setStatus(1, 'Preparing');
    const transactionId = await charger.startCharging(1, 'CARD-P');
    /** Ten minutes, then a reading: its power (W) and the energy the register added (Wh). */
    const tenMinutes = async () => {
      const before = charger.connectorStates[0]!.meterWh;
      time.pass(600_000);
      await charger.sendMeterValue(1);
      const updated = from('S201-PROFILES', 'TransactionEvent').at(-1)!;
      expect(updated.params.triggerReason).toBe('MeterValuePeriodic');
      const sample = samplesOf(updated).find((s) => s.measurand === 'Power.Active.Import')!;
      expect(sample).toMatchObject({ context: 'Sample.Periodic', unitOfMeasure: { unit: 'W' } });
      return { powerW: sample.value, wh: energyOf(updated)! - before };
    };
    const expectAt = async (watts: number) => {
      const reading = await tenMinutes();
      expect(reading.powerW).toBe(watts);
      expect(Math.abs(reading.wh - watts / 6)).toBeLessThanOrEqual(1);
    };
    await expectAt(20_900);
    // A default for every EVSE (EVSE 0) in amperes: 16 A × 3 × 230 V.
    expect(await set(0, profile201(1, 'TxDefaultProfile', 16, {}, 'A'))).toEqual({ status: 'Accepted' });
    await expectAt(11_040);
    // The transaction's TxProfile beats it; another transaction's is refused.
    expect(await set(1, profile201(2, 'TxProfile', 15_000, { transactionId }))).toEqual({
      status: 'Accepted',
    });
    await expectAt(15_000);
    expect(await set(1, profile201(3, 'TxProfile', 1_000, { transactionId: 'not-ours' }))).toEqual({
      status: 'Rejected',
    });
    // The station's max profile (EVSE 0 only) caps it.
    expect(await set(1, profile201(4, 'ChargingStationMaxProfile', 9_000))).toEqual({ status: 'Rejected' });
    expect(await set(0, profile201(4, 'ChargingStationMaxProfile', 9_000))).toEqual({ status: 'Accepted' });
    await expectAt(9_000);
    expect(charger.model.value('SmartChargingCtrlr', 'Entries', 'ChargingProfiles')).toBe('3');

    // 0: the charging state SuspendedEVSE (the connector stays Occupied), no energy; then resumed.
    const statusesBefore = from('S201-PROFILES', 'StatusNotification').length;
    const states = () =>
      from('S201-PROFILES', 'TransactionEvent')
        .filter((e) => e.params.triggerReason === 'ChargingStateChanged')
        .map((e) => (e.params.transactionInfo as { chargingState: string }).chargingState);
    expect(await set(1, profile201(2, 'TxProfile', 0, { transactionId }))).toEqual({ status: 'Accepted' });
    await eventually(() => states().at(-1) === 'SuspendedEVSE');
    expect(await tenMinutes()).toEqual({ powerW: 0, wh: 0 });
    expect(await set(1, profile201(2, 'TxProfile', 6_000, { transactionId }))).toEqual({
      status: 'Accepted',
    });
    await eventually(() => states().at(-1) === 'Charging');
    await expectAt(6_000);
    expect(from('S201-PROFILES', 'StatusNotification')).toHaveLength(statusesBefore);

    // Cleared by purpose (2.0.1's word), then all: the car's draw again.
    expect(
      await side.call('ClearChargingProfile', {
        chargingProfileCriteria: { chargingProfilePurpose: 'ChargingStationMaxProfile' },
      }),
    ).toEqual({ status: 'Accepted' });
    expect(charger.chargingProfiles.size).toBe(2);
    expect(await side.call('ClearChargingProfile', { chargingProfileCriteria: { evseId: 1 } })).toEqual({
      status: 'Accepted',
    });
    await expectAt(11_040);
    expect(await side.call('ClearChargingProfile', {})).toEqual({ status: 'Accepted' });
    await expectAt(20_900);
    expect(await side.call('ClearChargingProfile', {})).toEqual({ status: 'Unknown' });
  });

  it('rejects them with the `profiles` option', async () => {
    const charger = await connect201({ id: 'S201-NO-PROFILES', connectors: 1 }, { profiles: () => 'reject' });
    expect(
      await clients.get('S201-NO-PROFILES')!.call('SetChargingProfile', {
        evseId: 0,
        chargingProfile: profile201(1, 'TxDefaultProfile', 1_000),
      }),
    ).toEqual({ status: 'Rejected' });
    expect(charger.chargingProfiles.size).toBe(0);
  });
});

describe('firmware and logs over OCPP 2.0.1', () => {
  let files: Server;
  let base = '';
  const uploads: number[] = [];
  beforeAll(async () => {
    files = createServer((request, response) => {
      if (request.method === 'GET' && request.url?.startsWith('/fw/')) {
        const body = Buffer.from('firmware bytes');
        response.writeHead(200, { 'content-length': body.length }).end(body);
        return;
      }
      if (request.method === 'POST' && request.url === '/log/ok') {
        let size = 0;
        request.on('data', (chunk: Buffer) => {
          size += chunk.length;
        });
        request.on('end', () => {
          uploads.push(size);
          response.writeHead(201).end();
        });
        return;
      }
      response.writeHead(404).end();
    });
    await new Promise<void>((resolve) => files.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(files.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise((resolve) => files.close(resolve));
  });

  it('UpdateFirmware: Downloading, Downloaded, Installing, a reboot with the new version, Installed, each with its requestId', async () => {
    const charger = await connect201({ id: 'S201-FW', connectors: 1 });
    const side = clients.get('S201-FW')!;
    expect(
      await side.call('UpdateFirmware', {
        requestId: 17,
        firmware: { location: `${base}/fw/ev-sim-3.2.1.bin`, retrieveDateTime: new Date().toISOString() },
      }),
    ).toEqual({ status: 'Accepted' });
    await eventually(() => from('S201-FW', 'FirmwareStatusNotification').length === 4);
    expect(from('S201-FW', 'FirmwareStatusNotification').map((r) => r.params)).toEqual(
      ['Downloading', 'Downloaded', 'Installing', 'Installed'].map((status) => ({ status, requestId: 17 })),
    );
    const boots = from('S201-FW', 'BootNotification');
    expect(boots.at(-1)?.params).toMatchObject({
      reason: 'FirmwareUpdate',
      chargingStation: { firmwareVersion: '3.2.1' },
    });
    expect(charger.firmwareVersion).toBe('3.2.1');
  });

  it('GetLog: a file name, Uploading, the log uploaded, Uploaded; a failed upload is UploadFailure', async () => {
    await connect201({ id: 'S201-LOG', connectors: 1 });
    const side = clients.get('S201-LOG')!;
    const answer = await side.call('GetLog', {
      logType: 'DiagnosticsLog',
      requestId: 5,
      log: { remoteLocation: `${base}/log/ok` },
    });
    expect(answer).toEqual({
      status: 'Accepted',
      filename: expect.stringMatching(/^diagnostics-S201-LOG-.*\.log$/),
    });
    await eventually(() => from('S201-LOG', 'LogStatusNotification').length === 2);
    expect(from('S201-LOG', 'LogStatusNotification').map((r) => r.params)).toEqual([
      { status: 'Uploading', requestId: 5 },
      { status: 'Uploaded', requestId: 5 },
    ]);
    expect(uploads.at(-1)).toBeGreaterThan(100);
    await side.call('GetLog', {
      logType: 'DiagnosticsLog',
      requestId: 6,
      log: { remoteLocation: `${base}/log/gone` },
    });
    await eventually(() => from('S201-LOG', 'LogStatusNotification').length === 4);
    expect(from('S201-LOG', 'LogStatusNotification').at(-1)?.params).toEqual({
      status: 'UploadFailure',
      requestId: 6,
    });
  });

  it('without the firmware profile both are NotImplemented', async () => {
    await connect201({ id: 'S201-NOFW', connectors: 1, firmwareManagement: false });
    const side = clients.get('S201-NOFW')!;
    await expect(
      side.call('GetLog', {
        logType: 'DiagnosticsLog',
        requestId: 1,
        log: { remoteLocation: `${base}/log/ok` },
      }),
    ).rejects.toMatchObject({ rpcErrorCode: 'NotImplemented' });
  });
});

describe('simulateChargers', () => {
  it('starts each charger in its protocol: one for all, or a choice per charger (a fleet mixed as the demo)', async () => {
    const fleet = [
      { id: 'MIX-A', connectors: 1 },
      { id: 'MIX-B', connectors: 1 },
      { id: 'MIX-C', connectors: 1, ocppProtocol: '2.0.1' as const },
      { id: 'MIX-D', connectors: 1, ocppProtocol: '1.6' as const },
    ];
    // Half of those on Automatic speak 2.0.1 (one of A and B); a setting is kept whatever the share.
    const choose = mixProtocols(fleet, 0.5);
    expect(['MIX-A', 'MIX-B'].map(choose).sort()).toEqual(['1.6', '2.0.1']);
    expect([choose('MIX-C'), choose('MIX-D')]).toEqual(['2.0.1', '1.6']);
    expect(fleet.map((s) => mixProtocols(fleet, 1)(s.id))).toEqual(['2.0.1', '2.0.1', '2.0.1', '1.6']);
    expect(fleet.map((s) => mixProtocols(fleet, 0)(s.id))).toEqual(['1.6', '1.6', '2.0.1', '1.6']);
    const simulation = await simulateChargers(fleet, { url, protocol: choose });
    chargers.push(...simulation.chargers);
    expect(simulation.failed).toEqual([]);
    expect(fleet.map(({ id }) => clients.get(id)?.protocol)).toEqual(
      fleet.map(({ id }) => (choose(id) === '2.0.1' ? 'ocpp2.0.1' : 'ocpp1.6')),
    );
    expect(simulation.chargers.map((c) => c instanceof SimulatedCharger201)).toEqual(
      fleet.map(({ id }) => choose(id) === '2.0.1'),
    );
    const only201 = await simulateChargers([{ id: 'ALL-201', connectors: 1 }], { url, protocol: '2.0.1' });
    chargers.push(...only201.chargers);
    // Typed as 2.0.1 chargers: the device model is there.
    expect(only201.chargers[0]!.model.value('AuthCtrlr', 'AuthorizeRemoteStart')).toBe('false');
  });
});
