import { POINT_MESSAGES } from '@ev/shared';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { pointRates } from '../../src/db/schema/index.ts';
import { signedInUser } from '../helpers/factories.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';

/**
 * The green-point rate cards (document 3, Point setup; issue 21): the list's statuses and order by the
 * database's clock, the form's rules with their messages, no start in the past, one card per instant, only
 * pending cards edited or deleted, and the roles, through real HTTP on a real database.
 */
let t: TestApp;
let admin: string;
let marketing: string;

beforeAll(async () => {
  t = await startTestApp();
  admin = (await signedInUser(t, { role: 'admin' })).token;
  marketing = (await signedInUser(t, { role: 'marketting' })).token;
});
afterAll(() => t.close());
// The list shows every card: each test starts with none.
beforeEach(async () => {
  await t.database.db.delete(pointRates);
});

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;
/** An instant `ms` from now, as the API takes it. */
const fromNow = (ms: number) => new Date(Date.now() + ms).toISOString();

const card = (overrides: Record<string, unknown> = {}) => ({
  fromBaht: 10,
  toPoint: 1,
  fromPoint: 100,
  toBaht: 10,
  validFrom: fromNow(DAY),
  ...overrides,
});
const create = (body: Record<string, unknown>, token = admin) =>
  t.call('POST', '/api/point', { token, body });
const edit = (id: number | string, body: Record<string, unknown>, token = admin) =>
  t.call('PATCH', `/api/point/${id}`, { token, body });
const remove = (id: number | string, token = admin) => t.call('DELETE', `/api/point/${id}`, { token });
const list = async (token = admin) => {
  const response = await t.call('GET', '/api/point', { token });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body.points as Array<{ id: number; status: string; validFrom: string }>;
};
const statuses = async () => (await list()).map((p) => [p.id, p.status]);

/** A card created through the API (a future start), its id. */
async function pending(validFrom: string, overrides: Record<string, unknown> = {}) {
  const response = await create(card({ validFrom, ...overrides }));
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body.id as number;
}

/** A card started in the past: written directly, the API refuses past starts. */
async function started(msAgo: number) {
  const [row] = await t.database.db
    .insert(pointRates)
    .values({
      fromBaht: '20.00',
      toPoint: '1.00',
      fromPoint: '50.00',
      toBaht: '5.00',
      validFrom: new Date(Date.now() - msAgo),
    })
    .returning({ id: pointRates.id });
  return row!.id;
}

/** The answer's 400 message for a POST body. */
async function refusal(body: Record<string, unknown>) {
  const response = await create(body);
  expect(response.status, JSON.stringify(response.body)).toBe(400);
  return response.body.message as string;
}

describe('GET /api/point', () => {
  it('answers { points: [] } with no cards', async () => {
    const response = await t.call('GET', '/api/point', { token: admin });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ points: [] });
  });

  it('lists the active card first, the pending ones by start, then the past ones latest first', async () => {
    const oldest = await started(3 * DAY);
    const older = await started(2 * DAY);
    const inForce = await started(DAY);
    const third = await pending(fromNow(3 * DAY));
    const first = await pending(fromNow(DAY));
    const second = await pending(fromNow(2 * DAY));
    expect(await statuses()).toEqual([
      [inForce, 'active'],
      [first, 'pending'],
      [second, 'pending'],
      [third, 'pending'],
      [older, 'past'],
      [oldest, 'past'],
    ]);
    const [active] = await list();
    expect(active).toEqual({
      id: inForce,
      fromBaht: 20,
      toPoint: 1,
      fromPoint: 50,
      toBaht: 5,
      validFrom: expect.any(String),
      status: 'active',
    });
  });

  it('shows every card pending while none has started', async () => {
    const later = await pending(fromNow(2 * DAY));
    const sooner = await pending(fromNow(DAY));
    expect(await statuses()).toEqual([
      [sooner, 'pending'],
      [later, 'pending'],
    ]);
  });
});

describe('POST /api/point', () => {
  it('saves the four numbers to the satang and the start as an instant', async () => {
    const validFrom = '2099-02-01T09:30:00.000+07:00';
    const response = await create({
      fromBaht: 25.5,
      toPoint: 1.25,
      fromPoint: 9999.99,
      toBaht: 0.01,
      validFrom,
    });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    expect(response.body).toEqual({ message: 'Success', id: expect.any(Number) });
    expect(await list()).toEqual([
      {
        id: response.body.id,
        fromBaht: 25.5,
        toPoint: 1.25,
        fromPoint: 9999.99,
        toBaht: 0.01,
        validFrom: '2099-02-01T02:30:00.000Z',
        status: 'pending',
      },
    ]);
  });

  it('applies the form rules with their messages', async () => {
    for (const field of ['fromBaht', 'toBaht'] as const) {
      expect(await refusal(card({ [field]: undefined }))).toBe(`body.${field}: ${POINT_MESSAGES.baht}`);
      expect(await refusal(card({ [field]: '10' }))).toBe(`body.${field}: ${POINT_MESSAGES.baht}`);
      expect(await refusal(card({ [field]: null }))).toBe(`body.${field}: ${POINT_MESSAGES.baht}`);
      expect(await refusal(card({ [field]: 1.234 }))).toBe(`body.${field}: ${POINT_MESSAGES.bahtDecimals}`);
    }
    for (const field of ['toPoint', 'fromPoint'] as const) {
      expect(await refusal(card({ [field]: undefined }))).toBe(`body.${field}: ${POINT_MESSAGES.point}`);
      expect(await refusal(card({ [field]: 0.001 }))).toBe(`body.${field}: ${POINT_MESSAGES.pointDecimals}`);
    }
    // The dividers must be more than 0; what they give, 0 or more.
    expect(await refusal(card({ fromBaht: 0 }))).toBe(`body.fromBaht: ${POINT_MESSAGES.bahtPositive}`);
    expect(await refusal(card({ fromPoint: 0 }))).toBe(`body.fromPoint: ${POINT_MESSAGES.pointPositive}`);
    expect(await refusal(card({ fromBaht: -1 }))).toBe(`body.fromBaht: ${POINT_MESSAGES.bahtPositive}`);
    expect(await refusal(card({ toPoint: -0.01 }))).toBe(`body.toPoint: ${POINT_MESSAGES.pointMin}`);
    expect(await refusal(card({ toBaht: -1 }))).toBe(`body.toBaht: ${POINT_MESSAGES.bahtMin}`);
    expect(await pending(fromNow(DAY), { toPoint: 0, toBaht: 0 })).toEqual(expect.any(Number));
    // At most 7 characters in the shortest decimal form: 9999.99 and 9999999 pass.
    expect(POINT_MESSAGES.length).toBe('Please enter no more than 7 characters.');
    for (const value of [12_345_678, 99_999_999.5, 1e21]) {
      expect(await refusal(card({ toPoint: value })), String(value)).toBe(
        `body.toPoint: ${POINT_MESSAGES.length}`,
      );
    }
    expect(await refusal(card({ fromBaht: 123_456.78 }))).toBe(`body.fromBaht: ${POINT_MESSAGES.length}`);
    expect(await pending(fromNow(2 * DAY), { fromBaht: 9_999_999, toPoint: 9999.99 })).toEqual(
      expect.any(Number),
    );
    // The start: an instant with its offset, from the year 2000 on.
    expect(await refusal(card({ validFrom: undefined }))).toBe(`body.validFrom: ${POINT_MESSAGES.validFrom}`);
    for (const validFrom of ['2099-01-01', '2099-01-01T10:00:00', 'tomorrow', '']) {
      expect(await refusal(card({ validFrom })), validFrom).toBe(
        `body.validFrom: ${POINT_MESSAGES.validFrom}`,
      );
    }
    expect(await refusal(card({ validFrom: '1999-12-31T23:59:59Z' }))).toBe(
      `body.validFrom: ${POINT_MESSAGES.validFromYear}`,
    );
    // Unknown keys, the status among them, are refused by name.
    expect(await refusal({ ...card(), status: 'active' })).toMatch(/^body: .*status/);
    expect(await refusal({ ...card(), id: 5 })).toMatch(/^body: .*id/);
    expect(await statuses()).toHaveLength(2);
  });

  it('refuses a start more than a minute in the past, and takes one within the minute (then in force)', async () => {
    const refused = await create(card({ validFrom: fromNow(-2 * MINUTE) }));
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({ message: `body.validFrom: ${POINT_MESSAGES.validFromPast}` });
    expect((await create(card({ validFrom: '2020-01-01T00:00:00Z' }))).status).toBe(400);
    const now = await pending(fromNow(-20_000));
    expect(await statuses()).toEqual([[now, 'active']]);
  });

  it('refuses a second card starting at the same instant, in any offset (409)', async () => {
    const validFrom = '2098-05-01T00:00:00.000Z';
    await pending(validFrom);
    for (const same of [validFrom, '2098-05-01T07:00:00+07:00']) {
      const response = await create(card({ validFrom: same, toPoint: 2 }));
      expect(response.status).toBe(409);
      expect(response.body).toEqual({ message: POINT_MESSAGES.sameInstant });
    }
    // A millisecond later is another instant.
    expect((await create(card({ validFrom: '2098-05-01T00:00:00.001Z' }))).status).toBe(200);
    expect(await statuses()).toHaveLength(2);
  });
});

describe('PATCH /api/point/{id}', () => {
  it('saves a pending card, its start included', async () => {
    const id = await pending(fromNow(DAY));
    const validFrom = '2097-03-01T00:00:00.000Z';
    const response = await edit(id, { fromBaht: 50, toPoint: 3, fromPoint: 10, toBaht: 1.5, validFrom });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    expect(response.body).toEqual({ message: 'Success' });
    expect(await list()).toEqual([
      { id, fromBaht: 50, toPoint: 3, fromPoint: 10, toBaht: 1.5, validFrom, status: 'pending' },
    ]);
    // Saved again unchanged: its own instant is no clash.
    expect((await edit(id, { fromBaht: 50, toPoint: 3, fromPoint: 10, toBaht: 1.5, validFrom })).status).toBe(
      200,
    );
  });

  it('refuses the active and past cards (409), whatever the body', async () => {
    const past = await started(2 * DAY);
    const active = await started(DAY);
    const activeEdit = await edit(active, card());
    expect(activeEdit.status).toBe(409);
    expect(activeEdit.body).toEqual({ message: POINT_MESSAGES.activeChange });
    const pastEdit = await edit(past, card());
    expect(pastEdit.status).toBe(409);
    expect(pastEdit.body).toEqual({ message: POINT_MESSAGES.pastChange });
    const [row] = await t.database.db.select().from(pointRates).where(eq(pointRates.id, active));
    expect(row).toMatchObject({ fromBaht: '20.00', toPoint: '1.00', fromPoint: '50.00', toBaht: '5.00' });
  });

  it('applies the start rules: not in the past (400), not at another card’s instant (409)', async () => {
    const taken = '2096-01-01T00:00:00.000Z';
    await pending(taken);
    const id = await pending(fromNow(DAY));
    const past = await edit(id, card({ validFrom: fromNow(-2 * MINUTE) }));
    expect(past.status).toBe(400);
    expect(past.body).toEqual({ message: `body.validFrom: ${POINT_MESSAGES.validFromPast}` });
    const clash = await edit(id, card({ validFrom: '2096-01-01T07:00:00+07:00' }));
    expect(clash.status).toBe(409);
    expect(clash.body).toEqual({ message: POINT_MESSAGES.sameInstant });
    expect((await edit(id, card({ fromBaht: 0 }))).body).toEqual({
      message: `body.fromBaht: ${POINT_MESSAGES.bahtPositive}`,
    });
    // Moved to within the last minute, it comes into force at once.
    expect((await edit(id, card({ validFrom: fromNow(-10_000) }))).status).toBe(200);
    expect((await list()).find((p) => p.id === id)?.status).toBe('active');
  });

  it("answers 404 'Point rate not found' for an unknown id, 400 for one that is no id", async () => {
    for (const id of [2_000_000_000, 2_147_483_648]) {
      const response = await edit(id, card());
      expect(response.status).toBe(404);
      expect(response.body).toEqual({ message: POINT_MESSAGES.notFound });
    }
    expect((await edit('abc', card())).status).toBe(400);
    expect((await edit(0, card())).status).toBe(400);
  });
});

describe('DELETE /api/point/{id}', () => {
  it('deletes a pending card, and refuses the active and past ones (409)', async () => {
    const past = await started(2 * DAY);
    const active = await started(DAY);
    const id = await pending(fromNow(DAY));
    const deleted = await remove(id);
    expect(deleted.status).toBe(200);
    expect(deleted.body).toEqual({ message: 'Success' });
    expect((await remove(active)).body).toEqual({ message: POINT_MESSAGES.activeDelete });
    expect((await remove(active)).status).toBe(409);
    expect((await remove(past)).body).toEqual({ message: POINT_MESSAGES.pastDelete });
    expect((await remove(past)).status).toBe(409);
    expect(await statuses()).toEqual([
      [active, 'active'],
      [past, 'past'],
    ]);
    const again = await remove(id);
    expect(again.status).toBe(404);
    expect(again.body).toEqual({ message: POINT_MESSAGES.notFound });
  });
});

describe('roles', () => {
  it('lets admin and marketting in, and refuses merchant, callcenter and station (403)', async () => {
    const mine = await pending(fromNow(DAY));
    expect((await list(marketing)).map((p) => p.id)).toEqual([mine]);
    const created = await create(card({ validFrom: fromNow(2 * DAY) }), marketing);
    expect(created.status).toBe(200);
    expect((await edit(created.body.id, card({ validFrom: fromNow(3 * DAY) }), marketing)).status).toBe(200);
    expect((await remove(created.body.id, marketing)).status).toBe(200);
    for (const role of ['merchant', 'callcenter', 'station'] as const) {
      const token = (await signedInUser(t, { role })).token;
      expect((await t.call('GET', '/api/point', { token })).status, role).toBe(403);
      expect((await create(card({ validFrom: fromNow(4 * DAY) }), token)).status, role).toBe(403);
      expect((await edit(mine, card(), token)).status, role).toBe(403);
      expect((await remove(mine, token)).status, role).toBe(403);
    }
    expect((await t.call('GET', '/api/point')).status).toBe(401);
    expect(await statuses()).toEqual([[mine, 'pending']]);
  });
});
