import { isDeepStrictEqual } from 'node:util';
import type { Database } from '@ev/server/db/client';
import { openDatabase } from '@ev/server/db/client';
import {
  bookingEvents,
  bookings,
  chargingSessions,
  connectors,
  documentCounters,
  idTags,
  payments,
  pointLedger,
  pointRates,
  promotionCodes,
  promotionLandlords,
  promotionRedemptions,
  promotions,
  users,
} from '@ev/server/db/schema/index';
import { verifyPassword } from '@ev/server/lib/password';
import { storedTotal } from '@ev/server/modules/booking/booking.service';
import { overridesOf, priceColumns, priceOf } from '@ev/server/modules/booking/booking-pricing';
import { nextDocumentNumber } from '@ev/server/modules/payment/settlement';
import { ensureFirstAdmin } from '@ev/server/seed/first-admin';
import {
  BOOKING_STATUSES,
  type BookingActor,
  type BookingEvent,
  type BookingStatus,
  bangkokYear,
  cardInForce,
  discountSatang,
  earnedPoints,
  fromSatang,
  nextStatus,
  PAYMENT_METHODS,
  type PlanSnapshot,
  type PointCard,
  redeemSatang,
  toSatang,
} from '@ev/shared';
import { asc, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_HISTORY } from './demo-bookings.ts';
import { DEMO_PASSWORD, loadDemoData } from './demo-data.ts';
import { generateHistory, type HistoryInput } from './demo-history.ts';
import { DEMO_MEMBERS } from './demo-people.ts';
import { createScratchDatabase, type ScratchDatabase } from './scratch-database.ts';
import { chargersAtLimitedSites } from './simulator-fleet.ts';

/**
 * The demo history on a fresh database (PGlite in memory, or a scratch database when DATABASE_URL is set), as
 * `npm start` loads it: its size and mix, prices that are priceSession's, gapless documents, and rows that hold
 * together (the loader skips the foreign-key triggers where it may, so the joins are checked here).
 */
let database: Database;
let scratch: ScratchDatabase | null = null;
const loadedAt = Date.now();
type Row = typeof bookings.$inferSelect;
let rows: Row[];
type Payment = typeof payments.$inferSelect;
/** Each paid booking's payment. */
let paymentOf: Map<number, Payment>;

beforeAll(async () => {
  scratch = process.env.DATABASE_URL
    ? await createScratchDatabase(process.env.DATABASE_URL, 'ev_demo')
    : null;
  database = await openDatabase(scratch ? { databaseUrl: scratch.url } : {});
  await ensureFirstAdmin(database.db, 'admin@example.com', 'Admin1234');
  const loaded = await loadDemoData(database.db, { history: true });
  expect(loaded?.summary).toMatch(/bookings over 90 days/);
  rows = await database.db.select().from(bookings).orderBy(asc(bookings.id));
  paymentOf = new Map((await database.db.select().from(payments)).map((p) => [p.bookingId, p]));
}, 240_000);
afterAll(async () => {
  await database?.close();
  await scratch?.drop();
});

const count = async (query: ReturnType<typeof sql>) => {
  const result = (await database.db.execute(query)) as unknown as { rows: Array<{ n: number | string }> };
  return Number(result.rows[0]!.n);
};

describe('the demo booking history', () => {
  it('has about 20,000 bookings over 90 days, in every status the history can hold, by every payment method', async () => {
    expect(rows.length).toBeGreaterThan(19_000);
    expect(rows.length).toBeLessThan(21_000);
    const oldest = Math.min(...rows.map((row) => row.createdAt.getTime()));
    expect(loadedAt - oldest).toBeGreaterThan(88 * 86_400_000);
    const statuses = new Set(rows.map((row) => row.status));
    // No live charging or charged booking: the simulated chargers hold no such transaction (the member
    // simulator makes them live). A charging one exists deleted by an admin.
    expect([...statuses].sort()).toEqual(BOOKING_STATUSES.filter((s) => s !== 'charged').sort());
    expect(rows.filter((row) => row.status === 'charging').every((row) => row.deletedAt)).toBe(true);
    expect(rows.filter((row) => row.status === 'stopped' && !row.deletedAt).length).toBeGreaterThanOrEqual(3);
    expect(rows.some((row) => row.deletedAt && row.status === 'created')).toBe(true);
    const methods = await database.db.select({ method: payments.method }).from(payments);
    expect(new Set(methods.map((p) => p.method))).toEqual(new Set(PAYMENT_METHODS));
    expect(rows.filter((row) => row.status === 'paid').length / rows.length).toBeGreaterThan(0.85);
    expect(rows.some((row) => row.adminAmount !== null)).toBe(true);
    expect(rows.some((row) => row.adminPriceByPenalty !== null)).toBe(true);
    expect(rows.some((row) => row.fullAt !== null && row.connectorTypeId === 4)).toBe(true);
    expect(rows.some((row) => Number(row.priceByPenalty) > 0)).toBe(true);
  });

  it('holds together: every reference resolves, times run in order, energy fits the connector', async () => {
    const orphans = await count(sql`select
      (select count(*) from bookings b where not exists (select 1 from users u where u.id = b.user_id))
      + (select count(*) from bookings b where not exists (select 1 from connectors c where c.id = b.connector_id and c.charger_id = b.charger_id))
      + (select count(*) from bookings b where b.session_id is not null and not exists (select 1 from charging_sessions s where s.id = b.session_id and s.connector_id = b.connector_id))
      + (select count(*) from booking_events e where not exists (select 1 from bookings b where b.id = e.booking_id))
      + (select count(*) from payments p where not exists (select 1 from bookings b where b.id = p.booking_id and b.user_id = p.user_id))
      as n`);
    expect(orphans).toBe(0);
    const power = new Map(
      (await database.db.select({ id: connectors.id, kw: connectors.maxPowerKw }).from(connectors)).map(
        (c) => [c.id, Number(c.kw)],
      ),
    );
    const faults: string[] = [];
    for (const row of rows) {
      const times = [row.createdAt, row.startTime, row.fullAt, row.stopTime, row.avaliableAt, row.paidAt]
        .filter((time): time is Date => time !== null)
        .map((time) => time.getTime());
      if (times.some((time, index) => index > 0 && time < times[index - 1]!)) faults.push(`${row.id} times`);
      if (times.some((time) => time > loadedAt)) faults.push(`${row.id} in the future`);
      if (row.startTime && row.stopTime) {
        const hours = (row.stopTime.getTime() - row.startTime.getTime()) / 3_600_000;
        if (hours < 0.25 || hours > 3) faults.push(`${row.id} lasts ${hours} h`);
      }
      // No more energy than the connector's maximum power over the charging time: to the stop, to the delete
      // of one deleted while charging, and to the full battery (a full car takes nothing more).
      const ended = row.stopTime ?? (row.status === 'charging' ? row.deletedAt : null);
      for (const [what, end] of [
        ['energy', ended],
        ['energy before full', row.fullAt],
      ] as const) {
        if (!row.startTime || !end) continue;
        const hours = (end.getTime() - row.startTime.getTime()) / 3_600_000;
        if (row.energyWh > power.get(row.connectorId)! * hours * 1000) faults.push(`${row.id} ${what}`);
      }
    }
    // The OCPP transactions too: their meter's rise over their own times.
    for (const session of await database.db.select().from(chargingSessions)) {
      const hours = (session.stoppedAt!.getTime() - session.startedAt.getTime()) / 3_600_000;
      const wh = session.meterStopWh! - session.meterStartWh;
      if (wh < 0 || wh > power.get(session.connectorId!)! * hours * 1000)
        faults.push(`session ${session.id}`);
    }
    expect(faults).toEqual([]);
    // One open booking per member, as reserve allows.
    const open = rows.filter(
      (row) =>
        ['created', 'started', 'charging', 'charged', 'stopped'].includes(row.status) && !row.deletedAt,
    );
    expect(new Set(open.map((row) => row.userId)).size).toBe(open.length);
  });

  it('prices every booking as priceSession does from its plan snapshot, night windows at the night rate', () => {
    const priced = rows.filter((row) => row.totalAmount !== null);
    expect(priced.length).toBeGreaterThan(18_000);
    const wrong = priced.filter((row) => {
      const expected = priceColumns(priceOf(row), overridesOf(row));
      // A paid booking's total is its payment's amount: the price less the discount and the points.
      const paid = paymentOf.get(row.id);
      const total = paid
        ? fromSatang(toSatang(row.totalAmount!) + toSatang(paid.discountAmount) + toSatang(paid.pointAmount))
        : row.totalAmount;
      return (
        expected.priceByPower !== row.priceByPower ||
        expected.priceByDuration !== row.priceByDuration ||
        expected.priceByPenalty !== row.priceByPenalty ||
        expected.totalAmount !== total ||
        !isDeepStrictEqual(expected.priceDetail, row.priceDetail)
      );
    });
    expect(wrong.map((row) => row.id)).toEqual([]);

    // Energy plans with a night window: a session wholly inside it pays the night rate per kWh. The rate in
    // force each minute is read off the snapshot here, independently of pricing.ts.
    const rateAt = (plan: PlanSnapshot, at: number) => {
      const local = new Date(at + 7 * 3_600_000).toISOString();
      const wall = `${local.slice(0, 10)} ${local.slice(11, 16)}`;
      const dated = plan.overrides.find((w) => w.validFrom <= wall && wall <= w.validTo);
      const day = new Date(at + 7 * 3_600_000).getUTCDay() + 1;
      const time = local.slice(11, 16);
      const weekly = plan.overrideWeekdays.find(
        (w) => w.dayOfWeek === day && w.validTimeFrom <= time && time <= w.validTimeTo,
      );
      return (dated ?? weekly ?? plan).bahtPerKwh;
    };
    let nights = 0;
    for (const row of priced) {
      const plan = row.priceSnapshot as PlanSnapshot;
      if (plan.method !== 'KW' || row.adminPriceByPower !== null || row.energyWh === 0) continue;
      const [start, stop] = [row.startTime!.getTime(), row.stopTime!.getTime()];
      const rate = rateAt(plan, start);
      if (rate === plan.bahtPerKwh) continue;
      let same = true;
      for (let at = start; at < stop && same; at += 60_000) same = rateAt(plan, at) === rate;
      if (!same || rateAt(plan, stop - 1) !== rate) continue;
      nights++;
      const satang = Math.round((row.energyWh * Math.round(rate * 100)) / 1000);
      expect(Math.round(Number(row.priceByPower) * 100), `booking ${row.id}`).toBe(satang);
    }
    expect(nights).toBeGreaterThan(20);
  });

  it('numbers invoices and credit notes without gaps per Bangkok year in payment order; the next live one follows', async () => {
    const paid = await database.db.select().from(payments).orderBy(asc(payments.createdAt), asc(payments.id));
    expect(paid.length).toBe(rows.filter((row) => row.status === 'paid').length);
    const check = (documents: Array<{ no: string; at: Date }>, prefix: string) => {
      const last = new Map<number, number>();
      for (const { no, at } of documents) {
        const year = bangkokYear(at);
        const next = (last.get(year) ?? 0) + 1;
        expect(no).toBe(`${prefix}-${year}-${String(next).padStart(6, '0')}`);
        last.set(year, next);
      }
      return last;
    };
    const invoices = check(
      paid.map((p) => ({ no: p.invoiceNo, at: p.createdAt })),
      'INV',
    );
    const refunds = paid
      .filter((p) => p.refundedAt)
      .sort((a, b) => a.refundedAt!.getTime() - b.refundedAt!.getTime());
    expect(refunds.length).toBeGreaterThan(50);
    expect(
      refunds.every((p) => p.refundStatus === 'manual' && Number(p.refundAmount) <= Number(p.amount)),
    ).toBe(true);
    expect(refunds.some((p) => p.method === 'qr' || p.method === 'zero')).toBe(false);
    const notes = check(
      refunds.map((p) => ({ no: p.creditNoteNo!, at: p.refundedAt! })),
      'CN',
    );
    const counters = await database.db.select().from(documentCounters);
    for (const [year, last] of invoices) expect(counters).toContainEqual({ kind: 'invoice', year, last });
    for (const [year, last] of notes) expect(counters).toContainEqual({ kind: 'credit-note', year, last });

    // Each payment is the booking's total, by its method; a free session is zero.
    const byId = new Map(rows.map((row) => [row.id, row]));
    for (const payment of paid) {
      const row = byId.get(payment.bookingId)!;
      expect([payment.amount, payment.method]).toEqual([row.totalAmount, row.paymentMethod]);
      expect(payment.method === 'zero').toBe(Number(payment.amount) === 0);
    }

    const now = new Date();
    let taken = '';
    await database.db
      .transaction(async (tx) => {
        taken = await nextDocumentNumber(tx, 'invoice', now);
        throw new Error('roll back');
      })
      .catch(() => undefined);
    const year = bangkokYear(now);
    expect(taken).toBe(`INV-${year}-${String((invoices.get(year) ?? 0) + 1).padStart(6, '0')}`);
  });

  it("writes the last 14 days' events as the transition table allows them, ending in the booking's status", async () => {
    const events = await database.db
      .select()
      .from(bookingEvents)
      .orderBy(asc(bookingEvents.bookingId), asc(bookingEvents.at), asc(bookingEvents.id));
    const byBooking = new Map<number, typeof events>();
    for (const event of events)
      byBooking.set(event.bookingId, [...(byBooking.get(event.bookingId) ?? []), event]);
    const recent = rows.filter(
      (row) => row.createdAt.getTime() >= loadedAt - DEMO_HISTORY.detailDays * 86_400_000,
    );
    expect(recent.length).toBeGreaterThan(2_000);
    expect([...byBooking.keys()].sort((a, b) => a - b)).toEqual(recent.map((row) => row.id));
    const seen = new Set<string>();
    for (const row of recent) {
      let status: BookingStatus | null = null;
      for (const event of byBooking.get(row.id)!) {
        seen.add(event.event);
        // Recorded-only events (remote-start, stop, full, refund…) keep the status. A late stop is recorded
        // as the charger says it, whatever the status (onStopTransaction), a deleted charging one included.
        const next: BookingStatus | null =
          event.event === 'late-stop'
            ? status
            : nextStatus(status, event.event as BookingEvent, event.actor as BookingActor);
        expect([event.fromStatus, event.toStatus], `booking ${row.id} ${event.event}`).toEqual([
          status,
          next,
        ]);
        status = next;
      }
      expect(status, `booking ${row.id}`).toBe(row.status);
    }
    for (const event of [
      'reserve',
      'check-in',
      'charger-start',
      'charger-stop',
      'connector-available',
      'pay',
    ]) {
      expect(seen).toContain(event);
    }
    expect(seen).toContain('refund');
    expect(seen).toContain('walk-in');
  });

  it('lets the demo members sign in with the demo password, each with an app id tag', async () => {
    const members = await database.db
      .select({ email: users.email, passHash: users.passHash, idTag: idTags.idTag })
      .from(users)
      .leftJoin(idTags, eq(idTags.userId, users.id))
      .where(eq(users.type, 'mobile'));
    expect(members.length).toBe(DEMO_MEMBERS.length);
    expect(members.every((member) => /^APP[0-9A-F]{16}$/.test(member.idTag ?? ''))).toBe(true);
    expect(await verifyPassword(DEMO_PASSWORD, members[0]!.passHash)).toBe(true);
  });
});

describe('generateHistory', () => {
  const input = (seed: number): HistoryInput => ({
    now: Date.UTC(2027, 0, 20, 5),
    days: 30,
    count: 800,
    seed,
    connectors: [1, 2, 3, 4].map((id) => ({
      id,
      chargerId: `C-${id}`,
      ocppConnectorId: 1,
      connectorTypeId: id % 2 ? 4 : 2,
      kw: id % 2 ? 120 : 22,
      merchantId: 1,
      landlordId: 1,
      priceId: 1,
      hours: null,
    })),
    members: Array.from({ length: 30 }, (_, i) => ({ id: i + 1, idTag: `TAG${i}`, active: i !== 3 })),
    staff: { admin: 100, callcenter: 101 },
    plans: new Map([
      [
        1,
        {
          method: 'KW',
          calculateMethod: 'BAHT_HRS',
          bahtPerKwh: 7.5,
          bahtPerHour: 0,
          penaltyBahtPerMin: 10,
          penaltyDCFullBahtPerMin: 5,
          penaltyDCFullDelayMin: 15,
          overrideWeekdays: [],
          // New Year at 5.99 a kWh, as the demo's DC plan has it.
          overrides: [
            { validFrom: '2026-12-31 00:00', validTo: '2027-01-01 23:59', bahtPerKwh: 5.99, bahtPerHour: 0 },
          ],
        } satisfies PlanSnapshot,
      ],
    ]),
  });

  it('is the same history for the same seed and another for another seed', () => {
    const strip = (history: ReturnType<typeof generateHistory>) =>
      JSON.stringify(history.map(({ connector, member, ...rest }) => [connector.id, member?.id, rest]));
    expect(strip(generateHistory(input(7)))).toBe(strip(generateHistory(input(7))));
    expect(strip(generateHistory(input(7)))).not.toBe(strip(generateHistory(input(8))));
  });

  it("never gives a session more energy than its connector's power over its charging time", () => {
    // Connectors from a 3.7 kW wallbox to a 350 kW HPC, AC and DC, over several seeds.
    const kws = [3.7, 7.4, 11, 22, 50, 60, 120, 180, 350];
    const base = input(0);
    let sessions = 0;
    for (const seed of [1, 2, 3]) {
      const history = generateHistory({
        ...base,
        seed,
        connectors: kws.map((kw, index) => ({
          ...base.connectors[0]!,
          id: index + 1,
          chargerId: `C-${index + 1}`,
          connectorTypeId: kw <= 22 ? 2 : 4,
          kw,
        })),
      });
      for (const booking of history) {
        if (booking.startTime === null) continue;
        sessions++;
        const most = (to: number | null) =>
          to === null ? Number.POSITIVE_INFINITY : (booking.connector.kw * (to - booking.startTime!)) / 3600;
        // A booking deleted while charging ends at its deletion; a full battery takes nothing after fullAt.
        const end = booking.stopTime ?? booking.deletedAt;
        expect(end, `booking at ${booking.startTime}`).not.toBeNull();
        expect(booking.energyWh).toBeLessThanOrEqual(most(end));
        expect(booking.energyWh).toBeLessThanOrEqual(most(booking.fullAt));
        const session = booking.session;
        if (session?.stoppedAt != null) {
          expect(session.energyWh).toBeLessThanOrEqual(
            (booking.connector.kw * (session.stoppedAt - session.startedAt)) / 3600,
          );
        }
      }
    }
    expect(sessions).toBeGreaterThan(1500);
  });

  it('prices a session on a holiday at the holiday rate', () => {
    const history = generateHistory(input(7));
    const newYear = history.filter(
      (booking) =>
        booking.price &&
        booking.energyWh > 0 &&
        booking.startTime! >= Date.UTC(2026, 11, 30, 17) &&
        booking.stopTime! < Date.UTC(2027, 0, 1, 17) &&
        !booking.overrides.priceByPower,
    );
    expect(newYear.length).toBeGreaterThan(5);
    for (const booking of newYear) {
      expect(booking.price!.computed.byPower).toBe(Math.round((booking.energyWh * 599) / 1000));
    }
  });
});

describe('the demo promotions (issue 21)', () => {
  it('has every type, single and multi-code, some codes spent, one expired and one switched off', async () => {
    const all = await database.db.select().from(promotions);
    expect(new Set(all.map((p) => p.type))).toEqual(new Set(['discount', 'point', 'landlord']));
    expect(all.some((p) => p.count === 1) && all.some((p) => p.count > 1)).toBe(true);
    expect(all.some((p) => p.validTo.getTime() < loadedAt)).toBe(true);
    expect(all.some((p) => !p.active)).toBe(true);
    expect(all.filter((p) => p.type === 'landlord' && p.internal)).toHaveLength(2);
    // Each code's uses are its redemptions.
    const mismatched = await count(sql`
      select count(*) as n from ${promotionCodes} c
      where c.used <> (select count(*) from ${promotionRedemptions} r where r.code_id = c.id)`);
    expect(mismatched).toBe(0);
    expect(await count(sql`select count(*) as n from ${promotionCodes} where used > 0`)).toBeGreaterThan(10);
    expect(
      await count(sql`select count(*) as n from ${promotionRedemptions} where license_plate is not null`),
    ).toBe(9);
  });

  it('keeps every member’s points the sum of their ledger, and one point card in force', async () => {
    const off = await count(sql`
      select count(*) as n from ${users} u
      where u.point <> coalesce((select sum(points) from ${pointLedger} l where l.user_id = u.id), 0)`);
    expect(off).toBe(0);
    expect(await count(sql`select count(*) as n from ${pointLedger}`)).toBeGreaterThan(0);
    const cards = await database.db.select().from(pointRates).orderBy(asc(pointRates.validFrom));
    expect(cards.map((card) => card.validFrom.getTime() <= loadedAt)).toEqual([true, true, false]);
  });
});

describe('the demo green points and discount codes of the history (issue 21)', () => {
  type Entry = typeof pointLedger.$inferSelect;
  let ledger: Entry[];
  let bySource: Map<string, Entry>;
  let cards: Array<PointCard & { id: number; validFrom: Date }>;
  const cardAt = (at: Date) => cardInForce(cards, at);
  beforeAll(async () => {
    ledger = await database.db.select().from(pointLedger).orderBy(asc(pointLedger.id));
    bySource = new Map(ledger.map((entry) => [entry.source, entry]));
    cards = (await database.db.select().from(pointRates)).map((card) => ({
      ...card,
      fromBaht: Number(card.fromBaht),
      toPoint: Number(card.toPoint),
      fromPoint: Number(card.fromPoint),
      toBaht: Number(card.toBaht),
    }));
  });

  it('keeps every balance the sum of its ledger, never below 0 at any time, the ledger in time order', async () => {
    const members = await database.db
      .select({ id: users.id, point: users.point })
      .from(users)
      .where(eq(users.type, 'mobile'));
    const running = new Map<number, number>();
    const faults: string[] = [];
    for (const [index, entry] of ledger.entries()) {
      // Ids follow time: the member's latest entries are the newest.
      if (index > 0 && entry.createdAt < ledger[index - 1]!.createdAt) faults.push(`${entry.source} order`);
      const balance = (running.get(entry.userId) ?? 0) + entry.points;
      if (balance < 0) faults.push(`${entry.source}: ${balance}`);
      running.set(entry.userId, balance);
    }
    expect(faults).toEqual([]);
    expect(members.map((m) => [m.id, m.point])).toEqual(members.map((m) => [m.id, running.get(m.id) ?? 0]));
    expect(members.filter((m) => m.point > 0).length).toBeGreaterThan(members.length / 2);
  });

  it('gives each paid payment the points its amount earns by the card in force then, in one earn entry', () => {
    const faults: string[] = [];
    let earning = 0;
    for (const payment of paymentOf.values()) {
      const card = cardAt(payment.createdAt)!;
      const expected = earnedPoints(toSatang(payment.amount), card);
      const entry = bySource.get(`payment:${payment.id}:earn`);
      if (payment.pointEarned !== expected || payment.pointRateId !== card.id)
        faults.push(`${payment.id} earned`);
      if (payment.pointEarned > 0 !== (entry !== undefined)) faults.push(`${payment.id} earn entry`);
      if (entry) {
        earning++;
        const same =
          entry.kind === 'earn' &&
          entry.points === payment.pointEarned &&
          entry.paymentId === payment.id &&
          entry.userId === payment.userId &&
          entry.createdAt.getTime() === payment.createdAt.getTime();
        if (!same) faults.push(`${payment.id} earn entry ${JSON.stringify(entry)}`);
      }
    }
    expect(faults).toEqual([]);
    // The earn entries are the payments' and the opening balances'.
    const earns = ledger.filter((entry) => entry.kind === 'earn');
    expect(earns.length).toBe(
      earning + earns.filter((entry) => entry.source.startsWith('demo:opening:')).length,
    );
    // Both cards of the 90 days earned: the older one (30 baht a point) and the one in force.
    expect(new Set([...paymentOf.values()].map((p) => p.pointRateId)).size).toBe(2);
  });

  it('takes the discount and the points off the booking total: amount + discount + points is the price', () => {
    const byId = new Map(rows.map((row) => [row.id, row]));
    const faults: string[] = [];
    let [spent, discounted] = [0, 0];
    for (const payment of paymentOf.values()) {
      const row = byId.get(payment.bookingId)!;
      const [amount, discount, point] = [
        toSatang(payment.amount),
        toSatang(payment.discountAmount),
        toSatang(payment.pointAmount),
      ];
      if (amount + discount + point !== storedTotal(row)) faults.push(`${payment.id} sum`);
      if (row.totalAmount !== payment.amount) faults.push(`${payment.id} booking total`);
      if (payment.pointUsed > 0) {
        spent++;
        const card = cardAt(payment.createdAt)!;
        if (point !== redeemSatang(payment.pointUsed, card)) faults.push(`${payment.id} points' worth`);
        const entry = bySource.get(`demo:payment:${payment.id}:redeem`);
        if (
          entry?.kind !== 'redeem' ||
          entry.points !== -payment.pointUsed ||
          entry.userId !== payment.userId ||
          entry.createdAt.getTime() !== payment.createdAt.getTime()
        )
          faults.push(`${payment.id} redeem entry`);
        if (payment.createdBy !== null) faults.push(`${payment.id} points on a staff payment`);
      } else if (point !== 0) faults.push(`${payment.id} point amount`);
      if (discount > 0) discounted++;
      // Nothing adjusted is left at 0: a zero payment is a free session.
      if ((payment.method === 'zero') !== (amount === 0)) faults.push(`${payment.id} zero`);
    }
    expect(faults).toEqual([]);
    expect(ledger.filter((entry) => entry.kind === 'redeem').length).toBe(spent);
    // A few percent of the payments.
    expect(spent).toBeGreaterThan(100);
    expect(spent / paymentOf.size).toBeLessThan(0.06);
    expect(discounted).toBeGreaterThan(50);
    expect(discounted / paymentOf.size).toBeLessThan(0.06);
  });

  it("writes each discount as its code's redemption on the booking and payment, within the code's uses", async () => {
    const redemptions = await database.db
      .select({ redemption: promotionRedemptions, promotion: promotions })
      .from(promotionRedemptions)
      .innerJoin(promotions, eq(promotions.id, promotionRedemptions.promotionId))
      .where(eq(promotions.type, 'discount'));
    const byId = new Map(rows.map((row) => [row.id, row]));
    const sites = new Set(
      (await database.db.select().from(promotionLandlords)).map((s) => `${s.promotionId}:${s.landlordId}`),
    );
    const faults: string[] = [];
    for (const { redemption, promotion } of redemptions) {
      const payment = paymentOf.get(redemption.bookingId!);
      const row = byId.get(redemption.bookingId!)!;
      const expected = discountSatang(storedTotal(row), {
        discountPercent: Number(promotion.discountPercent),
        discountBaht: Number(promotion.discountBaht),
      });
      const at = redemption.createdAt.getTime();
      const fits =
        payment !== undefined &&
        redemption.paymentId === payment.id &&
        redemption.userId === payment.userId &&
        redemption.discount === payment.discountAmount &&
        toSatang(payment.discountAmount) === expected &&
        promotion.active &&
        (!promotion.internal || sites.has(`${promotion.id}:${row.landlordId}`)) &&
        at >= promotion.validFrom.getTime() &&
        at <= promotion.validTo.getTime() &&
        at >= row.createdAt.getTime() &&
        at <= payment.createdAt.getTime();
      if (!fits) faults.push(JSON.stringify(redemption));
    }
    expect(faults).toEqual([]);
    const discounted = [...paymentOf.values()].filter((p) => toSatang(p.discountAmount) > 0);
    expect(redemptions.length).toBe(discounted.length);
    expect(new Set(redemptions.map((r) => r.promotion.code)).size).toBeGreaterThanOrEqual(2);
    // Every code's uses are its redemptions (the other test), and never more than its total.
    expect(
      await count(sql`select count(*) as n from ${promotionCodes} where total is not null and used > total`),
    ).toBe(0);
  });

  it('takes back the points a refunded part earned, at most the balance, and gives back those of a full refund', () => {
    /** A member's balance at an instant: their entries up to it, the one named left out. */
    const balanceAt = (userId: number, at: Date, leaving: string) =>
      ledger
        .filter((e) => e.userId === userId && e.createdAt <= at && e.source !== leaving)
        .reduce((sum, e) => sum + e.points, 0);
    const refunded = [...paymentOf.values()].filter((p) => p.refundedAt);
    const faults: string[] = [];
    let takenBack = 0;
    for (const payment of refunded) {
      const [paid, refund] = [toSatang(payment.amount), toSatang(payment.refundAmount!)];
      const returned = bySource.get(`refund:${payment.id}:redeem`);
      const full = refund >= paid && payment.pointUsed > 0;
      if (full !== (returned !== undefined) || (returned && returned.points !== payment.pointUsed))
        faults.push(`${payment.id} returned`);
      const card = cards.find((c) => c.id === payment.pointRateId)!;
      const owed = payment.pointEarned - earnedPoints(paid - refund, card);
      const source = `refund:${payment.id}:earn`;
      const balance = balanceAt(payment.userId!, payment.refundedAt!, source);
      const expected = Math.min(owed, balance);
      const entry = bySource.get(source);
      if ((entry?.points ?? 0) !== -expected)
        faults.push(`${payment.id} took ${entry?.points} not ${-expected}`);
      if (entry && (entry.kind !== 'reversal' || entry.createdAt.getTime() !== payment.refundedAt!.getTime()))
        faults.push(`${payment.id} entry`);
      if (expected > 0) takenBack++;
    }
    expect(faults).toEqual([]);
    expect(takenBack).toBeGreaterThan(refunded.length / 2);
  });
});

describe('the demo power limits', () => {
  it('limit two sites on three phases at 230 V, one tight for its chargers and one generous; the members favour their chargers', async () => {
    const result = (await database.db.execute(sql`
      select l.name_en as name, l.max_power_kw::float8 as limit_kw, l.phases, l.voltage,
        sum(k.max_power_kw)::float8 as chargers_kw, array_agg(distinct c.id order by c.id) as chargers
      from landlords l
      join chargers c on c.landlord_id = l.id and c.active
      join connectors k on k.charger_id = c.id
      where l.max_power_kw is not null
      group by l.id order by l.name_en`)) as unknown as {
      rows: Array<{
        name: string;
        limit_kw: number;
        phases: number;
        voltage: number;
        chargers_kw: number;
        chargers: string[];
      }>;
    };
    expect(result.rows.map((r) => [r.name, r.limit_kw, r.phases, r.voltage, r.chargers_kw])).toEqual([
      ['Golden Lotus Nimman', 30, 3, 230, 113],
      ['Ratchaprasong Plaza Car Park P3', 150, 3, 230, 446],
    ]);
    expect([...(await chargersAtLimitedSites(database.db))].sort()).toEqual(
      result.rows.flatMap((r) => r.chargers).sort(),
    );
  });
});
