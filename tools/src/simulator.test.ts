import type { AddressInfo } from 'node:net';
import { RPCServer } from '@ev/server/ocpp/rpc';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { memberTagPool, REFUSED_TAG_REST_MS } from './member-simulator.ts';
import {
  firmwareVersionOf,
  SimulatedCharger,
  type SimulatedChargerSpec,
  type SimulatorClock,
  taper,
} from './simulator.ts';

/**
 * The simulated charger's energy, on a clock the test drives (no real waiting): what its messages say reaches
 * a bare OCPP server that answers them and keeps them.
 */
interface Received {
  /** The charger that sent it: a stopped charger of an earlier test may still have frames on their way. */
  chargerId: string;
  action: string;
  params: Record<string, unknown>;
  /** The id a StartTransaction was given. */
  transactionId?: number;
}
let server: InstanceType<typeof RPCServer>;
let url = '';
const received: Received[] = [];
let nextTransaction = 1;
/** How long the server takes to answer each call (a slow server). */
let answerDelayMs = 0;
/** What one charger sent. */
const receivedFrom = (chargerId: string) => received.filter((r) => r.chargerId === chargerId);
/** The server's side of each charger's connection: it calls the charger. */
const clients = new Map<
  string,
  { call(action: string, params: unknown): Promise<Record<string, unknown>> }
>();

beforeAll(async () => {
  server = new RPCServer({ protocols: ['ocpp1.6'], strictMode: true });
  server.on('client', (client: unknown) => {
    const c = client as {
      identity: string;
      call(action: string, params: unknown): Promise<Record<string, unknown>>;
      handle(handler: (call: { method: string; params: Record<string, unknown> }) => unknown): void;
    };
    clients.set(c.identity, c);
    c.handle(async ({ method, params }) => {
      const entry: Received = { chargerId: c.identity, action: method, params };
      received.push(entry);
      if (answerDelayMs > 0) await new Promise((resolve) => setTimeout(resolve, answerDelayMs));
      switch (method) {
        case 'BootNotification':
          return { status: 'Accepted', currentTime: new Date().toISOString(), interval: 3600 };
        case 'Heartbeat':
          return { currentTime: new Date().toISOString() };
        case 'Authorize':
          // A card no member holds: what a server refusing unknown tags answers.
          return { idTagInfo: { status: params.idTag === 'NOBODY' ? 'Invalid' : 'Accepted' } };
        case 'StartTransaction':
          entry.transactionId = nextTransaction++;
          // A member charging elsewhere: refused at the start (Authorize names no connector).
          return {
            transactionId: entry.transactionId,
            idTagInfo: { status: params.idTag === 'BUSY' ? 'ConcurrentTx' : 'Accepted' },
          };
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

/** A clock that moves only when told to (and when the charger waits on it). */
function testClock() {
  let now = Date.UTC(2027, 0, 20, 3, 0, 0);
  const waits: number[] = [];
  const clock: SimulatorClock = {
    now: () => now,
    sleep: async (ms) => {
      waits.push(ms);
      now += ms;
    },
  };
  const pass = (ms: number) => {
    now += ms;
  };
  return { clock, waits, pass };
}

const chargers: SimulatedCharger[] = [];
afterEach(async () => {
  await Promise.all(chargers.splice(0).map((charger) => charger.stop()));
  received.length = 0;
  answerDelayMs = 0;
});

async function connect(spec: SimulatedChargerSpec, clock: SimulatorClock, random = () => 0.5) {
  const charger = new SimulatedCharger(spec, { url, clock, random });
  chargers.push(charger);
  await charger.start();
  return charger;
}

/** What the server got for that transaction: its start, then each register reading (and SoC), then its stop. */
function transactionOf(transactionId: number) {
  const start = received.find((r) => r.action === 'StartTransaction' && r.transactionId === transactionId)!;
  const startedAt = Date.parse(start.params.timestamp as string);
  const readings = received
    .filter((r) => r.action === 'MeterValues' && r.params.transactionId === transactionId)
    .map((r) => {
      const [value] = r.params.meterValue as Array<{
        timestamp: string;
        sampledValue: Array<{ value: string; measurand: string }>;
      }>;
      const sample = (measurand: string) => value!.sampledValue.find((s) => s.measurand === measurand)?.value;
      const soc = sample('SoC');
      return {
        at: Date.parse(value!.timestamp),
        wh: Number(sample('Energy.Active.Import.Register')),
        soc: soc === undefined ? null : Number(soc),
      };
    });
  return { meterStart: start.params.meterStart as number, startedAt, readings };
}

/** Energy never exceeds the power times the time since the start, nor (to the register's 1 Wh) since the last. */
function expectWithin(maxKw: number, transaction: ReturnType<typeof transactionOf>) {
  let [lastWh, lastAt] = [transaction.meterStart, transaction.startedAt];
  for (const reading of transaction.readings) {
    const since = (ms: number) => (maxKw * ms) / 3600;
    expect(reading.wh - transaction.meterStart).toBeLessThanOrEqual(
      since(reading.at - transaction.startedAt),
    );
    expect(reading.wh - lastWh).toBeLessThanOrEqual(since(reading.at - lastAt) + 1);
    expect(reading.wh).toBeGreaterThanOrEqual(lastWh);
    [lastWh, lastAt] = [reading.wh, reading.at];
  }
}

describe('a simulated charger', () => {
  it("delivers, reading by reading, a share of the connector's maximum power over the time that passed", async () => {
    const time = testClock();
    const spec = { id: 'SIM-POWER', connectors: 2, maxPowerKw: [22, 150], powerType: 'DC' as const };
    // The highest share a session draws (95 %): the tightest case.
    const charger = await connect(spec, time.clock, () => 1);
    for (const connector of [1, 2]) {
      await charger.setStatus(connector, 'Preparing');
      const transactionId = await charger.startCharging(connector, 'TAG-1');
      for (const ms of [1_000, 10_000, 60_000, 300_000, 20, 0, 3_600_000, 45_000]) {
        time.pass(ms);
        await charger.sendMeterValue(connector);
      }
      await charger.stopCharging(connector, 'EVDisconnected');
      const maxKw = spec.maxPowerKw[connector - 1]!;
      const transaction = transactionOf(transactionId);
      expect(transaction.readings).toHaveLength(8);
      expectWithin(maxKw, transaction);
      // Over the whole session: close to 95 % of the maximum (to the register's 1 Wh), never more.
      const last = transaction.readings.at(-1)!;
      const hours = (last.at - transaction.startedAt) / 3_600_000;
      expect(last.wh - transaction.meterStart).toBeGreaterThanOrEqual(
        Math.floor(maxKw * 0.95 * hours * 1000) - 1,
      );
      // The stop gives the register as last read.
      const stop = received.find(
        (r) => r.action === 'StopTransaction' && r.params.transactionId === transactionId,
      );
      expect(stop?.params.meterStop).toBe(last.wh);
    }
  });

  it('draws 60 to 95 % of the maximum per session, 7.4 kW on AC and 60 kW on DC when the maximum is unknown', async () => {
    const time = testClock();
    const ac = await connect({ id: 'SIM-AC', connectors: 1 }, time.clock, () => 0);
    const dc = await connect({ id: 'SIM-DC', connectors: 1, powerType: 'DC' }, time.clock, () => 0.5);
    const given = await connect({ id: 'SIM-GIVEN', connectors: 2, maxPowerKw: [null, 11] }, time.clock);
    expect([ac.maxPowerKw(1), dc.maxPowerKw(1), given.maxPowerKw(1), given.maxPowerKw(2)]).toEqual([
      7.4, 60, 7.4, 11,
    ]);
    expect(ac.powerKw(1)).toBe(0);
    for (const charger of [ac, dc]) {
      await charger.setStatus(1, 'Preparing');
      await charger.startCharging(1);
    }
    expect(ac.powerKw(1)).toBeCloseTo(7.4 * 0.6);
    expect(dc.powerKw(1)).toBeCloseTo(60 * 0.775);
    const [acStart, dcStart] = [ac.connectorStates[0]!.meterWh, dc.connectorStates[0]!.meterWh];
    time.pass(3_600_000);
    await ac.sendMeterValue(1);
    await dc.sendMeterValue(1);
    // An hour at 60 % of 7.4 kW and at 77.5 % of 60 kW, to the register's 1 Wh.
    const acWh = ac.connectorStates[0]!.meterWh - acStart;
    const dcWh = dc.connectorStates[0]!.meterWh - dcStart;
    expect([acWh >= 7.4 * 600 - 1 && acWh <= 7.4 * 600, dcWh >= 60 * 775 - 1 && dcWh <= 60 * 775]).toEqual([
      true,
      true,
    ]);
  });

  it('waits on its clock for the register to move when read again at once, and delivers nothing off charge', async () => {
    const time = testClock();
    const charger = await connect({ id: 'SIM-WAIT', connectors: 1, maxPowerKw: [7.4] }, time.clock);
    // No session: the register stays, and nothing waits.
    const idle = charger.connectorStates[0]!.meterWh;
    time.pass(600_000);
    await charger.sendMeterValue(1);
    expect([charger.connectorStates[0]!.meterWh, time.waits]).toEqual([idle, []]);

    await charger.setStatus(1, 'Preparing');
    const transactionId = await charger.startCharging(1);
    await charger.sendMeterValue(1);
    await charger.sendMeterValue(1);
    // Each reading waited until 1 Wh had gone in (at 7.4 kW × 77.5 %: about 0.63 s), no longer.
    expect(time.waits).toHaveLength(2);
    for (const wait of time.waits) {
      expect(wait).toBeGreaterThan(600);
      expect(wait).toBeLessThanOrEqual(Math.ceil(3600 / (7.4 * 0.775)));
    }
    expect(charger.connectorStates[0]!.meterWh - idle).toBe(2);
    expectWithin(7.4, transactionOf(transactionId));

    // Suspended by the car: no energy while it draws none.
    await charger.setStatus(1, 'SuspendedEV');
    const suspended = charger.connectorStates[0]!.meterWh;
    time.pass(600_000);
    await charger.sendMeterValue(1);
    expect([charger.connectorStates[0]!.meterWh, time.waits.length]).toEqual([suspended, 2]);
  });

  it("tapers a car's power past 80 % and stops at full, its state of charge rising with the energy", async () => {
    const time = testClock();
    const charger = await connect({ id: 'SIM-CAR', connectors: 1, maxPowerKw: [150] }, time.clock, () => 1);
    charger.plugIn(1, { batteryKwh: 60, soc: 70 });
    await charger.setStatus(1, 'Preparing');
    const transactionId = await charger.startCharging(1);
    for (let minute = 0; minute < 40; minute++) {
      time.pass(60_000);
      await charger.sendMeterValue(1);
    }
    const transaction = transactionOf(transactionId);
    expectWithin(150, transaction);
    const { readings } = transaction;
    // 70 → 100 % of 60 kWh is 18 kWh; the SoC reported follows the energy.
    expect(readings.at(-1)!.soc).toBe(100);
    expect(readings.at(-1)!.wh - transaction.meterStart).toBeCloseTo(18_000, -1);
    for (const reading of readings) {
      const soc = 70 + ((reading.wh - transaction.meterStart) / 60_000) * 100;
      expect(Math.abs(reading.soc! - soc)).toBeLessThanOrEqual(1);
    }
    // Full power (95 % of 150 kW) to 80 %, tapered after it by the SoC, nothing once full.
    const added = readings.map(
      (reading, i) => reading.wh - (i ? readings[i - 1]!.wh : transaction.meterStart),
    );
    expect(added[0]).toBeCloseTo(150 * 0.95 * (1000 / 60), -1);
    readings.forEach((_, i) => {
      const before = i ? readings[i - 1]!.soc! : 70;
      expect(added[i]).toBeLessThanOrEqual(150 * 0.95 * taper(before) * (1000 / 60) + 1);
    });
    expect(added.filter((wh) => wh > 0 && wh < added[0]! / 2).length).toBeGreaterThan(3);
    expect(added.at(-1)).toBe(0);
    expect(charger.powerKw(1)).toBe(0);
    expect(taper(50)).toBe(1);
    expect(taper(90)).toBeCloseTo(0.6);
    expect(taper(100)).toBeCloseTo(0.2);
    // Unplugged, the car is gone.
    await charger.stopCharging(1, 'EVDisconnected');
    await charger.unplug(1);
    expect(charger.connectorStates[0]!.car).toBeNull();
  });

  it('adds exactly what a test says (addWh), full and stop included, then counts on from that reading', async () => {
    const time = testClock();
    const charger = await connect({ id: 'SIM-EXPLICIT', connectors: 1, maxPowerKw: [7.4] }, time.clock);
    await charger.setStatus(1, 'Preparing');
    await charger.startCharging(1);
    const start = charger.connectorStates[0]!.meterWh;
    time.pass(1_000);
    // Far more than 7.4 kW can give in a second: a test's reading is taken as given.
    await charger.sendMeterValue(1, { addWh: 12_500, soc: 80 });
    expect(charger.connectorStates[0]!.meterWh).toBe(start + 12_500);
    time.pass(3_600_000);
    await charger.fill(1);
    expect(charger.connectorStates[0]!.meterWh).toBe(start + 12_500);
    await charger.stopCharging(1, 'EVDisconnected');
    const stop = received.find((r) => r.action === 'StopTransaction')!;
    expect(stop.params.meterStop).toBe(start + 12_500);
    const last = received.filter((r) => r.action === 'MeterValues').at(-1)!;
    expect(JSON.stringify(last.params.meterValue)).toContain('"value":"100"');

    // A new session: 10 minutes, an explicit reading, 10 minutes more by the default.
    await charger.setStatus(1, 'Preparing');
    await charger.startCharging(1);
    const second = charger.connectorStates[0]!.meterWh;
    time.pass(600_000);
    await charger.sendMeterValue(1, { addWh: 2_000 });
    time.pass(600_000);
    await charger.sendMeterValue(1);
    expect(charger.connectorStates[0]!.meterWh - second).toBe(2_000 + Math.floor((7.4 * 0.775 * 1000) / 6));
  });

  it('keeps one random step at a time: a slow server does not pile the activity up ahead of other calls', async () => {
    answerDelayMs = 40;
    // A step every 2.5 to 7.5 ms against answers that take 40 ms each.
    const charger = new SimulatedCharger(
      { id: 'SIM-SLOW', connectors: 2, powerType: 'AC' },
      { url, activity: true, activityMs: 5 },
    );
    chargers.push(charger);
    await charger.start();
    await new Promise((resolve) => setTimeout(resolve, 800));
    // A call of the test's own: only the step in flight (at most its Authorize, StartTransaction and
    // StatusNotification) may reach the server before it, not 800 ms of queued steps.
    const before = received.length;
    await charger.setStatus(1, 'Finishing', 'OtherError');
    const probe = received.findIndex(
      (r, index) =>
        index >= before && r.action === 'StatusNotification' && r.params.errorCode === 'OtherError',
    );
    expect(probe - before).toBeLessThanOrEqual(3);
  });

  it("starts its own sessions with the pool's tags: a refused one goes back to Available, each tag lent once", async () => {
    const lent: string[] = [];
    const given: string[] = [];
    const refusedTags: string[] = [];
    const asked: Array<string | undefined> = [];
    const offers = ['NOBODY', 'MEMBER-1'];
    const charger = new SimulatedCharger(
      { id: 'SIM-POOL', connectors: 1 },
      {
        url,
        idTags: {
          take: (chargerId) => {
            asked.push(chargerId);
            const tag = offers.shift();
            if (tag) lent.push(tag);
            return tag;
          },
          give: (tag, refused) => {
            given.push(tag);
            if (refused) refusedTags.push(tag);
          },
        },
      },
    );
    chargers.push(charger);
    await charger.start();
    const state = charger.connectorStates[0]!;
    await charger.step(1);
    expect(state.status).toBe('Preparing');
    await charger.step(1);
    // Refused at Authorize: no transaction, the driver gone, the tag back in the pool, to rest there.
    expect(state.status).toBe('Available');
    expect(given).toEqual(['NOBODY']);
    expect(refusedTags).toEqual(['NOBODY']);
    // The pool is asked for a tag this charger takes (a private station's: its site's members only).
    expect(asked).toEqual(['SIM-POOL']);
    expect(receivedFrom('SIM-POOL').some((r) => r.action === 'StartTransaction')).toBe(false);
    await charger.step(1);
    await charger.step(1);
    expect(state.status).toBe('Charging');
    const start = receivedFrom('SIM-POOL').find((r) => r.action === 'StartTransaction')!;
    expect(start.params.idTag).toBe('MEMBER-1');
    await charger.stopCharging(1, 'Local');
    // Stopped, the cable still in: the member's booking is not over yet, so the tag stays lent.
    expect(given).toEqual(['NOBODY']);
    // Unplugged (Finishing → Available): given back. A driver comes (Preparing), but the pool is empty.
    for (const status of ['Available', 'Preparing', 'Available']) {
      await charger.step(1);
      expect(state.status).toBe(status);
      expect(given).toEqual(['NOBODY', 'MEMBER-1']);
    }
    expect(lent).toEqual(['NOBODY', 'MEMBER-1']);
  });

  it('ends a transaction whose tag the start refused (StopTransactionOnInvalidId); the pool rests that tag', async () => {
    let clock = 0;
    const pool = memberTagPool(
      [
        { email: 'busy@example.com', idTag: 'BUSY' },
        { email: 'free@example.com', idTag: 'FREE' },
      ],
      () => 0,
      () => clock,
    );
    const charger = new SimulatedCharger({ id: 'SIM-REFUSED', connectors: 1 }, { url, idTags: pool });
    chargers.push(charger);
    await charger.start();
    const state = charger.connectorStates[0]!;
    await charger.step(1);
    await charger.step(1);
    const start = receivedFrom('SIM-REFUSED').find((r) => r.action === 'StartTransaction')!;
    expect(start.params.idTag).toBe('BUSY');
    const stop = receivedFrom('SIM-REFUSED').find((r) => r.action === 'StopTransaction')!;
    expect(stop.params).toMatchObject({ transactionId: start.transactionId, reason: 'DeAuthorized' });
    expect(state).toMatchObject({ status: 'Finishing', transactionId: null, walkTag: null });
    // BUSY rests: the next session takes FREE, and BUSY only once its rest is over.
    expect(pool.take()).toBe('FREE');
    expect(pool.take()).toBeUndefined();
    clock += REFUSED_TAG_REST_MS;
    expect(pool.take()).toBe('BUSY');
  });
});

/** Waits for what the charger does just after an answer (a status it reports), on the real clock. */
async function eventually<T>(probe: () => T | undefined | false | null, timeoutMs = 5000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** A 1.6 schedule of one period from the start, in watts or amperes. */
const schedule = (limit: number, unit: 'W' | 'A' = 'W', more: Record<string, unknown> = {}) => ({
  chargingRateUnit: unit,
  chargingSchedulePeriod: [{ startPeriod: 0, limit, ...more }],
});
const profile = (
  id: number,
  purpose: 'ChargePointMaxProfile' | 'TxDefaultProfile' | 'TxProfile',
  chargingSchedule: unknown,
  more: Record<string, unknown> = {},
) => ({
  chargingProfileId: id,
  stackLevel: 0,
  chargingProfilePurpose: purpose,
  chargingProfileKind: 'Absolute',
  chargingSchedule,
  ...more,
});

/** The Power.Active.Import (W) of the charger's last MeterValues for the connector. */
function lastPowerW(chargerId: string, connectorId: number): number {
  const reading = receivedFrom(chargerId)
    .filter((r) => r.action === 'MeterValues' && r.params.connectorId === connectorId)
    .at(-1)!;
  const [value] = reading.params.meterValue as Array<{
    sampledValue: Array<{ value: string; measurand: string; unit: string }>;
  }>;
  const sample = value!.sampledValue.find((s) => s.measurand === 'Power.Active.Import')!;
  expect(sample.unit).toBe('W');
  return Number(sample.value);
}

/**
 * `ms` pass, then each connector with a transaction sends a reading: per connector, the energy its register
 * added (Wh) and the power it reported (W).
 */
async function readingsAfter(charger: SimulatedCharger, time: ReturnType<typeof testClock>, ms: number) {
  const before = charger.connectorStates.map((state) => state.meterWh);
  time.pass(ms);
  const out: Array<{ wh: number; powerW: number } | null> = [];
  for (const [i, state] of charger.connectorStates.entries()) {
    if (state.transactionId === null) {
      out.push(null);
      continue;
    }
    await charger.sendMeterValue(i + 1);
    out.push({ wh: state.meterWh - before[i]!, powerW: lastPowerW(charger.spec.id, i + 1) });
  }
  return out;
}

/** Ten minutes at `watts`: the register adds a sixth of it in Wh (to its 1 Wh), the reading says `watts`. */
function expectTenMinutesAt(reading: { wh: number; powerW: number } | null | undefined, watts: number) {
  expect(reading?.powerW).toBe(Math.round(watts));
  expect(Math.abs(reading!.wh - watts / 6)).toBeLessThanOrEqual(1);
}

const TEN_MINUTES = 600_000;

describe('a simulated charger under charging profiles', () => {
  it("delivers the least of the car's draw and the profiles: a TxDefaultProfile, the transaction's TxProfile over it, cleared back", async () => {
    const time = testClock();
    // The car draws 95 % of 22 kW: 20.9 kW.
    const charger = await connect(
      { id: 'SIM-PROFILES', connectors: 1, maxPowerKw: [22] },
      time.clock,
      () => 1,
    );
    const side = clients.get('SIM-PROFILES')!;
    const set = (params: unknown) => side.call('SetChargingProfile', params);
    await charger.setStatus(1, 'Preparing');
    const transactionId = await charger.startCharging(1, 'TAG-P');
    expectTenMinutesAt((await readingsAfter(charger, time, TEN_MINUTES))[0], 20_900);

    // A default above the car's draw changes nothing; one below it limits the session.
    expect(
      await set({ connectorId: 1, csChargingProfiles: profile(1, 'TxDefaultProfile', schedule(30_000)) }),
    ).toEqual({ status: 'Accepted' });
    expectTenMinutesAt((await readingsAfter(charger, time, TEN_MINUTES))[0], 20_900);
    expect(
      await set({ connectorId: 1, csChargingProfiles: profile(1, 'TxDefaultProfile', schedule(11_000)) }),
    ).toEqual({ status: 'Accepted' });
    expect(charger.chargingProfiles.size).toBe(1);
    expectTenMinutesAt((await readingsAfter(charger, time, TEN_MINUTES))[0], 11_000);

    // The transaction's TxProfile beats the default, above it or below it; the highest stack level wins.
    const tx = (id: number, limit: number, more: Record<string, unknown> = {}) =>
      set({
        connectorId: 1,
        csChargingProfiles: profile(id, 'TxProfile', schedule(limit), { transactionId, ...more }),
      });
    expect(await tx(2, 15_000)).toEqual({ status: 'Accepted' });
    expectTenMinutesAt((await readingsAfter(charger, time, TEN_MINUTES))[0], 15_000);
    expect(await tx(3, 8_000, { stackLevel: 1 })).toEqual({ status: 'Accepted' });
    expectTenMinutesAt((await readingsAfter(charger, time, TEN_MINUTES))[0], 8_000);

    // Refused: another transaction's TxProfile, a TxProfile on connector 0, a max profile on a connector, a
    // stack level above ChargeProfileMaxStackLevel, a connector the charger lacks.
    expect(await tx(4, 1_000, { transactionId: transactionId + 1 })).toEqual({ status: 'Rejected' });
    for (const [connectorId, csChargingProfiles] of [
      [0, profile(5, 'TxProfile', schedule(1_000))],
      [1, profile(6, 'ChargePointMaxProfile', schedule(1_000))],
      [1, profile(7, 'TxDefaultProfile', schedule(1_000), { stackLevel: 9 })],
      [2, profile(8, 'TxDefaultProfile', schedule(1_000))],
    ] as const) {
      expect(await set({ connectorId, csChargingProfiles })).toEqual({ status: 'Rejected' });
    }
    expect(charger.chargingProfiles.size).toBe(3);
    const keys = new Map(charger.configurationEntries().map((entry) => [entry.key, entry.value]));
    expect(keys.get('ChargeProfileMaxStackLevel')).toBe('8');
    expect(keys.get('SupportedFeatureProfiles')).toContain('SmartCharging');

    // Cleared: the TxProfiles first (the default again), then the default (the car's draw again).
    const clear = (params: unknown) => side.call('ClearChargingProfile', params);
    expect(await clear({ chargingProfilePurpose: 'TxProfile' })).toEqual({ status: 'Accepted' });
    expectTenMinutesAt((await readingsAfter(charger, time, TEN_MINUTES))[0], 11_000);
    expect(await clear({ id: 1 })).toEqual({ status: 'Accepted' });
    expectTenMinutesAt((await readingsAfter(charger, time, TEN_MINUTES))[0], 20_900);
    expect(await clear({ id: 1 })).toEqual({ status: 'Unknown' });

    // A TxProfile ends with its transaction.
    expect(await tx(9, 5_000)).toEqual({ status: 'Accepted' });
    await charger.stopCharging(1, 'Local');
    expect(charger.chargingProfiles.size).toBe(0);
    expect(await tx(10, 5_000)).toEqual({ status: 'Rejected' });
  });

  it("converts amperes (× the period's phases, default 3, × 230 V); the charger's max profile caps its connectors together", async () => {
    const time = testClock();
    const charger = await connect(
      { id: 'SIM-AMPS', connectors: 2, maxPowerKw: [22, 22] },
      time.clock,
      () => 1,
    );
    const side = clients.get('SIM-AMPS')!;
    const set = (connectorId: number, csChargingProfiles: unknown) =>
      side.call('SetChargingProfile', { connectorId, csChargingProfiles });
    for (const n of [1, 2]) {
      await charger.setStatus(n, 'Preparing');
      await charger.startCharging(n, `TAG-${n}`);
    }
    // 16 A on three phases: 11,040 W on each connector (a default on connector 0 is every connector's).
    expect(await set(0, profile(1, 'TxDefaultProfile', schedule(16, 'A')))).toEqual({ status: 'Accepted' });
    let [one, two] = await readingsAfter(charger, time, TEN_MINUTES);
    expectTenMinutesAt(one, 11_040);
    expectTenMinutesAt(two, 11_040);
    // A connector's own default beats connector 0's: 16 A on one phase, 3,680 W.
    expect(await set(2, profile(2, 'TxDefaultProfile', schedule(16, 'A', { numberPhases: 1 })))).toEqual({
      status: 'Accepted',
    });
    [one, two] = await readingsAfter(charger, time, TEN_MINUTES);
    expectTenMinutesAt(one, 11_040);
    expectTenMinutesAt(two, 3_680);
    // 10 kW for the charger: connector 2 keeps its 3,680 W, connector 1 gets the rest.
    expect(await set(0, profile(3, 'ChargePointMaxProfile', schedule(10_000)))).toEqual({
      status: 'Accepted',
    });
    expect(charger.allowedW(1)).toBe(10_000);
    [one, two] = await readingsAfter(charger, time, TEN_MINUTES);
    expectTenMinutesAt(one, 10_000 - 3_680);
    expectTenMinutesAt(two, 3_680);
    // 6 kW: shared equally.
    expect(await set(0, profile(3, 'ChargePointMaxProfile', schedule(6_000)))).toEqual({
      status: 'Accepted',
    });
    [one, two] = await readingsAfter(charger, time, TEN_MINUTES);
    expectTenMinutesAt(one, 3_000);
    expectTenMinutesAt(two, 3_000);
  });

  it("follows a schedule's periods from the transaction's start (Relative), and its duration", async () => {
    const time = testClock();
    const charger = await connect(
      { id: 'SIM-PERIODS', connectors: 1, maxPowerKw: [22] },
      time.clock,
      () => 1,
    );
    await charger.setStatus(1, 'Preparing');
    const transactionId = await charger.startCharging(1, 'TAG-R');
    const periods = {
      chargingRateUnit: 'W',
      duration: 2_100,
      chargingSchedulePeriod: [
        { startPeriod: 0, limit: 20_000 },
        { startPeriod: 900, limit: 5_000 },
      ],
    };
    expect(
      await clients.get('SIM-PERIODS')!.call('SetChargingProfile', {
        connectorId: 1,
        csChargingProfiles: profile(1, 'TxProfile', periods, {
          transactionId,
          chargingProfileKind: 'Relative',
        }),
      }),
    ).toEqual({ status: 'Accepted' });
    // 0-15 min at 20 kW, 15-35 min at 5 kW, then (the schedule over) the car's 20.9 kW: two readings straddle a
    // change, half of their ten minutes at each power.
    const halves = (a: number, b: number, reading: { wh: number; powerW: number } | null | undefined) => {
      expect(reading?.powerW).toBe(b);
      expect(Math.abs(reading!.wh - (a + b) / 12)).toBeLessThanOrEqual(1);
    };
    expectTenMinutesAt((await readingsAfter(charger, time, TEN_MINUTES))[0], 20_000);
    halves(20_000, 5_000, (await readingsAfter(charger, time, TEN_MINUTES))[0]);
    expectTenMinutesAt((await readingsAfter(charger, time, TEN_MINUTES))[0], 5_000);
    halves(5_000, 20_900, (await readingsAfter(charger, time, TEN_MINUTES))[0]);
    expectTenMinutesAt((await readingsAfter(charger, time, TEN_MINUTES))[0], 20_900);
  });

  it('suspends at a limit of 0 (SuspendedEVSE, no energy) and resumes when it rises; a session may start suspended', async () => {
    const time = testClock();
    const charger = await connect({ id: 'SIM-ZERO', connectors: 1, maxPowerKw: [22] }, time.clock, () => 1);
    const side = clients.get('SIM-ZERO')!;
    const statuses = () =>
      receivedFrom('SIM-ZERO')
        .filter((r) => r.action === 'StatusNotification')
        .map((r) => r.params.status);
    const state = charger.connectorStates[0]!;
    await charger.setStatus(1, 'Preparing');
    const transactionId = await charger.startCharging(1, 'TAG-Z');
    const tx = (limit: number) =>
      side.call('SetChargingProfile', {
        connectorId: 1,
        csChargingProfiles: profile(1, 'TxProfile', schedule(limit), { transactionId }),
      });
    expect(await tx(0)).toEqual({ status: 'Accepted' });
    await eventually(() => state.status === 'SuspendedEVSE' && statuses().at(-1) === 'SuspendedEVSE');
    const waits = time.waits.length;
    expect((await readingsAfter(charger, time, TEN_MINUTES))[0]).toEqual({ wh: 0, powerW: 0 });
    // Nothing to wait for: no energy flows.
    expect(time.waits.length).toBe(waits);
    expect(await tx(7_000)).toEqual({ status: 'Accepted' });
    await eventually(() => state.status === 'Charging' && statuses().at(-1) === 'Charging');
    expectTenMinutesAt((await readingsAfter(charger, time, TEN_MINUTES))[0], 7_000);
    await charger.stopCharging(1, 'Local');
    await charger.unplug(1);

    // A default of 0 in force: the next session starts suspended, and charges once the default is cleared.
    expect(
      await side.call('SetChargingProfile', {
        connectorId: 0,
        csChargingProfiles: profile(2, 'TxDefaultProfile', schedule(0)),
      }),
    ).toEqual({ status: 'Accepted' });
    await charger.setStatus(1, 'Preparing');
    await charger.startCharging(1, 'TAG-Z');
    expect(statuses().slice(-2)).toEqual(['Preparing', 'SuspendedEVSE']);
    expect(await side.call('ClearChargingProfile', {})).toEqual({ status: 'Accepted' });
    await eventually(() => state.status === 'Charging');
    expectTenMinutesAt((await readingsAfter(charger, time, TEN_MINUTES))[0], 20_900);
  });

  it("rejects profiles when told to (the `profiles` option, or the 'reject' behaviour), its power unchanged", async () => {
    const time = testClock();
    const options = { url, clock: time.clock, random: () => 1 };
    const refusing = new SimulatedCharger(
      { id: 'SIM-NO-PROFILES', connectors: 1, maxPowerKw: [22] },
      { ...options, profiles: () => 'reject' },
    );
    const rejecting = new SimulatedCharger(
      { id: 'SIM-REJECT-ALL', connectors: 1, maxPowerKw: [22] },
      { ...options, behaviour: () => 'reject' },
    );
    for (const charger of [refusing, rejecting]) {
      chargers.push(charger);
      await charger.start();
      await charger.setStatus(1, 'Preparing');
      await charger.startCharging(1, 'TAG-N');
      const side = clients.get(charger.spec.id)!;
      expect(
        await side.call('SetChargingProfile', {
          connectorId: 1,
          csChargingProfiles: profile(1, 'TxDefaultProfile', schedule(1_000)),
        }),
      ).toEqual({ status: 'Rejected' });
      expect(await side.call('ClearChargingProfile', {})).toEqual({ status: 'Unknown' });
      expect(charger.chargingProfiles.size).toBe(0);
      expectTenMinutesAt((await readingsAfter(charger, time, TEN_MINUTES))[0], 20_900);
    }
  });
});

describe('firmwareVersionOf', () => {
  it("takes the version from the file's name in the link, else the start of its hash", () => {
    const link = (name: string) => `http://h/ocpp-files/firmware/${'a'.repeat(43)}/${name}`;
    expect(firmwareVersionOf(link('ev-sim-2.0.1.bin'), 'ab'.repeat(32))).toBe('2.0.1');
    expect(firmwareVersionOf(link('fw%20v10.4.bin'), 'ab'.repeat(32))).toBe('10.4');
    expect(firmwareVersionOf(link('firmware.bin'), '0123456789abcdef'.repeat(4))).toBe('sim-01234567');
    expect(firmwareVersionOf(link('bad%ZZ-1.2.bin'), 'ab'.repeat(32))).toBe('1.2');
  });
});

describe('memberTagPool', () => {
  it("lends a private station's charger only its site's members, any other charger anyone", () => {
    const pool = memberTagPool(
      [
        { email: 'resident@example.com', idTag: 'RESIDENT', sites: new Set([7]) },
        { email: 'visitor@example.com', idTag: 'VISITOR', sites: new Set() },
      ],
      () => 0.99,
      () => 0,
      { privateSiteOf: (chargerId) => (chargerId === 'CONDO-01' ? 7 : null) },
    );
    // The last free member by the random draw: the visitor at a public charger, never at the condominium's.
    expect(pool.take('PUBLIC-01')).toBe('VISITOR');
    expect(pool.take('CONDO-01')).toBe('RESIDENT');
    expect(pool.take('CONDO-01')).toBeUndefined();
    pool.give('RESIDENT');
    pool.give('VISITOR');
    pool.replace([{ email: 'visitor@example.com', idTag: 'VISITOR' }]);
    expect(pool.take('CONDO-01')).toBeUndefined();
    expect(pool.take('PUBLIC-01')).toBe('VISITOR');
  });
});
