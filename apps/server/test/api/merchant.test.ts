import { THAI_FORMAT_MESSAGES } from '@ev/shared';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createLandlord,
  createMerchant,
  createParty,
  createUser,
  signedInUser,
} from '../helpers/factories.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';

let t: TestApp;
let admin: string;
/** Three clusters of this file, told apart by a prefix so other rows never interfere. */
let north: { id: number };
let south: { id: number };
let east: { id: number };
let northSite: { id: number };
let southSite: { id: number };
let eastSite: { id: number };

const form = {
  nameEn: 'Chiang Mai Cluster',
  nameTh: 'เชียงใหม่',
  internal: true,
  addrEn: '1 Nimman Rd',
  addrTh: null,
  provinceId: null,
  taxId: '0105551234567',
  tel: '053123456',
};

beforeAll(async () => {
  t = await startTestApp();
  admin = (await signedInUser(t, { role: 'admin' })).token;
  north = await createMerchant(t, { nameEn: 'MX North', nameTh: 'เหนือ', internal: true });
  south = await createMerchant(t, { nameEn: 'MX South', nameTh: 'ใต้', internal: false });
  east = await createMerchant(t, { nameEn: 'MX East', nameTh: 'ตะวันออก', internal: false, active: false });
  northSite = await createLandlord(t, north.id, { nameEn: 'North Site' });
  southSite = await createLandlord(t, south.id, { nameEn: 'South Site', active: false });
  eastSite = await createLandlord(t, east.id, { nameEn: 'East Site' });
});
afterAll(() => t.close());

const list = (query: string, token = admin) => t.call('GET', `/api/merchant?${query}`, { token });
const ids = (body: { merchants: Array<{ id: number }> }) => body.merchants.map((m) => m.id);

describe('GET /api/merchant', () => {
  it("answers a page with the total and each cluster's sites", async () => {
    const response = await list(`merchantId=${north.id}&merchantId=${south.id}&sort=nameEn&order=asc`);
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      total: 2,
      merchants: [
        {
          id: north.id,
          nameEn: 'MX North',
          nameTh: 'เหนือ',
          internal: true,
          active: true,
          landlords: [{ id: northSite.id, nameEn: 'North Site', active: true }],
        },
        {
          id: south.id,
          nameEn: 'MX South',
          nameTh: 'ใต้',
          internal: false,
          active: true,
          landlords: [{ id: southSite.id, nameEn: 'South Site', active: false }],
        },
      ],
    });
  });

  it('accepts a single id as well as repeated ones', async () => {
    const response = await list(`merchantId=${east.id}`);
    expect(ids(response.body)).toEqual([east.id]);
    expect(response.body.total).toBe(1);
  });

  it('filters by site, area type and status', async () => {
    const mine = `merchantId=${north.id}&merchantId=${south.id}&merchantId=${east.id}`;
    expect(ids((await list(`landlordId=${southSite.id}&landlordId=${eastSite.id}&sort=id`)).body)).toEqual([
      south.id,
      east.id,
    ]);
    expect(ids((await list(`${mine}&internal=true`)).body)).toEqual([north.id]);
    expect(ids((await list(`${mine}&internal=false&sort=id`)).body)).toEqual([south.id, east.id]);
    expect(ids((await list(`${mine}&active=false`)).body)).toEqual([east.id]);
    expect(ids((await list(`${mine}&active=true&internal=false`)).body)).toEqual([south.id]);
  });

  it('sorts by a whitelisted column either way and refuses others', async () => {
    const mine = `merchantId=${north.id}&merchantId=${south.id}&merchantId=${east.id}`;
    expect(ids((await list(`${mine}&sort=nameEn&order=desc`)).body)).toEqual([south.id, north.id, east.id]);
    expect(ids((await list(`${mine}&sort=nameEn&order=asc`)).body)).toEqual([east.id, north.id, south.id]);
    const bad = await list(`${mine}&sort=taxId`);
    expect(bad.status).toBe(400);
    expect(bad.body.message).toMatch(/sort/);
  });

  it('pages with the total of all matches', async () => {
    const mine = `merchantId=${north.id}&merchantId=${south.id}&merchantId=${east.id}&sort=id`;
    const first = await list(`${mine}&page=1&size=2`);
    const second = await list(`${mine}&page=2&size=2`);
    const beyond = await list(`${mine}&page=3&size=2`);
    expect(first.body.total).toBe(3);
    expect(ids(first.body)).toEqual([north.id, south.id]);
    expect(second.body.total).toBe(3);
    expect(ids(second.body)).toEqual([east.id]);
    expect(beyond.body).toEqual({ total: 3, merchants: [] });
    expect((await list(`${mine}&size=101`)).status).toBe(400);
    expect((await list(`${mine}&page=0`)).status).toBe(400);
  });

  it('defaults to page 1 of 10', async () => {
    for (let i = 0; i < 11; i++) await createMerchant(t, { nameEn: `MZ Paging ${i}` });
    const response = await list('');
    expect(response.body.merchants).toHaveLength(10);
    expect(response.body.total).toBeGreaterThanOrEqual(14);
  });

  it('answers mode=dropdown with id and name of every cluster, unpaged', async () => {
    const response = await list('mode=dropdown');
    expect(response.status).toBe(200);
    expect(Object.keys(response.body)).toEqual(['merchants']);
    expect(response.body.merchants.length).toBeGreaterThanOrEqual(14);
    expect(response.body.merchants).toContainEqual({ id: north.id, nameEn: 'MX North' });
    for (const item of response.body.merchants) expect(Object.keys(item).sort()).toEqual(['id', 'nameEn']);
  });
});

describe('cluster setting', () => {
  it('creates, reads and saves a cluster', async () => {
    const created = await t.call('POST', '/api/merchant', { token: admin, body: form });
    expect(created.status).toBe(200);
    const id = created.body.id as number;
    const read = await t.call('GET', `/api/merchant/${id}`, { token: admin });
    expect(read.body).toEqual({ merchant: { id, ...form, active: true, landlords: [] } });

    const saved = await t.call('PATCH', `/api/merchant/${id}`, {
      token: admin,
      body: { ...form, nameEn: '  Chiang Mai North  ', internal: false, taxId: '' },
    });
    expect(saved.status).toBe(200);
    const after = (await t.call('GET', `/api/merchant/${id}`, { token: admin })).body.merchant;
    expect(after).toMatchObject({ nameEn: 'Chiang Mai North', internal: false, taxId: null, active: true });
  });

  it('stores a Tel with dashes or spaces and +66 as typed', async () => {
    const { id } = await createMerchant(t, { nameEn: 'Phone formats' });
    for (const tel of ['053-123-456', '081 234 5678', '+66812345678']) {
      const saved = await t.call('PATCH', `/api/merchant/${id}`, { token: admin, body: { ...form, tel } });
      expect(saved.status).toBe(200);
      expect((await t.call('GET', `/api/merchant/${id}`, { token: admin })).body.merchant.tel).toBe(tel);
    }
  });

  it('reads, lists and toggles a cluster whose stored Tel and Tax ID predate the rules; a save asks for valid ones', async () => {
    const { id } = await createMerchant(t, { nameEn: 'MX Legacy', tel: 'abc-😀-ไทย', taxId: '1234' });
    const read = await t.call('GET', `/api/merchant/${id}`, { token: admin });
    expect(read.status).toBe(200);
    expect(read.body.merchant).toMatchObject({ tel: 'abc-😀-ไทย', taxId: '1234' });
    expect(ids((await list(`merchantId=${id}`)).body)).toEqual([id]);
    const toggled = await t.call('PATCH', `/api/merchant/${id}`, { token: admin, body: { active: false } });
    expect(toggled.status).toBe(200);

    const { tel, taxId, ...rest } = read.body.merchant;
    const body = { ...form, nameEn: rest.nameEn, nameTh: rest.nameTh, tel, taxId };
    const refused = await t.call('PATCH', `/api/merchant/${id}`, { token: admin, body });
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({ message: `body.taxId: ${THAI_FORMAT_MESSAGES.taxIdDigits}` });
    const fixed = await t.call('PATCH', `/api/merchant/${id}`, {
      token: admin,
      body: { ...body, tel: null, taxId: null },
    });
    expect(fixed.status).toBe(200);
  });

  it('toggles only the active flag with {active}', async () => {
    const { id } = await createMerchant(t, { nameEn: 'Toggle me' });
    const response = await t.call('PATCH', `/api/merchant/${id}`, { token: admin, body: { active: false } });
    expect(response.status).toBe(200);
    const after = (await t.call('GET', `/api/merchant/${id}`, { token: admin })).body.merchant;
    expect(after).toMatchObject({ nameEn: 'Toggle me', active: false });
  });

  it.each([
    [{ ...form, nameEn: undefined }, 'body.nameEn: Cluster Name (EN) is required.'],
    [{ ...form, nameEn: '   ' }, 'body.nameEn: Cluster Name (EN) is required.'],
    [{ ...form, nameEn: 'x'.repeat(256) }, 'body.nameEn: Please enter no more than 255 characters.'],
    [{ ...form, nameTh: '' }, 'body.nameTh: Cluster Name (TH) is required.'],
    [{ ...form, nameTh: 'ก'.repeat(51) }, 'body.nameTh: Please enter no more than 50 characters.'],
    [{ ...form, internal: undefined }, 'body.internal: Area Type is required.'],
    [{ ...form, addrEn: 'x'.repeat(256) }, 'body.addrEn: Please enter no more than 255 characters.'],
    [{ ...form, taxId: '01055512345678' }, 'body.taxId: Please enter no more than 13 characters.'],
    [{ ...form, tel: '0'.repeat(14) }, 'body.tel: Please enter no more than 13 characters.'],
    [{ ...form, taxId: 'abc' }, `body.taxId: ${THAI_FORMAT_MESSAGES.taxIdDigits}`],
    [{ ...form, taxId: '0105551234568' }, `body.taxId: ${THAI_FORMAT_MESSAGES.taxIdCheckDigit}`],
    [{ ...form, tel: 'abc-😀-ไทย' }, `body.tel: ${THAI_FORMAT_MESSAGES.telCharacters}`],
    [{ ...form, tel: '05312345' }, `body.tel: ${THAI_FORMAT_MESSAGES.telDigits}`],
  ])('refuses an invalid form with the spec message (%#)', async (body, message) => {
    const created = await t.call('POST', '/api/merchant', { token: admin, body });
    expect(created.status).toBe(400);
    expect(created.body).toEqual({ message });
    const saved = await t.call('PATCH', `/api/merchant/${north.id}`, { token: admin, body });
    expect(saved.status).toBe(400);
    expect(saved.body).toEqual({ message });
  });

  it('refuses a non-boolean active', async () => {
    const response = await t.call('PATCH', `/api/merchant/${north.id}`, {
      token: admin,
      body: { active: 'no' },
    });
    expect(response.status).toBe(400);
    expect(response.body.message).toMatch(/^body\.active: /);
  });

  it('answers 404 for a cluster that does not exist', async () => {
    expect((await t.call('GET', '/api/merchant/999999', { token: admin })).status).toBe(404);
    expect((await t.call('PATCH', '/api/merchant/999999', { token: admin, body: form })).status).toBe(404);
    expect((await t.call('DELETE', '/api/merchant/999999', { token: admin })).status).toBe(404);
  });
});

describe('DELETE /api/merchant/:id', () => {
  it('deletes an inactive, unused cluster', async () => {
    const { id } = await createMerchant(t, { active: false });
    const response = await t.call('DELETE', `/api/merchant/${id}`, { token: admin });
    expect(response.status).toBe(200);
    expect((await t.call('GET', `/api/merchant/${id}`, { token: admin })).status).toBe(404);
  });

  it('refuses an active cluster with 409', async () => {
    const { id } = await createMerchant(t, { active: true });
    const response = await t.call('DELETE', `/api/merchant/${id}`, { token: admin });
    expect(response.status).toBe(409);
    expect(response.body.message).toMatch(/active/);
    expect((await t.call('GET', `/api/merchant/${id}`, { token: admin })).status).toBe(200);
  });

  it("refuses a cluster with sites or users: Can't delete already used item", async () => {
    const withSite = await createMerchant(t, { active: false });
    await createLandlord(t, withSite.id);
    const withUser = await createMerchant(t, { active: false });
    await createUser(t, { role: 'merchant', merchantId: withUser.id });
    for (const { id } of [withSite, withUser]) {
      const response = await t.call('DELETE', `/api/merchant/${id}`, { token: admin });
      expect(response.status).toBe(409);
      expect(response.body).toEqual({ message: "Can't delete already used item" });
      expect((await t.call('GET', `/api/merchant/${id}`, { token: admin })).status).toBe(200);
    }
  });
});

describe('scope and permissions', () => {
  it('gives callcenter the full list and the setting', async () => {
    const { token } = await signedInUser(t, { role: 'callcenter' });
    expect((await list(`merchantId=${north.id}&merchantId=${south.id}`, token)).body.total).toBe(2);
    expect((await t.call('GET', `/api/merchant/${south.id}`, { token })).status).toBe(200);
  });

  it.each(['merchant', 'party', 'landlord', 'station', 'marketting'] as const)(
    'refuses the list, the setting and changes to %s (403)',
    async (role) => {
      const { token } = await signedInUser(t, { role, merchantId: north.id });
      expect((await list('', token)).status).toBe(403);
      expect((await list('mode=xlsx', token)).status).toBe(403);
      expect((await t.call('GET', `/api/merchant/${north.id}`, { token })).status).toBe(403);
      expect((await t.call('POST', '/api/merchant', { token, body: form })).status).toBe(403);
      expect(
        (await t.call('PATCH', `/api/merchant/${north.id}`, { token, body: { active: true } })).status,
      ).toBe(403);
      expect((await t.call('DELETE', `/api/merchant/${east.id}`, { token })).status).toBe(403);
    },
  );

  it('narrows the dropdown to the scope of each role', async () => {
    const group = await createParty(t, [southSite.id, eastSite.id]);
    const cases = [
      [{ role: 'merchant', merchantId: north.id }, [north.id]],
      [{ role: 'landlord', landlordId: southSite.id }, [south.id]],
      [{ role: 'party', partyId: group.id }, [east.id, south.id]],
      [{ role: 'station', partyId: group.id }, [east.id, south.id]],
      [{ role: 'merchant' }, []],
      [{ role: 'station' }, []],
    ] as const;
    for (const [user, expected] of cases) {
      const { token } = await signedInUser(t, user);
      const response = await list('mode=dropdown', token);
      expect(response.status).toBe(200);
      expect(ids(response.body)).toEqual(expected);
    }
  });

  it('answers 401 without a session', async () => {
    expect((await t.call('GET', '/api/merchant?mode=dropdown')).status).toBe(401);
  });
});

describe('GET /api/merchant?mode=xlsx', () => {
  it("streams a workbook with a header row, typed cells and the list's rows", async () => {
    const formula = await createMerchant(t, {
      nameEn: '=HYPERLINK("http://x","y")',
      nameTh: '+1',
      tel: '-2',
      taxId: '@3',
    });
    const response = await fetch(
      `${t.url}/api/merchant?mode=xlsx&merchantId=${north.id}&merchantId=${south.id}&merchantId=${formula.id}&sort=id`,
      { headers: { 'x-access-token': admin } },
    );
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('spreadsheetml');
    expect(response.headers.get('content-disposition')).toMatch(
      /^attachment; filename="Merchant_\d{14}\.xlsx"$/,
    );
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(await response.arrayBuffer());
    const sheet = workbook.worksheets[0]!;
    expect(sheet.rowCount).toBe(4);
    expect(sheet.getRow(1).getCell(1).value).toBe('Cluster ID');
    expect(sheet.getRow(1).getCell(2).value).toBe('Cluster Name (EN)');
    expect(sheet.getRow(2).getCell(1).value).toBe(north.id);
    expect(sheet.getRow(2).getCell(1).type).toBe(ExcelJS.ValueType.Number);
    expect(sheet.getRow(2).getCell(2).value).toBe('MX North');
    expect(sheet.getRow(2).getCell(4).value).toBe('Internal Used');
    expect(sheet.getRow(2).getCell(5).value).toBe(true);
    expect(sheet.getRow(3).getCell(2).value).toBe('MX South');
    const row = sheet.getRow(4);
    expect(row.getCell(2).value).toBe('=HYPERLINK("http://x","y")');
    for (const index of [2, 3, 9, 10]) {
      const cell = row.getCell(index);
      expect(cell.type, `column ${index}`).toBe(ExcelJS.ValueType.String);
      expect(cell.formula, `column ${index}`).toBeUndefined();
      expect(cell.numFmt, `column ${index}`).toBe('@');
    }
    expect(row.getCell(3).value).toBe('+1');
    expect(row.getCell(9).value).toBe('@3');
    expect(row.getCell(10).value).toBe('-2');
  });

  it('answers 404 with the spec message when nothing matches', async () => {
    const response = await list('mode=xlsx&merchantId=999999');
    expect(response.status).toBe(404);
    expect(response.body).toEqual({ message: 'No matched merchant found' });
  });
});
