import { BANGKOK_OFFSET_MS, bangkokDayStart, type DashboardResponse } from '@ev/shared';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chargers, connectors } from '../../src/db/schema/index.ts';
import { createBooking } from '../helpers/bookings.ts';
import { signedInUser } from '../helpers/factories.ts';
import { chargerPlace, createChargers } from '../helpers/ocpp.ts';
import { createPayment } from '../helpers/statistics.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';

/**
 * GET /api/dashboard (issue 35 §1) through real HTTP: three sites (A with an online charger, one connector
 * charging and one faulted; B's charger offline for a day; C's never seen), sessions today and on the same
 * weekday of each of the 4 weeks before, placed by the time of day that has passed so the test holds at any
 * hour; figures per role and scope.
 */
let t: TestApp;
let admin: string;
let siteUserA: string;
let place: Record<'a' | 'b' | 'c', Awaited<ReturnType<typeof chargerPlace>>>;
const DAY = 86_400_000;
const WEEK = 7 * DAY;
const now = Date.now();
const today = bangkokDayStart(now);
const sinceMidnight = now - today;
/** An instant `fraction` of the way from a day's midnight to the time of day now. */
const sameTime = (dayStart: number, fraction: number) =>
  new Date(dayStart + Math.floor(sinceMidnight * fraction));
/** Every session's start in the last 30 days, for the hours chart. */
const starts: Date[] = [];

async function session(
  connectorId: number,
  start: Date,
  seconds: number,
  energyWh: number,
  status: 'paid' | 'stopped' | 'charging' = 'paid',
  paymentMethod: 'credit' | 'qr' | null = status === 'paid' ? 'credit' : null,
) {
  starts.push(start);
  return createBooking(t, connectorId, status, {
    createdAt: new Date(start.getTime() - 60_000),
    startTime: start,
    stopTime: status === 'charging' ? null : new Date(start.getTime() + seconds * 1000),
    avaliableAt: status === 'charging' ? null : new Date(start.getTime() + seconds * 1000),
    energyWh,
    paymentMethod,
  });
}

beforeAll(async () => {
  t = await startTestApp();
  admin = (await signedInUser(t, { role: 'admin' })).token;
  place = { a: await chargerPlace(t), b: await chargerPlace(t), c: await chargerPlace(t) };
  const [a] = await createChargers(t, admin, place.a, ['DASH-A1']);
  const [b] = await createChargers(t, admin, place.b, ['DASH-B1'], { connectors: 1 });
  const [c] = await createChargers(t, admin, place.c, ['DASH-C1'], { connectors: 1 });
  siteUserA = (await signedInUser(t, { role: 'landlord', landlordId: place.a.site.id })).token;
  const [a1, a2] = a!.connectorIds as [number, number];
  const b1 = b!.connectorIds[0]!;
  const c1 = c!.connectorIds[0]!;

  // A1 online, one connector charging and one faulted for 2 hours; B1 last heard a day ago; C1 never.
  const db = t.database.db;
  await db
    .update(chargers)
    .set({ connectedNode: 'test', lastSeenAt: new Date(), heartbeatIntervalS: 3600 })
    .where(eq(chargers.id, 'DASH-A1'));
  await db
    .update(chargers)
    .set({ lastSeenAt: new Date(now - DAY), heartbeatIntervalS: 60 })
    .where(eq(chargers.id, 'DASH-B1'));
  await db
    .update(connectors)
    .set({ status: 'CHARGING', statusAt: new Date(now - 600_000) })
    .where(eq(connectors.id, a1));
  await db
    .update(connectors)
    .set({ status: 'FAULTED', statusAt: new Date(now - 2 * 3_600_000) })
    .where(eq(connectors.id, a2));
  await db.update(connectors).set({ status: 'AVAILABLE' }).where(eq(connectors.id, b1));

  // Today, site A: 10 min and 6 kWh paid 60 THB (after 10 THB off); 20 min that delivered nothing, unpaid.
  const t1 = await session(a1, sameTime(today, 0.1), 600, 6000);
  await createPayment(t, t1.id, sameTime(today, 0.5), { amount: '60.00', discount: '10.00' });
  await session(a2, sameTime(today, 0.2), 1200, 0, 'stopped');
  // The same weekday before, by this time of day: a week ago (and one later that day, left out), two weeks
  // ago (20 THB of 80 refunded since), none three weeks ago, four weeks ago at site B with no energy.
  const w1 = await session(a1, sameTime(today - WEEK, 0.1), 600, 4000);
  await createPayment(t, w1.id, sameTime(today - WEEK, 0.5), { amount: '40.00' });
  await session(a2, new Date(today - WEEK + sinceMidnight + (DAY - sinceMidnight) / 2), 300, 99_000);
  const w2 = await session(a1, sameTime(today - 2 * WEEK, 0.3), 1200, 8000, 'paid', 'qr');
  await createPayment(t, w2.id, sameTime(today - 2 * WEEK, 0.5), {
    amount: '80.00',
    refund: { amount: '20.00', at: new Date() },
  });
  await session(b1, sameTime(today - 4 * WEEK, 0.4), 300, 0, 'stopped');
  // Site B, three days ago: waiting to be paid. Site C: charging since two days ago.
  await session(b1, new Date(today - 3 * DAY + 10 * 3_600_000), 1000, 2000, 'stopped');
  await session(c1, new Date(today - 2 * DAY + 10 * 3_600_000), 0, 1000, 'charging');
  // Out of the 30 days: 30 days before today.
  await createBooking(t, a1, 'paid', {
    startTime: new Date(today - 30 * DAY + 3_600_000),
    stopTime: new Date(today - 30 * DAY + 7_200_000),
    energyWh: 50_000,
  });
});
afterAll(() => t.close());

async function dashboard(token = admin): Promise<DashboardResponse> {
  const response = await t.call('GET', '/api/dashboard', { token });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body as DashboardResponse;
}

const dayKey = (at: number) => new Date(at + BANGKOK_OFFSET_MS).toISOString().slice(0, 10);
const hourOf = (at: Date) => new Date(at.getTime() + BANGKOK_OFFSET_MS).getUTCHours();

describe('GET /api/dashboard', () => {
  it('now: connectors by state (offline whatever they last said), chargers down longest first, open bookings', async () => {
    const body = await dashboard();
    expect(body.now.connectors).toEqual({
      Available: 0,
      Charging: 1,
      Faulted: 1,
      Unavailable: 0,
      Offline: 2,
      Other: 0,
    });
    expect(body.now.down).toEqual([
      {
        chargerId: 'DASH-B1',
        nameEn: 'Charger DASH-B1',
        landlordNameEn: place.b.site.nameEn,
        state: 'Offline',
        since: new Date(now - DAY).toISOString(),
      },
      {
        chargerId: 'DASH-A1',
        nameEn: 'Charger DASH-A1',
        landlordNameEn: place.a.site.nameEn,
        state: 'Faulted',
        since: new Date(now - 2 * 3_600_000).toISOString(),
      },
      {
        chargerId: 'DASH-C1',
        nameEn: 'Charger DASH-C1',
        landlordNameEn: place.c.site.nameEn,
        state: 'Offline',
        since: null,
      },
    ]);
    expect(body.now.charging).toBe(1);
    expect(body.now.awaitingPayment).toBe(3);
  });

  it('today against the same weekday of the 4 weeks before, by the same time of day', async () => {
    const body = await dashboard();
    expect(body.today).toEqual({
      energyWh: 6000,
      revenue: 60,
      sessions: 2,
      averageSeconds: 900,
      successRate: 0.5,
    });
    // Four weeks: 12 kWh, 100 THB net, 3 sessions (2,100 s, 2 delivered) → per week.
    expect(body.usual).toEqual({
      energyWh: 3000,
      revenue: 25,
      sessions: 1,
      averageSeconds: 700,
      successRate: 2 / 3,
    });
  });

  it('the last 30 days: daily figures, sessions by hour, payment methods, sites by utilisation', async () => {
    const body = await dashboard();
    expect(body.daily).toHaveLength(30);
    expect(body.daily.at(-1)!.day).toBe(dayKey(today));
    expect(body.daily[0]!.day).toBe(dayKey(today - 29 * DAY));
    const daily = new Map(body.daily.map((day) => [day.day, day]));
    expect(daily.get(dayKey(today))).toEqual({
      day: dayKey(today),
      energyWh: 6000,
      revenue: 60,
      sessions: 2,
    });
    expect(daily.get(dayKey(today - WEEK))).toMatchObject({ energyWh: 103_000, revenue: 40, sessions: 2 });
    expect(daily.get(dayKey(today - 2 * WEEK))).toMatchObject({ energyWh: 8000, revenue: 60, sessions: 1 });
    expect(daily.get(dayKey(today - 4 * WEEK))).toMatchObject({ energyWh: 0, revenue: 0, sessions: 1 });
    expect(daily.get(dayKey(today - 3 * DAY))).toMatchObject({ energyWh: 2000, sessions: 1 });
    expect(body.daily.reduce((sum, day) => sum + day.sessions, 0)).toBe(starts.length);

    const hours = Array.from({ length: 24 }, (_, hour) => ({
      hour,
      sessions: starts.filter((start) => hourOf(start) === hour).length,
    }));
    expect(body.byHour).toEqual(hours);

    expect(body.paymentMethods).toEqual([
      { method: 'credit', count: 2, amount: 100 },
      { method: 'qr', count: 1, amount: 60 },
    ]);

    const at = Date.parse(body.at);
    const seconds = (at - (bangkokDayStart(at) - 29 * DAY)) / 1000;
    const charging = {
      a: 600 + 1200 + 600 + 300 + 1200,
      b: 300 + 1000,
      c: (at - (today - 2 * DAY + 10 * 3_600_000)) / 1000,
    };
    const expected = [
      { landlordId: place.c.site.id, nameEn: place.c.site.nameEn, utilisation: charging.c / seconds },
      { landlordId: place.a.site.id, nameEn: place.a.site.nameEn, utilisation: charging.a / (2 * seconds) },
      { landlordId: place.b.site.id, nameEn: place.b.site.nameEn, utilisation: charging.b / seconds },
    ];
    expect(body.sites.top.map((site) => site.landlordId)).toEqual(expected.map((site) => site.landlordId));
    expect(body.sites.bottom.map((site) => site.landlordId)).toEqual(
      [...expected].reverse().map((site) => site.landlordId),
    );
    body.sites.top.forEach((site, i) => {
      expect(site.nameEn).toBe(expected[i]!.nameEn);
      // C's session is still charging: its seconds run to the database's now, a moment after `at`.
      expect(site.utilisation).toBeCloseTo(expected[i]!.utilisation, 4);
    });
  });

  it('is scoped: a site user sees its site only', async () => {
    const body = await dashboard(siteUserA);
    expect(body.now.connectors).toEqual({
      Available: 0,
      Charging: 1,
      Faulted: 1,
      Unavailable: 0,
      Offline: 0,
      Other: 0,
    });
    expect(body.now.down.map((down) => down.chargerId)).toEqual(['DASH-A1']);
    expect(body.now).toMatchObject({ charging: 0, awaitingPayment: 1 });
    expect(body.today).toEqual({
      energyWh: 6000,
      revenue: 60,
      sessions: 2,
      averageSeconds: 900,
      successRate: 0.5,
    });
    // Two weeks of site A's: 12 kWh, 100 THB, 2 sessions of 1,800 s, both delivered.
    expect(body.usual).toEqual({
      energyWh: 3000,
      revenue: 25,
      sessions: 1,
      averageSeconds: 900,
      successRate: 1,
    });
    expect(body.daily.reduce((sum, day) => sum + day.sessions, 0)).toBe(5);
    expect(body.paymentMethods.map((method) => method.method)).toEqual(['credit', 'qr']);
    expect(body.sites.top.map((site) => site.landlordId)).toEqual([place.a.site.id]);
    expect(body.sites.bottom.map((site) => site.landlordId)).toEqual([place.a.site.id]);
  });

  it('is every role’s, signed in', async () => {
    for (const role of ['merchant', 'party', 'callcenter', 'marketting', 'station'] as const) {
      const { token } = await signedInUser(t, { role });
      expect((await t.call('GET', '/api/dashboard', { token })).status, role).toBe(200);
    }
    expect((await t.call('GET', '/api/dashboard')).status).toBe(401);
  });
});
