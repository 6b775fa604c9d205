import { USER_PROMOTION_MESSAGES, type UserPromotion } from '@ev/shared';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../../src/db/schema/index.ts';
import { createLandlord, createMerchant, createParty, signedInUser } from '../helpers/factories.ts';
import {
  bulkRedemptions,
  createPromotion,
  memberWithSession,
  pointCode,
  privateStation,
  readSheet,
  redeem,
} from '../helpers/promotions.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';

/**
 * GET /api/user-promotion (private-station members, issue 21) through real HTTP: the fields, every filter,
 * paging, the station scope, the roles, and the Private-Station-Member spreadsheet.
 */
let t: TestApp;
let admin: string;
let alpha: { id: number };
let beta: { id: number };
let siteA1: { id: number };
let siteA2: { id: number };
let siteB: { id: number };
type Member = Awaited<ReturnType<typeof memberWithSession>>['user'];
let ann: Member;
let bob: Member;
let cat: Member;
let dora: Member;
const redemption: Record<string, { id: number; createdAt: string }> = {};
let bCodes: string[];

beforeAll(async () => {
  t = await startTestApp();
  admin = (await signedInUser(t, { role: 'admin' })).token;
  alpha = await createMerchant(t, { nameEn: 'Alpha Cluster' });
  beta = await createMerchant(t, { nameEn: 'Beta Cluster' });
  siteA1 = await createLandlord(t, alpha.id, { nameEn: 'A1 Site' });
  siteA2 = await createLandlord(t, alpha.id, { nameEn: 'A2 Site' });
  siteB = await createLandlord(t, beta.id, { nameEn: 'B Site' });

  await createPromotion(t, admin, { code: 'PRIVA1', nameEn: 'Private A1', ...privateStation([siteA1.id]) });
  bCodes = (
    await createPromotion(t, admin, {
      code: 'PRIVB',
      nameEn: 'Private B',
      count: 3,
      ...privateStation([siteB.id], [beta.id]),
    })
  ).codes;
  await createPromotion(t, admin, {
    code: 'PRIVAB',
    nameEn: 'Private AB',
    ...privateStation([siteB.id, siteA2.id]),
  });
  await createPromotion(t, admin, { code: 'POINTS', nameEn: 'Points', ...pointCode(5) });

  const a = await memberWithSession(t, 'Annabel');
  const b = await memberWithSession(t, 'Bob');
  const c = await memberWithSession(t, 'Cat');
  const d = await memberWithSession(t, 'Dora');
  [ann, bob, cat, dora] = [a.user, b.user, c.user, d.user];
  await t.database.db.update(users).set({ lastName: 'O_Neil' }).where(eq(users.id, cat.id));
  for (const [index, member] of [ann, bob, cat, dora].entries()) {
    member.tel = `081234${5670 + index}`;
    await t.database.db.update(users).set({ tel: member.tel }).where(eq(users.id, member.id));
  }
  // Oldest first: ann, bob, cat, dora. A point code is no membership.
  redemption.ann = await redeem(t, a.token, { code: 'PRIVA1', licensePlate: 'กข 1111' });
  await redeem(t, a.token, { code: 'POINTS' });
  redemption.bob = await redeem(t, b.token, { code: bCodes[0], licensePlate: 'BB 2222' });
  redemption.cat = await redeem(t, c.token, { code: bCodes[1]!.toLowerCase(), licensePlate: 'CC 3333' });
  redemption.dora = await redeem(t, d.token, { code: 'privab', licensePlate: 'DD 4444' });
});
afterAll(() => t.close());

async function list(query: string, token = admin) {
  const response = await t.call('GET', `/api/user-promotion?type=landlord${query ? `&${query}` : ''}`, {
    token,
  });
  return response as { status: number; body: { total: number; userPromotions: UserPromotion[] } };
}

/** The first names of a list's members, in order (checking the total matches when all fit on a page). */
async function names(query: string, token = admin) {
  const { status, body } = await list(`${query}&size=100`, token);
  expect(status, JSON.stringify(body)).toBe(200);
  expect(body.total).toBe(body.userPromotions.length);
  return body.userPromotions.map((member) => member.firstName);
}

describe('GET /api/user-promotion', () => {
  it("answers each member's fields, newest first, landlord codes only", async () => {
    const { status, body } = await list('');
    expect(status).toBe(200);
    expect(body.total).toBe(4);
    expect(body.userPromotions).toEqual([
      {
        id: redemption.dora!.id,
        userId: dora.id,
        firstName: 'Dora',
        lastName: 'Driver',
        email: dora.email,
        tel: dora.tel,
        code: 'PRIVAB',
        licensePlate: 'DD 4444',
        // No clusters chosen: the clusters of its sites; both by name.
        merchantNameEns: ['Alpha Cluster', 'Beta Cluster'],
        landlordNameEns: ['A2 Site', 'B Site'],
        internal: true,
        nameEn: 'Private AB',
        createdAt: redemption.dora!.createdAt,
      },
      expect.objectContaining({ firstName: 'Cat', lastName: 'O_Neil', code: bCodes[1] }),
      expect.objectContaining({
        firstName: 'Bob',
        code: bCodes[0],
        licensePlate: 'BB 2222',
        merchantNameEns: ['Beta Cluster'],
        landlordNameEns: ['B Site'],
        nameEn: 'Private B',
      }),
      expect.objectContaining({
        id: redemption.ann!.id,
        firstName: 'Annabel',
        code: 'PRIVA1',
        licensePlate: 'กข 1111',
        merchantNameEns: ['Alpha Cluster'],
        landlordNameEns: ['A1 Site'],
      }),
    ]);
  });

  it('filters by name, surname, email and mobile number, partly and whatever the case', async () => {
    expect(await names('firstName=aNNa')).toEqual(['Annabel']);
    expect(await names('firstName=%20ora%20')).toEqual(['Dora']);
    expect(await names('lastName=driv')).toEqual(['Dora', 'Bob', 'Annabel']);
    // % and _ match themselves, not any text.
    expect(await names('lastName=_')).toEqual(['Cat']);
    expect(await names('lastName=%25')).toEqual([]);
    expect(await names('firstName=B_b')).toEqual([]);
    expect(await names(`email=${encodeURIComponent(bob.email.slice(0, 5).toUpperCase())}`)).toEqual(['Bob']);
    expect(await names(`tel=${cat.tel!.slice(-4)}`)).toEqual(['Cat']);
    expect(await names('tel=081234')).toHaveLength(4);
    expect(await names('firstName=nobody')).toEqual([]);
  });

  it("filters by the member's code, partly and whatever the case", async () => {
    expect(await names('code=privab')).toEqual(['Dora']);
    expect(await names('code=PRIVB')).toEqual(['Cat', 'Bob']);
    expect(await names(`code=${bCodes[0]!.slice(-6).toLowerCase()}`)).toEqual(['Bob']);
    expect(await names('code=priv')).toEqual(['Dora', 'Cat', 'Bob', 'Annabel']);
    expect(await names('code=POINTS')).toEqual([]);
  });

  it("filters by the clusters of the promotion's sites and by its sites, each repeated", async () => {
    expect(await names(`merchantId=${alpha.id}`)).toEqual(['Dora', 'Annabel']);
    expect(await names(`merchantId=${beta.id}`)).toEqual(['Dora', 'Cat', 'Bob']);
    expect(await names(`merchantId=${alpha.id}&merchantId=${beta.id}`)).toHaveLength(4);
    expect(await names(`landlordId=${siteA2.id}`)).toEqual(['Dora']);
    expect(await names(`landlordId=${siteA1.id}&landlordId=${siteA2.id}`)).toEqual(['Dora', 'Annabel']);
    expect(await names(`landlordId=${siteB.id}&firstName=bob`)).toEqual(['Bob']);
    expect(await names(`merchantId=${alpha.id}&landlordId=${siteB.id}`)).toEqual(['Dora']);
  });

  it('pages like every list, and sorts by a column when asked', async () => {
    const first = await list('page=1&size=3');
    expect(first.body.total).toBe(4);
    expect(first.body.userPromotions.map((m) => m.firstName)).toEqual(['Dora', 'Cat', 'Bob']);
    const second = await list('page=2&size=3');
    expect(second.body).toMatchObject({ total: 4 });
    expect(second.body.userPromotions.map((m) => m.firstName)).toEqual(['Annabel']);
    expect((await list('page=3&size=3')).body).toEqual({ total: 4, userPromotions: [] });
    expect(await names('sort=firstName&order=asc')).toEqual(['Annabel', 'Bob', 'Cat', 'Dora']);
    // Equal values in the order of the members' redemptions (the id breaks ties).
    expect(await names('sort=lastName&order=asc')).toEqual(['Annabel', 'Bob', 'Dora', 'Cat']);
    expect((await list('sort=password')).status).toBe(400);
    expect((await list('size=101')).status).toBe(400);
  });

  it('refuses a missing or other type with 400', async () => {
    for (const query of ['', 'type=discount', 'type=point', 'type=LANDLORD', 'type=landlord&type=landlord']) {
      const response = await t.call('GET', `/api/user-promotion?${query}`, { token: admin });
      expect(response.status, query).toBe(400);
      expect(response.body.message, query).toBe(`querystring.type: ${USER_PROMOTION_MESSAGES.type}`);
    }
  });

  it("shows a station user the members of its group's sites only, and those sites only", async () => {
    const a1 = (await signedInUser(t, { role: 'station', partyId: (await createParty(t, [siteA1.id])).id }))
      .token;
    expect(await names('', a1)).toEqual(['Annabel']);
    // Its cluster filter narrows within its scope, never beyond.
    expect(await names(`merchantId=${beta.id}`, a1)).toEqual([]);
    expect(await names(`landlordId=${siteB.id}`, a1)).toEqual([]);

    const a2 = (await signedInUser(t, { role: 'station', partyId: (await createParty(t, [siteA2.id])).id }))
      .token;
    const { body } = await list('', a2);
    expect(body.total).toBe(1);
    expect(body.userPromotions[0]).toMatchObject({
      firstName: 'Dora',
      merchantNameEns: ['Alpha Cluster'],
      landlordNameEns: ['A2 Site'],
    });
    expect(await names(`merchantId=${beta.id}`, a2)).toEqual(['Dora']);

    const sheet = await readSheet(t, '/api/user-promotion?type=landlord&mode=xlsx', a2);
    expect(sheet.rows.map((row) => row.Name)).toEqual(['Dora']);
    expect(sheet.rows[0]).toMatchObject({ 'Cluster Name': 'Alpha Cluster', 'Site Name': 'A2 Site' });

    // A station user of no group sees no one.
    const lost = (await signedInUser(t, { role: 'station' })).token;
    expect(await names('', lost)).toEqual([]);
  });

  it.each(['marketting', 'callcenter', 'merchant', 'party', 'landlord'] as const)(
    'is 403 for %s',
    async (role) => {
      const token = (await signedInUser(t, { role })).token;
      expect((await list('', token)).status).toBe(403);
      expect((await list('mode=xlsx', token)).status).toBe(403);
    },
  );
});

describe('GET /api/user-promotion?mode=xlsx', () => {
  it('streams Private-Station-Member_{timestamp}.xlsx with the same filters and order', async () => {
    const sheet = await readSheet(t, '/api/user-promotion?type=landlord&mode=xlsx', admin);
    expect(sheet.status).toBe(200);
    expect(sheet.fileName).toMatch(/^Private-Station-Member_\d{14}\.xlsx$/);
    expect(sheet.header).toEqual([
      'Name',
      'Surname',
      'Email',
      'Mobile Number',
      'Code',
      'License Plate',
      'Cluster Name',
      'Site Name',
      'Area Type',
      'Promotion Name',
      'Redeem Date',
    ]);
    expect(sheet.rows.map((row) => row.Name)).toEqual(['Dora', 'Cat', 'Bob', 'Annabel']);
    expect(sheet.rows[0]).toEqual({
      Name: 'Dora',
      Surname: 'Driver',
      Email: dora.email,
      'Mobile Number': dora.tel,
      Code: 'PRIVAB',
      'License Plate': 'DD 4444',
      'Cluster Name': 'Alpha Cluster, Beta Cluster',
      'Site Name': 'A2 Site, B Site',
      'Area Type': 'Selected landlords',
      'Promotion Name': 'Private AB',
      'Redeem Date': expect.stringMatching(/^\d{2}\/\d{2}\/25\d{2} \d{2}:\d{2}:\d{2}$/),
    });
    const filtered = await readSheet(t, '/api/user-promotion?type=landlord&mode=xlsx&code=privb', admin);
    expect(filtered.rows.map((row) => [row.Name, row.Code])).toEqual([
      ['Cat', bCodes[1]],
      ['Bob', bCodes[0]],
    ]);
    const sorted = await readSheet(
      t,
      '/api/user-promotion?type=landlord&mode=xlsx&sort=firstName&order=asc',
      admin,
    );
    expect(sorted.rows.map((row) => row.Name)).toEqual(['Annabel', 'Bob', 'Cat', 'Dora']);
  });

  it("answers 404 'No matched member found' when no one matches, 400 without the type", async () => {
    const none = await readSheet(t, '/api/user-promotion?type=landlord&mode=xlsx&firstName=nobody', admin);
    expect(none).toMatchObject({ status: 404, message: USER_PROMOTION_MESSAGES.notFound });
    expect((await readSheet(t, '/api/user-promotion?mode=xlsx', admin)).status).toBe(400);
  });

  it('reads batch after batch by the last row, ties broken by id (2,003 members redeemed at one instant)', async () => {
    const { id } = await createPromotion(t, admin, {
      code: 'BULKMEMBERS',
      nameEn: 'Bulk',
      ...privateStation([siteA1.id]),
    });
    await bulkRedemptions(t, id, 'BULKMEMBERS', 2003, 'Bulk');
    const { body } = await list('code=bulkmembers&size=2');
    expect(body.total).toBe(2003);
    expect(body.userPromotions.map((m) => m.firstName)).toEqual(['Bulk02003', 'Bulk02002']);
    const sheet = await readSheet(t, '/api/user-promotion?type=landlord&mode=xlsx&code=BULKMEMBERS', admin);
    const got = sheet.rows.map((row) => row.Name);
    expect(got).toHaveLength(2003);
    expect(new Set(got).size).toBe(2003);
    expect(got[0]).toBe('Bulk02003');
    expect(got.at(-1)).toBe('Bulk00001');
    expect(got).toEqual([...got].sort().reverse());
  });
});
