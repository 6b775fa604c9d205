import type { SimulatorEvent } from '@ev/tools/simulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memberTag } from '../../src/modules/member/member.service.ts';
import { createMember } from '../helpers/bookings.ts';
import { createLandlord, createMerchant, signedInUser } from '../helpers/factories.ts';
import { chargerPlace, createChargers, eventually, simulate } from '../helpers/ocpp.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';

// Operations on one charger (issue 32): through the real server to a simulated charger, with each answer a
// charger can give, the roles and the scope.

const ID = 'OPS-01';
let t: TestApp;
let admin: string;
let callcenter: string;
let siteUser: string;
let outsider: string;
let place: Awaited<ReturnType<typeof chargerPlace>>;
let simulation: Awaited<ReturnType<typeof simulate>>;
const seen: SimulatorEvent[] = [];
const behaviours = new Map<string, 'silent' | 'reject' | 'not-supported'>();

const post = (path: string, body: unknown, token = admin) =>
  t.call('POST', `/api/charger/${encodeURIComponent(ID)}/${path}`, { token, body });
const commandsSeen = (action: string) =>
  seen
    .filter((e) => e.type === 'command' && e.id === ID && e.action === action)
    .map((e) => (e as { params: unknown }).params);
const connectorStatus = async (number: number) => {
  const response = await t.call('GET', `/api/charger/${ID}`, { token: admin });
  const connector = (
    response.body.charger.connectors as Array<{ ocppConnectorId: number; status: string }>
  ).find((c) => c.ocppConnectorId === number);
  return connector?.status;
};

beforeAll(async () => {
  t = await startTestApp({ OCPP_COMMAND_TIMEOUT_MS: '1000' });
  admin = (await signedInUser(t, { role: 'admin' })).token;
  callcenter = (await signedInUser(t, { role: 'callcenter' })).token;
  place = await chargerPlace(t);
  siteUser = (
    await signedInUser(t, { role: 'landlord', merchantId: place.merchant.id, landlordId: place.site.id })
  ).token;
  const other = await createMerchant(t);
  const otherSite = await createLandlord(t, other.id);
  outsider = (await signedInUser(t, { role: 'landlord', merchantId: other.id, landlordId: otherSite.id }))
    .token;
  await createChargers(t, admin, place, [ID], { connectors: 2 });
});
afterAll(async () => {
  await simulation?.stop();
  await t.close();
});

describe('operations on one charger', () => {
  it('answers offline at once (409) before the charger connects', async () => {
    // 409 is the offline path: a charger that does not answer is a 504 after OCPP_COMMAND_TIMEOUT_MS.
    const response = await post('unlock', { connectorId: 1 });
    expect(response.status).toBe(409);
    expect(response.body.message).toBe(`Charger ${ID} is offline.`);
  });

  it('unlocks a connector: Unlocked, UnlockFailed, NotSupported, or no answer (504)', async () => {
    simulation = await simulate(t, [{ id: ID, connectors: 2 }], {
      onEvent: (event) => seen.push(event),
      behaviour: (id) => behaviours.get(id) ?? 'normal',
    });
    const unlocked = await post('unlock', { connectorId: 2 }, callcenter);
    expect(unlocked.status).toBe(200);
    expect(unlocked.body).toEqual({ status: 'Unlocked' });
    expect(commandsSeen('UnlockConnector')).toEqual([{ connectorId: 2 }]);

    behaviours.set(ID, 'reject');
    expect((await post('unlock', { connectorId: 1 })).body).toEqual({ status: 'UnlockFailed' });
    behaviours.set(ID, 'not-supported');
    expect((await post('unlock', { connectorId: 1 })).body).toEqual({ status: 'NotSupported' });
    behaviours.set(ID, 'silent');
    const silent = await post('unlock', { connectorId: 1 });
    expect(silent.status).toBe(504);
    expect(silent.body.message).toBe(`Charger ${ID} did not answer the unlock command within 1 s.`);
    behaviours.clear();
  });

  it('refuses a connector the charger does not have, and bad bodies, naming the field (400)', async () => {
    const missing = await post('unlock', { connectorId: 9 });
    expect(missing.status).toBe(400);
    expect(missing.body.message).toBe(`Charger ${ID} has no connector 9.`);
    for (const body of [
      {},
      { connectorId: '1' },
      { connectorId: 0 },
      { connectorId: 1.5 },
      { connectorId: 1, x: 1 },
    ]) {
      const response = await post('unlock', body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(typeof response.body.message).toBe('string');
    }
    expect((await post('reset', { type: 'Warm' })).body.message).toMatch(/type must be 'Soft' or 'Hard'/);
    expect((await post('availability', { connectorId: -1, type: 'Inoperative' })).status).toBe(400);
    expect((await post('trigger', { requestedMessage: 'StartTransaction' })).body.message).toMatch(
      /requestedMessage must be one of the OCPP 1.6 trigger messages/,
    );
    expect(commandsSeen('UnlockConnector')).toHaveLength(4);
  });

  it('changes availability: the connector goes Unavailable and back, the whole charger with 0', async () => {
    expect((await post('availability', { connectorId: 2, type: 'Inoperative' }, siteUser)).body).toEqual({
      status: 'Accepted',
    });
    await eventually(async () => (await connectorStatus(2)) === 'UNAVAILABLE');
    expect((await post('availability', { connectorId: 2, type: 'Operative' })).body).toEqual({
      status: 'Accepted',
    });
    await eventually(async () => (await connectorStatus(2)) === 'AVAILABLE');
    expect((await post('availability', { connectorId: 0, type: 'Inoperative' })).body).toEqual({
      status: 'Accepted',
    });
    await eventually(
      async () =>
        (await connectorStatus(1)) === 'UNAVAILABLE' && (await connectorStatus(2)) === 'UNAVAILABLE',
    );
    await post('availability', { connectorId: 0, type: 'Operative' });
    await eventually(
      async () => (await connectorStatus(1)) === 'AVAILABLE' && (await connectorStatus(2)) === 'AVAILABLE',
    );
    expect(commandsSeen('ChangeAvailability')).toEqual([
      { connectorId: 2, type: 'Inoperative' },
      { connectorId: 2, type: 'Operative' },
      { connectorId: 0, type: 'Inoperative' },
      { connectorId: 0, type: 'Operative' },
    ]);
  });

  it('answers Scheduled for a connector that is charging, which goes Unavailable once the session stops', async () => {
    const charger = simulation.chargers[0]!;
    // A member's tag: an unknown one is refused (OCPP_UNKNOWN_TAGS=invalid, the default) and stopped.
    const driver = await createMember(t);
    await charger.startCharging(1, await memberTag(t.database.db, driver.id));
    expect((await post('availability', { connectorId: 1, type: 'Inoperative' })).body).toEqual({
      status: 'Scheduled',
    });
    await eventually(async () => (await connectorStatus(1)) === 'CHARGING');
    await charger.stopCharging(1, 'Local');
    await eventually(async () => (await connectorStatus(1)) === 'UNAVAILABLE');
    await post('availability', { connectorId: 1, type: 'Operative' });
    await eventually(async () => (await connectorStatus(1)) === 'AVAILABLE');
  });

  it('triggers a message, which the charger then sends', async () => {
    const before = seen.filter((e) => e.type === 'status' && e.id === ID && e.connectorId === 2).length;
    expect(
      (await post('trigger', { requestedMessage: 'StatusNotification', connectorId: 2 }, siteUser)).body,
    ).toEqual({
      status: 'Accepted',
    });
    await eventually(
      async () =>
        seen.filter((e) => e.type === 'status' && e.id === ID && e.connectorId === 2).length > before,
    );
    expect((await post('trigger', { requestedMessage: 'Heartbeat' })).body).toEqual({ status: 'Accepted' });
    expect((await post('trigger', { requestedMessage: 'MeterValues', connectorId: 3 })).status).toBe(400);
    behaviours.set(ID, 'reject');
    expect((await post('trigger', { requestedMessage: 'BootNotification' })).body).toEqual({
      status: 'Rejected',
    });
    behaviours.clear();
  });

  it('reads and changes the configuration (admin only), as the charger answers', async () => {
    const read = await t.call('GET', `/api/charger/${ID}/configuration`, { token: admin });
    expect(read.status).toBe(200);
    const keys = new Map(
      (read.body.configurationKey as Array<{ key: string; readonly: boolean; value: string | null }>).map(
        (k) => [k.key, k],
      ),
    );
    expect(keys.get('NumberOfConnectors')).toEqual({ key: 'NumberOfConnectors', readonly: true, value: '2' });
    expect(keys.get('MeterValueSampleInterval')).toEqual({
      key: 'MeterValueSampleInterval',
      readonly: false,
      value: '20',
    });
    expect(read.body.unknownKey).toEqual([]);

    const change = (body: unknown, token = admin) =>
      t.call('PATCH', `/api/charger/${ID}/configuration`, { token, body });
    expect((await change({ key: 'MeterValueSampleInterval', value: '30' })).body).toEqual({
      status: 'Accepted',
    });
    const again = await t.call('GET', `/api/charger/${ID}/configuration`, { token: admin });
    expect(
      (again.body.configurationKey as Array<{ key: string; value: string }>).find(
        (k) => k.key === 'MeterValueSampleInterval',
      )?.value,
    ).toBe('30');
    expect((await change({ key: 'VendorSecretKey', value: '1' })).body).toEqual({ status: 'NotSupported' });
    expect((await change({ key: '', value: '1' })).status).toBe(400);
    expect((await change({ key: 'A'.repeat(51), value: '1' })).status).toBe(400);
    expect((await change({ key: 'MeterValueSampleInterval', value: '30' }, callcenter)).status).toBe(403);
    expect((await t.call('GET', `/api/charger/${ID}/configuration`, { token: siteUser })).status).toBe(403);
  });

  it('clears the authorization cache (admin only)', async () => {
    expect((await post('clear-cache', {})).body).toEqual({ status: 'Accepted' });
    expect((await post('clear-cache', {}, callcenter)).status).toBe(403);
    expect(commandsSeen('ClearCache')).toHaveLength(1);
  });

  it('keeps to the scope (404 outside it) and the roles (403)', async () => {
    expect((await post('unlock', { connectorId: 1 }, outsider)).status).toBe(404);
    expect((await post('unlock', { connectorId: 1 }, outsider)).body.message).toBe('Charger not found');
    expect(
      (await t.call('POST', '/api/charger/NO-SUCH/unlock', { token: admin, body: { connectorId: 1 } }))
        .status,
    ).toBe(404);
    const marketing = (await signedInUser(t, { role: 'marketting' })).token;
    expect((await post('unlock', { connectorId: 1 }, marketing)).status).toBe(403);
    expect((await post('reset', { type: 'Hard' }, callcenter)).status).toBe(403);
    expect((await post('reset', { type: 'Hard' }, siteUser)).status).toBe(403);
    expect(commandsSeen('Reset')).toEqual([]);
  });

  it('resets: Soft by the site user, Hard by the admin, and the charger comes back', async () => {
    const boots = () => seen.filter((e) => e.type === 'booted' && e.id === ID).length;
    const booted = boots();
    expect((await post('reset', { type: 'Soft' }, siteUser)).body).toEqual({ status: 'Accepted' });
    await eventually(async () => boots() === booted + 1);
    await eventually(async () => (await post('trigger', { requestedMessage: 'Heartbeat' })).status === 200);
    expect((await post('reset', { type: 'Hard' })).body).toEqual({ status: 'Accepted' });
    await eventually(async () => boots() === booted + 2);
    expect(commandsSeen('Reset')).toEqual([{ type: 'Soft' }, { type: 'Hard' }]);
  });
});
