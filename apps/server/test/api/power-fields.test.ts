import { POWER_FIELD_MESSAGES as M } from '@ev/shared';
import { asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chargers, powerSamples } from '../../src/db/schema/index.ts';
import { memberTag } from '../../src/modules/member/member.service.ts';
import { createMember } from '../helpers/bookings.ts';
import {
  createChargerBrand,
  createLandlord,
  createMerchant,
  createParty,
  signedInUser,
} from '../helpers/factories.ts';
import { chargerPlace } from '../helpers/ocpp.ts';
import { iso, station16 } from '../helpers/ocpp201.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';

/**
 * The power limit fields (issue 34 §1): a site's Max power (kW) with its Phases and Voltage (V), a charger's
 * Max power (kW). Optional, empty = no limit; a bad value is a 400 with its message, never changed; absent from
 * a body keeps what is stored, null clears; only roles that may edit the site or charger set them, in scope.
 */
let t: TestApp;
let admin: string;
let bangkok: { id: number };
let chiangMai: { id: number };
let siam: { id: number };
let nimman: { id: number };
let group: { id: number };
let brand: { id: number };
let sequence = 0;

beforeAll(async () => {
  t = await startTestApp();
  admin = (await signedInUser(t, { role: 'admin' })).token;
  bangkok = await createMerchant(t, { nameEn: 'Bangkok Cluster' });
  chiangMai = await createMerchant(t, { nameEn: 'Chiang Mai Cluster' });
  siam = await createLandlord(t, bangkok.id, { nameEn: 'Siam Paragon' });
  nimman = await createLandlord(t, chiangMai.id, { nameEn: 'One Nimman' });
  group = await createParty(t, [siam.id]);
  brand = await createChargerBrand(t, { name: 'Wallbox AC', powerType: 'AC', minPowerKw: '7.40' });
});
afterAll(() => t.close());

const siteForm = (overrides: Record<string, unknown> = {}) => ({
  merchantId: bangkok.id,
  nameEn: `Power Site ${++sequence}`,
  nameTh: 'สถานี',
  latitude: 13.75,
  longitude: 100.5,
  businessHoursType: '24H',
  ...overrides,
});
const readSite = async (id: number, token = admin) =>
  (await t.call('GET', `/api/landlord/${id}`, { token })).body.landlord;
const power = (site: { maxPowerKw: unknown; phases: unknown; voltage: unknown }) => ({
  maxPowerKw: site.maxPowerKw,
  phases: site.phases,
  voltage: site.voltage,
});
async function newSite(overrides: Record<string, unknown> = {}) {
  const created = await t.call('POST', '/api/landlord', { token: admin, body: siteForm(overrides) });
  expect(created.status, JSON.stringify(created.body)).toBe(200);
  return created.body.id as number;
}

const chargerForm = (id: string, overrides: Record<string, unknown> = {}) => ({
  id,
  nameEn: 'Power charger',
  nameTh: 'เครื่องชาร์จ',
  landlordId: siam.id,
  chargerBrandId: brand.id,
  connectors: [],
  ...overrides,
});
const readCharger = async (id: string, token = admin) =>
  (await t.call('GET', `/api/charger/${id}`, { token })).body.charger;
async function newCharger(overrides: Record<string, unknown> = {}) {
  const id = `PWR-${++sequence}`;
  const created = await t.call('POST', '/api/charger', { token: admin, body: chargerForm(id, overrides) });
  expect(created.status, JSON.stringify(created.body)).toBe(200);
  return id;
}

describe('site: Max power (kW), Phases, Voltage (V)', () => {
  it('saves and answers them; a site without them has no limit', async () => {
    const limited = await newSite({ maxPowerKw: 100.5, phases: 3, voltage: 230 });
    expect(power(await readSite(limited))).toEqual({ maxPowerKw: 100.5, phases: 3, voltage: 230 });
    const plain = await newSite();
    expect(power(await readSite(plain))).toEqual({ maxPowerKw: null, phases: null, voltage: null });
    // A DC-only site needs no phases: a limit alone is enough.
    const watts = await newSite({ maxPowerKw: 60, phases: null, voltage: null });
    expect(power(await readSite(watts))).toEqual({ maxPowerKw: 60, phases: null, voltage: null });
  });

  it('takes the bounds as typed: 0.01 and 100,000 kW, 1 phase at 100 V, 3 at 1000 V', async () => {
    const low = await newSite({ maxPowerKw: 0.01, phases: 1, voltage: 100 });
    expect(power(await readSite(low))).toEqual({ maxPowerKw: 0.01, phases: 1, voltage: 100 });
    const high = await newSite({ maxPowerKw: 100_000, phases: 3, voltage: 1000 });
    expect(power(await readSite(high))).toEqual({ maxPowerKw: 100_000, phases: 3, voltage: 1000 });
  });

  it('keeps them when a body leaves them out, clears them with null, changes them with a value', async () => {
    const id = await newSite({ maxPowerKw: 80, phases: 3, voltage: 230 });
    const patch = (body: unknown) => t.call('PATCH', `/api/landlord/${id}`, { token: admin, body });
    // A client that does not know the fields (the form before issue 34) never removes a limit.
    expect((await patch(siteForm({ nameEn: 'Renamed' }))).status).toBe(200);
    expect(await readSite(id)).toMatchObject({ nameEn: 'Renamed', maxPowerKw: 80, phases: 3, voltage: 230 });
    expect((await patch({ active: false })).status).toBe(200);
    expect(power(await readSite(id))).toEqual({ maxPowerKw: 80, phases: 3, voltage: 230 });
    expect((await patch(siteForm({ maxPowerKw: 42.25, phases: 1, voltage: 220 }))).status).toBe(200);
    expect(power(await readSite(id))).toEqual({ maxPowerKw: 42.25, phases: 1, voltage: 220 });
    // Phases and voltage stay when only the limit is removed: they describe the supply, not the limit.
    expect((await patch(siteForm({ maxPowerKw: null }))).status).toBe(200);
    expect(power(await readSite(id))).toEqual({ maxPowerKw: null, phases: 1, voltage: 220 });
    expect((await patch(siteForm({ maxPowerKw: null, phases: null, voltage: null }))).status).toBe(200);
    expect(power(await readSite(id))).toEqual({ maxPowerKw: null, phases: null, voltage: null });
  });

  const refusals: Array<[string, Record<string, unknown>, string]> = [
    ['0 kW', { maxPowerKw: 0 }, `body.maxPowerKw: ${M.maxPowerKwMin}`],
    ['a negative limit', { maxPowerKw: -5 }, `body.maxPowerKw: ${M.maxPowerKwMin}`],
    ['above 100,000 kW', { maxPowerKw: 100_000.01 }, `body.maxPowerKw: ${M.maxPowerKwMax}`],
    ['3 decimals', { maxPowerKw: 12.345 }, `body.maxPowerKw: ${M.maxPowerKwStep}`],
    ['a tiny fraction', { maxPowerKw: 1e-7 }, `body.maxPowerKw: ${M.maxPowerKwStep}`],
    ['text', { maxPowerKw: '50' }, `body.maxPowerKw: ${M.maxPowerKw}`],
    ['2 phases', { maxPowerKw: 50, phases: 2, voltage: 230 }, `body.phases: ${M.phases}`],
    ['1.5 phases', { maxPowerKw: 50, phases: 1.5, voltage: 230 }, `body.phases: ${M.phases}`],
    ['phases as text', { maxPowerKw: 50, phases: '3', voltage: 230 }, `body.phases: ${M.phases}`],
    ['99 V', { maxPowerKw: 50, phases: 3, voltage: 99 }, `body.voltage: ${M.voltage}`],
    ['1001 V', { maxPowerKw: 50, phases: 3, voltage: 1001 }, `body.voltage: ${M.voltage}`],
    ['230.5 V', { maxPowerKw: 50, phases: 3, voltage: 230.5 }, `body.voltage: ${M.voltage}`],
    ['voltage as text', { maxPowerKw: 50, phases: 3, voltage: '230' }, `body.voltage: ${M.voltage}`],
    ['phases without voltage', { maxPowerKw: 50, phases: 3 }, `body.voltage: ${M.voltageRequired}`],
    [
      'phases with an empty voltage',
      { maxPowerKw: 50, phases: 1, voltage: null },
      `body.voltage: ${M.voltageRequired}`,
    ],
    ['voltage without phases', { voltage: 230 }, `body.phases: ${M.phasesRequired}`],
  ];

  it.each(refusals)(
    'refuses %s on POST with its message, and creates nothing',
    async (_, fields, message) => {
      const nameEn = `Refused ${++sequence}`;
      const response = await t.call('POST', '/api/landlord', {
        token: admin,
        body: siteForm({ nameEn, ...fields }),
      });
      expect(response.status).toBe(400);
      expect(response.body).toEqual({ message });
      const found = await t.call('GET', `/api/landlord?mode=dropdown&merchantId=${bangkok.id}`, {
        token: admin,
      });
      expect(found.body.landlords.map((site: { nameEn: string }) => site.nameEn)).not.toContain(nameEn);
    },
  );

  it.each(refusals)(
    'refuses %s on PATCH with its message, and keeps the stored limit',
    async (_, fields, message) => {
      const id = await newSite({ maxPowerKw: 75, phases: 3, voltage: 230 });
      const response = await t.call('PATCH', `/api/landlord/${id}`, { token: admin, body: siteForm(fields) });
      expect(response.status).toBe(400);
      expect(response.body).toEqual({ message });
      expect(power(await readSite(id))).toEqual({ maxPowerKw: 75, phases: 3, voltage: 230 });
    },
  );

  it('lets the roles that edit the site set them in their scope, and refuses the others', async () => {
    const id = await newSite();
    const body = siteForm({ maxPowerKw: 30, phases: 3, voltage: 230 });
    const merchant = (await signedInUser(t, { role: 'merchant', merchantId: bangkok.id })).token;
    expect((await t.call('PATCH', `/api/landlord/${id}`, { token: merchant, body })).status).toBe(200);
    expect(power(await readSite(id))).toEqual({ maxPowerKw: 30, phases: 3, voltage: 230 });

    const landlord = (await signedInUser(t, { role: 'landlord', landlordId: siam.id })).token;
    const own = { ...body, nameEn: 'Siam Paragon', maxPowerKw: 250 };
    expect((await t.call('PATCH', `/api/landlord/${siam.id}`, { token: landlord, body: own })).status).toBe(
      200,
    );
    expect((await readSite(siam.id, landlord)).maxPowerKw).toBe(250);

    // Roles that only read the site (group, customer station): 403, as for any edit; marketting sees no site.
    for (const role of ['party', 'station', 'marketting'] as const) {
      const { token } = await signedInUser(t, { role, partyId: group.id });
      const refused = await t.call('PATCH', `/api/landlord/${siam.id}`, {
        token,
        body: { ...own, maxPowerKw: 1 },
      });
      expect(refused.status, role).toBe(403);
    }
    // Outside its scope a site does not exist for the caller.
    const outside = await t.call('PATCH', `/api/landlord/${nimman.id}`, {
      token: merchant,
      body: siteForm({ merchantId: chiangMai.id, maxPowerKw: 1 }),
    });
    expect(outside.status).toBe(404);
    expect(power(await readSite(siam.id))).toEqual({ maxPowerKw: 250, phases: 3, voltage: 230 });
    expect((await readSite(nimman.id)).maxPowerKw).toBeNull();
  });

  it('answers them to the roles that read the site, in scope', async () => {
    const station = (await signedInUser(t, { role: 'station', partyId: group.id })).token;
    expect(await readSite(siam.id, station)).toMatchObject({ maxPowerKw: 250, phases: 3, voltage: 230 });
    expect((await t.call('GET', `/api/landlord/${nimman.id}`, { token: station })).status).toBe(404);
  });
});

describe('charger: Max power (kW)', () => {
  it('saves and answers it in the detail and the list; none by default', async () => {
    const limited = await newCharger({ maxPowerKw: 22 });
    expect(await readCharger(limited)).toMatchObject({ maxPowerKw: 22 });
    const listed = await t.call('GET', `/api/charger?id=${limited}`, { token: admin });
    expect(listed.body.chargers[0]).toMatchObject({ id: limited, maxPowerKw: 22 });
    const plain = await newCharger();
    expect((await readCharger(plain)).maxPowerKw).toBeNull();
  });

  it('keeps it when the body leaves it out, clears it with null, changes it with a value', async () => {
    const id = await newCharger({ maxPowerKw: 11 });
    const patch = (body: unknown) => t.call('PATCH', `/api/charger/${id}`, { token: admin, body });
    expect(await patch(chargerForm(id, { nameEn: 'Renamed' }))).toMatchObject({ status: 200 });
    expect(await readCharger(id)).toMatchObject({ nameEn: 'Renamed', maxPowerKw: 11 });
    expect((await patch({ active: false })).status).toBe(200);
    expect((await readCharger(id)).maxPowerKw).toBe(11);
    expect((await patch(chargerForm(id, { maxPowerKw: 7.4 }))).status).toBe(200);
    expect((await readCharger(id)).maxPowerKw).toBe(7.4);
    expect((await patch(chargerForm(id, { maxPowerKw: null }))).status).toBe(200);
    expect((await readCharger(id)).maxPowerKw).toBeNull();
  });

  it.each([
    [0, M.maxPowerKwMin],
    [-1, M.maxPowerKwMin],
    [100_001, M.maxPowerKwMax],
    [7.125, M.maxPowerKwStep],
    ['22', M.maxPowerKw],
  ])('refuses %s kW with its message on POST and PATCH', async (maxPowerKw, message) => {
    const id = `PWR-BAD-${++sequence}`;
    const created = await t.call('POST', '/api/charger', {
      token: admin,
      body: chargerForm(id, { maxPowerKw }),
    });
    expect(created.status).toBe(400);
    expect(created.body).toEqual({ message: `body.maxPowerKw: ${message}` });
    expect((await t.call('GET', `/api/charger/${id}`, { token: admin })).status).toBe(404);

    const kept = await newCharger({ maxPowerKw: 50 });
    const saved = await t.call('PATCH', `/api/charger/${kept}`, {
      token: admin,
      body: chargerForm(kept, { maxPowerKw }),
    });
    expect(saved.status).toBe(400);
    expect(saved.body).toEqual({ message: `body.maxPowerKw: ${message}` });
    expect((await readCharger(kept)).maxPowerKw).toBe(50);
  });

  it('lets the charger roles set it in their scope and refuses a role without chargers', async () => {
    const id = await newCharger();
    const merchant = (await signedInUser(t, { role: 'merchant', merchantId: bangkok.id })).token;
    const body = chargerForm(id, { maxPowerKw: 15 });
    expect((await t.call('PATCH', `/api/charger/${id}`, { token: merchant, body })).status).toBe(200);
    expect((await readCharger(id)).maxPowerKw).toBe(15);

    const marketting = (await signedInUser(t, { role: 'marketting' })).token;
    const refused = await t.call('PATCH', `/api/charger/${id}`, {
      token: marketting,
      body: { ...body, maxPowerKw: 1 },
    });
    expect(refused.status).toBe(403);
    const outsider = (await signedInUser(t, { role: 'merchant', merchantId: chiangMai.id })).token;
    const outside = await t.call('PATCH', `/api/charger/${id}`, {
      token: outsider,
      body: { ...body, maxPowerKw: 1 },
    });
    expect(outside.status).toBe(404);
    expect((await readCharger(id)).maxPowerKw).toBe(15);
  });

  it("answers the charger's answer to its default profile beside it, and when", async () => {
    // At a site without a limit, once the power work its creation caused is done: nothing else writes it.
    const id = await newCharger({ merchantId: chiangMai.id, landlordId: nimman.id });
    await t.app.power.settled();
    expect((await t.call('GET', `/api/charger/${id}`, { token: admin })).body.powerProfile).toBeNull();
    const at = new Date('2026-05-01T03:04:05.000Z');
    await t.database.db
      .update(chargers)
      .set({ defaultProfileStatus: 'Rejected', defaultProfileAt: at })
      .where(eq(chargers.id, id));
    expect((await t.call('GET', `/api/charger/${id}`, { token: admin })).body.powerProfile).toEqual({
      status: 'Rejected',
      at: at.toISOString(),
    });
    // The form does not carry it: a body with it is refused like any unknown key.
    const refused = await t.call('PATCH', `/api/charger/${id}`, {
      token: admin,
      body: chargerForm(id, { defaultProfileStatus: 'Accepted' }),
    });
    expect(refused.status).toBe(400);
  });
});

describe('an edited limit reaches the live load at once', () => {
  it("keeps a site's readings from the save that sets its limit, and none from the save that removes it", async () => {
    const place = await chargerPlace(t);
    const s = await station16(t, admin, place, 'PWR-LIVE-01');
    const connectorId = s.connectorIds[0]!;
    const MINUTE = 60_000;
    const T0 = Date.now() - 10 * MINUTE;
    const meter = (transactionId: number, minute: number, wh: number, kw: number) =>
      s.call('MeterValues', {
        connectorId: 1,
        transactionId,
        meterValue: [
          {
            timestamp: iso(T0 + minute * MINUTE),
            sampledValue: [
              { value: String(wh), measurand: 'Energy.Active.Import.Register', unit: 'Wh' },
              { value: String(kw), measurand: 'Power.Active.Import', unit: 'kW' },
            ],
          },
        ],
      });
    const samples = async () => {
      await t.app.jobs.flushPowerSamples();
      const rows = await t.database.db
        .select({ powerW: powerSamples.powerW })
        .from(powerSamples)
        .where(eq(powerSamples.connectorId, connectorId))
        .orderBy(asc(powerSamples.at), asc(powerSamples.id));
      return rows.map((row) => row.powerW);
    };
    const site = await readSite(place.site.id);
    const { id: _id, merchantNameEn: _name, internal: _internal, active: _active, ...form } = site;
    const save = async (fields: Record<string, unknown>) =>
      expect(
        (
          await t.call('PATCH', `/api/landlord/${place.site.id}`, {
            token: admin,
            body: { ...form, ...fields },
          })
        ).status,
      ).toBe(200);

    const tag = await memberTag(t.database.db, (await createMember(t)).id);
    const { transactionId } = await s.start(tag, T0, 1_000);
    // No limit: the recorder learns this charger stands at a site without one, and drops its readings.
    await meter(transactionId, 1, 2_000, 7);
    expect(await samples()).toEqual([]);
    await save({ maxPowerKw: 30 });
    await meter(transactionId, 2, 3_000, 11);
    expect(await samples()).toEqual([11_000]);
    await save({ maxPowerKw: null });
    await meter(transactionId, 3, 4_000, 12);
    expect(await samples()).toEqual([11_000]);
    await s.close();
  });
});
