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
let phuket: { id: number };
let siam: { id: number };
let asok: { id: number };
let patong: { id: number };
/** Downtown: Siam and Asok; Beach: Patong (inactive group). */
let downtown: { id: number };
let beach: { id: number };
let mine: string;

beforeAll(async () => {
  t = await startTestApp();
  admin = (await signedInUser(t, { role: 'admin' })).token;
  bangkok = await createMerchant(t, { nameEn: 'Bangkok' });
  phuket = await createMerchant(t, { nameEn: 'Phuket' });
  siam = await createLandlord(t, bangkok.id, { nameEn: 'Siam' });
  asok = await createLandlord(t, bangkok.id, { nameEn: 'Asok' });
  patong = await createLandlord(t, phuket.id, { nameEn: 'Patong' });
  downtown = await createParty(t, [siam.id, asok.id], { nameEn: 'Downtown', nameTh: 'ใจกลางเมือง' });
  beach = await createParty(t, [patong.id], { nameEn: 'Beach', nameTh: 'ชายหาด', active: false });
  mine = `landlordId=${siam.id}&landlordId=${asok.id}&landlordId=${patong.id}`;
});
afterAll(() => t.close());

const list = (query: string, token = admin) => t.call('GET', `/api/party?${query}`, { token });
const ids = (body: { partys: Array<{ id: number }> }) => body.partys.map((p) => p.id);

describe('GET /api/party', () => {
  it("answers { total, partys } with each group's sites", async () => {
    const response = await list(`${mine}&sort=nameEn&order=desc`);
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      total: 2,
      partys: [
        {
          id: downtown.id,
          nameEn: 'Downtown',
          nameTh: 'ใจกลางเมือง',
          active: true,
          landlordIds: [asok.id, siam.id],
          landlordNameEns: ['Asok', 'Siam'],
        },
        {
          id: beach.id,
          nameEn: 'Beach',
          nameTh: 'ชายหาด',
          active: false,
          landlordIds: [patong.id],
          landlordNameEns: ['Patong'],
        },
      ],
    });
  });

  it('filters by site and status, sorts and pages', async () => {
    expect(ids((await list(`landlordId=${asok.id}`)).body)).toEqual([downtown.id]);
    expect(ids((await list(`${mine}&active=false`)).body)).toEqual([beach.id]);
    expect(ids((await list(`${mine}&sort=nameEn&order=asc`)).body)).toEqual([beach.id, downtown.id]);
    const second = await list(`${mine}&sort=nameEn&size=1&page=2`);
    expect(second.body.total).toBe(2);
    expect(ids(second.body)).toEqual([downtown.id]);
    expect((await list('sort=landlordIds')).status).toBe(400);
  });

  it('answers mode=dropdown as { partys: [{ id, nameEn }] }', async () => {
    const response = await list('mode=dropdown');
    expect(response.status).toBe(200);
    expect(response.body.partys).toContainEqual({ id: downtown.id, nameEn: 'Downtown' });
    for (const item of response.body.partys) expect(Object.keys(item).sort()).toEqual(['id', 'nameEn']);
  });
});

describe('group setting', () => {
  it('creates a group with its sites, then renames it', async () => {
    const body = { nameEn: ' Old Town ', nameTh: 'เมืองเก่า', landlordIds: [siam.id, patong.id, siam.id] };
    const created = await t.call('POST', '/api/party', { token: admin, body });
    expect(created.status).toBe(200);
    const id = created.body.id as number;
    expect((await t.call('GET', `/api/party/${id}`, { token: admin })).body).toEqual({
      party: {
        id,
        nameEn: 'Old Town',
        nameTh: 'เมืองเก่า',
        active: true,
        landlordIds: [patong.id, siam.id],
        landlordNameEns: ['Patong', 'Siam'],
      },
    });
    const saved = await t.call('PATCH', `/api/party/${id}`, {
      token: admin,
      body: { nameEn: 'Old Town 2', nameTh: 'เมืองเก่า 2', landlordIds: [siam.id, patong.id] },
    });
    expect(saved.status).toBe(200);
    expect((await t.call('GET', `/api/party/${id}`, { token: admin })).body.party).toMatchObject({
      nameEn: 'Old Town 2',
      landlordIds: [patong.id, siam.id],
    });
  });

  it("refuses to change a group's sites after creation", async () => {
    const response = await t.call('PATCH', `/api/party/${downtown.id}`, {
      token: admin,
      body: { nameEn: 'Downtown', nameTh: 'ใจกลางเมือง', landlordIds: [siam.id] },
    });
    expect(response.status).toBe(400);
    expect(response.body.message).toMatch(/^body\.landlordIds: /);
    expect(
      (await t.call('GET', `/api/party/${downtown.id}`, { token: admin })).body.party.landlordIds,
    ).toHaveLength(2);
  });

  it('toggles only the active flag with {active}', async () => {
    const group = await createParty(t, [siam.id]);
    expect(
      (await t.call('PATCH', `/api/party/${group.id}`, { token: admin, body: { active: false } })).status,
    ).toBe(200);
    expect((await t.call('GET', `/api/party/${group.id}`, { token: admin })).body.party.active).toBe(false);
  });

  it('refuses sites that do not exist (404, as a missing record)', async () => {
    const response = await t.call('POST', '/api/party', {
      token: admin,
      body: { nameEn: 'Ghost', nameTh: 'ผี', landlordIds: [999999] },
    });
    expect(response.status).toBe(404);
    expect(response.body).toEqual({ message: 'No such site' });
  });

  const valid = () => ({ nameEn: 'Group', nameTh: 'กลุ่ม', landlordIds: [1] });
  it.each([
    [{ ...valid(), nameEn: undefined }, 'body.nameEn: Group Name (EN) is required.'],
    [{ ...valid(), nameEn: '' }, 'body.nameEn: Group Name (EN) is required.'],
    [{ ...valid(), nameEn: '   ' }, 'body.nameEn: Group Name (EN) is not whitespace'],
    [{ ...valid(), nameTh: '' }, 'body.nameTh: Group Name (TH) is required.'],
    [{ ...valid(), nameTh: ' \t ' }, 'body.nameTh: Group Name (TH) is not whitespace'],
    [{ ...valid(), nameEn: 'x'.repeat(256) }, 'body.nameEn: Please enter no more than 255 characters.'],
    [{ ...valid(), landlordIds: [] }, 'body.landlordIds: Site Name is required.'],
    [{ ...valid(), landlordIds: undefined }, 'body.landlordIds: Site Name is required.'],
  ])('refuses an invalid form with the spec message (%#)', async (body, message) => {
    const created = await t.call('POST', '/api/party', { token: admin, body });
    expect(created.status).toBe(400);
    expect(created.body).toEqual({ message });
    const saved = await t.call('PATCH', `/api/party/${downtown.id}`, { token: admin, body });
    expect(saved.body).toEqual({ message });
  });
});

describe('DELETE /api/party/:id', () => {
  it('deletes an inactive group without users, keeping its sites', async () => {
    const group = await createParty(t, [asok.id], { active: false });
    expect((await t.call('DELETE', `/api/party/${group.id}`, { token: admin })).status).toBe(200);
    expect((await t.call('GET', `/api/party/${group.id}`, { token: admin })).status).toBe(404);
    expect((await t.call('GET', `/api/landlord/${asok.id}`, { token: admin })).status).toBe(200);
  });

  it('refuses an active group, and a group with users', async () => {
    expect((await t.call('DELETE', `/api/party/${downtown.id}`, { token: admin })).status).toBe(409);
    const used = await createParty(t, [asok.id], { active: false });
    await createUser(t, { role: 'station', partyId: used.id });
    const response = await t.call('DELETE', `/api/party/${used.id}`, { token: admin });
    expect(response.status).toBe(409);
    expect(response.body).toEqual({ message: "Can't delete already used item" });
  });
});

describe('scope and permissions', () => {
  it.each(['merchant', 'party', 'landlord', 'callcenter', 'station', 'marketting'] as const)(
    'refuses %s the list, the setting and changes (403)',
    async (role) => {
      const { token } = await signedInUser(t, { role, partyId: downtown.id, merchantId: bangkok.id });
      expect((await list('', token)).status).toBe(403);
      expect((await t.call('GET', `/api/party/${downtown.id}`, { token })).status).toBe(403);
      expect(
        (
          await t.call('POST', '/api/party', {
            token,
            body: { nameEn: 'a', nameTh: 'b', landlordIds: [siam.id] },
          })
        ).status,
      ).toBe(403);
      expect(
        (await t.call('PATCH', `/api/party/${beach.id}`, { token, body: { active: true } })).status,
      ).toBe(403);
      expect((await t.call('DELETE', `/api/party/${beach.id}`, { token })).status).toBe(403);
    },
  );

  it('narrows the dropdown to the groups of the scope', async () => {
    const cases = [
      [{ role: 'party', partyId: downtown.id }, [downtown.id]],
      [{ role: 'station', partyId: beach.id }, [beach.id]],
      [{ role: 'merchant', merchantId: phuket.id }, [beach.id]],
      [{ role: 'landlord', landlordId: siam.id }, [downtown.id]],
      [{ role: 'party' }, []],
    ] as const;
    for (const [user, expected] of cases) {
      const { token } = await signedInUser(t, user);
      const response = await list('mode=dropdown', token);
      expect(response.status).toBe(200);
      expect(ids(response.body).filter((id) => id === downtown.id || id === beach.id)).toEqual(expected);
      if (user.role !== 'merchant' && user.role !== 'landlord') expect(ids(response.body)).toEqual(expected);
    }
  });
});
