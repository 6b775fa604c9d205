import type { SimulatorEvent } from '@ev/tools/simulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedInUser } from '../helpers/factories.ts';
import { chargerPlace, createChargers, eventually, simulate, simulate201 } from '../helpers/ocpp.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';

// The simulated OCPP 2.0.1 charger (tools/src/simulator-201.ts) against the real server (issue 33): it offers
// ocpp2.0.1, is spoken to in 2.0.1 (every frame checked against the official schemas on both sides), and answers
// staff's operations as a real 2.0.1 charger does; a 1.6 charger beside it keeps 1.6. Its transactions are
// tested against a bare 2.0.1 server in tools/src/simulator-201.test.ts (the server's TransactionEvent handling
// is another branch's).

let t: TestApp;
let admin: string;
let simulation201: Awaited<ReturnType<typeof simulate201>>;
let simulation16: Awaited<ReturnType<typeof simulate>>;
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
});
afterAll(async () => {
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
