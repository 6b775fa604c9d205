import {
  bangkokDayStart,
  STAT_PERIODS,
  STAT_SPLITS,
  type StatisticsQuery,
  type StatisticsResponse,
  type StatSplit,
} from '@ev/shared';
import { and, eq, sql, TransactionRollbackError } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../src/db/client.ts';
import {
  bookings,
  payments,
  promotionCodes,
  promotionRedemptions,
  statisticsDaily,
  statisticsDays,
  statisticsDirtyDays,
  statisticsMonths,
} from '../../src/db/schema/index.ts';
import { dashboard } from '../../src/modules/statistics/dashboard.service.ts';
import { statistics } from '../../src/modules/statistics/statistics.service.ts';
import type { DataScope } from '../../src/plugins/scope.ts';
import { createBooking } from '../helpers/bookings.ts';
import { signedInUser } from '../helpers/factories.ts';
import { chargerPlace, createChargers } from '../helpers/ocpp.ts';
import { createPromotion } from '../helpers/promotions.ts';
import { createPayment } from '../helpers/statistics.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';

/**
 * The statistics' daily rollups (issue 35 §3) are exact: on a random data set of ~80 days, every statistics
 * query and the dashboard answer the same rows through the rollups as the plain live aggregate (the same
 * services with the rollups hidden), to the satang and the Wh; and late events (a late StopTransaction, an
 * energy correction, a refund today of last month's payment, a deleted booking, a booking moved to another
 * site, a promotion redeemed late) are answered exactly both before the job runs again (the day is dirty,
 * computed live) and after it.
 */
let t: TestApp;
let db: Db;
let places: Array<Awaited<ReturnType<typeof chargerPlace>>>;
let connectorIds: number[];
let promotionId: number;
let codeId: number;
const DAY = 86_400_000;
const MINUTE = 60_000;
const now = Date.now();
const today = bangkokDayStart(now);
const FROM = new Date(today - 80 * DAY);
const TO = new Date(today + DAY);

/** mulberry32: the same data set on every run. */
function random(seed: number) {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let x = Math.imul(a ^ (a >>> 15), 1 | a);
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
    return ((x ^ (x >>> 14)) >>> 0) / 4_294_967_296;
  };
}

const baht = (satang: number) => (satang / 100).toFixed(2);

beforeAll(async () => {
  t = await startTestApp();
  db = t.database.db;
  const admin = (await signedInUser(t, { role: 'admin' })).token;
  places = [await chargerPlace(t), await chargerPlace(t), await chargerPlace(t)];
  const chargers = [
    ...(await createChargers(t, admin, places[0]!, ['ROLL-A1', 'ROLL-A2'])),
    ...(await createChargers(t, admin, places[1]!, ['ROLL-B1'])),
    ...(await createChargers(t, admin, places[2]!, ['ROLL-C1'], { connectors: 1 })),
  ];
  connectorIds = chargers.flatMap((charger) => charger.connectorIds);
  const promotion = await createPromotion(t, admin, { code: `ROLL${Date.now().toString(36).toUpperCase()}` });
  promotionId = promotion.id;
  const [code] = await db.select().from(promotionCodes).where(eq(promotionCodes.promotionId, promotionId));
  codeId = code!.id;

  const next = random(35);
  const pick = <T>(values: readonly T[]) => values[Math.floor(next() * values.length)] as T;
  for (let i = 0; i < 160; i++) {
    const day = today - Math.floor(next() * 80) * DAY;
    const start = day + Math.floor(next() * 22 * 60) * MINUTE;
    const stop = start + (5 + Math.floor(next() * 180)) * MINUTE;
    const cableOut = next() < 0.15 ? null : stop + Math.floor(next() * 30) * MINUTE;
    if ((cableOut ?? stop) > now - MINUTE) continue;
    const kind = next();
    const status = kind < 0.6 ? 'paid' : kind < 0.8 ? 'stopped' : kind < 0.9 ? 'charged' : 'cancelled';
    const method = status === 'paid' ? pick(['credit', 'qr', 'truemoney'] as const) : null;
    const started = status !== 'cancelled';
    const booking = await createBooking(t, pick(connectorIds), status, {
      createdAt: new Date(start - 5 * MINUTE),
      startTime: started ? new Date(start) : null,
      stopTime: started ? new Date(stop) : null,
      // A charged session with its cable still in would grow with now(): every one here is out.
      avaliableAt: started ? new Date(cableOut ?? stop) : null,
      energyWh: started && next() > 0.1 ? Math.floor(next() * 40_000) : 0,
      paymentMethod: method,
      deletedAt: status !== 'paid' && next() < 0.1 ? new Date(stop) : null,
    });
    if (status !== 'paid') continue;
    const paidAt = Math.min(stop + Math.floor(next() * 300) * MINUTE, now - MINUTE);
    const amount = 1000 + Math.floor(next() * 30_000);
    const refund =
      next() < 0.2
        ? {
            amount: baht(Math.floor(amount * next())),
            at: new Date(Math.min(paidAt + Math.floor(next() * 20) * DAY, now - MINUTE)),
          }
        : next() < 0.1
          ? { status: 'failed' as const }
          : undefined;
    const discount = next() < 0.3 ? Math.floor(next() * 2_000) : 0;
    const payment = await createPayment(t, booking.id, new Date(paidAt), {
      amount: baht(amount),
      discount: baht(discount),
      point: next() < 0.2 ? baht(Math.floor(next() * 500)) : undefined,
      refund,
    });
    if (discount > 0) {
      await db.insert(promotionRedemptions).values({
        userId: booking.userId!,
        codeId,
        promotionId,
        bookingId: booking.id,
        paymentId: payment.id,
        discount: baht(discount),
      });
    }
  }
});
afterAll(() => t.close());

/**
 * `read` on the plain live aggregate: the same services, the rollups hidden (a transaction rolled back). The
 * services send their queries at once, as on the pool; one transaction's connection takes them one by one.
 */
async function live<T>(read: (db: Db) => Promise<T>): Promise<T> {
  let result: T | undefined;
  try {
    await db.transaction(async (tx) => {
      const client = (tx as unknown as { session: { client: { query: (...args: unknown[]) => unknown } } })
        .session.client;
      const own = Object.hasOwn(client, 'query') ? client.query : undefined;
      const query = client.query.bind(client);
      let queue: Promise<unknown> = Promise.resolve();
      client.query = (...args: unknown[]) => {
        const run = queue.then(() => query(...args));
        queue = run.catch(() => undefined);
        return run;
      };
      try {
        await tx.delete(statisticsDays);
        result = await read(tx as unknown as Db);
      } finally {
        // The connection goes back to the pool as it came.
        if (own) client.query = own;
        else delete (client as { query?: unknown }).query;
      }
      tx.rollback();
    });
  } catch (error) {
    if (!(error instanceof TransactionRollbackError)) throw error;
  }
  return result as T;
}

const ADMIN: DataScope = { kind: 'all' };
const query = (overrides: Partial<StatisticsQuery> = {}): StatisticsQuery => ({
  from: FROM,
  to: TO,
  period: 'day',
  split: 'none',
  ...overrides,
});

/** Every split by every period, the scopes, the filters, and ranges whose edges are not whole days. */
function queries(): Array<[DataScope, StatisticsQuery]> {
  const splits = STAT_SPLITS;
  const periods = STAT_PERIODS;
  const [a, b] = places as [(typeof places)[0], (typeof places)[0]];
  const list: Array<[DataScope, StatisticsQuery]> = [];
  for (const split of splits) for (const period of periods) list.push([ADMIN, query({ split, period })]);
  for (const split of ['none', 'charger', 'paymentMethod'] as const) {
    list.push([{ kind: 'landlord', landlordId: a.site.id }, query({ split })]);
    list.push([{ kind: 'merchant', merchantId: b.merchant.id }, query({ split, period: 'week' })]);
    list.push([ADMIN, query({ split, chargerId: 'roll-a' })]);
    list.push([ADMIN, query({ split, connectorId: connectorIds[1] })]);
    list.push([ADMIN, query({ split, landlordId: [a.site.id], period: 'month' })]);
    list.push([ADMIN, query({ split, merchantId: [b.merchant.id] })]);
    list.push([ADMIN, query({ split, paymentMethod: 'qr', period: 'week' })]);
    list.push([ADMIN, query({ split, paymentMethod: 'credit', chargerId: 'A2' })]);
  }
  const edges = {
    from: new Date(today - 41 * DAY + 13 * 3_600_000),
    to: new Date(today - 3 * DAY + 5 * 3_600_000),
  };
  for (const split of ['none', 'landlord', 'promotion'] as const) {
    for (const period of ['day', 'week'] as const) list.push([ADMIN, query({ ...edges, split, period })]);
  }
  list.push([{ kind: 'landlord', landlordId: a.site.id }, query({ ...edges, split: 'connectorType' })]);
  return list;
}

async function expectRollupsExact() {
  for (const [scope, q] of queries()) {
    const rolled = await statistics(db, scope, q, now);
    expect(rolled, JSON.stringify({ scope, q })).toEqual(await live((tx) => statistics(tx, scope, q, now)));
  }
  for (const scope of [ADMIN, { kind: 'landlord', landlordId: places[0]!.site.id } as const]) {
    expect(await dashboard(db, scope, now)).toEqual(await live((tx) => dashboard(tx, scope, now)));
  }
}

/**
 * The days marked dirty, but yesterday: a change to yesterday marks it too (a day's mark comes a day before
 * the job may roll it up, so no change in flight at midnight is missed), and yesterday is live anyway.
 */
const dirtyDays = async () =>
  (
    await db
      .select({ day: statisticsDirtyDays.day })
      .from(statisticsDirtyDays)
      .orderBy(statisticsDirtyDays.day)
  )
    .map((row) => row.day)
    .filter((day) => day !== dayOf(now - DAY));
const dayOf = (at: number) => new Date(bangkokDayStart(at) + 7 * 3_600_000).toISOString().slice(0, 10);

/** The figures of one Bangkok day, split none, through the rollups (or live where it is dirty). */
async function dayFigures(dayStart: number, split: StatSplit = 'none', scope: DataScope = ADMIN) {
  const answer: StatisticsResponse = await statistics(
    db,
    scope,
    query({ from: new Date(dayStart), to: new Date(dayStart + DAY), split }),
    now,
  );
  return answer;
}

describe('statistics rollups', () => {
  it('answer exactly what the live aggregate answers, on every query and the dashboard', async () => {
    // Nothing rolled up yet: all of it is live.
    expect(await db.$count(statisticsDaily)).toBe(0);
    const rolled = await t.app.jobs.rollupStatistics();
    expect(rolled).toBeGreaterThan(70);
    expect(await db.$count(statisticsDaily)).toBeGreaterThan(100);
    // Yesterday and today are always live; every day before is rolled up and clean.
    const days = await db.select({ day: statisticsDays.day }).from(statisticsDays);
    expect(days.map((row) => row.day)).not.toContain(dayOf(now - DAY));
    expect(days.map((row) => row.day)).toContain(dayOf(now - 2 * DAY));
    expect(await dirtyDays()).toEqual([]);
    // The whole months among them are summed up too (read by the queries by month, by year, or not by period).
    expect(await db.$count(statisticsMonths)).toBeGreaterThan(0);
    expect(await db.$count(statisticsDaily, sql`${statisticsDaily.grain} > 10`)).toBeGreaterThan(0);
    // A second run has nothing to do.
    expect(await t.app.jobs.rollupStatistics()).toBe(0);
    await expectRollupsExact();
  });

  it('a change that moves no figure, or one of today, marks no day', async () => {
    const [past] = await db
      .select()
      .from(bookings)
      .where(sql`${bookings.startTime} < ${new Date(today - 5 * DAY)} and ${bookings.deletedAt} is null`)
      .limit(1);
    await db.update(bookings).set({ soc: 80, updatedAt: new Date() }).where(eq(bookings.id, past!.id));
    const charging = await createBooking(t, connectorIds[0]!, 'charging', {
      startTime: new Date(Math.max(today, now - 20 * MINUTE)),
    });
    await db.update(bookings).set({ energyWh: 4_321 }).where(eq(bookings.id, charging.id));
    expect(await dirtyDays()).toEqual([]);
    await db.delete(bookings).where(eq(bookings.id, charging.id));
    expect(await dirtyDays()).toEqual([]);
  });

  it('stay exact under late events, before the job runs again (live) and after it', async () => {
    const at = (days: number, hour: number) => new Date(today - days * DAY + hour * 3_600_000);

    // A session of 10 days ago whose StopTransaction is late: open, its day stays live however often the job runs.
    const lateStop = await createBooking(t, connectorIds[2]!, 'charging', {
      createdAt: at(10, 9),
      startTime: at(10, 10),
      energyWh: 1_000,
    });
    const lateDay = today - 10 * DAY;
    expect(await dirtyDays()).toEqual([dayOf(lateDay)]);
    const before = (await dayFigures(lateDay)).totals;
    await t.app.jobs.rollupStatistics();
    expect(await dirtyDays()).toEqual([dayOf(lateDay)]);
    // Its stop comes: 1 h, 15 kWh.
    await db
      .update(bookings)
      .set({ status: 'stopped', stopTime: at(10, 11), avaliableAt: at(10, 11), energyWh: 15_000 })
      .where(eq(bookings.id, lateStop.id));
    const stopped = (await dayFigures(lateDay)).totals;
    expect(stopped.energyWh).toBe(before.energyWh + 14_000);
    expect(stopped.sessions).toBe(before.sessions);

    // An energy correction on a session of about 20 days ago.
    const [corrected] = await db
      .select()
      .from(bookings)
      .where(sql`${bookings.startTime} < ${new Date(today - 19 * DAY)} and ${bookings.deletedAt} is null`)
      .orderBy(sql`${bookings.startTime} desc`)
      .limit(1);
    const correctedDay = bangkokDayStart(corrected!.startTime!.getTime());
    const correctedBefore = (await dayFigures(correctedDay)).totals;
    await db
      .update(bookings)
      .set({ energyWh: corrected!.energyWh + 2_500 })
      .where(eq(bookings.id, corrected!.id));
    expect((await dayFigures(correctedDay)).totals.energyWh).toBe(correctedBefore.energyWh + 2_500);

    // A refund today of a payment made a month ago: that day's revenue falls, today's does not move.
    const [old] = await db
      .select()
      .from(payments)
      .where(
        sql`${payments.createdAt} < ${new Date(today - 30 * DAY)} and ${payments.refundedAt} is null and ${payments.refundStatus} is null`,
      )
      .orderBy(sql`${payments.createdAt} desc`)
      .limit(1);
    const paidDay = bangkokDayStart(old!.createdAt.getTime());
    const paidBefore = (await dayFigures(paidDay)).totals;
    const todayBefore = (await dayFigures(today)).totals;
    await db
      .update(payments)
      .set({
        refundedAt: new Date(),
        refundAmount: '12.34',
        refundStatus: 'succeeded',
        creditNoteNo: `ROLL-CN-${now}`,
      })
      .where(eq(payments.id, old!.id));
    const paidAfter = (await dayFigures(paidDay)).totals;
    expect(paidAfter.refund).toBeCloseTo(paidBefore.refund + 12.34, 2);
    expect(paidAfter.revenue).toBeCloseTo(paidBefore.revenue - 12.34, 2);
    expect((await dayFigures(today)).totals).toEqual(todayBefore);

    // A booking deleted by staff (unpaid), and one removed from the database.
    const unpaid = await db
      .select()
      .from(bookings)
      .where(
        sql`${bookings.status} = 'stopped' and ${bookings.deletedAt} is null and ${bookings.startTime} < ${new Date(today - 3 * DAY)}`,
      )
      .limit(2);
    const deletedDay = bangkokDayStart(unpaid[0]!.startTime!.getTime());
    const deletedBefore = (await dayFigures(deletedDay)).totals;
    await db.update(bookings).set({ deletedAt: new Date() }).where(eq(bookings.id, unpaid[0]!.id));
    expect((await dayFigures(deletedDay)).totals.sessions).toBe(deletedBefore.sessions - 1);
    const removedDay = bangkokDayStart(unpaid[1]!.startTime!.getTime());
    const removedBefore = (await dayFigures(removedDay)).totals;
    await db.delete(bookings).where(eq(bookings.id, unpaid[1]!.id));
    expect((await dayFigures(removedDay)).totals.sessions).toBe(removedBefore.sessions - 1);

    // A session moved to site C's charger (its site, cluster, charger and connector corrected).
    const [moved] = await db
      .select()
      .from(bookings)
      .where(
        sql`${bookings.landlordId} = ${places[0]!.site.id} and ${bookings.deletedAt} is null and ${bookings.startTime} < ${new Date(today - 3 * DAY)} and ${bookings.energyWh} > 0`,
      )
      .limit(1);
    const movedDay = bangkokDayStart(moved!.startTime!.getTime());
    const energyOf = (answer: StatisticsResponse, landlordId: number) =>
      answer.rows.find((row) => row.key === String(landlordId))?.energyWh ?? 0;
    const movedBefore = await dayFigures(movedDay, 'landlord');
    const c = places[2]!;
    await db
      .update(bookings)
      .set({
        landlordId: c.site.id,
        merchantId: c.merchant.id,
        chargerId: 'ROLL-C1',
        connectorId: connectorIds[connectorIds.length - 1],
      })
      .where(eq(bookings.id, moved!.id));
    const movedAfter = await dayFigures(movedDay, 'landlord');
    expect(energyOf(movedAfter, places[0]!.site.id)).toBe(
      energyOf(movedBefore, places[0]!.site.id) - moved!.energyWh,
    );
    expect(energyOf(movedAfter, c.site.id)).toBe(energyOf(movedBefore, c.site.id) + moved!.energyWh);
    expect(movedAfter.totals).toEqual(movedBefore.totals);

    // A discount code redeemed on a past paid session: the promotion split of its days.
    const [plain] = await db
      .select({ id: bookings.id, userId: bookings.userId, startTime: bookings.startTime })
      .from(bookings)
      .leftJoin(promotionRedemptions, eq(promotionRedemptions.bookingId, bookings.id))
      .where(
        and(
          eq(bookings.status, 'paid'),
          sql`${promotionRedemptions.id} is null and ${bookings.startTime} < ${new Date(today - 3 * DAY)}`,
        ),
      )
      .limit(1);
    await db.insert(promotionRedemptions).values({
      userId: plain!.userId!,
      codeId,
      promotionId,
      bookingId: plain!.id,
      discount: '0.00',
    });

    const dirty = await dirtyDays();
    for (const day of [lateDay, correctedDay, paidDay, deletedDay, removedDay, movedDay]) {
      expect(dirty).toContain(dayOf(day));
    }
    expect(dirty).toContain(dayOf(plain!.startTime!.getTime()));
    expect(dirty).not.toContain(dayOf(today));
    // Exact while dirty (live for those days)…
    await expectRollupsExact();
    // … and once the job recomputed them.
    const answers = await Promise.all(queries().map(([scope, q]) => statistics(db, scope, q, now)));
    expect(await t.app.jobs.rollupStatistics()).toBe(dirty.length);
    expect(await dirtyDays()).toEqual([]);
    expect(await db.$count(statisticsMonths)).toBeGreaterThan(0);
    await expectRollupsExact();
    expect(await Promise.all(queries().map(([scope, q]) => statistics(db, scope, q, now)))).toEqual(answers);
  });

  it('clears a mark only if no change came while the day was recomputed', async () => {
    const [booking] = await db
      .select()
      .from(bookings)
      .where(sql`${bookings.startTime} < ${new Date(today - 15 * DAY)} and ${bookings.deletedAt} is null`)
      .orderBy(sql`${bookings.startTime} desc`)
      .limit(1);
    const day = bangkokDayStart(booking!.startTime!.getTime());
    const touch = () =>
      db
        .update(bookings)
        .set({ energyWh: sql`${bookings.energyWh} + 1` })
        .where(eq(bookings.id, booking!.id));
    await touch();
    const [first] = await db
      .select()
      .from(statisticsDirtyDays)
      .where(eq(statisticsDirtyDays.day, dayOf(day)));
    expect(first).toBeDefined();
    // A second change re-marks the day with a new number: a job that read the first one leaves it.
    await touch();
    const [second] = await db
      .select()
      .from(statisticsDirtyDays)
      .where(eq(statisticsDirtyDays.day, dayOf(day)));
    expect(second!.mark).toBeGreaterThan(first!.mark);
    await db
      .delete(statisticsDirtyDays)
      .where(and(eq(statisticsDirtyDays.day, first!.day), eq(statisticsDirtyDays.mark, first!.mark)));
    expect(await dirtyDays()).toEqual([dayOf(day)]);
    await expectRollupsExact();
    expect(await t.app.jobs.rollupStatistics()).toBe(1);
    expect(await dirtyDays()).toEqual([]);
  });
});
