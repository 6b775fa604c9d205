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
/** Four plans with a shared word, so the tests' own creations never change what they count. */
let hourly: { id: number };
let perMinute: { id: number };
let energy: { id: number };
let off: { id: number };
const WORD = 'Zorblat';
const mine = `desc=${WORD}`;

const form = {
  descEn: 'Night saver',
  descTh: 'ราคาประหยัดกลางคืน',
  method: 'KW',
  calculateMethod: 'BAHT_HRS',
  bahtPerKwh: 7.15,
  bahtPerHour: 0,
  penaltyBahtPerMin: 5,
  penaltyDCFullBahtPerMin: 10.5,
  penaltyDCFullDelayMin: 15,
  overrideWeekdays: [
    { dayOfWeek: 1, validTimeFrom: '22:00', validTimeTo: '23:59', bahtPerKwh: 4.5, bahtPerHour: 0 },
    { dayOfWeek: 1, validTimeFrom: '00:00', validTimeTo: '06:00', bahtPerKwh: 4.5, bahtPerHour: 0 },
  ],
  overrides: [
    { validFrom: '2027-04-13 00:00', validTo: '2027-04-15 23:59', bahtPerKwh: 3.99, bahtPerHour: 0 },
  ],
};

beforeAll(async () => {
  t = await startTestApp();
  admin = (await signedInUser(t, { role: 'admin' })).token;
  hourly = await createPrice(t, {
    descEn: `${WORD} Hourly`,
    descTh: 'รายชั่วโมง',
    method: 'HOUR',
    calculateMethod: 'BAHT_HRS',
    bahtPerKwh: '0',
    bahtPerHour: '40.00',
  });
  perMinute = await createPrice(t, {
    descEn: `${WORD} Per minute`,
    descTh: 'รายนาที',
    method: 'HOUR',
    calculateMethod: 'BAHT_MIN',
    bahtPerKwh: '0',
    bahtPerHour: '60.00',
  });
  energy = await createPrice(t, {
    descEn: `${WORD} DC fast`,
    descTh: 'ดีซี เร็วพิเศษ',
    method: 'KW',
    bahtPerKwh: '7.50',
  });
  off = await createPrice(t, {
    descEn: `${WORD} Retired`,
    descTh: 'เลิกใช้ ซอร์บลัต',
    method: 'KW',
    bahtPerKwh: '6.00',
    active: false,
  });
});
afterAll(() => t.close());

const list = (query: string, token = admin) => t.call('GET', `/api/price?${query}`, { token });
const ids = (body: { prices: Array<{ id: number }> }) => body.prices.map((p) => p.id);
const read = async (id: number) => (await t.call('GET', `/api/price/${id}`, { token: admin })).body.price;
const create = (body: unknown, token = admin) => t.call('POST', '/api/price', { token, body });

describe('GET /api/price', () => {
  it('answers a page of plans with amounts as numbers', async () => {
    const response = await list(`${mine}&sort=id`);
    expect(response.status).toBe(200);
    expect(response.body.total).toBe(4);
    expect(response.body.prices[0]).toEqual({
      id: hourly.id,
      descEn: `${WORD} Hourly`,
      descTh: 'รายชั่วโมง',
      method: 'HOUR',
      calculateMethod: 'BAHT_HRS',
      bahtPerKwh: 0,
      bahtPerHour: 40,
      penaltyBahtPerMin: 0,
      penaltyDCFullBahtPerMin: 0,
      penaltyDCFullDelayMin: 0,
      active: true,
    });
    expect(response.body.prices[2]).toMatchObject({ id: energy.id, bahtPerKwh: 7.5, method: 'KW' });
  });

  it('filters by part of either description in any case, method and calculate method', async () => {
    expect(ids((await list(`desc=${WORD.toLowerCase()} dc`)).body)).toEqual([energy.id]);
    // Thai text matches in the Thai description only.
    expect(ids((await list(`desc=${encodeURIComponent('ซอร์บลัต')}`)).body)).toEqual([off.id]);
    expect(ids((await list(`${mine}&method=HOUR&sort=id`)).body)).toEqual([hourly.id, perMinute.id]);
    expect(ids((await list(`${mine}&method=KW&sort=id`)).body)).toEqual([energy.id, off.id]);
    expect(ids((await list(`${mine}&calculateMethod=BAHT_MIN`)).body)).toEqual([perMinute.id]);
    expect(ids((await list(`${mine}&method=HOUR&calculateMethod=BAHT_HRS`)).body)).toEqual([hourly.id]);
    // % and _ are plain characters, not wildcards.
    expect((await list('desc=%25')).body).toEqual({ total: 0, prices: [] });
    expect((await list(`${mine}&method=DAY`)).status).toBe(400);
    expect((await list(`${mine}&calculateMethod=BAHT_SEC`)).status).toBe(400);
  });

  it('sorts by any column either way, and pages with the total', async () => {
    expect(ids((await list(`${mine}&sort=descEn&order=asc`)).body)).toEqual([
      energy.id,
      hourly.id,
      perMinute.id,
      off.id,
    ]);
    expect(ids((await list(`${mine}&sort=bahtPerHour&order=desc`)).body).slice(0, 2)).toEqual([
      perMinute.id,
      hourly.id,
    ]);
    expect(ids((await list(`${mine}&sort=bahtPerKwh&order=desc`)).body).slice(0, 2)).toEqual([
      energy.id,
      off.id,
    ]);
    expect(ids((await list(`${mine}&sort=active&order=asc`)).body)[0]).toBe(off.id);
    expect(ids((await list(`${mine}&sort=calculateMethod&order=desc`)).body)[0]).toBe(perMinute.id);
    expect((await list(`${mine}&sort=penaltyBahtPerMin`)).status).toBe(400);
    const second = await list(`${mine}&sort=id&page=2&size=3`);
    expect(second.body.total).toBe(4);
    expect(ids(second.body)).toEqual([off.id]);
    expect((await list(`${mine}&page=3&size=3`)).body).toEqual({ total: 4, prices: [] });
  });

  it('answers mode=dropdown with exactly the option keys, for every role', async () => {
    const callcenter = (await signedInUser(t, { role: 'callcenter' })).token;
    const response = await list('mode=dropdown', callcenter);
    expect(response.status).toBe(200);
    expect(Object.keys(response.body)).toEqual(['prices']);
    const option = response.body.prices.find((p: { id: number }) => p.id === perMinute.id);
    expect(option).toEqual({
      id: perMinute.id,
      descEn: `${WORD} Per minute`,
      bahtPerKwh: 0,
      bahtPerHour: 60,
      calculateMethod: 'BAHT_MIN',
    });
    for (const item of response.body.prices) {
      expect(Object.keys(item).sort()).toEqual([
        'bahtPerHour',
        'bahtPerKwh',
        'calculateMethod',
        'descEn',
        'id',
      ]);
    }
    // Inactive plans too: a connector may still use one.
    expect(ids(response.body)).toContain(off.id);
  });
});

describe('GET /api/price/:id', () => {
  it('answers empty override lists when there are none, and 404 for an unknown id', async () => {
    const response = await t.call('GET', `/api/price/${energy.id}`, { token: admin });
    expect(response.status).toBe(200);
    expect(response.body.price).toMatchObject({ id: energy.id, overrideWeekdays: [], overrides: [] });
    expect((await t.call('GET', '/api/price/999999', { token: admin })).status).toBe(404);
  });
});

describe('price setting', () => {
  it('creates a plan with its overrides and reads them back as HH:mm and YYYY-MM-DD HH:mm', async () => {
    const created = await create(form);
    expect(created.status).toBe(200);
    const id = created.body.id as number;
    expect(await read(id)).toEqual({
      id,
      ...form,
      active: true,
      // Ordered by day, then start time.
      overrideWeekdays: [form.overrideWeekdays[1], form.overrideWeekdays[0]],
    });
  });

  it('keeps amounts exact to the satang, and refuses a third decimal', async () => {
    const created = await create({ ...form, bahtPerKwh: 7.15, penaltyBahtPerMin: 0.07, overrides: [] });
    expect(await read(created.body.id)).toMatchObject({ bahtPerKwh: 7.15, penaltyBahtPerMin: 0.07 });
    const listed = (await list(`desc=${encodeURIComponent(form.descEn)}&sort=id&order=desc`)).body.prices[0];
    expect(listed).toMatchObject({ id: created.body.id, bahtPerKwh: 7.15 });
    for (const [field, label] of [
      ['bahtPerKwh', 'Baht/kWh'],
      ['penaltyBahtPerMin', 'Extracharger fee (Baht/min)'],
      ['penaltyDCFullBahtPerMin', 'Penalty fee (Baht/min)'],
    ] as const) {
      const response = await create({ ...form, [field]: 1.234 });
      expect(response.status).toBe(400);
      expect(response.body.message).toBe(`body.${field}: ${label} must have at most 2 decimals.`);
    }
    const row = await create({ ...form, overrides: [{ ...form.overrides[0], bahtPerKwh: 0.1 + 0.2 }] });
    expect(row.body.message).toBe('body.overrides.0.bahtPerKwh: Baht/kWh must have at most 2 decimals.');
    expect((await create({ ...form, bahtPerKwh: '7.15' })).status).toBe(400);
    expect((await create({ ...form, bahtPerKwh: -1 })).body.message).toBe(
      'body.bahtPerKwh: Baht/kWh must be 0 or more.',
    );
    expect((await create({ ...form, bahtPerKwh: 10_000_000_000 })).status).toBe(400);
    expect((await create({ ...form, bahtPerKwh: 9_999_999_999.99 })).status).toBe(200);
  });

  it('couples the rates to the method: HOUR saves Baht/kWh 0, KW saves Baht/hr 0 and BAHT_HRS', async () => {
    const hour = await create({
      ...form,
      method: 'HOUR',
      calculateMethod: 'BAHT_MIN',
      bahtPerKwh: 9,
      bahtPerHour: 45.5,
      overrideWeekdays: [
        { dayOfWeek: 2, validTimeFrom: '08:00', validTimeTo: '10:00', bahtPerKwh: 3, bahtPerHour: 30 },
      ],
      overrides: [{ validFrom: '2027-01-01 00:00', validTo: '2027-01-01 23:59', bahtPerHour: 20 }],
    });
    expect(hour.status).toBe(200);
    expect(await read(hour.body.id)).toMatchObject({
      method: 'HOUR',
      calculateMethod: 'BAHT_MIN',
      bahtPerKwh: 0,
      bahtPerHour: 45.5,
      overrideWeekdays: [{ bahtPerKwh: 0, bahtPerHour: 30 }],
      overrides: [{ bahtPerKwh: 0, bahtPerHour: 20 }],
    });

    const kw = await create({
      ...form,
      method: 'KW',
      calculateMethod: 'BAHT_MIN',
      bahtPerHour: 99,
      overrideWeekdays: [{ dayOfWeek: 3, validTimeFrom: '08:00', validTimeTo: '10:00', bahtPerKwh: 5 }],
      overrides: [],
    });
    expect(kw.status).toBe(200);
    expect(await read(kw.body.id)).toMatchObject({
      calculateMethod: 'BAHT_HRS',
      bahtPerHour: 0,
      bahtPerKwh: 7.15,
      overrideWeekdays: [{ bahtPerKwh: 5, bahtPerHour: 0 }],
    });

    // The fields a method does not use may be left out.
    const { calculateMethod: _c, bahtPerHour: _h, ...kwOnly } = form;
    expect((await create(kwOnly)).status).toBe(200);
    const { bahtPerKwh: _k, ...hourOnly } = {
      ...form,
      method: 'HOUR',
      bahtPerHour: 40,
      overrideWeekdays: [],
    };
    expect(
      (await create({ ...hourOnly, overrides: [{ ...form.overrides[0], bahtPerHour: 1 }] })).status,
    ).toBe(200);
  });

  it('refuses an override that does not end after it starts, naming the row', async () => {
    const weekly = await create({
      ...form,
      overrideWeekdays: [
        form.overrideWeekdays[0],
        { dayOfWeek: 4, validTimeFrom: '22:00', validTimeTo: '06:00', bahtPerKwh: 4 },
      ],
    });
    expect(weekly.status).toBe(400);
    expect(weekly.body.message).toBe(
      'body.overrideWeekdays.1.validTimeTo: Weekday override 2: To must be after From.',
    );
    const same = await create({
      ...form,
      overrideWeekdays: [{ dayOfWeek: 4, validTimeFrom: '10:00', validTimeTo: '10:00', bahtPerKwh: 4 }],
    });
    expect(same.body.message).toBe(
      'body.overrideWeekdays.0.validTimeTo: Weekday override 1: To must be after From.',
    );
    const dated = await create({
      ...form,
      overrides: [{ validFrom: '2027-04-15 23:59', validTo: '2027-04-13 00:00', bahtPerKwh: 1 }],
    });
    expect(dated.status).toBe(400);
    expect(dated.body.message).toBe('body.overrides.0.validTo: Dated override 1: To must be after From.');
  });

  it('refuses overlapping overrides of one plan, naming both rows', async () => {
    const weekly = await create({
      ...form,
      overrideWeekdays: [
        { dayOfWeek: 2, validTimeFrom: '08:00', validTimeTo: '12:00', bahtPerKwh: 4 },
        { dayOfWeek: 3, validTimeFrom: '09:00', validTimeTo: '10:00', bahtPerKwh: 4 },
        { dayOfWeek: 2, validTimeFrom: '11:59', validTimeTo: '13:00', bahtPerKwh: 4 },
      ],
    });
    expect(weekly.status).toBe(400);
    expect(weekly.body.message).toBe(
      'body.overrideWeekdays.2.validTimeTo: Weekday override 3 overlaps weekday override 1.',
    );
    // Both ends are included minutes: a window starting at another's last minute overlaps it ...
    const touching = await create({
      ...form,
      overrideWeekdays: [
        { dayOfWeek: 2, validTimeFrom: '08:00', validTimeTo: '10:00', bahtPerKwh: 4 },
        { dayOfWeek: 2, validTimeFrom: '10:00', validTimeTo: '11:00', bahtPerKwh: 4 },
      ],
    });
    expect(touching.status).toBe(400);
    // ... the next minute does not, nor does the same window on another day.
    const adjacent = await create({
      ...form,
      overrideWeekdays: [
        { dayOfWeek: 2, validTimeFrom: '08:00', validTimeTo: '10:00', bahtPerKwh: 4 },
        { dayOfWeek: 2, validTimeFrom: '10:01', validTimeTo: '11:00', bahtPerKwh: 4 },
        { dayOfWeek: 3, validTimeFrom: '08:00', validTimeTo: '10:00', bahtPerKwh: 4 },
      ],
    });
    expect(adjacent.status).toBe(200);

    const dated = await create({
      ...form,
      overrides: [
        { validFrom: '2027-04-13 00:00', validTo: '2027-04-15 23:59', bahtPerKwh: 3 },
        { validFrom: '2027-12-31 00:00', validTo: '2028-01-01 23:59', bahtPerKwh: 3 },
        { validFrom: '2027-04-15 12:00', validTo: '2027-04-20 00:00', bahtPerKwh: 3 },
      ],
    });
    expect(dated.status).toBe(400);
    expect(dated.body.message).toBe('body.overrides.2.validTo: Dated override 3 overlaps dated override 1.');
  });

  it('replaces the overrides on save, and toggles only the active flag with {active}', async () => {
    const { id } = await createPrice(t, { descEn: 'Replace me' });
    let saved = await t.call('PATCH', `/api/price/${id}`, { token: admin, body: form });
    expect(saved.status).toBe(200);
    expect((await read(id)).overrideWeekdays).toHaveLength(2);
    saved = await t.call('PATCH', `/api/price/${id}`, {
      token: admin,
      body: { ...form, descEn: 'Replaced', overrideWeekdays: [], overrides: undefined },
    });
    expect(saved.status).toBe(200);
    expect(await read(id)).toMatchObject({ descEn: 'Replaced', overrideWeekdays: [], overrides: [] });

    expect(
      (await t.call('PATCH', `/api/price/${id}`, { token: admin, body: { active: false } })).status,
    ).toBe(200);
    expect(await read(id)).toMatchObject({ descEn: 'Replaced', active: false });
    const bad = await t.call('PATCH', `/api/price/${id}`, {
      token: admin,
      body: {
        ...form,
        overrides: [{ validFrom: '2027-01-02 00:00', validTo: '2027-01-01 00:00', bahtPerKwh: 1 }],
      },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toBe('body.overrides.0.validTo: Dated override 1: To must be after From.');
    expect((await read(id)).descEn).toBe('Replaced');
    expect((await t.call('PATCH', '/api/price/999999', { token: admin, body: form })).status).toBe(404);
  });

  const row = { dayOfWeek: 1, validTimeFrom: '08:00', validTimeTo: '09:00', bahtPerKwh: 1 };
  const dated = { validFrom: '2027-01-01 00:00', validTo: '2027-01-02 00:00', bahtPerKwh: 1 };
  it.each([
    [{ descEn: '' }, 'body.descEn: Description (EN) is required.'],
    [{ descEn: undefined }, 'body.descEn: Description (EN) is required.'],
    [{ descEn: '   ' }, 'body.descEn: Description (EN) is not whitespace'],
    [{ descEn: 'x'.repeat(256) }, 'body.descEn: Please enter no more than 255 characters.'],
    [{ descTh: '' }, 'body.descTh: Description (TH) is required.'],
    [{ descTh: ' ' }, 'body.descTh: Description (TH) is not whitespace'],
    [{ descTh: 'ก'.repeat(256) }, 'body.descTh: Please enter no more than 255 characters.'],
    [{ method: undefined }, 'body.method: Method is required.'],
    [{ method: 'DAY' }, 'body.method: Method is required.'],
    [{ method: 'HOUR', calculateMethod: null }, 'body.calculateMethod: Calculate Method is required.'],
    [{ calculateMethod: 'BAHT_SEC' }, 'body.calculateMethod: Calculate Method is required.'],
    [{ bahtPerKwh: null }, 'body.bahtPerKwh: Baht/kWh is required.'],
    [
      { method: 'HOUR', calculateMethod: 'BAHT_HRS', bahtPerHour: null },
      'body.bahtPerHour: Baht/hr is required.',
    ],
    [{ penaltyBahtPerMin: undefined }, 'body.penaltyBahtPerMin: Extracharger fee (Baht/min) is required.'],
    [{ penaltyDCFullBahtPerMin: null }, 'body.penaltyDCFullBahtPerMin: Penalty fee (Baht/min) is required.'],
    [{ penaltyDCFullDelayMin: undefined }, 'body.penaltyDCFullDelayMin: Penalty delay (min) is required.'],
    [
      { penaltyDCFullDelayMin: 1.5 },
      'body.penaltyDCFullDelayMin: Penalty delay (min) must be a whole number.',
    ],
    [
      { overrideWeekdays: [{ ...row, dayOfWeek: undefined }] },
      'body.overrideWeekdays.0.dayOfWeek: Day is required.',
    ],
    [{ overrideWeekdays: [{ ...row, dayOfWeek: 8 }] }, 'body.overrideWeekdays.0.dayOfWeek: Day is required.'],
    [
      { overrideWeekdays: [{ ...row, validTimeFrom: '' }] },
      'body.overrideWeekdays.0.validTimeFrom: From is required.',
    ],
    [
      { overrideWeekdays: [{ ...row, validTimeTo: null }] },
      'body.overrideWeekdays.0.validTimeTo: To is required.',
    ],
    [
      { overrideWeekdays: [{ ...row, validTimeTo: '24:00' }] },
      'body.overrideWeekdays.0.validTimeTo: Time must be HH:mm.',
    ],
    [
      { overrideWeekdays: [{ ...row, bahtPerKwh: null }] },
      'body.overrideWeekdays.0.bahtPerKwh: Baht/kWh is required.',
    ],
    [
      { method: 'HOUR', bahtPerHour: 40, overrideWeekdays: [row] },
      'body.overrideWeekdays.0.bahtPerHour: Baht/hr is required.',
    ],
    [{ overrides: [{ ...dated, validFrom: undefined }] }, 'body.overrides.0.validFrom: From is required.'],
    [{ overrides: [{ ...dated, validTo: '' }] }, 'body.overrides.0.validTo: To is required.'],
    [
      { overrides: [{ ...dated, validTo: '2027-02-30 00:00' }] },
      'body.overrides.0.validTo: Date and time must be YYYY-MM-DD HH:mm.',
    ],
    [
      { overrides: [{ ...dated, validFrom: '2027-01-01T00:00:00Z' }] },
      'body.overrides.0.validFrom: Date and time must be YYYY-MM-DD HH:mm.',
    ],
    [
      { overrides: [{ ...dated, bahtPerKwh: undefined }] },
      'body.overrides.0.bahtPerKwh: Baht/kWh is required.',
    ],
  ])('refuses an invalid form with the spec message (%#)', async (change, message) => {
    const response = await create({ ...form, ...change });
    expect(response.status).toBe(400);
    expect(response.body.message).toBe(message);
    const patched = await t.call('PATCH', `/api/price/${energy.id}`, {
      token: admin,
      body: { ...form, ...change },
    });
    expect(patched.body.message).toBe(message);
  });
});

describe('DELETE /api/price/:id', () => {
  it('deletes an inactive, unused plan with its overrides', async () => {
    const created = await create(form);
    const { id } = created.body;
    await t.call('PATCH', `/api/price/${id}`, { token: admin, body: { active: false } });
    expect((await t.call('DELETE', `/api/price/${id}`, { token: admin })).status).toBe(200);
    expect((await t.call('GET', `/api/price/${id}`, { token: admin })).status).toBe(404);
    expect((await t.call('DELETE', `/api/price/${id}`, { token: admin })).status).toBe(404);
  });

  it('refuses an active plan, and a plan a connector uses', async () => {
    const active = await t.call('DELETE', `/api/price/${energy.id}`, { token: admin });
    expect(active.status).toBe(409);
    const used = await createPrice(t, { descEn: 'Used plan', active: false });
    const merchant = await createMerchant(t);
    const site = await createLandlord(t, merchant.id);
    const brand = await createChargerBrand(t);
    await createCharger(t, { landlordId: site.id, chargerBrandId: brand.id, priceId: used.id });
    const response = await t.call('DELETE', `/api/price/${used.id}`, { token: admin });
    expect(response.status).toBe(409);
    expect(response.body).toEqual({ message: "Can't delete already used item" });
    expect((await t.call('GET', `/api/price/${used.id}`, { token: admin })).status).toBe(200);
  });
});

describe('GET /api/price?mode=xlsx', () => {
  it('streams the filtered plans as a workbook with typed cells', async () => {
    const response = await fetch(`${t.url}/api/price?mode=xlsx&${mine}&method=HOUR&sort=id`, {
      headers: { 'x-access-token': admin },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-disposition')).toMatch(/filename="Price_\d{14}\.xlsx"/);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(await response.arrayBuffer());
    const sheet = workbook.worksheets[0]!;
    const rows = (sheet.getSheetValues().filter(Boolean) as unknown[][]).map((r) => r.slice(1));
    expect(rows[0]).toEqual([
      'ID',
      'Description (EN)',
      'Description (TH)',
      'Method',
      'Calculate Method',
      'Baht/hr',
      'Baht/kWh',
      'Extracharger fee (Baht/min)',
      'Penalty fee (Baht/min)',
      'Penalty delay (min)',
      'Active',
    ]);
    expect(rows.slice(1)).toEqual([
      [hourly.id, `${WORD} Hourly`, 'รายชั่วโมง', 'Hour', 'Baht/hr', 40, 0, 0, 0, 0, true],
      [perMinute.id, `${WORD} Per minute`, 'รายนาที', 'Hour', 'Baht/min', 60, 0, 0, 0, 0, true],
    ]);
    expect(sheet.getRow(2).getCell(6).type).toBe(ExcelJS.ValueType.Number);
  });

  it("answers 404 'No price found' when nothing matches", async () => {
    const response = await list(`mode=xlsx&desc=nothing-like-this`);
    expect(response.status).toBe(404);
    expect(response.body).toEqual({ message: 'No price found' });
  });
});

describe('roles', () => {
  it('lets marketting use the whole screen', async () => {
    const { token } = await signedInUser(t, { role: 'marketting' });
    expect((await list(mine, token)).body.total).toBeGreaterThanOrEqual(4);
    expect((await t.call('GET', `/api/price/${hourly.id}`, { token })).status).toBe(200);
    const created = await create({ ...form, descEn: 'Marketing plan' }, token);
    expect(created.status).toBe(200);
    expect(
      (await t.call('PATCH', `/api/price/${created.body.id}`, { token, body: { active: false } })).status,
    ).toBe(200);
    expect((await t.call('DELETE', `/api/price/${created.body.id}`, { token })).status).toBe(200);
  });

  it.each(['callcenter', 'merchant', 'party', 'landlord', 'station'] as const)(
    'refuses %s everything but the dropdown (403)',
    async (role) => {
      const { token } = await signedInUser(t, { role });
      expect((await list('', token)).status).toBe(403);
      expect((await list('mode=xlsx', token)).status).toBe(403);
      expect((await t.call('GET', `/api/price/${hourly.id}`, { token })).status).toBe(403);
      expect((await create(form, token)).status).toBe(403);
      expect((await t.call('PATCH', `/api/price/${off.id}`, { token, body: { active: true } })).status).toBe(
        403,
      );
      expect((await t.call('DELETE', `/api/price/${off.id}`, { token })).status).toBe(403);
      expect((await list('mode=dropdown', token)).status).toBe(200);
    },
  );

  it('answers 401 without a session', async () => {
    expect((await t.call('GET', '/api/price')).status).toBe(401);
    expect((await t.call('GET', '/api/price?mode=dropdown')).status).toBe(401);
    expect((await t.call('GET', `/api/price/${hourly.id}`)).status).toBe(401);
    expect((await t.call('POST', '/api/price', { body: form })).status).toBe(401);
    expect((await t.call('DELETE', `/api/price/${off.id}`)).status).toBe(401);
    expect((await read(off.id)).active).toBe(false);
  });
});
