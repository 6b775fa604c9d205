import { USER_MESSAGES } from '@ev/shared';
import { sql } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../../src/db/schema/index.ts';
import {
  createLandlord,
  createMerchant,
  createParty,
  createUser,
  signedInUser,
} from '../helpers/factories.ts';
import { mailsSince, outboxFiles } from '../helpers/outbox.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';

let t: TestApp;
let admin: string;
let adminId: number;
let callcenter: string;
let bangkok: { id: number };
let chiangMai: { id: number };
let siam: { id: number };
let nimman: { id: number };
let malls: { id: number };
let north: { id: number };

/** Mobile users of the list tests: their emails end in @list.example, so other tests' users never show. */
let somchai: { id: number };
let alice: { id: number };
let nok: { id: number };
/** Admin users of the list tests (@staff.example). */
let merchantUser: { id: number };
let siteUser: { id: number };
let groupUser: { id: number };
let callUser: { id: number };

type MobileRow = Partial<typeof users.$inferInsert> & { email: string };
async function mobileUser(values: MobileRow) {
  const [row] = await t.database.db
    .insert(users)
    .values({ type: 'mobile', ...values })
    .returning({ id: users.id });
  return row!;
}

beforeAll(async () => {
  t = await startTestApp();
  const signedIn = await signedInUser(t, { role: 'admin' });
  admin = signedIn.token;
  adminId = signedIn.user.id;
  callcenter = (await signedInUser(t, { role: 'callcenter' })).token;
  bangkok = await createMerchant(t, { nameEn: 'Bangkok Cluster' });
  chiangMai = await createMerchant(t, { nameEn: 'Chiang Mai Cluster' });
  siam = await createLandlord(t, bangkok.id, { nameEn: 'Siam Paragon' });
  const silom = await createLandlord(t, bangkok.id, { nameEn: 'Silom Complex' });
  nimman = await createLandlord(t, chiangMai.id, { nameEn: 'One Nimman' });
  malls = await createParty(t, [siam.id, silom.id], { nameEn: 'Bangkok Malls' });
  north = await createParty(t, [nimman.id], { nameEn: 'Northern Route' });

  somchai = await mobileUser({
    email: 'somchai@list.example',
    firstName: 'Somchai',
    lastName: 'Jaidee',
    tel: '0812345678',
    emailVerified: true,
    telVerified: true,
    active: true,
    partnerUserType: 'mobile',
  });
  alice = await mobileUser({
    email: 'Alice.Brown@list.example',
    firstName: 'Alice',
    lastName: 'Brown',
    tel: '0898765432',
    emailVerified: false,
    telVerified: true,
    active: false,
    partnerUserType: 'ruejai',
  });
  nok = await mobileUser({
    email: 'nok@list.example',
    firstName: 'Nok',
    lastName: 'Srisuk',
    emailVerified: true,
    telVerified: false,
    active: true,
  });

  merchantUser = await createUser(t, {
    email: 'merchant@staff.example',
    firstName: 'Kittipong',
    lastName: 'Wong',
    role: 'merchant',
    merchantId: bangkok.id,
  });
  // An older row: a site user with only its site; its cluster is the site's.
  siteUser = await createUser(t, {
    email: 'landlord@staff.example',
    firstName: 'Achara',
    lastName: 'Lee',
    role: 'landlord',
    landlordId: nimman.id,
  });
  groupUser = await createUser(t, {
    email: 'party@staff.example',
    firstName: 'Somsak',
    lastName: 'Chai',
    role: 'party',
    partyId: malls.id,
    active: false,
  });
  callUser = await createUser(t, {
    email: 'cc@staff.example',
    firstName: 'Ben',
    lastName: 'Carter',
    role: 'callcenter',
  });
});
afterAll(() => t.close());

const get = (query: string, token = admin) => t.call('GET', `/api/user?${query}`, { token });
const mobiles = (query: string) => get(`admin=false&email=@list.example&${query}`);
const staff = (query: string) => get(`admin=true&email=@staff.example&${query}`);
const ids = (body: { users: Array<{ id: number }> }) => body.users.map((user) => user.id);
const post = (body: unknown, token = admin) => t.call('POST', '/api/user', { token, body });
const patch = (id: number, body: unknown, token = admin) =>
  t.call('PATCH', `/api/user/${id}`, { token, body });

let sequence = 0;
const freshEmail = (tag = 'new') => `${tag}-${Date.now()}-${sequence++}@example.com`;
const adminForm = (overrides: Record<string, unknown> = {}) => ({
  type: 'admin',
  email: freshEmail('staff'),
  firstName: 'Pimchanok',
  lastName: 'Chaiyaporn',
  adminRole: 'marketting',
  ...overrides,
});
const mobileForm = (overrides: Record<string, unknown> = {}) => ({
  type: 'mobile',
  email: freshEmail('member'),
  ...overrides,
});

describe('GET /api/user?admin=false (Member Mobile User)', () => {
  it('answers a page of mobile users only, with their Type', async () => {
    const response = await mobiles('sort=email&order=asc');
    expect(response.status).toBe(200);
    expect(response.body.total).toBe(3);
    expect(ids(response.body)).toEqual([alice.id, nok.id, somchai.id]);
    expect(response.body.users[1]).toEqual({
      id: nok.id,
      type: 'mobile',
      email: 'nok@list.example',
      firstName: 'Nok',
      lastName: 'Srisuk',
      tel: null,
      emailVerified: true,
      telVerified: false,
      active: true,
      // Unset counts as the app's own users.
      partnerUserType: 'mobile',
      adminRole: null,
      merchantId: null,
      partyId: null,
      landlordId: null,
      merchantNameEn: null,
      partyNameEn: null,
      landlordNameEn: null,
    });
    const all = await get('admin=false&size=100');
    expect(all.body.users.every((user: { type: string }) => user.type === 'mobile')).toBe(true);
  });

  it.each([
    ['name=chai', ['somchai']],
    ['name=BROWN', ['alice']],
    ['name=Somchai%20Jai', ['somchai']],
    ['email=ALICE', ['alice']],
    ['emailVerified=true', ['somchai', 'nok']],
    ['emailVerified=false', ['alice']],
    ['tel=0898', ['alice']],
    ['telVerified=false', ['nok']],
    ['active=false', ['alice']],
    ['type=ruejai', ['alice']],
    ['type=mobile', ['somchai', 'nok']],
    ['name=o&emailVerified=true&telVerified=true', ['somchai']],
    ['name=%25', []],
  ])('filters by %s', async (query, expected) => {
    const byName = { somchai, alice, nok } as Record<string, { id: number }>;
    const response = query.startsWith('email=')
      ? await get(`admin=false&${query}`)
      : await mobiles(`${query}&sort=email&order=desc`);
    expect(response.status).toBe(200);
    const want = expected.map((name) => byName[name]!.id);
    expect(ids(response.body).sort()).toEqual(want.sort());
    expect(response.body.total).toBe(want.length);
  });

  it.each([
    ['partnerUserType', 'asc', ['somchai', 'nok', 'alice']],
    ['partnerUserType', 'desc', ['alice', 'somchai', 'nok']],
    ['name', 'asc', ['alice', 'nok', 'somchai']],
    ['name', 'desc', ['somchai', 'nok', 'alice']],
    ['email', 'asc', ['alice', 'nok', 'somchai']],
    ['emailVerified', 'asc', ['alice', 'somchai', 'nok']],
    ['tel', 'asc', ['somchai', 'alice', 'nok']],
    ['tel', 'desc', ['nok', 'alice', 'somchai']],
    ['telVerified', 'asc', ['nok', 'somchai', 'alice']],
    ['active', 'asc', ['alice', 'somchai', 'nok']],
    ['active', 'desc', ['somchai', 'nok', 'alice']],
  ])('sorts by %s %s', async (sort, order, expected) => {
    const byName = { somchai, alice, nok } as Record<string, { id: number }>;
    const response = await mobiles(`sort=${sort}&order=${order}`);
    expect(ids(response.body)).toEqual(expected.map((name) => byName[name]!.id));
  });

  it('pages, and refuses an unknown sort, a missing admin flag and a bad filter', async () => {
    const second = await mobiles('sort=email&page=2&size=2');
    expect(second.body.total).toBe(3);
    expect(ids(second.body)).toEqual([somchai.id]);
    expect((await mobiles('sort=adminRole')).status).toBe(400);
    expect((await get('')).status).toBe(400);
    expect((await get('admin=maybe')).status).toBe(400);
    expect((await mobiles('type=admin')).status).toBe(400);
    expect((await mobiles('emailVerified=yes')).status).toBe(400);
  });
});

describe('GET /api/user?admin=true (Web Admin User)', () => {
  it('answers admin users only, with the names of their cluster, group and site', async () => {
    const response = await staff('sort=email');
    expect(response.status).toBe(200);
    expect(ids(response.body)).toEqual([callUser.id, siteUser.id, merchantUser.id, groupUser.id]);
    const site = response.body.users[1];
    expect(site).toMatchObject({
      type: 'admin',
      adminRole: 'landlord',
      partnerUserType: null,
      // A site user's cluster is its site's.
      merchantId: chiangMai.id,
      merchantNameEn: 'Chiang Mai Cluster',
      landlordId: nimman.id,
      landlordNameEn: 'One Nimman',
      partyId: null,
      partyNameEn: null,
    });
    expect(response.body.users[2]).toMatchObject({ merchantNameEn: 'Bangkok Cluster', landlordNameEn: null });
    expect(response.body.users[3]).toMatchObject({ partyNameEn: 'Bangkok Malls', active: false });
    // The mobile users are not admin users.
    expect((await get('admin=true&email=@list.example')).body.total).toBe(0);
  });

  it.each([
    ['merchantId=B', ['merchant']],
    ['merchantId=C', ['site']],
    ['merchantId=B&merchantId=C', ['merchant', 'site']],
    ['partyId=M', ['group']],
    ['partyId=N', []],
    ['landlordId=N', ['site']],
    ['adminRole=callcenter', ['call']],
    ['active=false', ['group']],
    ['active=true', ['merchant', 'site', 'call']],
    ['email=MERCHANT', ['merchant']],
    ['merchantId=B&adminRole=landlord', []],
  ])('filters by %s', async (raw, expected) => {
    const query = raw
      .replace('merchantId=B', `merchantId=${bangkok.id}`)
      .replace('merchantId=C', `merchantId=${chiangMai.id}`)
      .replace('partyId=M', `partyId=${malls.id}`)
      .replace('partyId=N', `partyId=${north.id}`)
      .replace('landlordId=N', `landlordId=${nimman.id}`);
    const byName = { merchant: merchantUser, site: siteUser, group: groupUser, call: callUser } as Record<
      string,
      { id: number }
    >;
    const response = raw.startsWith('email=') ? await get(`admin=true&${query}`) : await staff(query);
    expect(response.status).toBe(200);
    expect(ids(response.body).sort()).toEqual(expected.map((name) => byName[name]!.id).sort());
  });

  it.each([
    ['email', 'desc', ['group', 'merchant', 'site', 'call']],
    ['name', 'asc', ['site', 'call', 'merchant', 'group']],
    ['adminRole', 'asc', ['call', 'site', 'merchant', 'group']],
    ['merchantNameEn', 'asc', ['merchant', 'site', 'group', 'call']],
    ['partyNameEn', 'asc', ['group', 'merchant', 'site', 'call']],
    ['landlordNameEn', 'asc', ['site', 'merchant', 'group', 'call']],
    ['active', 'asc', ['group', 'merchant', 'site', 'call']],
  ])('sorts by %s %s', async (sort, order, expected) => {
    const byName = { merchant: merchantUser, site: siteUser, group: groupUser, call: callUser } as Record<
      string,
      { id: number }
    >;
    const response = await staff(`sort=${sort}&order=${order}`);
    expect(ids(response.body)).toEqual(expected.map((name) => byName[name]!.id));
  });

  it('pages and refuses an unknown sort', async () => {
    const page = await staff('sort=email&page=2&size=3');
    expect(page.body.total).toBe(4);
    expect(ids(page.body)).toEqual([groupUser.id]);
    expect((await staff('sort=tel')).status).toBe(400);
    expect((await staff('adminRole=superuser')).status).toBe(400);
  });
});

describe('GET /api/user?mode=xlsx', () => {
  async function sheetOf(query: string) {
    const response = await fetch(`${t.url}/api/user?mode=xlsx&${query}`, {
      headers: { 'x-access-token': admin },
    });
    expect(response.status).toBe(200);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(await response.arrayBuffer());
    const rows = (workbook.worksheets[0]!.getSheetValues().filter(Boolean) as unknown[][]).map((row) =>
      row.slice(1),
    );
    return { disposition: response.headers.get('content-disposition'), rows };
  }

  it('exports the filtered mobile users as User-Mobile_{timestamp}.xlsx', async () => {
    const { disposition, rows } = await sheetOf('admin=false&email=@list.example&sort=name&order=asc');
    expect(disposition).toMatch(/filename="User-Mobile_\d{14}\.xlsx"/);
    expect(rows[0]).toEqual([
      'Type',
      'Name-Surname',
      'Email',
      'Verify Email',
      'Mobile Number',
      'Verify Mobile Number',
      'Status',
    ]);
    expect(rows.slice(1)).toEqual([
      [
        'Ruejai',
        'Alice Brown',
        'Alice.Brown@list.example',
        'Not Verified',
        '0898765432',
        'Verified',
        'Locked',
      ],
      ['Mobile', 'Nok Srisuk', 'nok@list.example', 'Verified', undefined, 'Not Verified', 'Available'],
      ['Mobile', 'Somchai Jaidee', 'somchai@list.example', 'Verified', '0812345678', 'Verified', 'Available'],
    ]);
  });

  it('exports the filtered admin users as User-Admin_{timestamp}.xlsx', async () => {
    const { disposition, rows } = await sheetOf(`admin=true&email=@staff.example&sort=email`);
    expect(disposition).toMatch(/filename="User-Admin_\d{14}\.xlsx"/);
    expect(rows[0]).toEqual([
      'Email',
      'Name-Surname',
      'Role',
      'Cluster Name',
      'Group Name',
      'Site Name',
      'Status',
    ]);
    expect(rows[2]).toEqual([
      'landlord@staff.example',
      'Achara Lee',
      'Site',
      'Chiang Mai Cluster',
      undefined,
      'One Nimman',
      'Available',
    ]);
    expect(rows[4]).toEqual([
      'party@staff.example',
      'Somsak Chai',
      'Group',
      undefined,
      'Bangkok Malls',
      undefined,
      'Locked',
    ]);
  });

  it('answers 404 with the spec message when nothing matches', async () => {
    expect((await get('admin=false&mode=xlsx&email=nobody-at-all')).body).toEqual({
      message: 'No matched user mobile found',
    });
    const response = await get('admin=true&mode=xlsx&email=nobody-at-all');
    expect(response.status).toBe(404);
    expect(response.body).toEqual({ message: 'No matched user admin found' });
  });
});

describe('POST and PATCH /api/user: mobile users', () => {
  it('creates a mobile user locked by default, then edits it', async () => {
    const email = freshEmail('somsri');
    const created = await post({
      type: 'mobile',
      email: `  ${email}  `,
      firstName: ' Somsri ',
      lastName: 'Meesuk',
      tel: '0861112222',
    });
    expect(created.status).toBe(200);
    expect(created.body).toEqual({ message: 'Success', id: expect.any(Number) });
    const [row] = (await get(`admin=false&email=${email}`)).body.users;
    expect(row).toMatchObject({
      id: created.body.id,
      email,
      firstName: 'Somsri',
      lastName: 'Meesuk',
      tel: '0861112222',
      active: false,
      emailVerified: false,
      telVerified: false,
      partnerUserType: 'mobile',
    });

    const saved = await patch(created.body.id, {
      type: 'mobile',
      email,
      firstName: 'Somsri',
      lastName: '',
      tel: null,
      partnerUserType: 'ruejai',
      emailVerified: true,
      active: true,
    });
    expect(saved.status).toBe(200);
    expect((await get(`admin=false&email=${email}`)).body.users[0]).toMatchObject({
      lastName: '',
      tel: null,
      partnerUserType: 'ruejai',
      emailVerified: true,
      telVerified: false,
      active: true,
    });
  });

  it('takes Name, Surname and Phone Number as optional; the invitation then greets the email', async () => {
    const before = outboxFiles(t);
    const email = freshEmail('bare');
    expect((await post({ type: 'mobile', email, active: true })).status).toBe(200);
    expect((await get(`admin=false&email=${email}`)).body.users[0]).toMatchObject({
      firstName: '',
      lastName: '',
      tel: null,
      active: true,
    });
    // Members are invited to the app too (member-account.test.ts).
    const mails = mailsSince(t, before);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.text).toContain(`Hello ${email},`);
  });
});

describe('validation', () => {
  it.each([
    [{ email: '' }, `body.email: ${USER_MESSAGES.email}`],
    [{ email: undefined }, `body.email: ${USER_MESSAGES.email}`],
    [{ email: '   ' }, `body.email: ${USER_MESSAGES.emailBlank}`],
    [{ email: 'not-an-email' }, `body.email: ${USER_MESSAGES.emailPattern}`],
    [{ email: 'a@b' }, `body.email: ${USER_MESSAGES.emailPattern}`],
    [{ firstName: '' }, 'body.firstName: Name is required.'],
    [{ firstName: undefined }, 'body.firstName: Name is required.'],
    [{ firstName: '   ' }, 'body.firstName: Name is not whitespace'],
    [{ lastName: '' }, 'body.lastName: Surname is required.'],
    [{ lastName: ' \t ' }, 'body.lastName: Surname is not whitespace'],
    [{ firstName: 'x'.repeat(51) }, 'body.firstName: Please enter no more than 50 characters.'],
    [{ adminRole: undefined }, 'body.adminRole: Role is required.'],
    [{ adminRole: 'superuser' }, 'body.adminRole: Role is required.'],
    [{ adminRole: 'merchant' }, 'body.merchantId: Cluster name is required.'],
    [{ adminRole: 'landlord', merchantId: 1 }, 'body.landlordId: Site name is required.'],
    [{ adminRole: 'landlord', landlordId: 1 }, 'body.merchantId: Cluster name is required.'],
    [{ adminRole: 'party', merchantId: 1 }, 'body.partyId: Group name is required.'],
    [{ adminRole: 'station' }, 'body.partyId: Group name is required.'],
    [{ pass: 'Secret123' }, 'body: Unrecognized key: "pass"'],
    [{ type: 'superuser' }, 'body.type: '],
  ])('refuses an admin form %j with the spec message', async (overrides, message) => {
    const response = await post(adminForm(overrides));
    expect(response.status).toBe(400);
    expect(response.body.message.startsWith(message)).toBe(true);
    if (message.endsWith('.')) expect(response.body.message).toBe(message);
  });

  it.each([
    [{ email: '' }, `body.email: ${USER_MESSAGES.email}`],
    [{ email: ' ' }, `body.email: ${USER_MESSAGES.emailBlank}`],
    [{ email: 'someone@' }, `body.email: ${USER_MESSAGES.emailPattern}`],
    [{ tel: '08-1234' }, `body.tel: ${USER_MESSAGES.tel}`],
    [{ tel: '0'.repeat(14) }, 'body.tel: Please enter no more than 13 characters.'],
    [{ partnerUserType: 'admin' }, 'body.partnerUserType: '],
    [{ adminRole: 'admin' }, 'body: Unrecognized key: "adminRole"'],
    [{ pass: 'Secret123' }, 'body: Unrecognized key: "pass"'],
  ])('refuses a mobile form %j with the spec message', async (overrides, message) => {
    const response = await post(mobileForm(overrides));
    expect(response.status).toBe(400);
    expect(response.body.message.startsWith(message)).toBe(true);
  });

  it('refuses a site outside the chosen cluster (400), and links that do not exist (404)', async () => {
    for (const [overrides, status, message] of [
      [
        { adminRole: 'landlord', merchantId: bangkok.id, landlordId: nimman.id },
        400,
        `body.landlordId: ${USER_MESSAGES.siteOutsideCluster}`,
      ],
      [{ adminRole: 'merchant', merchantId: 999_999 }, 404, 'No such cluster'],
      [{ adminRole: 'party', partyId: 999_999 }, 404, 'No such group'],
      [{ adminRole: 'landlord', merchantId: bangkok.id, landlordId: 999_999 }, 404, 'No such site'],
    ] as const) {
      const response = await post(adminForm(overrides));
      expect(response.status, message).toBe(status);
      expect(response.body).toEqual({ message });
    }
    const patched = await patch(siteUser.id, {
      ...adminForm({ email: 'landlord@staff.example', firstName: 'Achara', lastName: 'Lee' }),
      adminRole: 'landlord',
      merchantId: bangkok.id,
      landlordId: nimman.id,
    });
    expect(patched.status).toBe(400);
  });
});

describe('admin users: role links', () => {
  it('keeps the links each role needs and drops the others', async () => {
    const cases = [
      [{ adminRole: 'merchant', merchantId: bangkok.id, partyId: malls.id }, [bangkok.id, null, null]],
      [
        { adminRole: 'landlord', merchantId: bangkok.id, landlordId: siam.id, partyId: malls.id },
        [bangkok.id, null, siam.id],
      ],
      [{ adminRole: 'party', partyId: malls.id, merchantId: bangkok.id }, [null, malls.id, null]],
      [{ adminRole: 'station', partyId: north.id, landlordId: siam.id }, [null, north.id, null]],
      [{ adminRole: 'callcenter', merchantId: bangkok.id, partyId: malls.id }, [null, null, null]],
    ] as const;
    for (const [links, [merchantId, partyId, landlordId]] of cases) {
      const form = adminForm(links);
      const created = await post(form);
      expect(created.status, JSON.stringify(links)).toBe(200);
      const [row] = (await get(`admin=true&email=${form.email}`)).body.users;
      expect(row).toMatchObject({
        adminRole: links.adminRole,
        merchantId,
        partyId,
        landlordId,
        active: true,
      });
    }
  });

  it('moves a user to another role and its links on PATCH', async () => {
    const form = adminForm({ adminRole: 'merchant', merchantId: bangkok.id });
    const { body } = await post(form);
    expect(
      (
        await patch(body.id, {
          ...form,
          adminRole: 'landlord',
          merchantId: chiangMai.id,
          landlordId: nimman.id,
          active: false,
        })
      ).status,
    ).toBe(200);
    expect((await get(`admin=true&email=${form.email}`)).body.users[0]).toMatchObject({
      adminRole: 'landlord',
      merchantNameEn: 'Chiang Mai Cluster',
      landlordNameEn: 'One Nimman',
      active: false,
    });
    // Left out, the flag keeps its value.
    expect((await patch(body.id, { ...form, adminRole: 'admin' })).status).toBe(200);
    expect((await get(`admin=true&email=${form.email}`)).body.users[0]).toMatchObject({
      adminRole: 'admin',
      merchantId: null,
      landlordId: null,
      active: false,
    });
  });

  it("refuses a PATCH whose type is not the user's (404), and an unknown id", async () => {
    expect((await patch(somchai.id, adminForm())).status).toBe(404);
    expect((await patch(merchantUser.id, mobileForm())).status).toBe(404);
    expect((await patch(999_999, mobileForm())).status).toBe(404);
  });

  it('does not let an admin change their own role or lock themselves out', async () => {
    const [me] = await t.database.db
      .select({ email: users.email })
      .from(users)
      .where(sql`${users.id} = ${adminId}`);
    const own = adminForm({ email: me!.email, adminRole: 'admin' });
    const demoted = await patch(adminId, { ...own, adminRole: 'callcenter' });
    expect(demoted.status).toBe(400);
    expect(demoted.body).toEqual({ message: USER_MESSAGES.ownRole });
    const locked = await patch(adminId, { ...own, active: false });
    expect(locked.body).toEqual({ message: USER_MESSAGES.ownLock });
    expect((await patch(adminId, { ...own, firstName: 'Renamed' })).status).toBe(200);
    expect((await get('admin=false&size=1', admin)).status).toBe(200);
  });
});

describe('duplicate emails', () => {
  it('answers 409 with a clear message, ignoring case, within one kind of user', async () => {
    const taken = await post(adminForm({ email: 'MERCHANT@staff.example' }));
    expect(taken.status).toBe(409);
    expect(taken.body).toEqual({ message: USER_MESSAGES.emailTaken });
    const mobileTaken = await post(mobileForm({ email: 'somchai@LIST.example' }));
    expect(mobileTaken.status).toBe(409);
    expect(mobileTaken.body).toEqual({ message: USER_MESSAGES.emailTaken });
    // An admin user and a mobile user may share an address: they sign in to different apps.
    expect((await post(mobileForm({ email: 'cc@staff.example' }))).status).toBe(200);
  });

  it('answers 409 on a PATCH to an address already taken', async () => {
    const response = await patch(nok.id, mobileForm({ email: 'Somchai@list.example' }));
    expect(response.status).toBe(409);
    expect(response.body).toEqual({ message: USER_MESSAGES.emailTaken });
    expect((await get(`admin=false&email=nok@list.example`)).body.total).toBe(1);
  });
});

describe('DELETE /api/user/:id', () => {
  it('refuses an active user with 409, deletes an inactive one', async () => {
    const { body } = await post(mobileForm({ active: true }));
    const active = await t.call('DELETE', `/api/user/${body.id}`, { token: admin });
    expect(active.status).toBe(409);
    expect(active.body.message).toMatch(/active/);
    const form = mobileForm({ active: false });
    const inactive = await post(form);
    expect((await t.call('DELETE', `/api/user/${inactive.body.id}`, { token: admin })).status).toBe(200);
    expect((await get(`admin=false&email=${form.email}`)).body.total).toBe(0);
    expect((await t.call('DELETE', `/api/user/${inactive.body.id}`, { token: admin })).status).toBe(404);
  });

  it('deletes an inactive admin user', async () => {
    const user = await createUser(t, { role: 'merchant', merchantId: bangkok.id, active: false });
    expect((await t.call('DELETE', `/api/user/${user.id}`, { token: admin })).status).toBe(200);
    const rows = await t.database.db.select().from(users).where(sql`${users.id} = ${user.id}`);
    expect(rows).toEqual([]);
  });
});

describe('permissions', () => {
  it('gives callcenter the mobile users but not the admin users (403)', async () => {
    expect((await get('admin=false', callcenter)).status).toBe(200);
    for (const query of ['admin=true', 'admin=true&mode=xlsx']) {
      const response = await get(query, callcenter);
      expect(response.status, query).toBe(403);
      expect(response.body).toEqual({ message: 'Forbidden' });
    }
    expect((await post(adminForm(), callcenter)).status).toBe(403);
    expect((await patch(merchantUser.id, adminForm(), callcenter)).status).toBe(403);
    // An admin user is outside what callcenter may change: 404, as for any record outside a scope.
    expect((await t.call('DELETE', `/api/user/${groupUser.id}`, { token: callcenter })).status).toBe(404);

    const form = mobileForm();
    const created = await post(form, callcenter);
    expect(created.status).toBe(200);
    expect((await patch(created.body.id, { ...form, firstName: 'Edited' }, callcenter)).status).toBe(200);
    expect((await t.call('DELETE', `/api/user/${created.body.id}`, { token: callcenter })).status).toBe(200);
  });

  it.each(['merchant', 'party', 'landlord', 'station', 'marketting'] as const)(
    'refuses %s both lists and every write (403)',
    async (role) => {
      const { token } = await signedInUser(t, { role });
      for (const query of ['admin=false', 'admin=true', 'admin=false&mode=xlsx']) {
        expect((await get(query, token)).status, query).toBe(403);
      }
      expect((await post(mobileForm(), token)).status).toBe(403);
      expect((await patch(somchai.id, mobileForm(), token)).status).toBe(403);
      expect((await t.call('DELETE', `/api/user/${alice.id}`, { token })).status).toBe(403);
    },
  );

  it('answers 401 signed out, and 403 to a role outside the table', async () => {
    expect((await get('admin=false', '')).status).toBe(401);
    expect((await t.call('POST', '/api/user', { body: mobileForm() })).status).toBe(401);
    expect((await t.call('PATCH', `/api/user/${somchai.id}`, { body: mobileForm() })).status).toBe(401);
    expect((await t.call('DELETE', `/api/user/${alice.id}`)).status).toBe(401);
    const { user, token } = await signedInUser(t);
    await t.database.db.execute(sql`update users set admin_role = 'superuser' where id = ${user.id}`);
    expect((await get('admin=false', token)).status).toBe(403);
    expect((await get('admin=true', token)).status).toBe(403);
    expect((await post(mobileForm(), token)).status).toBe(403);
  });
});
