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
  promotionRedemptions,
  promotions,
  users,
} from '@ev/server/db/schema/index';
import { verifyPassword } from '@ev/server/lib/password';
import { overridesOf, priceColumns, priceOf } from '@ev/server/modules/booking/booking-pricing';
import { nextDocumentNumber } from '@ev/server/modules/payment/settlement';
import { ensureFirstAdmin } from '@ev/server/seed/first-admin';
import {
  BOOKING_STATUSES,
  type BookingActor,
  type BookingEvent,
  type BookingStatus,
  bangkokYear,
  nextStatus,
  PAYMENT_METHODS,
  type PlanSnapshot,
} from '@ev/shared';
import { asc, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_HISTORY } from './demo-bookings.ts';
import { DEMO_PASSWORD, loadDemoData } from './demo-data.ts';
import { generateHistory, type HistoryInput } from './demo-history.ts';
import { DEMO_MEMBERS } from './demo-people.ts';
import { createScratchDatabase, type ScratchDatabase } from './scratch-database.ts';

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

beforeAll(async () => {
  scratch = process.env.DATABASE_URL
    ? await createScratchDatabase(process.env.DATABASE_URL, 'ev_demo')
    : null;
  database = await openDatabase(scratch ? { databaseUrl: scratch.url } : {});
  await ensureFirstAdmin(database.db, 'admin@example.com', 'Admin1234');
  const loaded = await loadDemoData(database.db, { history: true });
  expect(loaded?.summary).toMatch(/bookings over 90 days/);
  rows = await database.db.select().from(bookings).orderBy(asc(bookings.id));
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
      return (
        expected.priceByPower !== row.priceByPower ||
        expected.priceByDuration !== row.priceByDuration ||
        expected.priceByPenalty !== row.priceByPenalty ||
        expected.totalAmount !== row.totalAmount ||
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
