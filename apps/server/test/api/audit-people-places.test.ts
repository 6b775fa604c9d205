import type { AuditEntry } from '@ev/shared';
/**
 * The audit entries of the people and places areas (issue 36): sign-in, failed sign-in, sign-out, the password
 * flows, the profile, users and members, clusters, sites, groups, charger brands, pages, uploads and the
 * contact details. Each action is one entry with who, from where, what and before → after; no password, hash
 * or token is ever in one; a refused change writes none.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authFailures } from '../../src/db/schema/index.ts';
import { createLandlord, createMerchant, createUser, signedInUser } from '../helpers/factories.ts';
import { mailsSince, outboxFiles, resetToken } from '../helpers/outbox.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';

type Entry = AuditEntry;

let t: TestApp;
let admin: { user: { id: number; email: string }; token: string };

beforeAll(async () => {
  t = await startTestApp();
  admin = await signedInUser(t, { role: 'admin' });
});
afterAll(() => t.close());

/** The entries matching a query, newest first. */
async function entriesOf(query: string): Promise<Entry[]> {
  const response = await t.call('GET', `/api/audit-log?size=100&${query}`, { token: admin.token });
  expect(response.status).toBe(200);
  return response.body.entries;
}
/** The whole log as the API gives it, one text: where a secret must never appear. */
async function wholeLog(): Promise<string> {
  const pages: unknown[] = [];
  for (let page = 1; ; page++) {
    const response = await t.call('GET', `/api/audit-log?size=100&page=${page}`, { token: admin.token });
    expect(response.status).toBe(200);
    pages.push(response.body.entries);
    if (page * 100 >= response.body.total) return JSON.stringify(pages);
  }
}
const totalEntries = async () =>
  (await t.call('GET', '/api/audit-log?size=1', { token: admin.token })).body.total as number;
/** field → [before, after] */
const fieldsOf = (entry: Entry | undefined) =>
  Object.fromEntries((entry?.changes ?? []).map((c) => [c.field, [c.before, c.after]]));
/** The one entry of an entity's record and action (the newest). */
async function entryOf(entity: string, entityId: number | string, action: string): Promise<Entry> {
  const [entry] = await entriesOf(`entity=${entity}&entityId=${entityId}&action=${action}`);
  expect(entry, `${entity} ${entityId} ${action}`).toBeDefined();
  return entry!;
}
/** Who: the signed-in admin, from the test's address. */
const byAdmin = () => ({
  userId: admin.user.id,
  userEmail: admin.user.email,
  role: 'admin',
  ip: '127.0.0.1',
});

const signIn = (email: string, pass: string) =>
  t.call('POST', '/api/auth/login', { body: { email, pass, type: 'admin' } });

describe('sessions', () => {
  it('a staff sign-in: the user, its role and address; no password or token', async () => {
    const user = await createUser(t, { role: 'callcenter' });
    const response = await signIn(user.email, user.pass);
    expect(response.status).toBe(200);
    const entry = await entryOf('session', user.id, 'sign-in');
    expect(entry).toMatchObject({
      userId: user.id,
      userEmail: user.email,
      role: 'callcenter',
      ip: '127.0.0.1',
    });
    const log = await wholeLog();
    expect(log).toContain(user.email);
    expect(log).not.toContain(user.pass);
    expect(log).not.toContain(response.body.accessToken);
  });

  it('a failed sign-in: the typed email, the known user if any, never the password', async () => {
    const typed = 'Nobody.Here@Example.com';
    expect((await signIn(typed, 'Guess-Unknown-1')).status).toBe(401);
    const [unknown] = await entriesOf('entity=session&action=sign-in-failed');
    expect(unknown).toMatchObject({ userId: null, entityId: null, ip: '127.0.0.1' });
    expect(unknown!.details).toEqual({ email: typed, reason: 'pass' });

    const staff = await createUser(t, { role: 'marketting' });
    expect((await signIn(staff.email, 'Wrong-Pass-2')).status).toBe(401);
    const known = await entryOf('session', staff.id, 'sign-in-failed');
    expect(known).toMatchObject({ userId: staff.id, role: 'marketting' });
    expect(known.details).toEqual({ email: staff.email, reason: 'pass' });

    const locked = await createUser(t, { active: false });
    expect((await signIn(locked.email, locked.pass)).status).toBe(403);
    expect((await entryOf('session', locked.id, 'sign-in-failed')).details).toEqual({
      email: locked.email,
      reason: 'locked',
    });
    const log = await wholeLog();
    for (const secret of ['Guess-Unknown-1', 'Wrong-Pass-2', locked.pass]) expect(log).not.toContain(secret);
    await t.database.db.delete(authFailures);
  });

  it("a member's sign-in (the charging app), done or failed, writes no entry", async () => {
    const before = await totalEntries();
    const member = await signedInUser(t, { type: 'mobile' });
    const failed = await t.call('POST', '/api/member/login', {
      body: { email: member.user.email, pass: 'Wrong-Member-3' },
    });
    expect(failed.status).toBe(401);
    expect(await totalEntries()).toBe(before);
    await t.database.db.delete(authFailures);
  });

  it('a sign-out', async () => {
    const user = await signedInUser(t, { role: 'merchant' });
    expect((await t.call('POST', '/api/auth/logout', { token: user.token, body: {} })).status).toBe(200);
    expect(await entryOf('session', user.user.id, 'sign-out')).toMatchObject({
      userId: user.user.id,
      role: 'merchant',
    });
  });
});

describe('passwords', () => {
  it('a reset request and a reset: of the user, the hash redacted, no password or token anywhere', async () => {
    const user = await createUser(t, { role: 'callcenter' });
    const before = outboxFiles(t);
    const asked = await t.call('POST', '/api/auth/forgot-password', {
      body: { email: user.email, type: 'admin' },
    });
    expect(asked.status).toBe(200);
    const token = resetToken(mailsSince(t, before)[0]!);
    const request = await entryOf('user', user.id, 'password-reset-request');
    expect(request).toMatchObject({ userId: user.id, role: 'callcenter', ip: '127.0.0.1' });
    expect(request.details).toEqual({ email: user.email, linkIssued: true });

    const pass = 'Brand-New-Reset-9';
    expect(
      (await t.call('POST', '/api/auth/reset-password', { body: { emailToken: token, pass } })).status,
    ).toBe(200);
    const reset = await entryOf('user', user.id, 'password-reset');
    expect(reset).toMatchObject({ userId: user.id, role: 'callcenter' });
    expect(reset.changes).toEqual([{ field: 'passHash', before: '[redacted]', after: '[redacted]' }]);
    const log = await wholeLog();
    expect(log).not.toContain(pass);
    expect(log).not.toContain(token);
    expect(log).not.toContain(user.passHash);
  });

  it('a reset request for an unknown address: the typed email, no user', async () => {
    const typed = 'no-such-staff@example.com';
    await t.call('POST', '/api/auth/forgot-password', { body: { email: typed, type: 'admin' } });
    const [entry] = await entriesOf('entity=user&action=password-reset-request');
    expect(entry).toMatchObject({ userId: null, entityId: null });
    expect(entry!.details).toEqual({ email: typed, linkIssued: false });
  });

  it('a refused reset (an unknown link) writes nothing', async () => {
    const before = await totalEntries();
    const refused = await t.call('POST', '/api/auth/reset-password', {
      body: { emailToken: 'x'.repeat(43), pass: 'Another-Pass-1' },
    });
    expect(refused.status).toBe(400);
    expect(await totalEntries()).toBe(before);
  });
});

describe('the profile (self)', () => {
  it('a name change is an update of the user, before → after', async () => {
    const me = await signedInUser(t, { role: 'callcenter', firstName: 'Old' });
    const saved = await t.call('PATCH', '/api/user/self', {
      token: me.token,
      body: { firstName: 'New', lastName: 'User' },
    });
    expect(saved.status).toBe(200);
    const entry = await entryOf('user', me.user.id, 'update');
    expect(entry).toMatchObject({ userId: me.user.id, role: 'callcenter' });
    expect(entry.changes).toEqual([{ field: 'firstName', before: 'Old', after: 'New' }]);
  });

  it('a password change: the hash redacted, the passwords nowhere; a wrong current one writes nothing', async () => {
    const me = await signedInUser(t, { role: 'callcenter' });
    const before = await totalEntries();
    const wrong = await t.call('PATCH', '/api/user/self', {
      token: me.token,
      body: { currentPass: 'Not-Mine-1', pass: 'Changed-Pass-7' },
    });
    expect(wrong.status).toBe(400);
    expect(await totalEntries()).toBe(before);

    const pass = 'Changed-Pass-8';
    const changed = await t.call('PATCH', '/api/user/self', {
      token: me.token,
      body: { currentPass: me.user.pass, pass },
    });
    expect(changed.status).toBe(200);
    const entry = await entryOf('user', me.user.id, 'password-change');
    expect(entry.changes).toEqual([{ field: 'passHash', before: '[redacted]', after: '[redacted]' }]);
    const log = await wholeLog();
    for (const secret of [pass, me.user.pass, me.user.passHash, 'Not-Mine-1'])
      expect(log).not.toContain(secret);
  });

  it('accepting the terms: one entry per page accepted, of the page', async () => {
    const make = async (type: 'terms' | 'privacy') => {
      const body = {
        type,
        titleEn: `${type} v1`,
        titleTh: type,
        detailEn: '<p>Text</p>',
        detailTh: '<p>ข้อความ</p>',
        active: true,
      };
      return (await t.call('POST', '/api/page', { token: admin.token, body })).body.id as number;
    };
    const termsId = await make('terms');
    const privacyId = await make('privacy');
    const me = await signedInUser(t, { role: 'callcenter' });
    const stale = await t.call('POST', '/api/user/self/term-accept', {
      token: me.token,
      body: { termsId: privacyId, privacyId: termsId },
    });
    expect(stale.status).toBe(409);
    expect(await entriesOf(`userId=${me.user.id}&entity=page`)).toEqual([]);
    const accepted = await t.call('POST', '/api/user/self/term-accept', {
      token: me.token,
      body: { termsId, privacyId },
    });
    expect(accepted.status).toBe(200);
    const entries = await entriesOf(`userId=${me.user.id}&entity=page&action=update`);
    expect(entries.map((e) => [e.entityId, e.details])).toEqual(
      expect.arrayContaining([
        [String(termsId), { accepted: 'terms' }],
        [String(privacyId), { accepted: 'privacy' }],
      ]),
    );
    expect(entries).toHaveLength(2);
  });
});

describe('users and members', () => {
  it('an admin user: create, update, delete (entity user), a refused one writes nothing', async () => {
    const email = `audit-staff-${Date.now()}@example.com`;
    const form = { type: 'admin', email, firstName: 'Ann', lastName: 'Staff', adminRole: 'marketting' };
    const created = await t.call('POST', '/api/user', { token: admin.token, body: form });
    expect(created.status).toBe(200);
    const id = created.body.id as number;
    const create = await entryOf('user', id, 'create');
    expect(create).toMatchObject(byAdmin());
    expect(fieldsOf(create).email).toEqual([null, email]);
    expect(fieldsOf(create).adminRole).toEqual([null, 'marketting']);

    const before = await totalEntries();
    expect((await t.call('POST', '/api/user', { token: admin.token, body: form })).status).toBe(409);
    const invalid = { ...form, email: 'not-an-email' };
    expect((await t.call('POST', '/api/user', { token: admin.token, body: invalid })).status).toBe(400);
    expect(await totalEntries()).toBe(before);

    const edited = { ...form, firstName: 'Anna', active: false };
    expect((await t.call('PATCH', `/api/user/${id}`, { token: admin.token, body: edited })).status).toBe(200);
    const update = await entryOf('user', id, 'update');
    expect(fieldsOf(update)).toEqual({ firstName: ['Ann', 'Anna'], active: [true, false] });

    expect((await t.call('DELETE', `/api/user/${id}`, { token: admin.token })).status).toBe(200);
    const removed = await entryOf('user', id, 'delete');
    expect(fieldsOf(removed).email).toEqual([email, null]);
  });

  it('a mobile user: create, update, delete (entity member)', async () => {
    const email = `audit-member-${Date.now()}@example.com`;
    const created = await t.call('POST', '/api/user', {
      token: admin.token,
      body: { type: 'mobile', email, firstName: 'Mem' },
    });
    expect(created.status).toBe(200);
    const id = created.body.id as number;
    expect(fieldsOf(await entryOf('member', id, 'create')).email).toEqual([null, email]);
    expect(
      (
        await t.call('PATCH', `/api/user/${id}`, {
          token: admin.token,
          body: { type: 'mobile', email, tel: '0812345678' },
        })
      ).status,
    ).toBe(200);
    expect(fieldsOf(await entryOf('member', id, 'update')).tel).toEqual([null, '0812345678']);
    expect((await t.call('DELETE', `/api/user/${id}`, { token: admin.token })).status).toBe(200);
    expect(await entryOf('member', id, 'delete')).toMatchObject(byAdmin());
    expect(await entriesOf(`entity=user&entityId=${id}`)).toEqual([]);
  });
});

describe('clusters, sites and groups', () => {
  const cluster = {
    nameEn: 'Audit Cluster',
    nameTh: 'คลัสเตอร์',
    internal: false,
    addrEn: null,
    addrTh: null,
    provinceId: null,
    taxId: null,
    tel: null,
  };

  it('a cluster: create, update, toggle, delete; an active one refused (409) writes nothing', async () => {
    const created = await t.call('POST', '/api/merchant', { token: admin.token, body: cluster });
    expect(created.status).toBe(200);
    const id = created.body.id as number;
    expect(await entryOf('merchant', id, 'create')).toMatchObject(byAdmin());
    expect(fieldsOf(await entryOf('merchant', id, 'create')).nameEn).toEqual([null, 'Audit Cluster']);

    const body = { ...cluster, nameEn: 'Audit Cluster 2' };
    expect((await t.call('PATCH', `/api/merchant/${id}`, { token: admin.token, body })).status).toBe(200);
    expect((await entryOf('merchant', id, 'update')).changes).toEqual([
      { field: 'nameEn', before: 'Audit Cluster', after: 'Audit Cluster 2' },
    ]);

    const before = await totalEntries();
    expect((await t.call('DELETE', `/api/merchant/${id}`, { token: admin.token })).status).toBe(409);
    const blank = { ...cluster, nameEn: '' };
    expect((await t.call('PATCH', `/api/merchant/${id}`, { token: admin.token, body: blank })).status).toBe(
      400,
    );
    expect(await totalEntries()).toBe(before);

    const off = { active: false };
    expect((await t.call('PATCH', `/api/merchant/${id}`, { token: admin.token, body: off })).status).toBe(
      200,
    );
    expect((await entryOf('merchant', id, 'toggle')).changes).toEqual([
      { field: 'active', before: true, after: false },
    ]);
    expect((await t.call('DELETE', `/api/merchant/${id}`, { token: admin.token })).status).toBe(200);
    expect(fieldsOf(await entryOf('merchant', id, 'delete')).nameEn).toEqual(['Audit Cluster 2', null]);
  });

  it('a site with its power settings and business hours: create, update, toggle, delete', async () => {
    const merchant = await createMerchant(t);
    const site = {
      merchantId: merchant.id,
      nameEn: 'Audit Site',
      nameTh: 'ไซต์',
      latitude: 13.7,
      longitude: 100.5,
      businessHoursType: 'period',
      businessHours: [{ dayOfWeek: 2, openTime: '08:00', closeTime: '20:00' }],
      maxPowerKw: 100,
      phases: 3,
      voltage: 230,
    };
    const created = await t.call('POST', '/api/landlord', { token: admin.token, body: site });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const id = created.body.id as number;
    const create = await entryOf('landlord', id, 'create');
    expect(create).toMatchObject(byAdmin());
    const created_ = fieldsOf(create);
    expect(created_.nameEn).toEqual([null, 'Audit Site']);
    expect(created_.maxPowerKw).toEqual([null, 100]);
    const hourOpen = Object.keys(created_).find((field) =>
      /^landlordBusinessHours#\d+\.openTime$/.test(field),
    );
    expect(created_[hourOpen!]).toEqual([null, '08:00:00']);

    // The same hours saved again are no change; the power limit is.
    const edited = { ...site, maxPowerKw: 150 };
    expect((await t.call('PATCH', `/api/landlord/${id}`, { token: admin.token, body: edited })).status).toBe(
      200,
    );
    expect((await entryOf('landlord', id, 'update')).changes).toEqual([
      { field: 'maxPowerKw', before: 100, after: 150 },
    ]);
    const rehoured = { ...edited, businessHours: [{ dayOfWeek: 2, openTime: '09:00', closeTime: '20:00' }] };
    expect(
      (await t.call('PATCH', `/api/landlord/${id}`, { token: admin.token, body: rehoured })).status,
    ).toBe(200);
    const hours = fieldsOf(await entryOf('landlord', id, 'update'));
    expect(Object.entries(hours).filter(([field]) => field.endsWith('.openTime'))).toEqual(
      expect.arrayContaining([
        [expect.stringMatching(/^landlordBusinessHours#\d+\.openTime$/), ['08:00:00', null]],
        [expect.stringMatching(/^landlordBusinessHours#\d+\.openTime$/), [null, '09:00:00']],
      ]),
    );

    const before = await totalEntries();
    const moved = { ...edited, merchantId: (await createMerchant(t)).id };
    expect((await t.call('PATCH', `/api/landlord/${id}`, { token: admin.token, body: moved })).status).toBe(
      400,
    );
    expect(await totalEntries()).toBe(before);

    const off = { active: false };
    expect((await t.call('PATCH', `/api/landlord/${id}`, { token: admin.token, body: off })).status).toBe(
      200,
    );
    expect((await entryOf('landlord', id, 'toggle')).changes).toEqual([
      { field: 'active', before: true, after: false },
    ]);
    expect((await t.call('DELETE', `/api/landlord/${id}`, { token: admin.token })).status).toBe(200);
    const removed = fieldsOf(await entryOf('landlord', id, 'delete'));
    expect(removed.nameEn).toEqual(['Audit Site', null]);
    expect(Object.keys(removed).some((field) => field.startsWith('landlordBusinessHours#'))).toBe(true);
  });

  it('a group and its site links: create, update, toggle, delete', async () => {
    const merchant = await createMerchant(t);
    const site = await createLandlord(t, merchant.id);
    const body = { nameEn: 'Audit Group', nameTh: 'กลุ่ม', landlordIds: [site.id] };
    const created = await t.call('POST', '/api/party', { token: admin.token, body });
    expect(created.status).toBe(200);
    const id = created.body.id as number;
    const create = fieldsOf(await entryOf('party', id, 'create'));
    expect(create.nameEn).toEqual([null, 'Audit Group']);
    const link = Object.keys(create).find((field) => /^partyLandlords(#\d+)?\.landlordId$/.test(field));
    expect(create[link!]).toEqual([null, site.id]);

    const before = await totalEntries();
    const other = await createLandlord(t, merchant.id);
    const moved = { ...body, landlordIds: [other.id] };
    expect((await t.call('PATCH', `/api/party/${id}`, { token: admin.token, body: moved })).status).toBe(400);
    expect(await totalEntries()).toBe(before);

    const renamed = { ...body, nameTh: 'กลุ่ม 2' };
    expect((await t.call('PATCH', `/api/party/${id}`, { token: admin.token, body: renamed })).status).toBe(
      200,
    );
    expect((await entryOf('party', id, 'update')).changes).toEqual([
      { field: 'nameTh', before: 'กลุ่ม', after: 'กลุ่ม 2' },
    ]);
    const off = { active: false };
    expect((await t.call('PATCH', `/api/party/${id}`, { token: admin.token, body: off })).status).toBe(200);
    expect((await entryOf('party', id, 'toggle')).changes).toEqual([
      { field: 'active', before: true, after: false },
    ]);
    expect((await t.call('DELETE', `/api/party/${id}`, { token: admin.token })).status).toBe(200);
    const removed = fieldsOf(await entryOf('party', id, 'delete'));
    expect(removed.nameEn).toEqual(['Audit Group', null]);
  });

  it('a charger brand: create, update, toggle, delete', async () => {
    const form = { name: 'Audit Brand', powerType: 'AC', minPowerKw: 7.4 };
    const created = await t.call('POST', '/api/charger-brand', { token: admin.token, body: form });
    expect(created.status).toBe(200);
    const id = created.body.id as number;
    expect(fieldsOf(await entryOf('charger-brand', id, 'create')).name).toEqual([null, 'Audit Brand']);
    const body = { ...form, minPowerKw: 11 };
    expect((await t.call('PATCH', `/api/charger-brand/${id}`, { token: admin.token, body })).status).toBe(
      200,
    );
    expect((await entryOf('charger-brand', id, 'update')).changes).toEqual([
      { field: 'minPowerKw', before: 7.4, after: 11 },
    ]);
    const before = await totalEntries();
    expect((await t.call('DELETE', `/api/charger-brand/${id}`, { token: admin.token })).status).toBe(409);
    expect(await totalEntries()).toBe(before);
    const off = { active: false };
    expect(
      (await t.call('PATCH', `/api/charger-brand/${id}`, { token: admin.token, body: off })).status,
    ).toBe(200);
    expect((await entryOf('charger-brand', id, 'toggle')).changes).toEqual([
      { field: 'active', before: true, after: false },
    ]);
    expect((await t.call('DELETE', `/api/charger-brand/${id}`, { token: admin.token })).status).toBe(200);
    expect(await entryOf('charger-brand', id, 'delete')).toMatchObject(byAdmin());
  });
});

describe('pages, uploads and the contact details', () => {
  it('a tutorial: create, update, display order, toggle, delete', async () => {
    const form = {
      type: 'guide',
      titleEn: 'Audit tutorial',
      titleTh: 'บทเรียน',
      detailEn: '<p>How</p>',
      detailTh: '<p>วิธี</p>',
    };
    const created = await t.call('POST', '/api/page', { token: admin.token, body: form });
    expect(created.status).toBe(200);
    const id = created.body.id as number;
    expect(fieldsOf(await entryOf('page', id, 'create')).titleEn).toEqual([null, 'Audit tutorial']);

    const body = { ...form, titleEn: 'Audit tutorial 2' };
    expect((await t.call('PATCH', `/api/page/${id}`, { token: admin.token, body })).status).toBe(200);
    expect((await entryOf('page', id, 'update')).changes).toEqual([
      { field: 'titleEn', before: 'Audit tutorial', after: 'Audit tutorial 2' },
    ]);
    const order = { weight: 3 };
    expect((await t.call('PATCH', `/api/page/${id}`, { token: admin.token, body: order })).status).toBe(200);
    expect((await entryOf('page', id, 'update')).changes).toEqual([{ field: 'weight', before: 0, after: 3 }]);

    const before = await totalEntries();
    expect((await t.call('DELETE', `/api/page/${id}`, { token: admin.token })).status).toBe(409);
    const empty = { ...form, detailEn: '<script>x</script>' };
    expect((await t.call('PATCH', `/api/page/${id}`, { token: admin.token, body: empty })).status).toBe(400);
    expect(await totalEntries()).toBe(before);

    const off = { active: false };
    expect((await t.call('PATCH', `/api/page/${id}`, { token: admin.token, body: off })).status).toBe(200);
    expect((await entryOf('page', id, 'toggle')).changes).toEqual([
      { field: 'active', before: true, after: false },
    ]);
    expect((await t.call('DELETE', `/api/page/${id}`, { token: admin.token })).status).toBe(200);
    expect(fieldsOf(await entryOf('page', id, 'delete')).titleEn).toEqual(['Audit tutorial 2', null]);
  });

  it('an image upload: its name and size, not its bytes', async () => {
    const png = Buffer.from(
      'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
      'base64',
    );
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(png)], { type: 'image/png' }), 'photo.png');
    const response = await fetch(`${t.url}/api/upload`, {
      method: 'POST',
      headers: { 'x-access-token': admin.token },
      body: form,
    });
    expect(response.status).toBe(201);
    const { name } = (await response.json()) as { name: string };
    const [entry] = await entriesOf('entity=page&action=upload');
    expect(entry).toMatchObject({ ...byAdmin(), details: { name, size: png.length } });
    expect(fieldsOf(entry)['uploadedFiles.name']).toEqual([null, name]);
    expect(Object.keys(fieldsOf(entry)).some((field) => field.endsWith('bytes'))).toBe(false);
  });

  it('the contact details: an update of row 1; a refused save writes nothing', async () => {
    const form = { email: 'help@example.com', phone: '02-123-45678', line: '@help' };
    expect((await t.call('PATCH', '/api/contact-us', { token: admin.token, body: form })).status).toBe(200);
    const body = { line: '@help2' };
    expect((await t.call('PATCH', '/api/contact-us', { token: admin.token, body })).status).toBe(200);
    const entry = await entryOf('contact-us', 1, 'update');
    expect(entry).toMatchObject(byAdmin());
    expect(entry.changes).toEqual([{ field: 'line', before: '@help', after: '@help2' }]);

    const before = await totalEntries();
    const cleared = { email: null };
    expect((await t.call('PATCH', '/api/contact-us', { token: admin.token, body: cleared })).status).toBe(
      400,
    );
    expect(await totalEntries()).toBe(before);
  });
});
