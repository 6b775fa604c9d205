import { discountSatang, MEMBER_PAYMENT_METHODS, redeemSatang, toSatang } from '@ev/shared';
import { type MemberSimulatorOptions, startMemberSimulator } from '@ev/tools/member-simulator';
import type { SimulatorEvent } from '@ev/tools/simulator';
import { fleetFromDatabase } from '@ev/tools/simulator-fleet';
import { and, eq, like } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  bookings,
  connectors,
  payments,
  pointLedger,
  pointRates,
  promotionRedemptions,
  users,
} from '../../src/db/schema/index.ts';
import { storedTotal } from '../../src/modules/booking/booking.service.ts';
import { movePoints } from '../../src/modules/promotion/redeem.ts';
import { createBooking } from '../helpers/bookings.ts';
import { createUser, login } from '../helpers/factories.ts';
import { chargerPlace, createChargers, eventually, simulate } from '../helpers/ocpp.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';

/**
 * The demo's member simulator against a real server over HTTP and OCPP, with short steps: a member's booking
 * goes from reserved to paid through the member API and a simulated charger, with no more energy than the
 * connector's power over the charging time; a member may leave the cable in (the booking stays Charged);
 * staff's Stop, Force stop and Avaliable from the back-office are coped with; the chargers' random activity
 * keeps off a member's connector; members redeem homepage codes and pay partly with green points.
 */
let t: TestApp;
let staff: { email: string; pass: string };
let adminToken: string;
let simulation: Awaited<ReturnType<typeof simulate>>;
const seen: SimulatorEvent[] = [];
let running: { stop(): Promise<void> } | null = null;

beforeAll(async () => {
  t = await startTestApp({ OCPP_COMMAND_TIMEOUT_MS: '3000' });
  const admin = await createUser(t, { role: 'admin' });
  staff = { email: admin.email, pass: admin.pass };
  adminToken = await login(t, admin.email, admin.pass);
  const place = await chargerPlace(t);
  await createChargers(t, adminToken, place, ['MEMBERS-01'], { connectors: 2 });
  // The fleet as the demo reads it: each connector with its maximum power (60 kW, a DC brand).
  const fleet = await fleetFromDatabase(t.database.db);
  expect(fleet).toEqual([{ id: 'MEMBERS-01', connectors: 2, maxPowerKw: [60, 60], powerType: 'DC' }]);
  // Random activity on, fast: it must never touch the connector a member holds.
  simulation = await simulate(t, fleet, {
    activity: true,
    activityMs: 150,
    onEvent: (event) => seen.push(event),
  });
});
afterEach(async () => {
  await running?.stop();
  running = null;
});
afterAll(async () => {
  await simulation?.stop();
  await t.close();
});

/**
 * Starts the simulator for these members with short steps; the defaults make one plain journey. `prepare`
 * runs on the new members before the simulator starts.
 */
async function members(
  count: number,
  options: Partial<MemberSimulatorOptions> = {},
  prepare?: (list: Array<{ email: string; pass: string; id: number }>) => Promise<void>,
) {
  const list = [];
  for (let n = 0; n < count; n++) {
    const user = await createUser(t, { type: 'mobile' });
    list.push({ email: user.email, pass: user.pass, id: user.id });
  }
  await prepare?.(list);
  const logs: string[] = [];
  const simulator = startMemberSimulator({
    baseUrl: t.url,
    simulation,
    members: list,
    staff,
    everyMs: 200,
    stepMs: 150,
    meterMs: 150,
    readings: [3, 3],
    fillShare: 0,
    appStopShare: 1,
    staffStopShare: 0,
    forceStopShare: 0,
    neverPayShare: 0,
    leaveInShare: 0,
    discountShare: 0,
    spendShare: 0,
    log: (message) => logs.push(message),
    ...options,
  });
  running = simulator;
  current = { logs, stats: simulator.stats };
  return { list, logs, simulator };
}
/** The running simulator's log and counts, for a failure's message. */
let current: { logs: string[]; stats: object } = { logs: [], stats: {} };

/** A member's bookings of today, newest first (the list's userName filter, then exactly theirs). */
const bookingsOf = async (member: { id: number; email: string }) =>
  (
    await t.call('GET', `/api/booking?size=50&userName=${encodeURIComponent(member.email)}`, {
      token: adminToken,
    })
  ).body.bookings.filter((b: { userId: number }) => b.userId === member.id) as Array<{
    id: number;
    status: string;
  }>;
const detail = async (id: number) => (await t.call('GET', `/api/booking/${id}`, { token: adminToken })).body;
const steps = (history: Array<{ event: string; actor: string; toStatus: string }>) =>
  history.map((entry) => `${entry.event}:${entry.actor}:${entry.toStatus}`);
/**
 * The steps without the Stop request, and the request: the server records the request once the charger has
 * answered it, so it may come just before or just after the charger's own StopTransaction.
 */
const stopRequested = (history: Array<{ event: string; actor: string; toStatus: string }>, by: string) => {
  const all = steps(reservedAtCharger(history));
  const request = `stop:${by}:charging`;
  expect(all.filter((step) => step === request)).toHaveLength(1);
  return all.filter((step) => step !== request);
};
/**
 * The steps without the charger's answer to ReserveNow (issue 32 §4), which must be Accepted: it is recorded
 * when the charger answers, after the reservation's own answer to the member, so before or after the check-in.
 */
function reservedAtCharger<T extends { event: string; detail?: unknown }>(history: T[]): T[] {
  const answers = history.filter((entry) => entry.event === 'charger-reserve');
  expect(answers.map((entry) => (entry.detail as { answer: string }).answer)).toEqual(['Accepted']);
  return history.filter((entry) => entry.event !== 'charger-reserve');
}
/** Waits for the probe, and on a timeout says what the simulator did meanwhile. */
const until = <T>(probe: () => Promise<T | undefined | false | null>, what: string, timeoutMs = 30_000) =>
  eventually(probe, timeoutMs).catch((error: Error) => {
    throw new Error(
      `${error.message}: ${what}; stats ${JSON.stringify(current.stats)}; log ${JSON.stringify(current.logs)}; ` +
        `connectors ${JSON.stringify(charger().connectorStates)}; connected ${charger().connected}; ` +
        `held ${[1, 2].filter((n) => charger().isReserved(n))}; last events ${JSON.stringify(seen.slice(-12))}`,
    );
  });
/** The booking of that member once it reaches the status. */
const reaching = (member: { id: number; email: string }, status: string) =>
  until(async () => (await bookingsOf(member)).find((b) => b.status === status), `a ${status} booking`);
const charger = () => simulation.chargers[0]!;
/** A finished booking's energy: some, and no more than the connector's 60 kW over its charging time. */
const expectPossibleEnergy = (booking: { totalEnergyKwh: number; startTime: string; stopTime: string }) => {
  const hours = (Date.parse(booking.stopTime) - Date.parse(booking.startTime)) / 3_600_000;
  expect(booking.totalEnergyKwh).toBeGreaterThan(0);
  expect(booking.totalEnergyKwh, JSON.stringify(booking)).toBeLessThanOrEqual(60 * hours);
};

describe('the member simulator', () => {
  it('takes a member from sign-in to paid through the member API, as a real booking goes', async () => {
    const { list, logs, simulator } = await members(1);
    const paid = await reaching(list[0]!, 'paid');
    await simulator.stop();
    const { booking, history } = await detail(paid.id);
    expect(stopRequested(history, 'member')).toEqual([
      'reserve:member:created',
      'check-in:member:started',
      'remote-start:member:started',
      'charger-start:charger:charging',
      'charger-stop:charger:charged',
      'connector-available:charger:stopped',
      'pay:member:paid',
    ]);
    expectPossibleEnergy(booking);
    expect(booking.soc).toBeGreaterThan(0);
    expect(booking.totalAmount).toBeGreaterThan(0);
    expect(booking.invoiceNo).toMatch(/^INV-\d{4}-\d{6}$/);
    expect(MEMBER_PAYMENT_METHODS).toContain(booking.paymentMethod);
    // The charger was started remotely with the member's own tag, and its connectors are free again.
    const signIn = await t.call('POST', '/api/member/login', {
      body: { email: list[0]!.email, pass: list[0]!.pass },
    });
    expect(seen).toContainEqual(
      expect.objectContaining({
        type: 'command',
        action: 'RemoteStartTransaction',
        params: expect.objectContaining({ idTag: signIn.body.idTag }),
      }),
    );
    expect([1, 2].some((n) => charger().isReserved(n))).toBe(false);
    expect(logs).toEqual([]);
  }, 60_000);

  it('pays a walk-in first (a session the member started at a charger with their tag), then books', async () => {
    const [connector] = await t.database.db
      .select({ id: connectors.id })
      .from(connectors)
      .where(eq(connectors.chargerId, 'MEMBERS-01'));
    let walkIn = 0;
    const { list, simulator } = await members(1, {}, async ([who]) => {
      walkIn = (
        await createBooking(t, connector!.id, 'stopped', { userId: who!.id, slotStart: null, slotEnd: null })
      ).id;
    });
    await until(async () => (await detail(walkIn)).booking.status === 'paid', 'the walk-in paid');
    expect(simulator.stats.walkInsPaid).toBe(1);
    // Owing nothing now, the member books and charges as ever.
    await reaching(list[0]!, 'charging');
  }, 60_000);

  it("copes with staff's Force stop from the back-office: unplugs, pays and books again", async () => {
    const { list, logs } = await members(1, { readings: [40, 40] });
    const who = list[0]!;
    const charging = await reaching(who, 'charging');
    const forced = await t.call('POST', `/api/booking/${charging.id}/force-stop`, { token: adminToken });
    expect(forced.status).toBe(200);
    await reaching(who, 'paid');
    const { history } = await detail(charging.id);
    expect(steps(history)).toContain('force-stop:staff:stopped');
    expect(steps(history).at(-1)).toBe('pay:member:paid');
    expect(steps(history)).not.toContain('connector-available:charger:stopped');
    // The charger's own stop came late, and the member went on to a new booking.
    await until(
      async () => steps((await detail(charging.id)).history).includes('late-stop:charger:stopped'),
      'the late stop',
    );
    await until(async () => (await bookingsOf(who)).length >= 2, 'a second booking');
    expect(logs).toEqual([]);
  }, 60_000);

  it("copes with staff's Stop from the back-office: the charger stops, the member unplugs and pays", async () => {
    const { list, logs } = await members(1, { readings: [40, 40] });
    const who = list[0]!;
    const charging = await reaching(who, 'charging');
    const stopped = await t.call('POST', `/api/booking/${charging.id}/stop`, { token: adminToken });
    expect(stopped.status, JSON.stringify(stopped.body)).toBe(200);
    await reaching(who, 'paid');
    expect(stopRequested((await detail(charging.id)).history, 'staff')).toEqual([
      'reserve:member:created',
      'check-in:member:started',
      'remote-start:member:started',
      'charger-start:charger:charging',
      'charger-stop:charger:charged',
      'connector-available:charger:stopped',
      'pay:member:paid',
    ]);
    expect(logs).toEqual([]);
  }, 60_000);

  it('leaves the cable in after a session: the booking stays Charged until it comes out, then is paid', async () => {
    const { list, logs } = await members(1, { leaveInShare: 1, leaveInMs: [3000, 3000] });
    const who = list[0]!;
    // Seen Charged while the cable is in, then Unpaid and paid once it comes out.
    const charged = await reaching(who, 'charged');
    await until(
      async () => (await bookingsOf(who)).find((b) => b.id === charged.id && b.status === 'paid'),
      'the charged booking paid',
    );
    const { booking, history } = await detail(charged.id);
    expect(stopRequested(history, 'member')).toEqual([
      'reserve:member:created',
      'check-in:member:started',
      'remote-start:member:started',
      'charger-start:charger:charging',
      'charger-stop:charger:charged',
      'connector-available:charger:stopped',
      'pay:member:paid',
    ]);
    // The cable stayed in for the 3 s the member was away.
    expect(Date.parse(booking.avaliableAt) - Date.parse(booking.stopTime)).toBeGreaterThanOrEqual(3000);
    expectPossibleEnergy(booking);
    expect(logs).toEqual([]);
  }, 60_000);

  it('leaves no more cables in than its bound: the other members unplug and pay', async () => {
    const { list, logs, simulator } = await members(2, {
      leaveInShare: 1,
      leaveInMs: [120_000, 120_000],
      maxLeftIn: 1,
    });
    // The first to finish charging takes the one place and stays away two minutes; the other, finishing
    // after, unplugs and pays.
    await until(async () => simulator.stats.paid >= 1, 'one paid');
    expect(simulator.stats.leftIn).toBe(1);
    const [first, second] = [await bookingsOf(list[0]!), await bookingsOf(list[1]!)];
    const [away, paying] = first.some((b) => b.status === 'paid') ? [second, first] : [first, second];
    expect(away.map((b) => b.status)).toEqual(['charged']);
    const [paid] = paying.filter((b) => b.status === 'paid');
    expectPossibleEnergy((await detail(paid!.id)).booking);
    expect(logs).toEqual([]);
  }, 60_000);

  it("copes with staff's Avaliable while the cable is in: the member unplugs and pays at once", async () => {
    const { list, logs, simulator } = await members(1, { leaveInShare: 1, leaveInMs: [120_000, 120_000] });
    const who = list[0]!;
    const charged = await reaching(who, 'charged');
    // The member has seen it Charged and gone away, the cable in.
    await until(async () => simulator.stats.leftIn === 1, 'the cable left in');
    const avaliable = await t.call('POST', `/api/booking/${charged.id}/avaliable`, { token: adminToken });
    expect(avaliable.status, JSON.stringify(avaliable.body)).toBe(200);
    // Long before the member's two minutes away were up.
    await until(
      async () => (await bookingsOf(who)).find((b) => b.id === charged.id && b.status === 'paid'),
      'the booking paid after Avaliable',
    );
    const { booking, history } = await detail(charged.id);
    expect(stopRequested(history, 'member')).toEqual([
      'reserve:member:created',
      'check-in:member:started',
      'remote-start:member:started',
      'charger-start:charger:charging',
      'charger-stop:charger:charged',
      'avaliable:staff:stopped',
      'pay:member:paid',
    ]);
    expectPossibleEnergy(booking);
    expect(logs).toEqual([]);
  }, 60_000);

  it('leaves some unpaid for staff, and plays its own staff stops', async () => {
    const { list, simulator } = await members(2, {
      neverPayShare: 1,
      maxUnpaid: 1,
      forceStopShare: 1,
    });
    // One member is left unpaid (at most one at once); the other pays.
    await until(
      async () => simulator.stats.unpaid === 1 && simulator.stats.paid >= 1,
      'one unpaid, one paid',
    );
    const all = [...(await bookingsOf(list[0]!)), ...(await bookingsOf(list[1]!))];
    expect(all.filter((b) => b.status === 'stopped')).toHaveLength(1);
    const forced = await detail(all.find((b) => b.status === 'paid')!.id);
    expect(steps(forced.history)).toContain('force-stop:staff:stopped');
  }, 60_000);

  it("keeps the chargers' random activity off a held connector", async () => {
    const held = charger();
    // The activity cycles every connector every 150 ms or so: catch one idle.
    const n = await eventually(async () => [1, 2].find((connector) => held.reserve(connector)));
    expect(held.reserve(n)).toBe(false);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    for (let i = 0; i < 3; i++) await held.step(n);
    expect(held.connectorStates[n - 1]).toMatchObject({ status: 'Available', transactionId: null });
    held.release(n);
    await eventually(async () => held.connectorStates[n - 1]!.status !== 'Available');
  });

  it("redeems a point code of the app's homepage after paying, now and then (every time here)", async () => {
    const code = `SIMPOINTS${Date.now().toString(36).toUpperCase()}`;
    const created = await t.call('POST', '/api/promotion', {
      token: adminToken,
      body: {
        type: 'point',
        code,
        nameEn: 'Simulated points',
        nameTh: 'แต้มจำลอง',
        internal: false,
        expose: true,
        validFrom: new Date(Date.now() - 3_600_000).toISOString(),
        validTo: new Date(Date.now() + 3_600_000).toISOString(),
        point: 25,
        count: 1,
      },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const { list, logs, simulator } = await members(1, { redeemShare: 1 });
    await until(async () => simulator.stats.redeemed >= 1, 'a redemption');
    const signIn = await t.call('POST', '/api/member/login', {
      body: { email: list[0]!.email, pass: list[0]!.pass },
    });
    const self = await t.call('GET', '/api/member/promotion', { token: signIn.body.accessToken });
    expect(self.status).toBe(200);
    const [stored] = await t.database.db
      .select({ point: users.point })
      .from(users)
      .where(eq(users.id, list[0]!.id));
    expect(stored!.point).toBe(25);
    expect(logs).toEqual([]);
  }, 60_000);

  it('logs a member who cannot sign in in one line, and does not try them again', async () => {
    const logs: string[] = [];
    running = startMemberSimulator({
      baseUrl: t.url,
      simulation,
      members: [{ email: 'nobody@example.com', pass: 'Wrong1234' }],
      staff,
      everyMs: 100,
      log: (message) => logs.push(message),
    });
    await eventually(async () => logs.length > 0);
    // Ten more rounds: no second try.
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(logs).toEqual(['member simulator: nobody@example.com: POST /api/member/login: 401 pass']);
  });

  // Last: the point card it adds would make the members of the tests above earn points.
  it('takes a homepage discount code off and pays partly with green points, every time here', async () => {
    // In force from an hour ago: 100 points are worth 1 baht, so even the satang these sessions cost take some.
    const card = { fromBaht: 1, toPoint: 1, fromPoint: 100, toBaht: 1 };
    await t.database.db.insert(pointRates).values({
      fromBaht: '1.00',
      toPoint: '1.00',
      fromPoint: '100.00',
      toBaht: '1.00',
      validFrom: new Date(Date.now() - 3_600_000),
    });
    const code = `SIMOFF${Date.now().toString(36).toUpperCase()}`;
    const created = await t.call('POST', '/api/promotion', {
      token: adminToken,
      body: {
        type: 'discount',
        code,
        nameEn: 'Simulated discount',
        nameTh: 'ส่วนลดจำลอง',
        internal: false,
        expose: true,
        validFrom: new Date(Date.now() - 3_600_000).toISOString(),
        validTo: new Date(Date.now() + 3_600_000).toISOString(),
        discountPercent: 0,
        discountBaht: 0.01,
        count: 1,
        total: 100,
      },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const { list, logs, simulator } = await members(1, { discountShare: 1, spendShare: 1 }, async ([who]) => {
      await t.database.db.transaction((tx) =>
        movePoints(tx, { userId: who!.id, kind: 'code', points: 1000, source: `test:sim-points:${who!.id}` }),
      );
    });
    const who = list[0]!;
    const redemptionOf = async () =>
      (
        await t.database.db.select().from(promotionRedemptions).where(eq(promotionRedemptions.userId, who.id))
      )[0];
    // The code on the first booking (once a member), the points on every payment while some are left.
    await until(async () => {
      const redemption = await redemptionOf();
      if (!redemption || simulator.stats.spent < 1) return false;
      const [paid] = await t.database.db
        .select({ id: payments.id })
        .from(payments)
        .where(eq(payments.bookingId, redemption.bookingId!));
      return paid !== undefined;
    }, 'a discount code and points spent');
    await simulator.stop();

    const paid = await t.database.db
      .select({ payment: payments, booking: bookings })
      .from(payments)
      .innerJoin(bookings, eq(bookings.id, payments.bookingId))
      .where(eq(payments.userId, who.id));
    const spent = paid.filter(({ payment }) => payment.pointUsed > 0);
    expect(spent.length).toBeGreaterThan(0);
    for (const { payment, booking } of paid) {
      // What was charged is the price less the discount and the points' worth at the card.
      const [amount, discount, point] = [payment.amount, payment.discountAmount, payment.pointAmount].map(
        (value) => toSatang(value),
      );
      expect(amount! + discount! + point!, JSON.stringify(payment)).toBe(storedTotal(booking));
      expect(point).toBe(redeemSatang(payment.pointUsed, card));
    }
    const redemption = (await redemptionOf())!;
    const discounted = paid.find(({ payment }) => payment.bookingId === redemption.bookingId)!;
    expect(toSatang(discounted.payment.discountAmount)).toBe(
      discountSatang(storedTotal(discounted.booking), { discountPercent: 0, discountBaht: 0.01 }),
    );
    expect(simulator.stats.discounted).toBe(toSatang(discounted.payment.discountAmount) > 0 ? 1 : 0);
    expect(simulator.stats.spent).toBe(spent.length);
    // The points left the member's balance through the ledger.
    const redeemed = await t.database.db
      .select({ points: pointLedger.points })
      .from(pointLedger)
      .where(and(eq(pointLedger.userId, who.id), like(pointLedger.source, 'charge:%:redeem')));
    expect(redeemed.reduce((sum, entry) => sum + entry.points, 0)).toBe(
      -spent.reduce((sum, { payment }) => sum + payment.pointUsed, 0),
    );
    const [member] = await t.database.db
      .select({ point: users.point })
      .from(users)
      .where(eq(users.id, who.id));
    const ledger = await t.database.db
      .select({ points: pointLedger.points })
      .from(pointLedger)
      .where(eq(pointLedger.userId, who.id));
    expect(member!.point).toBe(ledger.reduce((sum, entry) => sum + entry.points, 0));
    // Less than everything credited (the 1000, the points earned, and any point code the simulated member
    // redeemed from the homepage, which other tests of this file expose): the spending took some.
    expect(member!.point).toBeLessThan(
      ledger.filter((entry) => entry.points > 0).reduce((sum, entry) => sum + entry.points, 0),
    );
    expect(logs).toEqual([]);
  }, 60_000);
});
