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

beforeAll(async () => {
  server = new RPCServer({ protocols: ['ocpp1.6'], strictMode: true });
  server.on('client', (client: unknown) => {
    const c = client as {
      identity: string;
      handle(handler: (call: { method: string; params: Record<string, unknown> }) => unknown): void;
    };
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
