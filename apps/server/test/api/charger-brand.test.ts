import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createCharger,
  createChargerBrand,
  createLandlord,
  createMerchant,
  createPrice,
  signedInUser,
} from '../helpers/factories.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';

let t: TestApp;
let admin: string;
/** Four brands: two AC, two DC; Delta is inactive. */
let abb: { id: number };
let delta: { id: number };
let wallbox: { id: number };
let abbDc: { id: number };

const form = { name: 'Schneider EVlink', powerType: 'AC', minPowerKw: 7.4 };

beforeAll(async () => {
  t = await startTestApp();
  admin = (await signedInUser(t, { role: 'admin' })).token;
  abb = await createChargerBrand(t, { name: 'ABB Terra AC', powerType: 'AC', minPowerKw: '22.00' });
  delta = await createChargerBrand(t, {
    name: 'Delta DC Wallbox',
    powerType: 'DC',
    minPowerKw: '1250.50',
    active: false,
  });
  wallbox = await createChargerBrand(t, { name: 'Wallbox Pulsar', powerType: 'AC', minPowerKw: '7.40' });
  abbDc = await createChargerBrand(t, { name: 'abb Terra 184', powerType: 'DC', minPowerKw: '180.00' });
});
afterAll(() => t.close());

const list = (query: string, token = admin) => t.call('GET', `/api/charger-brand?${query}`, { token });
const ids = (body: { chargerBrands: Array<{ id: number }> }) => body.chargerBrands.map((b) => b.id);

describe('GET /api/charger-brand', () => {
  it('answers { total, chargerBrands } with the minimum power as a number', async () => {
    const response = await list('sort=id');
    expect(response.status).toBe(200);
    expect(response.body.total).toBe(4);
    expect(response.body.chargerBrands[1]).toEqual({
      id: delta.id,
      name: 'Delta DC Wallbox',
      powerType: 'DC',
      minPowerKw: 1250.5,
      active: false,
    });
    expect(ids(response.body)).toEqual([abb.id, delta.id, wallbox.id, abbDc.id]);
  });

  it('filters by part of the name in any case, and by power type', async () => {
    expect(ids((await list('name=abb&sort=id')).body)).toEqual([abb.id, abbDc.id]);
    expect(ids((await list('name=TERRA%20AC')).body)).toEqual([abb.id]);
    expect(ids((await list('name=wallbox&sort=id')).body)).toEqual([delta.id, wallbox.id]);
    expect(ids((await list('powerType=DC&sort=id')).body)).toEqual([delta.id, abbDc.id]);
    expect(ids((await list('name=abb&powerType=DC')).body)).toEqual([abbDc.id]);
    // LIKE wildcards typed in the name match themselves only.
    expect((await list('name=%25')).body).toEqual({ total: 0, chargerBrands: [] });
    expect((await list('name=_')).body.total).toBe(0);
    expect((await list('powerType=HV')).status).toBe(400);
  });

  it('sorts by every column either way, and pages with the total', async () => {
    expect(ids((await list('sort=minPowerKw&order=desc')).body)).toEqual([
      delta.id,
      abbDc.id,
      abb.id,
      wallbox.id,
    ]);
    expect(ids((await list('sort=minPowerKw&order=asc')).body)).toEqual([
      wallbox.id,
      abb.id,
      abbDc.id,
      delta.id,
    ]);
    expect(ids((await list('sort=powerType&order=asc')).body)).toEqual([
      abb.id,
      wallbox.id,
      delta.id,
      abbDc.id,
    ]);
    expect(ids((await list('sort=active&order=asc')).body)[0]).toBe(delta.id);
    expect(ids((await list('sort=id&order=desc')).body)[0]).toBe(abbDc.id);
    expect((await list('sort=name&order=asc')).status).toBe(200);
    expect((await list('sort=createdAt')).status).toBe(400);

    const second = await list('sort=id&page=2&size=3');
    expect(second.body.total).toBe(4);
    expect(ids(second.body)).toEqual([abbDc.id]);
    const filtered = await list('powerType=AC&size=1&page=2&sort=id');
    expect(filtered.body).toMatchObject({ total: 2, chargerBrands: [{ id: wallbox.id }] });
  });

  it('answers mode=dropdown with every brand by name, and no paging', async () => {
    const response = await list('mode=dropdown');
    expect(response.status).toBe(200);
    expect(response.body.total).toBeUndefined();
    expect(response.body.chargerBrands).toContainEqual({
      id: wallbox.id,
      name: 'Wallbox Pulsar',
      powerType: 'AC',
      minPowerKw: 7.4,
    });
    expect(response.body.chargerBrands.length).toBeGreaterThanOrEqual(4);
  });
});

describe('charger brand setting', () => {
  it('creates a brand, reads it back, saves changes and toggles the active flag', async () => {
    const created = await t.call('POST', '/api/charger-brand', { token: admin, body: form });
    expect(created.status).toBe(200);
    expect(created.body).toEqual({ message: 'Success', id: expect.any(Number) });
    const id = created.body.id as number;
    const read = await t.call('GET', `/api/charger-brand/${id}`, { token: admin });
    expect(read.status).toBe(200);
    expect(read.body).toEqual({ chargerBrand: { id, ...form, active: true } });

    const saved = await t.call('PATCH', `/api/charger-brand/${id}`, {
      token: admin,
      body: { name: '  Schneider EVlink Pro  ', powerType: 'DC', minPowerKw: 1234567.89 },
    });
    expect(saved.status).toBe(200);
    expect((await t.call('GET', `/api/charger-brand/${id}`, { token: admin })).body.chargerBrand).toEqual({
      id,
      name: 'Schneider EVlink Pro',
      powerType: 'DC',
      minPowerKw: 1234567.89,
      active: true,
    });

    expect(
      (await t.call('PATCH', `/api/charger-brand/${id}`, { token: admin, body: { active: false } })).status,
    ).toBe(200);
    expect(
      (await t.call('GET', `/api/charger-brand/${id}`, { token: admin })).body.chargerBrand,
    ).toMatchObject({ name: 'Schneider EVlink Pro', active: false });
    expect((await t.call('DELETE', `/api/charger-brand/${id}`, { token: admin })).status).toBe(200);
  });

  it('answers 404 for an unknown brand', async () => {
    expect((await t.call('GET', '/api/charger-brand/999999', { token: admin })).status).toBe(404);
    expect(
      (await t.call('PATCH', '/api/charger-brand/999999', { token: admin, body: { active: true } })).status,
    ).toBe(404);
    expect((await t.call('PATCH', '/api/charger-brand/999999', { token: admin, body: form })).status).toBe(
      404,
    );
    expect((await t.call('DELETE', '/api/charger-brand/999999', { token: admin })).status).toBe(404);
  });

  it.each([
    [{ ...form, name: undefined }, 'body.name: Name is required.'],
    [{ ...form, name: '' }, 'body.name: Name is required.'],
    [{ ...form, name: '   ' }, 'body.name: Name is not whitespace'],
    [{ ...form, name: 'x'.repeat(256) }, 'body.name: Please enter no more than 255 characters.'],
    [{ ...form, powerType: undefined }, 'body.powerType: Power Type is required.'],
    [{ ...form, powerType: '' }, 'body.powerType: Power Type is required.'],
    [{ ...form, powerType: 'HV' }, 'body.powerType: Power Type is required.'],
    [{ ...form, minPowerKw: undefined }, 'body.minPowerKw: Min Power is required.'],
    [{ ...form, minPowerKw: null }, 'body.minPowerKw: Min Power is required.'],
    [{ ...form, minPowerKw: '50' }, 'body.minPowerKw: Min Power is required.'],
    [{ ...form, minPowerKw: 0 }, 'body.minPowerKw: Min Power must be at least 0.01.'],
    [{ ...form, minPowerKw: -5 }, 'body.minPowerKw: Min Power must be at least 0.01.'],
    [{ ...form, minPowerKw: 7.455 }, 'body.minPowerKw: Min Power must have at most 2 decimals.'],
    [{ ...form, minPowerKw: 10_000_000 }, 'body.minPowerKw: Min Power must be at most 9,999,999.99.'],
  ])('refuses an invalid form with the spec message (%#)', async (body, message) => {
    for (const [method, path] of [
      ['POST', '/api/charger-brand'],
      ['PATCH', `/api/charger-brand/${abb.id}`],
    ] as const) {
      const response = await t.call(method, path, { token: admin, body });
      expect(response.status, method).toBe(400);
      expect(response.body, method).toEqual({ message });
    }
  });

  it('takes the smallest and largest minimum power', async () => {
    for (const minPowerKw of [0.01, 9_999_999.99]) {
      const created = await t.call('POST', '/api/charger-brand', {
        token: admin,
        body: { ...form, minPowerKw },
      });
      expect(created.status).toBe(200);
      const read = await t.call('GET', `/api/charger-brand/${created.body.id}`, { token: admin });
      expect(read.body.chargerBrand.minPowerKw).toBe(minPowerKw);
      await t.call('PATCH', `/api/charger-brand/${created.body.id}`, {
        token: admin,
        body: { active: false },
      });
      await t.call('DELETE', `/api/charger-brand/${created.body.id}`, { token: admin });
    }
  });
});

describe('DELETE /api/charger-brand/:id', () => {
  it('deletes an inactive, unused brand', async () => {
    const { id } = await createChargerBrand(t, { active: false });
    expect((await t.call('DELETE', `/api/charger-brand/${id}`, { token: admin })).body).toEqual({
      message: 'Success',
    });
    expect((await t.call('GET', `/api/charger-brand/${id}`, { token: admin })).status).toBe(404);
  });

  it('refuses an active brand, and a brand a charger uses', async () => {
    const active = await t.call('DELETE', `/api/charger-brand/${abb.id}`, { token: admin });
    expect(active.status).toBe(409);
    expect(active.body).toEqual({ message: expect.any(String) });

    const used = await createChargerBrand(t, { name: 'Used Brand', active: false });
    const merchant = await createMerchant(t);
    const site = await createLandlord(t, merchant.id);
    const price = await createPrice(t);
    await createCharger(t, { landlordId: site.id, chargerBrandId: used.id, priceId: price.id });
    const response = await t.call('DELETE', `/api/charger-brand/${used.id}`, { token: admin });
    expect(response.status).toBe(409);
    expect(response.body).toEqual({ message: "Can't delete already used item" });
    expect((await t.call('GET', `/api/charger-brand/${used.id}`, { token: admin })).status).toBe(200);
  });
});

describe('GET /api/charger-brand?mode=xlsx', () => {
  it('streams the filtered brands as a workbook in the list order, with typed cells', async () => {
    const response = await fetch(`${t.url}/api/charger-brand?mode=xlsx&name=abb&sort=minPowerKw&order=desc`, {
      headers: { 'x-access-token': admin },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-disposition')).toMatch(/filename="Charger-Brand_\d{14}\.xlsx"/);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(await response.arrayBuffer());
    const sheet = workbook.worksheets[0]!;
    const rows = (sheet.getSheetValues().filter(Boolean) as unknown[][]).map((row) => row.slice(1));
    expect(rows).toEqual([
      ['ID', 'Name', 'Power Type', 'Min Power (kW)', 'Active'],
      [abbDc.id, 'abb Terra 184', 'DC', 180, true],
      [abb.id, 'ABB Terra AC', 'AC', 22, true],
    ]);
    expect(sheet.getRow(2).getCell(4).type).toBe(ExcelJS.ValueType.Number);
  });

  it("answers 404 with the spec's message when nothing matches", async () => {
    const response = await list('mode=xlsx&name=no-such-brand');
    expect(response.status).toBe(404);
    expect(response.body).toEqual({ message: 'No matched changer brand found' });
  });
});

describe('permissions', () => {
  it.each(['merchant', 'party', 'landlord', 'callcenter', 'station', 'marketting'] as const)(
    'refuses %s the list, export, record and changes (403) but not the dropdown',
    async (role) => {
      const { token } = await signedInUser(t, { role });
      expect((await list('', token)).status).toBe(403);
      expect((await list('mode=xlsx', token)).status).toBe(403);
      expect((await t.call('GET', `/api/charger-brand/${abb.id}`, { token })).status).toBe(403);
      expect((await t.call('POST', '/api/charger-brand', { token, body: form })).status).toBe(403);
      expect(
        (await t.call('PATCH', `/api/charger-brand/${delta.id}`, { token, body: { active: true } })).status,
      ).toBe(403);
      expect((await t.call('DELETE', `/api/charger-brand/${delta.id}`, { token })).status).toBe(403);
      const dropdown = await list('mode=dropdown', token);
      expect(dropdown.status).toBe(200);
      expect(dropdown.body.chargerBrands.map((b: { id: number }) => b.id)).toContain(abb.id);
    },
  );

  it('answers 401 signed out, on every call', async () => {
    for (const [method, path] of [
      ['GET', '/api/charger-brand'],
      ['GET', '/api/charger-brand?mode=dropdown'],
      ['GET', '/api/charger-brand?mode=xlsx'],
      ['GET', `/api/charger-brand/${abb.id}`],
      ['POST', '/api/charger-brand'],
      ['PATCH', `/api/charger-brand/${abb.id}`],
      ['DELETE', `/api/charger-brand/${delta.id}`],
    ] as const) {
      const response = await t.call(
        method,
        path,
        method === 'GET' || method === 'DELETE' ? {} : { body: form },
      );
      expect(response.status, `${method} ${path}`).toBe(401);
    }
    expect((await t.call('GET', `/api/charger-brand/${delta.id}`, { token: admin })).status).toBe(200);
  });
});
