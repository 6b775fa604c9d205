import { BOOKING_MESSAGES, REDEEM_MESSAGES } from '@ev/shared';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pointLedger, promotionCodes, promotionRedemptions, users } from '../../src/db/schema/index.ts';
import { createSession } from '../../src/modules/auth/auth.service.ts';
import { movePoints } from '../../src/modules/promotion/redeem.ts';
import { createBooking, createMember } from '../helpers/bookings.ts';
import { signedInUser } from '../helpers/factories.ts';
import { chargerPlace, createChargers } from '../helpers/ocpp.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';

/**
 * Redeeming codes over the member API (issue 21): each check with its own message, what each type does, and
 * exactness under concurrency (100 members on a code of 10 uses; one member twice at once), through real HTTP
 * on a real database.
 */
let t: TestApp;
let admin: string;
let place: Awaited<ReturnType<typeof chargerPlace>>;
let connectorId: number;
let otherConnectorId: number;

beforeAll(async () => {
  t = await startTestApp();
  admin = (await signedInUser(t, { role: 'admin' })).token;
  place = await chargerPlace(t);
  const other = await chargerPlace(t);
  connectorId = (await createChargers(t, admin, place, ['REDEEM-01']))[0]!.connectorIds[0]!;
  otherConnectorId = (await createChargers(t, admin, other, ['REDEEM-02']))[0]!.connectorIds[0]!;
});
afterAll(() => t.close());

let n = 0;
const fresh = (prefix: string) => `${prefix}${Date.now().toString(36).toUpperCase()}${n++}`;
const HOUR = 3_600_000;

/** Creates a promotion through the staff API; answers its id and codes. */
async function promotion(overrides: Record<string, unknown> = {}) {
  const body = {
    type: 'discount',
    code: fresh('R'),
    nameEn: 'Redeem test',
    nameTh: 'ทดสอบ',
    internal: false,
    expose: false,
    validFrom: new Date(Date.now() - HOUR).toISOString(),
    validTo: new Date(Date.now() + HOUR).toISOString(),
    discountPercent: 10,
    discountBaht: 0,
    count: 1,
    ...overrides,
  };
  const response = await t.call('POST', '/api/promotion', { token: admin, body });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return {
    id: response.body.id as number,
    code: body.code as string,
    codes: (response.body.codes ?? [body.code]) as string[],
  };
}

/** A member with a session of the member API. */
async function member() {
  const user = await createMember(t);
  return { user, token: await createSession(t.database.db, user.id, HOUR) };
}

const redeem = (token: string, body: Record<string, unknown>) =>
  t.call('POST', '/api/member/promotion/redeem', { token, body });

async function refused(token: string, body: Record<string, unknown>, status: number, message: string) {
  const response = await redeem(token, body);
  expect(response.status, JSON.stringify(response.body)).toBe(status);
  expect(response.body.message).toBe(message);
}

const usesOf = async (promotionId: number) =>
  (await t.database.db.select().from(promotionCodes).where(eq(promotionCodes.promotionId, promotionId))).map(
    (code) => code.used,
  );

describe('POST /api/member/promotion/redeem', () => {
  it('credits a point code through the ledger, once, whatever the case typed', async () => {
    const { id, code } = await promotion({
      type: 'point',
      point: 40,
      discountPercent: null,
      discountBaht: null,
    });
    const { user, token } = await member();
    const response = await redeem(token, { code: ` ${code.toLowerCase()} ` });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    expect(response.body).toMatchObject({
      message: 'Success',
      point: 40,
      redemption: {
        type: 'point',
        code,
        point: 40,
        bookingId: null,
        landlordNameEns: [],
        licensePlate: null,
      },
    });
    const ledger = await t.database.db.select().from(pointLedger).where(eq(pointLedger.userId, user.id));
    expect(ledger).toMatchObject([
      { kind: 'code', points: 40, source: `redemption:${response.body.redemption.id}` },
    ]);
    await refused(token, { code }, 409, REDEEM_MESSAGES.already);
    expect(await usesOf(id)).toEqual([1]);
    const [stored] = await t.database.db
      .select({ point: users.point })
      .from(users)
      .where(eq(users.id, user.id));
    expect(stored!.point).toBe(40);
  });

  it('takes a discount for a booking of the member not yet paid, one discount a booking', async () => {
    const { code } = await promotion();
    const second = await promotion();
    const { user, token } = await member();
    const booking = await createBooking(t, connectorId, 'stopped', { userId: user.id });
    await refused(token, { code }, 400, `body.bookingId: ${REDEEM_MESSAGES.bookingNeeded}`);
    const taken = await redeem(token, { code, bookingId: booking.id });
    expect(taken.status, JSON.stringify(taken.body)).toBe(200);
    expect(taken.body.redemption).toMatchObject({ type: 'discount', bookingId: booking.id, point: null });
    await refused(
      token,
      { code: second.code, bookingId: booking.id },
      409,
      REDEEM_MESSAGES.bookingHasDiscount,
    );
    // Someone else's booking is no booking of theirs; a paid one takes no discount.
    const stranger = await member();
    await refused(
      stranger.token,
      { code: second.code, bookingId: booking.id },
      404,
      BOOKING_MESSAGES.notFound,
    );
    const paid = await createBooking(t, connectorId, 'paid', { userId: stranger.user.id });
    await refused(
      stranger.token,
      { code: second.code, bookingId: paid.id },
      409,
      REDEEM_MESSAGES.bookingNotOpen,
    );
    // Nothing of a refusal stays: the second code is still unused.
    expect(await usesOf(second.id)).toEqual([0]);
  });

  it('holds a code for selected landlords to its sites', async () => {
    const { code } = await promotion({ internal: true, landlordIds: [place.site.id] });
    const { user, token } = await member();
    const elsewhere = await createBooking(t, otherConnectorId, 'charging', { userId: user.id });
    await refused(token, { code, bookingId: elsewhere.id }, 409, REDEEM_MESSAGES.site);
    const here = await createBooking(t, connectorId, 'charging', { userId: user.id });
    expect((await redeem(token, { code, bookingId: here.id })).status).toBe(200);
  });

  it('makes a private station member with the license plate', async () => {
    const { code } = await promotion({
      type: 'landlord',
      internal: true,
      expose: null,
      landlordIds: [place.site.id],
      discountPercent: null,
      discountBaht: null,
    });
    const { token } = await member();
    await refused(token, { code }, 400, `body.licensePlate: ${REDEEM_MESSAGES.licensePlate}`);
    const joined = await redeem(token, { code, licensePlate: 'กข 1234' });
    expect(joined.status, JSON.stringify(joined.body)).toBe(200);
    expect(joined.body.redemption).toMatchObject({
      type: 'landlord',
      licensePlate: 'กข 1234',
      landlordNameEns: [place.site.nameEn],
    });
    const point = await promotion({ type: 'point', point: 5, discountPercent: null, discountBaht: null });
    await refused(
      token,
      { code: point.code, licensePlate: 'กข 1234' },
      400,
      `body.licensePlate: ${REDEEM_MESSAGES.licensePlateOnlyLandlord}`,
    );
  });

  it('refuses an unknown, inactive, not yet valid, expired or used-up code, each with its message', async () => {
    const { token } = await member();
    const points = { type: 'point', point: 1, discountPercent: null, discountBaht: null };
    await refused(token, { code: 'NOSUCHCODE123' }, 404, REDEEM_MESSAGES.notFound);
    const inactive = await promotion({ ...points, active: false });
    await refused(token, { code: inactive.code }, 409, REDEEM_MESSAGES.inactive);
    const later = await promotion({
      ...points,
      validFrom: new Date(Date.now() + HOUR).toISOString(),
      validTo: new Date(Date.now() + 2 * HOUR).toISOString(),
    });
    await refused(token, { code: later.code }, 409, REDEEM_MESSAGES.notStarted);
    const past = await promotion({
      ...points,
      validFrom: new Date(Date.now() - 2 * HOUR).toISOString(),
      validTo: new Date(Date.now() - HOUR).toISOString(),
    });
    await refused(token, { code: past.code }, 409, REDEEM_MESSAGES.expired);
    const once = await promotion({ ...points, total: 1 });
    expect((await redeem(token, { code: once.code })).status).toBe(200);
    await refused((await member()).token, { code: once.code }, 409, REDEEM_MESSAGES.usedUp);
    await refused(token, { code: '' }, 400, 'body.code: Code is required.');
    // Staff can't redeem; a member without a session neither.
    expect((await redeem(admin, { code: once.code })).status).toBe(401);
    expect((await t.call('POST', '/api/member/promotion/redeem', { body: { code: once.code } })).status).toBe(
      401,
    );
  });
});

describe('redeeming at the same moment', () => {
  it('100 members on a code of 10 uses: exactly 10 succeed and the code is spent', async () => {
    const { id, code } = await promotion({
      type: 'point',
      point: 10,
      discountPercent: null,
      discountBaht: null,
      total: 10,
    });
    const members = await Promise.all(Array.from({ length: 100 }, () => member()));
    const started = performance.now();
    const answers = await Promise.all(members.map(({ token }) => redeem(token, { code })));
    const ms = performance.now() - started;
    const statuses = answers.map((answer) => answer.status);
    expect(statuses.filter((status) => status === 200)).toHaveLength(10);
    expect(statuses.filter((status) => status === 409)).toHaveLength(90);
    for (const answer of answers.filter((a) => a.status === 409))
      expect(answer.body.message).toBe(REDEEM_MESSAGES.usedUp);
    expect(await usesOf(id)).toEqual([10]);
    const redemptions = await t.database.db
      .select()
      .from(promotionRedemptions)
      .where(eq(promotionRedemptions.promotionId, id));
    expect(redemptions).toHaveLength(10);
    // Only the ten who got a use were credited.
    const winners = new Set(redemptions.map((r) => r.userId));
    for (const { user } of members) {
      const [stored] = await t.database.db
        .select({ point: users.point })
        .from(users)
        .where(eq(users.id, user.id));
      expect(stored!.point).toBe(winners.has(user.id) ? 10 : 0);
    }
    console.info(
      `redeem: 100 members at once on a 10-use code in ${ms.toFixed(0)} ms (${(100_000 / ms).toFixed(0)} redemptions answered/s)`,
    );
  });

  it('one member twice at once: one redemption, one credit', async () => {
    const { id, code } = await promotion({
      type: 'point',
      point: 7,
      discountPercent: null,
      discountBaht: null,
    });
    const { user, token } = await member();
    const answers = await Promise.all([
      redeem(token, { code }),
      redeem(token, { code }),
      redeem(token, { code }),
    ]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409, 409]);
    expect(await usesOf(id)).toEqual([1]);
    const [stored] = await t.database.db
      .select({ point: users.point })
      .from(users)
      .where(eq(users.id, user.id));
    expect(stored!.point).toBe(7);
  });
});

describe('the point ledger', () => {
  it('counts a replayed source once and never lets the balance go below 0', async () => {
    const user = await createMember(t);
    const move = (points: number, source: string) =>
      t.database.db.transaction((tx) => movePoints(tx, { userId: user.id, kind: 'earn', points, source }));
    expect(await move(30, 'test:earn:1')).toBe(30);
    expect(await move(30, 'test:earn:1')).toBeNull();
    await expect(move(-31, 'test:redeem:1')).rejects.toThrow('Not enough green points');
    expect(await move(-30, 'test:redeem:2')).toBe(0);
    const ledger = await t.database.db.select().from(pointLedger).where(eq(pointLedger.userId, user.id));
    expect(ledger.map((entry) => [entry.source, entry.points])).toEqual([
      ['test:earn:1', 30],
      ['test:redeem:2', -30],
    ]);
  });
});

describe('GET /api/member/promotion', () => {
  it("lists the homepage's promotions: shown, active, valid now, with a code left; the code only when one", async () => {
    const points = { type: 'point', point: 5, discountPercent: null, discountBaht: null, expose: true };
    const single = await promotion({ ...points });
    const many = await promotion({ ...points, count: 3 });
    const hidden = await promotion({ ...points, expose: false });
    const off = await promotion({ ...points, active: false });
    const expired = await promotion({
      ...points,
      validFrom: new Date(Date.now() - 2 * HOUR).toISOString(),
      validTo: new Date(Date.now() - HOUR).toISOString(),
    });
    const spent = await promotion({ ...points, total: 1 });
    const { token } = await member();
    expect((await redeem(token, { code: spent.code })).status).toBe(200);
    const response = await t.call('GET', '/api/member/promotion', { token });
    expect(response.status).toBe(200);
    const shown = new Map(
      response.body.promotions.map((p: { id: number; code: string | null }) => [p.id, p] as const),
    );
    expect(shown.get(single.id)).toMatchObject({
      code: single.code,
      type: 'point',
      point: 5,
      landlordNameEns: [],
    });
    expect(shown.get(many.id)).toMatchObject({ code: null });
    for (const absent of [hidden, off, expired, spent]) expect(shown.has(absent.id)).toBe(false);
    expect((await t.call('GET', '/api/member/promotion', { token: admin })).status).toBe(401);
  });
});
