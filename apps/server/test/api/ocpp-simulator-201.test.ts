import type { AnySimulatedCharger, SimulatorEvent } from '@ev/tools/simulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPrice, createUser, signedInUser } from '../helpers/factories.ts';
import { chargerPlace, createChargers, eventually, simulate, simulate201 } from '../helpers/ocpp.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';

// The simulated OCPP 2.0.1 charger (tools/src/simulator-201.ts) against the real server (issue 33): it offers
// ocpp2.0.1, is spoken to in 2.0.1 (every frame checked against the official schemas on both sides), answers
// staff's operations as a real 2.0.1 charger does, and a member's whole session on it is priced as on its 1.6
// twin; a 1.6 charger beside it keeps 1.6. The frames themselves are tested against a bare 2.0.1 server in
// tools/src/simulator-201.test.ts.

let t: TestApp;
let admin: string;
let simulation201: Awaited<ReturnType<typeof simulate201>>;
let simulation16: Awaited<ReturnType<typeof simulate>>;
let twins: { v16: AnySimulatedCharger; v201: AnySimulatedCharger; connectors: Record<string, number> };
const stops: Array<() => Promise<void>> = [];
const seen: SimulatorEvent[] = [];

const charger = async (id: string) =>
  (await t.call('GET', `/api/charger/${id}`, { token: admin })).body.charger;
const post = (id: string, path: string, body: unknown) =>
  t.call('POST', `/api/charger/${id}/${path}`, { token: admin, body });
const commandsSeen = (id: string, action: string) =>
  seen
    .filter((e) => e.type === 'command' && e.id === id && e.action === action)
    .map((e) => (e as { params: unknown }).params);

beforeAll(async () => {
  t = await startTestApp({ OCPP_COMMAND_TIMEOUT_MS: '2000' });
  admin = (await signedInUser(t, { role: 'admin' })).token;
  const place = await chargerPlace(t);
  await createChargers(t, admin, place, ['SIM201-AUTO'], { connectors: 2 });
  await createChargers(t, admin, place, ['SIM201-ONLY'], { connectors: 1, ocppProtocol: '2.0.1' });
  await createChargers(t, admin, place, ['SIM16-MIXED'], { connectors: 1 });
  // The twins: 8.00 baht per kWh, 3 baht per overstay minute, 5 baht per minute once a DC charge is full.
  const priced = await chargerPlace(t);
  priced.price = await createPrice(t, {
    method: 'KW',
    bahtPerKwh: '8.00',
    penaltyBahtPerMin: '3.00',
    penaltyDcFullBahtPerMin: '5.00',
  });
  const created = await createChargers(t, admin, priced, ['TWIN16-01', 'TWIN201-01'], { connectors: 1 });
  const twin16 = await simulate(t, [{ id: 'TWIN16-01', connectors: 1 }], { onEvent: (e) => seen.push(e) });
  const twin201 = await simulate201(t, [{ id: 'TWIN201-01', connectors: 1 }], {
    onEvent: (e) => seen.push(e),
  });
  stops.push(twin16.stop, twin201.stop);
  twins = {
    v16: twin16.chargers[0]!,
    v201: twin201.chargers[0]!,
    connectors: Object.fromEntries(created.map((c) => [c.id, c.connectorIds[0]!])),
  };
});
afterAll(async () => {
  for (const stop of stops) await stop();
  await simulation201?.stop();
  await simulation16?.stop();
  await t.close();
});

describe('the simulated 2.0.1 charger on the real server', () => {
  it('connects in 2.0.1 (Automatic or set to 2.0.1), boots and reports its EVSEs; a 1.6 one beside it stays 1.6', async () => {
    simulation201 = await simulate201(
      t,
      [
        { id: 'SIM201-AUTO', connectors: 2 },
        { id: 'SIM201-ONLY', connectors: 1 },
      ],
      { onEvent: (event) => seen.push(event) },
    );
    simulation16 = await simulate(t, [{ id: 'SIM16-MIXED', connectors: 1 }]);
    expect([simulation201.failed, simulation16.failed]).toEqual([[], []]);
    const auto = await eventually(async () => {
      const c = await charger('SIM201-AUTO');
      const ready = c.vendor === 'EV Simulator' && c.protocol === 'ocpp2.0.1';
      return ready && c.connectors.every((n: { status: string }) => n.status === 'AVAILABLE') ? c : null;
    });
    expect(auto).toMatchObject({
      model: 'SIM201-2C',
      firmwareVersion: simulation201.chargers[0]!.firmwareVersion,
    });
    await eventually(async () => (await charger('SIM201-ONLY')).protocol === 'ocpp2.0.1');
    await eventually(async () => (await charger('SIM16-MIXED')).protocol === 'ocpp1.6');

    // A status change reaches the connector: EVSE 2, connector 1 is our connector 2.
    await simulation201.chargers[0]!.setStatus(2, 'Unavailable');
    await eventually(async () => (await charger('SIM201-AUTO')).connectors[1].status === 'UNAVAILABLE');
    await simulation201.chargers[0]!.setStatus(2, 'Available');
  });

  it("answers staff's operations in 2.0.1 with its own words", async () => {
    const id = 'SIM201-AUTO';
    expect((await post(id, 'unlock', { connectorId: 2 })).body).toEqual({ status: 'Unlocked' });
    expect(commandsSeen(id, 'UnlockConnector')).toEqual([{ evseId: 2, connectorId: 1 }]);
    expect((await post(id, 'clear-cache', {})).body).toEqual({ status: 'Accepted' });
    expect(
      (await post(id, 'trigger', { requestedMessage: 'StatusNotification', connectorId: 1 })).body,
    ).toEqual({
      status: 'Accepted',
    });
    expect((await post(id, 'availability', { connectorId: 1, type: 'Inoperative' })).body).toEqual({
      status: 'Accepted',
    });
    await eventually(async () => (await charger(id)).connectors[0].status === 'UNAVAILABLE');
    expect((await post(id, 'availability', { connectorId: 0, type: 'Operative' })).body).toEqual({
      status: 'Accepted',
    });
    await eventually(async () => (await charger(id)).connectors[0].status === 'AVAILABLE');
    expect(commandsSeen(id, 'ChangeAvailability')).toEqual([
      { operationalStatus: 'Inoperative', evse: { id: 1 } },
      { operationalStatus: 'Operative' },
    ]);

    // A soft reset is OnIdle (no session: Accepted), and the charger comes back with reason RemoteReset.
    const boots = () => seen.filter((e) => e.type === 'booted' && e.id === id).length;
    const before = boots();
    expect((await post(id, 'reset', { type: 'Soft' })).body).toEqual({ status: 'Accepted' });
    await eventually(async () => boots() === before + 1);
    expect((await post(id, 'reset', { type: 'Hard' })).body).toEqual({ status: 'Accepted' });
    await eventually(async () => boots() === before + 2 && simulation201.chargers[0]!.connected);
    expect(commandsSeen(id, 'Reset')).toEqual([{ type: 'OnIdle' }, { type: 'Immediate' }]);
  });
});

/** A member signed in through the member API. */
async function member() {
  const user = await createUser(t, { type: 'mobile' });
  const signIn = await t.call('POST', '/api/member/login', { body: { email: user.email, pass: user.pass } });
  expect(signIn.status).toBe(200);
  return { user, token: signIn.body.accessToken as string };
}

const booking = async (id: number) => (await t.call('GET', `/api/booking/${id}`, { token: admin })).body;
const statusOf = (id: number, status: string) =>
  eventually(async () => ((await booking(id)).booking?.status === status ? booking(id) : null));

/** The member's journey on one charger: reserve, check in, start, 12.5 kWh, full, stop, unplug, priced. */
async function journey(charger: AnySimulatedCharger) {
  const driver = await member();
  const now = Date.now();
  const reserved = await t.call('POST', '/api/member/booking', {
    token: driver.token,
    body: {
      connectorId: twins.connectors[charger.spec.id],
      slotStart: new Date(now).toISOString(),
      slotEnd: new Date(now + 3_600_000).toISOString(),
    },
  });
  expect(reserved.status, JSON.stringify(reserved.body)).toBe(200);
  const id = reserved.body.booking.id as number;
  await eventually(async () =>
    ((await booking(id)).history as Array<{ event: string }>).some(
      (entry) => entry.event === 'charger-reserve',
    ),
  );
  await t.call('POST', `/api/member/booking/${id}/check-in`, { token: driver.token });
  const started = await t.call('POST', `/api/member/booking/${id}/start`, { token: driver.token });
  expect(started.status, JSON.stringify(started.body)).toBe(200);
  await statusOf(id, 'charging');
  await charger.sendMeterValue(1, { addWh: 12_500, soc: 80 });
  await eventually(async () => (await booking(id)).booking.totalEnergyKwh === 12.5);
  await charger.fill(1);
  await eventually(async () => (await booking(id)).booking.fullAt);
  await charger.stopCharging(1, 'EVDisconnected');
  await statusOf(id, 'charged');
  await charger.unplug(1);
  const detail = await statusOf(id, 'stopped');
  const history = (detail.history as Array<{ event: string; actor: string; toStatus: string }>).map(
    (entry) => `${entry.event}:${entry.actor}:${entry.toStatus}`,
  );
  return { booking: detail.booking, history };
}

describe("a member's session on the simulated 2.0.1 charger", () => {
  it('reserve → check in → start → meter values → full → stop → unplug: priced as on its 1.6 twin', async () => {
    const v16 = await journey(twins.v16);
    const v201 = await journey(twins.v201);
    // The charger got RequestStartTransaction with the booking as remoteStartId, and started with it.
    const request = commandsSeen('TWIN201-01', 'RequestStartTransaction')[0] as { remoteStartId: number };
    expect(request.remoteStartId).toBeGreaterThan(0);
    expect(commandsSeen('TWIN201-01', 'ReserveNow')).toHaveLength(1);
    expect(v201.history).toEqual(v16.history);
    // 12.5 kWh × 8.00 = 100.00 on both; the full-to-stop penalty is at most a minute's 5.00 on either.
    for (const { booking: b } of [v16, v201]) {
      expect(b).toMatchObject({ priceByPower: 100, priceByDuration: 0, totalEnergyKwh: 12.5, soc: 100 });
      expect([0, 5]).toContain(b.priceByPenalty);
    }
  });
});
