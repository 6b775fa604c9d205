import { PROMOTION_MESSAGES } from '@ev/shared';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { promotionCodes, promotionRedemptions } from '../../src/db/schema/index.ts';
import { CODE_ALPHABET } from '../../src/modules/promotion/codes.ts';
import { createLandlord, createMerchant, createUser, signedInUser } from '../helpers/factories.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';

/**
 * Promotions and their codes (document 3, sections 2 to 8; issue 21): the list and its filters, the form's
 * rules and type rules with their messages, codes generated in one go and unique whatever their case, the
 * fields fixed at creation, the switch, delete, and the codes' CSV, through real HTTP on a real database.
 */
let t: TestApp;
let admin: string;
let marketing: string;
let bangkok: { id: number };
let phuket: { id: number };
let siam: { id: number };
let patong: { id: number };

beforeAll(async () => {
  t = await startTestApp();
  admin = (await signedInUser(t, { role: 'admin' })).token;
  marketing = (await signedInUser(t, { role: 'marketting' })).token;
  bangkok = await createMerchant(t, { nameEn: 'Bangkok Promo' });
  phuket = await createMerchant(t, { nameEn: 'Phuket Promo' });
  siam = await createLandlord(t, bangkok.id, { nameEn: 'Siam Promo' });
  patong = await createLandlord(t, phuket.id, { nameEn: 'Patong Promo' });
});
afterAll(() => t.close());

let n = 0;
/** A code no other test uses. */
const fresh = (prefix = 'T') => `${prefix}${Date.now().toString(36).toUpperCase()}${n++}`;

const YEAR = 365 * 24 * 3_600_000;
const discount = (overrides: Record<string, unknown> = {}) => ({
  type: 'discount',
  code: fresh('DISC'),
  nameEn: 'Rainy season 10%',
  nameTh: 'ลด 10% หน้าฝน',
  internal: false,
  expose: true,
  validFrom: new Date(Date.now() - 3_600_000).toISOString(),
  validTo: new Date(Date.now() + YEAR).toISOString(),
  discountPercent: 10,
  discountBaht: 50,
  count: 1,
  total: 100,
  ...overrides,
});
const create = (body: Record<string, unknown>, token = admin) =>
  t.call('POST', '/api/promotion', { token, body });
const get = async (id: number) =>
  (await t.call('GET', `/api/promotion/${id}`, { token: admin })).body.promotion;
const list = (query: string, token = admin) => t.call('GET', `/api/promotion?${query}`, { token });

/** The answer's 400 message for a body. */
async function refusal(body: Record<string, unknown>) {
  const response = await create(body);
  expect(response.status, JSON.stringify(response.body)).toBe(400);
  return response.body.message as string;
}

describe('POST /api/promotion', () => {
  it('creates a one-code discount: the code itself, with its uses counted', async () => {
    const body = discount();
    const response = await create(body);
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    expect(response.body).toEqual({ message: 'Success', id: expect.any(Number) });
    expect(await get(response.body.id)).toEqual({
      id: response.body.id,
      code: body.code,
      nameEn: body.nameEn,
      nameTh: body.nameTh,
      type: 'discount',
      internal: false,
      expose: true,
      active: true,
      merchantIds: [],
      landlordIds: [],
      merchantNameEns: [],
      landlordNameEns: [],
      validFrom: body.validFrom,
      validTo: body.validTo,
      discountPercent: 10,
      discountBaht: 50,
      point: null,
      count: 1,
      total: 100,
      codeLeft: 1,
      codeCount: 1,
    });
  });

  it('makes 1,000 codes of the code and a random suffix, answers them, and serves them as CSV', async () => {
    const code = fresh('Bulk');
    const response = await create(discount({ code, count: 1000, total: 2 }));
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    const codes: string[] = response.body.codes;
    expect(codes).toHaveLength(1000);
    expect(new Set(codes.map((c) => c.toLowerCase())).size).toBe(1000);
    for (const c of codes) expect(c).toMatch(new RegExp(`^${code}[${CODE_ALPHABET}]{8}$`));
    const stored = await get(response.body.id);
    expect(stored).toMatchObject({ count: 1000, codeCount: 1000, codeLeft: 1000, total: 2 });

    const csv = await t.call('GET', `/api/promotion/${response.body.id}/code`, { token: admin });
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toMatch(/^text\/csv/);
    expect(csv.headers.get('content-disposition')).toBe(`attachment; filename="${code}.csv"`);
    const lines = (csv.body as string).trimEnd().split('\r\n');
    expect(lines[0]).toBe('Code,Used,Limit');
    expect(lines.slice(1)).toEqual(codes.map((c) => `${c},0,2`));
  });

  it("refuses a code already used, whatever its case, with 'Code is already used'", async () => {
    const code = fresh('Dup');
    expect((await create(discount({ code }))).status).toBe(200);
    for (const again of [code, code.toLowerCase()]) {
      const response = await create(discount({ code: again }));
      expect(response.status).toBe(409);
      expect(response.body).toEqual({ message: PROMOTION_MESSAGES.codeUsed });
    }
    // A generated code taken as a one-code promotion's code.
    const many = await create(discount({ code: fresh('Gen'), count: 3 }));
    const taken = await create(discount({ code: many.body.codes[1].toLowerCase() }));
    expect(taken.status).toBe(409);
    // Nothing of a refused promotion is left: its code is free for a new one.
    expect((await list(`code=${encodeURIComponent(code.toLowerCase())}`)).body.total).toBe(1);
  });

  it("applies section 5's rules with their messages", async () => {
    expect(await refusal(discount({ code: '' }))).toBe(`body.code: ${PROMOTION_MESSAGES.code}`);
    expect(await refusal(discount({ code: '   ' }))).toBe(`body.code: ${PROMOTION_MESSAGES.codeBlank}`);
    for (const code of ['SUMMER-26', 'ส่วนลด', 'A B', ' A']) {
      expect(await refusal(discount({ code }))).toBe(`body.code: ${PROMOTION_MESSAGES.codeChars}`);
    }
    expect(await refusal(discount({ code: 'A'.repeat(251) }))).toMatch(
      /^body\.code: Please enter no more than 250/,
    );
    for (const count of [0, 1001, 1.5]) {
      expect(await refusal(discount({ count }))).toBe(`body.count: ${PROMOTION_MESSAGES.count}`);
    }
    expect(await refusal(discount({ total: 0 }))).toBe(`body.total: ${PROMOTION_MESSAGES.total}`);
    expect(await refusal(discount({ nameEn: ' ' }))).toBe(`body.nameEn: ${PROMOTION_MESSAGES.nameEn}`);
    expect(await refusal(discount({ nameTh: 'ก'.repeat(256) }))).toMatch(
      /^body\.nameTh: Please enter no more/,
    );
    expect(await refusal(discount({ internal: undefined }))).toBe(
      `body.internal: ${PROMOTION_MESSAGES.internal}`,
    );
    expect(await refusal(discount({ expose: undefined }))).toBe(`body.expose: ${PROMOTION_MESSAGES.expose}`);
    expect(await refusal(discount({ internal: true }))).toBe(
      `body.landlordIds: ${PROMOTION_MESSAGES.landlordIds}`,
    );
    for (const discountPercent of [-1, 100.01, 101]) {
      expect(await refusal(discount({ discountPercent }))).toBe(
        `body.discountPercent: ${PROMOTION_MESSAGES.discountPercentRange}`,
      );
    }
    expect(await refusal(discount({ discountPercent: 12.345 }))).toBe(
      'body.discountPercent: Discount (%) must have at most 2 decimals.',
    );
    for (const point of [-1, 1.5]) {
      expect(
        await refusal(discount({ type: 'point', discountPercent: null, discountBaht: null, point })),
      ).toMatch(/^body\.point: Point must be (0 or more|a whole number)\.$/);
    }
    expect(await refusal(discount({ discountPercent: undefined }))).toBe(
      `body.discountPercent: ${PROMOTION_MESSAGES.discountPercent}`,
    );
    expect(await refusal(discount({ discountBaht: -0.01 }))).toMatch(/^body\.discountBaht: /);
    expect(await refusal(discount({ discountBaht: undefined }))).toBe(
      `body.discountBaht: ${PROMOTION_MESSAGES.discountBaht}`,
    );
    const now = Date.now();
    expect(
      await refusal(
        discount({ validFrom: new Date(now).toISOString(), validTo: new Date(now).toISOString() }),
      ),
    ).toBe(`body.validTo: ${PROMOTION_MESSAGES.validRange}`);
    expect(await refusal(discount({ validFrom: '0000-01-01T00:00:00Z' }))).toMatch(/^body\.validFrom: /);
    // 0 % and 0 baht are allowed (at least 0).
    expect((await create(discount({ discountPercent: 0, discountBaht: 0 }))).status).toBe(200);
  });

  it("applies section 4's type rules, refusing rather than changing what was sent", async () => {
    const landlord = (overrides: Record<string, unknown>) =>
      discount({
        type: 'landlord',
        internal: true,
        expose: false,
        landlordIds: [siam.id],
        discountPercent: undefined,
        discountBaht: undefined,
        ...overrides,
      });
    expect((await create(landlord({}))).status).toBe(200);
    // Homepage may be left out for a landlord code.
    expect((await create(landlord({ expose: undefined }))).status).toBe(200);
    expect(await refusal(landlord({ internal: false, landlordIds: [] }))).toBe(
      `body.internal: ${PROMOTION_MESSAGES.landlordInternal}`,
    );
    expect(await refusal(landlord({ expose: true }))).toBe(
      `body.expose: ${PROMOTION_MESSAGES.landlordExpose}`,
    );
    expect(await refusal(landlord({ discountPercent: 5 }))).toBe(
      'body.discountPercent: Discount (%) is not part of a landlord promotion.',
    );

    const point = (overrides: Record<string, unknown>) =>
      discount({
        type: 'point',
        point: 50,
        discountPercent: undefined,
        discountBaht: undefined,
        ...overrides,
      });
    expect((await create(point({}))).status).toBe(200);
    expect(await refusal(point({ internal: true, landlordIds: [siam.id] }))).toBe(
      `body.internal: ${PROMOTION_MESSAGES.pointPublic}`,
    );
    expect(await refusal(point({ point: undefined }))).toBe(`body.point: ${PROMOTION_MESSAGES.point}`);
    expect(await refusal(point({ point: 1.5 }))).toBe('body.point: Point must be a whole number.');
    expect(await refusal(discount({ point: 5 }))).toBe(
      'body.point: Point is not part of a discount promotion.',
    );

    // Clusters and sites only for selected landlords; then the sites are of the chosen clusters.
    expect(await refusal(discount({ landlordIds: [siam.id] }))).toBe(
      `body.landlordIds: ${PROMOTION_MESSAGES.publicPlaces}`,
    );
    expect(await refusal(discount({ merchantIds: [bangkok.id] }))).toBe(
      `body.merchantIds: ${PROMOTION_MESSAGES.publicPlaces}`,
    );
    expect(
      await refusal(
        discount({ internal: true, merchantIds: [bangkok.id], landlordIds: [siam.id, patong.id] }),
      ),
    ).toBe('body.landlordIds: Each site must be of a chosen cluster.');
    const missing = await create(discount({ internal: true, landlordIds: [2_000_000_000] }));
    expect(missing.status).toBe(404);
    const selected = await create(
      discount({ internal: true, merchantIds: [bangkok.id, phuket.id], landlordIds: [siam.id, patong.id] }),
    );
    expect(selected.status).toBe(200);
    expect(await get(selected.body.id)).toMatchObject({
      internal: true,
      merchantIds: [bangkok.id, phuket.id],
      merchantNameEns: ['Bangkok Promo', 'Phuket Promo'],
      landlordIds: [patong.id, siam.id],
      landlordNameEns: ['Patong Promo', 'Siam Promo'],
    });
  });

  it('refuses unknown fields and the wrong roles', async () => {
    expect((await create({ ...discount(), codeLeft: 5 })).status).toBe(400);
    expect((await create(discount(), marketing)).status).toBe(200);
    for (const role of ['merchant', 'callcenter', 'station'] as const) {
      const token = (await signedInUser(t, { role })).token;
      expect((await create(discount(), token)).status, role).toBe(403);
      expect((await list('', token)).status, role).toBe(403);
    }
  });
});

describe('GET /api/promotion', () => {
  it('filters by type, code (part of its own, or a generated code whole), place, area, homepage and status', async () => {
    const tag = fresh('Find');
    const one = (await create(discount({ code: `${tag}A`, expose: false }))).body.id;
    const many = await create(discount({ code: `${tag}B`, count: 5 }));
    const site = (
      await create(
        discount({ code: `${tag}C`, internal: true, merchantIds: [phuket.id], landlordIds: [patong.id] }),
      )
    ).body.id;
    const points = (
      await create(
        discount({ type: 'point', code: `${tag}D`, point: 10, discountPercent: null, discountBaht: null }),
      )
    ).body.id;
    await t.call('PATCH', `/api/promotion/${points}`, { token: admin, body: { active: false } });
    const ids = async (query: string) =>
      (await list(`code=${tag}&size=100&${query}`)).body.promotions.map((p: { id: number }) => p.id);
    expect(await ids('sort=code&order=asc')).toEqual([one, many.body.id, site, points]);
    expect(await ids('type=point')).toEqual([points]);
    expect(await ids('type=discount&expose=false')).toEqual([one]);
    expect(await ids(`merchantId=${phuket.id}`)).toEqual([site]);
    expect(await ids(`landlordId=${patong.id}`)).toEqual([site]);
    expect(await ids('internal=true')).toEqual([site]);
    expect(await ids('active=false')).toEqual([points]);
    // A member's generated code, in any case, finds its promotion.
    const generated = (await list(`code=${many.body.codes[3].toLowerCase()}`)).body;
    expect(generated.promotions.map((p: { id: number }) => p.id)).toEqual([many.body.id]);
    // Wildcards are text: '%' finds nothing of this test.
    expect((await list(`code=${tag}%25`)).body.total).toBe(0);
    expect((await list('sort=codeLeft')).status).toBe(400);
    const page = await list(`code=${tag}&sort=code&order=asc&size=2&page=2`);
    expect(page.body.total).toBe(4);
    expect(page.body.promotions.map((p: { id: number }) => p.id)).toEqual([site, points]);
  });
});

describe('PATCH and DELETE /api/promotion/{id}', () => {
  it('changes only the names, homepage and point after creation; the switch saves at once', async () => {
    const body = discount({ type: 'point', point: 20, discountPercent: null, discountBaht: null });
    const { id } = (await create(body)).body;
    const save = (changes: Record<string, unknown>) =>
      t.call('PATCH', `/api/promotion/${id}`, { token: admin, body: { ...body, ...changes } });
    const saved = await save({ nameEn: 'Renamed', nameTh: 'ชื่อใหม่', expose: false, point: 35 });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    expect(await get(id)).toMatchObject({ nameEn: 'Renamed', nameTh: 'ชื่อใหม่', expose: false, point: 35 });
    for (const [field, value] of [
      ['code', fresh('Other')],
      ['validTo', new Date(Date.now() + 2 * YEAR).toISOString()],
      ['count', 2],
      ['total', 7],
    ] as const) {
      const refused = await save({ [field]: value });
      expect(refused.status, field).toBe(400);
      expect(refused.body.message).toBe(`body.${field}: ${PROMOTION_MESSAGES.readOnly}`);
    }
    // The same instant in another offset is no change.
    const bangkokTime = new Date(Date.parse(body.validFrom as string) + 7 * 3_600_000)
      .toISOString()
      .replace('Z', '+07:00');
    expect((await save({ validFrom: bangkokTime, nameEn: 'Renamed' })).status).toBe(200);

    expect(
      (await t.call('PATCH', `/api/promotion/${id}`, { token: admin, body: { active: false } })).status,
    ).toBe(200);
    expect(await get(id)).toMatchObject({ active: false, nameEn: 'Renamed' });
    expect(
      (await t.call('PATCH', '/api/promotion/2000000000', { token: admin, body: { active: true } })).status,
    ).toBe(404);
  });

  it('deletes an inactive promotion, and refuses an active one or one whose code was redeemed', async () => {
    const remove = (id: number) => t.call('DELETE', `/api/promotion/${id}`, { token: admin });
    const deactivate = (id: number) =>
      t.call('PATCH', `/api/promotion/${id}`, { token: admin, body: { active: false } });
    const unused = (await create(discount({ count: 3 }))).body.id;
    expect((await remove(unused)).status).toBe(409);
    await deactivate(unused);
    expect((await remove(unused)).status).toBe(200);
    expect((await t.call('GET', `/api/promotion/${unused}`, { token: admin })).status).toBe(404);
    expect(
      await t.database.db.select().from(promotionCodes).where(eq(promotionCodes.promotionId, unused)),
    ).toEqual([]);

    // A member redeemed one of its codes (the redemption calls come with the member API).
    const used = (await create(discount())).body.id;
    const member = await createUser(t, { type: 'mobile' });
    const [code] = await t.database.db
      .select()
      .from(promotionCodes)
      .where(eq(promotionCodes.promotionId, used));
    await t.database.db
      .insert(promotionRedemptions)
      .values({ userId: member.id, codeId: code!.id, promotionId: used });
    await deactivate(used);
    const refused = await remove(used);
    expect(refused.status).toBe(409);
    expect(refused.body).toEqual({ message: "Can't delete already used item" });
    expect(await get(used)).toMatchObject({ id: used });
  });

  it('serves the codes to admin only', async () => {
    const { id } = (await create(discount({ count: 2 }))).body;
    expect((await t.call('GET', `/api/promotion/${id}/code`, { token: marketing })).status).toBe(403);
    expect((await t.call('GET', '/api/promotion/2000000000/code', { token: admin })).status).toBe(404);
  });
});
