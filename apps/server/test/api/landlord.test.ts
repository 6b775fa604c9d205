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
let bangkok: { id: number };
let chiangMai: { id: number };
/** Two sites in Bangkok (public), one in Chiang Mai (internal). */
let siam: { id: number };
let silom: { id: number };
let nimman: { id: number };
let group: { id: number };
let all: string;

const form = {
  nameEn: 'Ari Station',
  nameTh: 'สถานีอารีย์',
  latitude: 13.7795,
  longitude: 100.5446,
  businessHoursType: 'period',
  businessHours: [
    { dayOfWeek: 2, openTime: '08:00', closeTime: '20:00' },
    { dayOfWeek: 1, openTime: '10:30', closeTime: '18:45' },
  ],
  meaId: 'MEA-001',
  peaId: null,
  partnerProjectId: 'P-9',
  partnerUserType: 'ruejai',
  descEn: 'Near BTS Ari',
  descTh: null,
  addrEn: 'Phahonyothin Rd',
  addrTh: 'ถนนพหลโยธิน',
  provinceId: null,
  tel: '021234567',
};

beforeAll(async () => {
  t = await startTestApp();
  admin = (await signedInUser(t, { role: 'admin' })).token;
  bangkok = await createMerchant(t, { nameEn: 'Bangkok Cluster', internal: false });
  chiangMai = await createMerchant(t, { nameEn: 'Chiang Mai Cluster', internal: true });
  siam = await createLandlord(t, bangkok.id, { nameEn: 'Siam Paragon', addrEn: 'Rama I Rd' });
  silom = await createLandlord(t, bangkok.id, {
    nameEn: 'Silom Complex',
    businessHoursType: 'closed',
    active: false,
  });
  nimman = await createLandlord(t, chiangMai.id, { nameEn: 'One Nimman', businessHoursType: 'maintenance' });
  group = await createParty(t, [silom.id, nimman.id]);
  all = `landlordId=${siam.id}&landlordId=${silom.id}&landlordId=${nimman.id}`;
});
afterAll(() => t.close());

const list = (query: string, token = admin) => t.call('GET', `/api/landlord?${query}`, { token });
const ids = (body: { landlords: Array<{ id: number }> }) => body.landlords.map((l) => l.id);

describe('GET /api/landlord', () => {
  it('answers a page of sites with their cluster and area type', async () => {
    const response = await list(`${all}&sort=id`);
    expect(response.status).toBe(200);
    expect(response.body.total).toBe(3);
    expect(response.body.landlords[0]).toEqual({
      id: siam.id,
      merchantId: bangkok.id,
      merchantNameEn: 'Bangkok Cluster',
      nameEn: 'Siam Paragon',
      nameTh: 'สถานี',
      addrEn: 'Rama I Rd',
      addrTh: null,
      businessHoursType: '24H',
      internal: false,
      active: true,
    });
    expect(response.body.landlords[2]).toMatchObject({
      id: nimman.id,
      internal: true,
      merchantNameEn: 'Chiang Mai Cluster',
    });
  });

  it('filters by cluster, site, business hours, area type and status', async () => {
    expect(ids((await list(`merchantId=${bangkok.id}&sort=id`)).body)).toEqual([siam.id, silom.id]);
    expect(ids((await list(`merchantId=${bangkok.id}&merchantId=${chiangMai.id}&sort=id`)).body)).toEqual([
      siam.id,
      silom.id,
      nimman.id,
    ]);
    expect(ids((await list(`landlordId=${silom.id}`)).body)).toEqual([silom.id]);
    expect(ids((await list(`${all}&businessHoursType=maintenance`)).body)).toEqual([nimman.id]);
    expect(ids((await list(`${all}&internal=true`)).body)).toEqual([nimman.id]);
    expect(ids((await list(`${all}&internal=false&sort=id`)).body)).toEqual([siam.id, silom.id]);
    expect(ids((await list(`${all}&active=false`)).body)).toEqual([silom.id]);
    expect((await list(`${all}&businessHoursType=sometimes`)).status).toBe(400);
  });

  it('sorts by site or cluster name either way, and pages', async () => {
    expect(ids((await list(`${all}&sort=nameEn&order=desc`)).body)).toEqual([silom.id, siam.id, nimman.id]);
    expect(ids((await list(`${all}&sort=merchantNameEn&order=desc`)).body)).toEqual([
      nimman.id,
      siam.id,
      silom.id,
    ]);
    expect((await list(`${all}&sort=latitude`)).status).toBe(400);
    const second = await list(`${all}&sort=nameEn&page=2&size=2`);
    expect(second.body.total).toBe(3);
    expect(ids(second.body)).toEqual([silom.id]);
  });

  it('answers mode=dropdown narrowed by chosen clusters', async () => {
    const response = await list(`mode=dropdown&merchantId=${bangkok.id}`);
    expect(response.body).toEqual({
      landlords: [
        { id: siam.id, nameEn: 'Siam Paragon' },
        { id: silom.id, nameEn: 'Silom Complex' },
      ],
    });
  });
});

describe('site setting', () => {
  it('creates a site with business hours in the chosen cluster and reads them back as HH:mm', async () => {
    const created = await t.call('POST', '/api/landlord', {
      token: admin,
      body: { ...form, merchantId: chiangMai.id },
    });
    expect(created.status).toBe(200);
    const id = created.body.id as number;
    const read = await t.call('GET', `/api/landlord/${id}`, { token: admin });
    expect(read.status).toBe(200);
    const { businessHours, ...rest } = form;
    expect(read.body.landlord).toEqual({
      id,
      ...rest,
      merchantId: chiangMai.id,
      merchantNameEn: 'Chiang Mai Cluster',
      internal: true,
      active: true,
      maxPowerKw: null,
      phases: null,
      voltage: null,
      businessHours: [
        { dayOfWeek: 1, openTime: '10:30', closeTime: '18:45' },
        { dayOfWeek: 2, openTime: '08:00', closeTime: '20:00' },
      ],
    });
  });

  it('replaces business hours on save, and drops them when the type is not period', async () => {
    const { id } = await createLandlord(t, bangkok.id, {}, [
      { dayOfWeek: 3, openTime: '09:00', closeTime: '17:00' },
    ]);
    const hours = [{ dayOfWeek: 7, openTime: '06:00', closeTime: '23:30' }];
    let saved = await t.call('PATCH', `/api/landlord/${id}`, {
      token: admin,
      body: { ...form, merchantId: bangkok.id, businessHours: hours },
    });
    expect(saved.status).toBe(200);
    expect(
      (await t.call('GET', `/api/landlord/${id}`, { token: admin })).body.landlord.businessHours,
    ).toEqual(hours);
    saved = await t.call('PATCH', `/api/landlord/${id}`, {
      token: admin,
      body: { ...form, businessHoursType: '24H', businessHours: hours },
    });
    expect(saved.status).toBe(200);
    const after = (await t.call('GET', `/api/landlord/${id}`, { token: admin })).body.landlord;
    expect(after).toMatchObject({ businessHoursType: '24H', businessHours: [], merchantId: bangkok.id });
  });

  it('answers 404 to a cluster that does not exist, as for a missing record', async () => {
    const response = await t.call('POST', '/api/landlord', {
      token: admin,
      body: { ...form, merchantId: 999_999 },
    });
    expect(response.status).toBe(404);
    expect(response.body).toEqual({ message: 'No such cluster' });
  });

  it('refuses to move a site to another cluster', async () => {
    const response = await t.call('PATCH', `/api/landlord/${siam.id}`, {
      token: admin,
      body: { ...form, merchantId: chiangMai.id },
    });
    expect(response.status).toBe(400);
    expect(response.body.message).toMatch(/^body\.merchantId: /);
    expect((await t.call('GET', `/api/landlord/${siam.id}`, { token: admin })).body.landlord.merchantId).toBe(
      bangkok.id,
    );
  });

  it('reads, lists and toggles a site whose stored Tel predates the rules; a save asks for a valid one', async () => {
    const { id } = await createLandlord(t, bangkok.id, { nameEn: 'Legacy Tel', tel: 'abc-😀-ไทย' });
    const read = await t.call('GET', `/api/landlord/${id}`, { token: admin });
    expect(read.status).toBe(200);
    expect(read.body.landlord.tel).toBe('abc-😀-ไทย');
    const listed = await t.call('GET', `/api/landlord?landlordId=${id}`, { token: admin });
    expect(listed.body.landlords.map((row: { id: number }) => row.id)).toEqual([id]);
    expect(
      (await t.call('PATCH', `/api/landlord/${id}`, { token: admin, body: { active: false } })).status,
    ).toBe(200);

    const body = { ...form, merchantId: bangkok.id, tel: read.body.landlord.tel };
    const refused = await t.call('PATCH', `/api/landlord/${id}`, { token: admin, body });
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({ message: `body.tel: ${THAI_FORMAT_MESSAGES.telCharacters}` });
    const fixed = await t.call('PATCH', `/api/landlord/${id}`, {
      token: admin,
      body: { ...body, tel: '+6621234567' },
    });
    expect(fixed.status).toBe(200);
    expect((await t.call('GET', `/api/landlord/${id}`, { token: admin })).body.landlord.tel).toBe(
      '+6621234567',
    );
  });

  it('toggles only the active flag with {active}', async () => {
    const { id } = await createLandlord(t, bangkok.id, { nameEn: 'Toggle Site' });
    expect(
      (await t.call('PATCH', `/api/landlord/${id}`, { token: admin, body: { active: false } })).status,
    ).toBe(200);
    expect((await t.call('GET', `/api/landlord/${id}`, { token: admin })).body.landlord).toMatchObject({
      nameEn: 'Toggle Site',
      active: false,
    });
  });

  const withCluster = () => ({ ...form, merchantId: bangkok.id });
  it.each([
    [() => ({ ...form }), 'body.merchantId: Cluster Name is required.'],
    [() => ({ ...withCluster(), nameEn: '' }), 'body.nameEn: Site Name (EN) is required.'],
    [() => ({ ...withCluster(), nameTh: undefined }), 'body.nameTh: Site Name (TH) is required.'],
    [
      () => ({ ...withCluster(), nameTh: 'ก'.repeat(256) }),
      'body.nameTh: Please enter no more than 255 characters.',
    ],
    [() => ({ ...withCluster(), latitude: undefined }), 'body.latitude: Latitude is required.'],
    [() => ({ ...withCluster(), longitude: null }), 'body.longitude: Longitude is required.'],
    [() => ({ ...withCluster(), latitude: 91 }), 'body.latitude: Latitude must be between -90 and 90.'],
    [
      () => ({ ...withCluster(), businessHoursType: undefined }),
      'body.businessHoursType: Business Hours is required.',
    ],
    [
      () => ({ ...withCluster(), businessHours: [{ openTime: '08:00', closeTime: '09:00' }] }),
      'body.businessHours.0.dayOfWeek: Day is required.',
    ],
    [
      () => ({ ...withCluster(), businessHours: [{ dayOfWeek: 1, openTime: '', closeTime: '09:00' }] }),
      'body.businessHours.0.openTime: Time is required.',
    ],
    [
      () => ({ ...withCluster(), businessHours: [{ dayOfWeek: 1, openTime: '08:00', closeTime: '25:00' }] }),
      'body.businessHours.0.closeTime: Time must be HH:mm.',
    ],
    [() => ({ ...withCluster(), partnerUserType: 'mobile' }), 'body.partnerUserType: '],
    [
      () => ({ ...withCluster(), descEn: 'x'.repeat(256) }),
      'body.descEn: Please enter no more than 255 characters.',
    ],
    [
      () => ({ ...withCluster(), meaId: 'x'.repeat(256) }),
      'body.meaId: Please enter no more than 255 characters.',
    ],
    [() => ({ ...withCluster(), tel: '0'.repeat(14) }), 'body.tel: Please enter no more than 13 characters.'],
    [() => ({ ...withCluster(), tel: 'abc-😀-ไทย' }), `body.tel: ${THAI_FORMAT_MESSAGES.telCharacters}`],
    [() => ({ ...withCluster(), tel: '02 123 45' }), `body.tel: ${THAI_FORMAT_MESSAGES.telDigits}`],
  ])('refuses an invalid form with the spec message (%#)', async (body, message) => {
    const response = await t.call('POST', '/api/landlord', { token: admin, body: body() });
    expect(response.status).toBe(400);
    expect(response.body.message.startsWith(message)).toBe(true);
    if (message.endsWith('.')) expect(response.body.message).toBe(message);
  });
});

describe('DELETE /api/landlord/:id', () => {
  it('deletes an inactive, unused site with its business hours', async () => {
    const { id } = await createLandlord(t, bangkok.id, { active: false }, [
      { dayOfWeek: 1, openTime: '08:00', closeTime: '09:00' },
    ]);
    expect((await t.call('DELETE', `/api/landlord/${id}`, { token: admin })).status).toBe(200);
    expect((await t.call('GET', `/api/landlord/${id}`, { token: admin })).status).toBe(404);
  });

  it('refuses an active site, and a site in a group or with users', async () => {
    expect((await t.call('DELETE', `/api/landlord/${siam.id}`, { token: admin })).status).toBe(409);
    const used = await createLandlord(t, bangkok.id, { active: false });
    await createUser(t, { role: 'landlord', landlordId: used.id });
    for (const id of [silom.id, used.id]) {
      const response = await t.call('DELETE', `/api/landlord/${id}`, { token: admin });
      expect(response.status).toBe(409);
      expect(response.body).toEqual({ message: "Can't delete already used item" });
    }
    expect((await t.call('GET', `/api/landlord/${silom.id}`, { token: admin })).status).toBe(200);
  });
});

describe('scope', () => {
  it('shows a merchant user only its cluster, and lets it work there only', async () => {
    const { token } = await signedInUser(t, { role: 'merchant', merchantId: bangkok.id });
    expect(ids((await list('sort=id', token)).body)).toEqual(
      ids((await list(`merchantId=${bangkok.id}&sort=id`)).body),
    );
    expect(ids((await list(`${all}&sort=id`, token)).body)).toEqual([siam.id, silom.id]);
    expect(ids((await list(`merchantId=${chiangMai.id}`, token)).body)).toEqual([]);
    expect((await list(`mode=dropdown&merchantId=${chiangMai.id}`, token)).body).toEqual({ landlords: [] });
    expect((await t.call('GET', `/api/landlord/${nimman.id}`, { token })).status).toBe(404);
    expect(
      (await t.call('PATCH', `/api/landlord/${nimman.id}`, { token, body: { active: false } })).status,
    ).toBe(404);
    expect((await t.call('PATCH', `/api/landlord/${nimman.id}`, { token, body: form })).status).toBe(404);
    expect((await t.call('DELETE', `/api/landlord/${nimman.id}`, { token })).status).toBe(404);
    expect((await t.call('GET', `/api/landlord/${nimman.id}`, { token: admin })).body.landlord.active).toBe(
      true,
    );

    // Its new site goes into its own cluster, whatever the body says.
    const created = await t.call('POST', '/api/landlord', {
      token,
      body: { ...form, merchantId: chiangMai.id },
    });
    expect(created.status).toBe(200);
    const site = (await t.call('GET', `/api/landlord/${created.body.id}`, { token })).body.landlord;
    expect(site.merchantId).toBe(bangkok.id);
  });

  it('shows a landlord user only its site', async () => {
    const { token } = await signedInUser(t, { role: 'landlord', landlordId: siam.id });
    expect(await list(`sort=id`, token).then((r) => r.body)).toMatchObject({ total: 1 });
    expect(ids((await list('', token)).body)).toEqual([siam.id]);
    expect(ids((await list('mode=dropdown', token)).body)).toEqual([siam.id]);
    expect((await t.call('GET', `/api/landlord/${siam.id}`, { token })).status).toBe(200);
    expect((await t.call('GET', `/api/landlord/${silom.id}`, { token })).status).toBe(404);
    expect((await t.call('DELETE', `/api/landlord/${silom.id}`, { token })).status).toBe(404);
  });

  it("lets a landlord user add a site to its own site's cluster, which is then outside its scope", async () => {
    const { token } = await signedInUser(t, { role: 'landlord', landlordId: siam.id });
    const created = await t.call('POST', '/api/landlord', {
      token,
      body: { ...form, nameEn: 'Landlord Added Site', merchantId: chiangMai.id },
    });
    expect(created.status).toBe(200);
    const [row] = (await list(`sort=id&order=desc&size=1`)).body.landlords;
    expect(row).toMatchObject({ nameEn: 'Landlord Added Site', merchantId: bangkok.id });
    expect((await t.call('GET', `/api/landlord/${row.id}`, { token })).status).toBe(404);
    expect(ids((await list('', token)).body)).toEqual([siam.id]);
    await t.call('PATCH', `/api/landlord/${row.id}`, { token: admin, body: { active: false } });
    expect((await t.call('DELETE', `/api/landlord/${row.id}`, { token: admin })).status).toBe(200);
  });

  it.each(['party', 'station'] as const)(
    "shows a %s user only its group's sites, read-only",
    async (role) => {
      const { token } = await signedInUser(t, { role, partyId: group.id });
      expect(ids((await list('sort=id', token)).body)).toEqual([silom.id, nimman.id]);
      expect((await list('sort=id', token)).body.total).toBe(2);
      expect((await t.call('GET', `/api/landlord/${nimman.id}`, { token })).status).toBe(200);
      expect((await t.call('GET', `/api/landlord/${siam.id}`, { token })).status).toBe(404);
      expect((await t.call('POST', '/api/landlord', { token, body: form })).status).toBe(403);
      expect(
        (await t.call('PATCH', `/api/landlord/${nimman.id}`, { token, body: { active: false } })).status,
      ).toBe(403);
      expect((await t.call('DELETE', `/api/landlord/${silom.id}`, { token })).status).toBe(403);
    },
  );

  it('shows nothing to a scoped user without its link', async () => {
    for (const role of ['merchant', 'landlord', 'party'] as const) {
      const { token } = await signedInUser(t, { role });
      expect((await list('', token)).body).toEqual({ total: 0, landlords: [] });
      expect((await t.call('GET', `/api/landlord/${siam.id}`, { token })).status).toBe(404);
    }
    const { token } = await signedInUser(t, { role: 'merchant' });
    expect((await t.call('POST', '/api/landlord', { token, body: form })).status).toBe(403);
  });

  it('gives callcenter everything and refuses marketting the list (403) but not the dropdown', async () => {
    const callcenter = (await signedInUser(t, { role: 'callcenter' })).token;
    expect((await list(all, callcenter)).body.total).toBe(3);
    const marketting = (await signedInUser(t, { role: 'marketting' })).token;
    expect((await list('', marketting)).status).toBe(403);
    expect((await list('mode=xlsx', marketting)).status).toBe(403);
    expect((await t.call('GET', `/api/landlord/${siam.id}`, { token: marketting })).status).toBe(403);
    expect((await list(`mode=dropdown&${all}`, marketting)).body.landlords).toHaveLength(3);
  });

  it('exports only what the scope sees', async () => {
    const { token } = await signedInUser(t, { role: 'landlord', landlordId: siam.id });
    const response = await list(`mode=xlsx&landlordId=${nimman.id}`, token);
    expect(response.status).toBe(404);
    expect(response.body).toEqual({ message: 'No matched landlord found' });
  });
});

describe('GET /api/landlord?mode=xlsx', () => {
  it('streams the filtered sites as a workbook with typed cells', async () => {
    const formula = await createLandlord(t, chiangMai.id, {
      nameEn: '@SUM(A1)',
      addrEn: '=1+1',
      tel: '+6621',
    });
    const response = await fetch(`${t.url}/api/landlord?mode=xlsx&merchantId=${chiangMai.id}&sort=id`, {
      headers: { 'x-access-token': admin },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-disposition')).toMatch(/filename="Landlord_\d{14}\.xlsx"/);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(await response.arrayBuffer());
    const sheet = workbook.worksheets[0]!;
    const rows = sheet.getSheetValues().filter(Boolean) as unknown[][];
    expect(rows[0]?.slice(1, 5)).toEqual(['Site ID', 'Site Name (EN)', 'Site Name (TH)', 'Cluster ID']);
    const siteIds = rows.slice(1).map((row) => row[1]);
    expect(siteIds).toContain(nimman.id);
    expect(siteIds).toContain(formula.id);
    expect(siteIds).not.toContain(siam.id);
    const nimmanRow = sheet.getRow(siteIds.indexOf(nimman.id) + 2);
    expect(nimmanRow.getCell(7).value).toBe('Maintenance');
    expect(nimmanRow.getCell(8).value).toBe(13.7563);
    expect(nimmanRow.getCell(8).type).toBe(ExcelJS.ValueType.Number);
    expect(nimmanRow.getCell(14).value).toBe(true);
    const formulaRow = sheet.getRow(siteIds.indexOf(formula.id) + 2);
    for (const [index, text] of [
      [2, '@SUM(A1)'],
      [10, '=1+1'],
      [13, '+6621'],
    ] as const) {
      const cell = formulaRow.getCell(index);
      expect(cell.value).toBe(text);
      expect(cell.type).toBe(ExcelJS.ValueType.String);
      expect(cell.numFmt).toBe('@');
    }
  });
});
