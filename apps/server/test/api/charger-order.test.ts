import { and, asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bookingEvents, bookings, chargingSessions, users } from '../../src/db/schema/index.ts';
import { memberTag } from '../../src/modules/member/member.service.ts';
import { createBooking, createMember } from '../helpers/bookings.ts';
import { createPrice, signedInUser } from '../helpers/factories.ts';
import { chargerPlace, createChargers, eventually, rpcClient } from '../helpers/ocpp.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';

/**
 * Issue 20, item 1 (and 3): charger messages in the order and with the clocks real chargers send them. Each
 * test is a bare OCPP 1.6 client sending exact frames with the timestamps of a charger that was offline and
 * sends its queue now: T is an hour ago.
 */
let t: TestApp;
let admin: string;
let place: Awaited<ReturnType<typeof chargerPlace>>;
let charger = 0;

const MINUTE = 60_000;
const iso = (ms: number) => new Date(ms).toISOString();

beforeAll(async () => {
  t = await startTestApp({ OCPP_COMMAND_TIMEOUT_MS: '2000' });
  admin = (await signedInUser(t, { role: 'admin' })).token;
  place = await chargerPlace(t);
  // 8.00 baht per kWh, 3 baht per overstay minute, 5 baht per minute once a DC charge is full (no delay).
  place.price = await createPrice(t, {
    method: 'KW',
    bahtPerKwh: '8.00',
    penaltyBahtPerMin: '3.00',
    penaltyDcFullBahtPerMin: '5.00',
  });
});
afterAll(() => t.close());

/** A new charger with two DC connectors, connected as a bare client that records the commands it gets. */
async function station() {
  const id = `ORDER-${String(++charger).padStart(2, '0')}`;
  const [created] = await createChargers(t, admin, place, [id], { connectors: 2 });
  const client = rpcClient(t, id);
  const commands: Array<{ action: string; params: unknown }> = [];
  for (const action of ['RemoteStopTransaction', 'RemoteStartTransaction']) {
    client.handle(action, async ({ params }: { params?: unknown }) => {
      commands.push({ action, params });
      return { status: 'Accepted' };
    });
  }
  await client.connect();
  await client.call('BootNotification', { chargePointVendor: 'Test', chargePointModel: 'Order' });
  const call = (action: string, params: object) =>
    client.call(action, params) as Promise<Record<string, unknown>>;
  return {
    id,
    connectorIds: created!.connectorIds,
    commands,
    call,
    start: async (idTag: string, at: number, meterStart = 1_000, connectorId = 1) =>
      (await call('StartTransaction', { connectorId, idTag, meterStart, timestamp: iso(at) })) as {
        transactionId: number;
        idTagInfo: { status: string };
      },
    meter: (transactionId: number, at: number, wh: number, soc?: number, connectorId = 1) =>
      call('MeterValues', {
        connectorId,
        transactionId,
        meterValue: [
          {
            timestamp: iso(at),
            sampledValue: [
              { value: String(wh), measurand: 'Energy.Active.Import.Register', unit: 'Wh' },
              ...(soc === undefined ? [] : [{ value: String(soc), measurand: 'SoC', unit: 'Percent' }]),
            ],
          },
        ],
      }),
    status: (status: string, at: number, connectorId = 1) =>
      call('StatusNotification', { connectorId, errorCode: 'NoError', status, timestamp: iso(at) }),
    stop: (transactionId: number, at: number, meterStop: number, reason = 'EVDisconnected') =>
      call('StopTransaction', { transactionId, meterStop, timestamp: iso(at), reason }),
    close: () => client.close({ code: 1000, force: true }),
  };
}

/** A member with their app id tag. */
async function member() {
  const user = await createMember(t);
  return { user, idTag: await memberTag(t.database.db, user.id) };
}

const bookingOf = async (transactionId: number) =>
  (await t.database.db.select().from(bookings).where(eq(bookings.sessionId, transactionId)))[0];
const sessionOf = async (transactionId: number) =>
  (await t.database.db.select().from(chargingSessions).where(eq(chargingSessions.id, transactionId)))[0]!;
const historyOf = (bookingId: number) =>
  t.database.db
    .select()
    .from(bookingEvents)
    .where(eq(bookingEvents.bookingId, bookingId))
    .orderBy(asc(bookingEvents.at), asc(bookingEvents.id));
const whenStatus = (transactionId: number, status: string) =>
  eventually(async () => {
    const booking = await bookingOf(transactionId);
    return booking?.status === status ? booking : null;
  });

describe('an Available that comes before its StopTransaction', () => {
  it('is kept and applied when the stop comes: no overstay when the cable came out at the stop', async () => {
    const s = await station();
    const { idTag } = await member();
    const T = Date.now() - 60 * MINUTE;
    const { transactionId } = await s.start(idTag, T);
    await s.meter(transactionId, T + 20 * MINUTE, 6_000);
    await s.status('Available', T + 30 * MINUTE);
    expect((await bookingOf(transactionId))!.cableOutAt?.toISOString()).toBe(iso(T + 30 * MINUTE));
    await s.stop(transactionId, T + 30 * MINUTE, 6_000);
    const booking = await whenStatus(transactionId, 'stopped');
    expect(booking.stopTime!.toISOString()).toBe(iso(T + 30 * MINUTE));
    expect(booking.avaliableAt!.toISOString()).toBe(iso(T + 30 * MINUTE));
    // 5 kWh × 8.00 = 40.00, and no overstay (before: 146 overstay minutes, until staff pressed Avaliable).
    expect(booking).toMatchObject({ priceByPower: '40.00', priceByPenalty: '0.00', totalAmount: '40.00' });
    expect((await historyOf(booking.id)).map((e) => e.event)).toEqual([
      'walk-in',
      'cable-out',
      'charger-stop',
      'connector-available',
    ]);
    await s.close();
  });

  it('counts the overstay from the stop to the cable removal, never negative', async () => {
    const s = await station();
    const T = Date.now() - 60 * MINUTE;
    // Cable out 10 minutes after the stop: 10 − 5 allowance = 5 minutes × 3.00 = 15.00.
    const late = await s.start((await member()).idTag, T, 1_000, 1);
    await s.status('Available', T + 40 * MINUTE, 1);
    await s.stop(late.transactionId, T + 30 * MINUTE, 1_000);
    expect(await whenStatus(late.transactionId, 'stopped')).toMatchObject({ priceByPenalty: '15.00' });
    // Reported out a minute before the stop (clocks): out at the stop, no overstay.
    const early = await s.start((await member()).idTag, T, 5_000, 2);
    await s.status('Available', T + 29 * MINUTE, 2);
    await s.stop(early.transactionId, T + 30 * MINUTE, 5_000);
    const booking = await whenStatus(early.transactionId, 'stopped');
    expect(booking.avaliableAt!.toISOString()).toBe(iso(T + 30 * MINUTE));
    expect(booking.priceByPenalty).toBe('0.00');
    await s.close();
  });

  it('ignores an Available dated before the transaction started (an old status from the queue)', async () => {
    const s = await station();
    const T = Date.now() - 60 * MINUTE;
    const { transactionId } = await s.start((await member()).idTag, T);
    await s.status('Available', T - 5 * MINUTE);
    await s.stop(transactionId, T + 30 * MINUTE, 3_000);
    const booking = await whenStatus(transactionId, 'charged');
    expect(booking.cableOutAt).toBeNull();
    await s.status('Available', T + 35 * MINUTE);
    expect(await whenStatus(transactionId, 'stopped')).toMatchObject({ priceByPenalty: '0.00' });
    await s.close();
  });
});

describe('the same StartTransaction sent twice', () => {
  it('gets the same transaction id and makes no second session or booking', async () => {
    const s = await station();
    const { idTag } = await member();
    const T = Date.now() - 10 * MINUTE;
    const first = await s.start(idTag, T, 2_000);
    const again = await s.start(idTag, T, 2_000);
    expect(again.transactionId).toBe(first.transactionId);
    expect(again.idTagInfo.status).toBe('Accepted');
    // Sent twice at the same moment (two copies in flight), by another member on the other connector: still one.
    const other = (await member()).idTag;
    const [x, y] = await Promise.all([
      s.start(other, T + MINUTE, 9_000, 2),
      s.start(other, T + MINUTE, 9_000, 2),
    ]);
    expect(x.transactionId).toBe(y.transactionId);
    const sessions = await t.database.db
      .select()
      .from(chargingSessions)
      .where(eq(chargingSessions.chargerId, s.id));
    expect(sessions).toHaveLength(2);
    const made = await t.database.db.select().from(bookings).where(eq(bookings.chargerId, s.id));
    expect(made.map((b) => b.sessionId).sort()).toEqual([first.transactionId, x.transactionId].sort());
    await s.close();
  });

  it('a new StartTransaction on a connector with an open one closes the old at its last meter value', async () => {
    const s = await station();
    const T = Date.now() - 60 * MINUTE;
    const old = await s.start((await member()).idTag, T, 10_000);
    await s.meter(old.transactionId, T + 20 * MINUTE, 14_000);
    const next = await s.start((await member()).idTag, T + 40 * MINUTE, 14_500);
    expect(next.transactionId).not.toBe(old.transactionId);
    expect(await sessionOf(old.transactionId)).toMatchObject({
      status: 'COMPLETED',
      stopReason: 'Other',
      meterStopWh: 14_000,
    });
    const closed = await whenStatus(old.transactionId, 'stopped');
    // 4 kWh × 8.00 = 32.00, stopped at its last reading; no overstay we can't prove.
    expect(closed.stopTime!.toISOString()).toBe(iso(T + 20 * MINUTE));
    expect(closed).toMatchObject({ energyWh: 4_000, priceByPower: '32.00', priceByPenalty: '0.00' });
    const stopEvent = (await historyOf(closed.id)).find((e) => e.event === 'charger-stop');
    expect(stopEvent!.detail).toMatchObject({ reason: 'Superseded' });
    expect((await bookingOf(next.transactionId))!.status).toBe('charging');
    // The real StopTransaction of the old one, found later in the charger's queue, is recorded only.
    await s.stop(old.transactionId, T + 21 * MINUTE, 14_100);
    expect((await bookingOf(old.transactionId))!.priceByPower).toBe('32.00');
    await s.close();
  });

  it('a new StartTransaction on a connector whose booking waits for its cable puts that booking to payment', async () => {
    const s = await station();
    const T = Date.now() - 60 * MINUTE;
    const old = await s.start((await member()).idTag, T, 20_000);
    await s.stop(old.transactionId, T + 10 * MINUTE, 22_000);
    await whenStatus(old.transactionId, 'charged');
    // No Available came (lost), but a new session starts on the connector: the cable came out before it.
    await s.start((await member()).idTag, T + 50 * MINUTE, 22_000);
    const released = await whenStatus(old.transactionId, 'stopped');
    // 2 kWh × 8.00; no overstay we can't prove.
    expect(released).toMatchObject({ priceByPower: '16.00', priceByPenalty: '0.00' });
    expect(released.avaliableAt!.toISOString()).toBe(iso(T + 10 * MINUTE));
    await s.close();
  });
});

describe("the charger's clock, bounded", () => {
  it('a walk-in dated 366 days back starts when it reached us, and the history says why', async () => {
    const s = await station();
    const reported = Date.now() - 366 * 24 * 60 * MINUTE;
    const before = Date.now();
    const { transactionId } = await s.start((await member()).idTag, reported);
    const booking = (await bookingOf(transactionId))!;
    expect(booking.startTime!.getTime()).toBeGreaterThanOrEqual(before);
    expect((await sessionOf(transactionId)).startedAt.getTime()).toBe(booking.startTime!.getTime());
    const [walkIn] = await historyOf(booking.id);
    expect(walkIn!.detail).toMatchObject({
      reportedAt: iso(reported),
      correctedTo: booking.startTime!.toISOString(),
      correction: 'the charger time was before 48 hours before it reached us',
    });
    // A stop dated before the start: our receipt time too.
    await s.stop(transactionId, reported + 30 * MINUTE, 2_000);
    const stopped = await whenStatus(transactionId, 'charged');
    expect(stopped.stopTime!.getTime()).toBeGreaterThanOrEqual(booking.startTime!.getTime());
    const stopEvent = (await historyOf(booking.id)).find((e) => e.event === 'charger-stop');
    expect(stopEvent!.detail).toMatchObject({
      correction: 'the charger time was before the start of its transaction',
    });
    await s.close();
  });

  it("a reserved session never starts before the member's request to start", async () => {
    const s = await station();
    const driver = await signedInUser(t, { type: 'mobile' });
    const login = await t.call('POST', '/api/member/login', {
      body: { email: driver.user.email, pass: driver.user.pass },
    });
    const token = login.body.accessToken as string;
    const idTag = login.body.idTag as string;
    const now = Date.now();
    const reserved = await t.call('POST', '/api/member/booking', {
      token,
      body: { connectorId: s.connectorIds[0], slotStart: iso(now), slotEnd: iso(now + 60 * MINUTE) },
    });
    expect(reserved.status).toBe(200);
    const id = reserved.body.booking.id as number;
    await t.call('POST', `/api/member/booking/${id}/check-in`, { token });
    const started = await t.call('POST', `/api/member/booking/${id}/start`, { token });
    expect(started.status).toBe(200);
    // The charger's StartTransaction, dated two hours before the reservation.
    const { transactionId } = await s.start(idTag, now - 120 * MINUTE);
    const booking = (await bookingOf(transactionId))!;
    expect(booking.id).toBe(id);
    const request = (await historyOf(id)).find((e) => e.event === 'remote-start')!;
    expect(booking.startTime!.getTime()).toBeGreaterThanOrEqual(request.at.getTime());
    const start = (await historyOf(id)).find((e) => e.event === 'charger-start')!;
    expect(start.detail).toMatchObject({ correction: 'the charger time was before our request to start' });
    await s.close();
  });

  it('a start dated ahead of our clock is taken as our receipt time, and said so', async () => {
    const s = await station();
    const { transactionId } = await s.start((await member()).idTag, Date.now() + 60 * MINUTE);
    const booking = (await bookingOf(transactionId))!;
    expect(booking.startTime!.getTime()).toBeLessThanOrEqual(Date.now());
    expect((await historyOf(booking.id))[0]!.detail).toMatchObject({
      correction: 'the charger time was ahead of ours',
    });
    await s.close();
  });
});

describe('a full battery', () => {
  it('a pause (SuspendedEV) that charging resumes after is not full', async () => {
    const s = await station();
    const T = Date.now() - 60 * MINUTE;
    const { transactionId } = await s.start((await member()).idTag, T);
    await s.status('SuspendedEV', T + 10 * MINUTE);
    await s.status('Charging', T + 12 * MINUTE);
    await s.stop(transactionId, T + 30 * MINUTE, 9_000);
    await s.status('Available', T + 31 * MINUTE);
    const booking = await whenStatus(transactionId, 'stopped');
    expect(booking.fullAt).toBeNull();
    expect(booking.priceByPenalty).toBe('0.00');
    await s.close();
  });

  it('a pause that lasts to the stop counts as full from its start; a short one does not', async () => {
    const s = await station();
    const T = Date.now() - 60 * MINUTE;
    const long = await s.start((await member()).idTag, T, 1_000, 1);
    await s.status('SuspendedEV', T + 20 * MINUTE, 1);
    await s.stop(long.transactionId, T + 30 * MINUTE, 1_000);
    await s.status('Available', T + 30 * MINUTE, 1);
    const full = await whenStatus(long.transactionId, 'stopped');
    expect(full.fullAt!.toISOString()).toBe(iso(T + 20 * MINUTE));
    // 10 minutes full × 5.00 (DC, no delay).
    expect(full.priceByPenalty).toBe('50.00');
    const fullEvent = (await historyOf(full.id)).find((e) => e.event === 'full');
    expect(fullEvent!.detail).toMatchObject({ by: 'the EV paused (SuspendedEV) until the stop' });

    const short = await s.start((await member()).idTag, T, 5_000, 2);
    await s.status('SuspendedEV', T + 28 * MINUTE, 2);
    await s.stop(short.transactionId, T + 30 * MINUTE, 5_000);
    await s.status('Available', T + 30 * MINUTE, 2);
    expect(await whenStatus(short.transactionId, 'stopped')).toMatchObject({
      fullAt: null,
      priceByPenalty: '0.00',
    });
    await s.close();
  });

  it('a charger that reports SoC is full at SoC 100, not at a pause', async () => {
    const s = await station();
    const T = Date.now() - 60 * MINUTE;
    const { transactionId } = await s.start((await member()).idTag, T);
    await s.meter(transactionId, T + 5 * MINUTE, 3_000, 80);
    await s.status('SuspendedEV', T + 10 * MINUTE);
    expect((await bookingOf(transactionId))!.fullAt).toBeNull();
    await s.meter(transactionId, T + 25 * MINUTE, 9_000, 100);
    const full = await eventually(async () => (await bookingOf(transactionId))?.fullAt ?? null);
    expect(full.toISOString()).toBe(iso(T + 25 * MINUTE));
    await s.close();
  });
});

describe('members the charger must refuse (as the app does)', () => {
  it('a member with an Unpaid booking is Blocked at Authorize and StartTransaction, and gets no booking', async () => {
    const s = await station();
    const { user, idTag } = await member();
    await createBooking(t, s.connectorIds[1]!, 'stopped', { userId: user.id });
    expect(await s.call('Authorize', { idTag })).toEqual({ idTagInfo: { status: 'Blocked' } });
    const refused = await s.start(idTag, Date.now());
    expect(refused.idTagInfo.status).toBe('Blocked');
    expect(await bookingOf(refused.transactionId)).toBeUndefined();
    expect((await sessionOf(refused.transactionId)).idTagStatus).toBe('Blocked');
    // The charger is asked to end it too, in case it does not by itself.
    await eventually(async () => s.commands.length > 0);
    expect(s.commands).toContainEqual({
      action: 'RemoteStopTransaction',
      params: { transactionId: refused.transactionId },
    });
    // The same refused StartTransaction sent again gets the same answer.
    expect((await s.start(idTag, Date.now() - 1)).idTagInfo.status).toBe('Blocked');
    await s.stop(refused.transactionId, Date.now(), 1_000, 'DeAuthorized');
    expect((await sessionOf(refused.transactionId)).status).toBe('COMPLETED');
    const walkIns = await t.database.db
      .select()
      .from(bookings)
      .where(and(eq(bookings.userId, user.id), eq(bookings.status, 'charging')));
    expect(walkIns).toEqual([]);
    await s.close();
  });

  it('a locked member is Blocked; one charging on another connector is ConcurrentTx; others Accepted', async () => {
    const s = await station();
    const locked = await member();
    await t.database.db.update(users).set({ active: false }).where(eq(users.id, locked.user.id));
    expect(await s.call('Authorize', { idTag: locked.idTag })).toEqual({ idTagInfo: { status: 'Blocked' } });

    const busy = await member();
    const first = await s.start(busy.idTag, Date.now(), 1_000, 1);
    expect(first.idTagInfo.status).toBe('Accepted');
    const second = await s.start(busy.idTag, Date.now(), 7_000, 2);
    expect(second.idTagInfo.status).toBe('ConcurrentTx');
    expect(await bookingOf(second.transactionId)).toBeUndefined();

    // A card no member holds (OCPP_UNKNOWN_TAGS=invalid, the default; id-tags.test.ts has the rest).
    expect(await s.call('Authorize', { idTag: 'UNKNOWN-CARD' })).toEqual({
      idTagInfo: { status: 'Invalid' },
    });
    expect(await s.call('Authorize', { idTag: (await member()).idTag })).toEqual({
      idTagInfo: { status: 'Accepted' },
    });
    await s.close();
  });
});
