import { and, asc, count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  bookingEvents,
  bookings,
  chargingSessions,
  connectors,
  meterValues,
} from '../../src/db/schema/index.ts';
import { memberTag } from '../../src/modules/member/member.service.ts';
import { createBooking, createMember } from '../helpers/bookings.ts';
import { createPrice, signedInUser } from '../helpers/factories.ts';
import { chargerPlace, eventually } from '../helpers/ocpp.ts';
import { bookingOfSession, iso, sessionOfRef, station201 } from '../helpers/ocpp201.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';

/**
 * Issue 33: what an OCPP 2.0.1 charger sends about authorisation and transactions. The charger is a bare
 * ocpp-rpc client in strict 2.0.1 mode (every frame checked against the official schemas both ways), never our
 * simulator; the server is real, no module mocked. Times are a charger's that sends its queue now: T is an hour
 * ago (charger-order.test.ts is the 1.6 twin of most of these).
 */
let t: TestApp;
let admin: string;
let place: Awaited<ReturnType<typeof chargerPlace>>;
let stations = 0;

const MINUTE = 60_000;

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

const station = () => station201(t, admin, place, `V201TX-${String(++stations).padStart(2, '0')}`);

async function member() {
  const user = await createMember(t);
  return { user, idTag: await memberTag(t.database.db, user.id) };
}
const central = (idToken: string) => ({ idToken, type: 'Central' });

const session = async (s: { id: string }, ref: string) =>
  eventually(async () => sessionOfRef(t, s.id, ref), 5000);
const bookingOf = async (s: { id: string }, ref: string) => {
  const found = await sessionOfRef(t, s.id, ref);
  return found ? bookingOfSession(t, found.id) : undefined;
};
const whenStatus = (s: { id: string }, ref: string, status: string) =>
  eventually(async () => {
    const booking = await bookingOf(s, ref);
    return booking?.status === status ? booking : null;
  });
const historyOf = (bookingId: number) =>
  t.database.db
    .select()
    .from(bookingEvents)
    .where(eq(bookingEvents.bookingId, bookingId))
    .orderBy(asc(bookingEvents.at), asc(bookingEvents.id));
/** The connector's row once it shows `expected` (statuses are written a moment after they come). */
const connectorRow = async (chargerId: string, number: number, expected: Record<string, unknown> = {}) =>
  eventually(async () => {
    const row = await readConnector(chargerId, number);
    return Object.entries(expected).every(([key, value]) => row[key as keyof typeof row] === value)
      ? row
      : null;
  }, 5000);
const readConnector = async (chargerId: string, number: number) => {
  const [row] = await t.database.db
    .select()
    .from(connectors)
    .where(and(eq(connectors.chargerId, chargerId), eq(connectors.ocppConnectorId, number)));
  return row!;
};

describe('a raw 2.0.1 charger', () => {
  it('boots, reports its EVSEs, and has its fault events shown on the connector', async () => {
    const s = await station();
    expect(s.boot).toMatchObject({ status: 'Accepted', interval: expect.any(Number) });
    const now = Date.now();
    expect(await s.status('Available', now, 1)).toEqual({});
    expect(await s.status('Occupied', now, 2)).toEqual({});
    expect(await connectorRow(s.id, 1, { status: 'AVAILABLE', errorCode: 'NoError' })).toMatchObject({
      status: 'AVAILABLE',
      errorCode: 'NoError',
    });
    expect(await connectorRow(s.id, 2, { status: 'PREPARING' })).toMatchObject({ status: 'PREPARING' });

    const problem = (evse: number | undefined, actualValue: string, trigger = 'Alerting') =>
      s.call('NotifyEvent', {
        generatedAt: iso(Date.now()),
        seqNo: 0,
        eventData: [
          {
            eventId: 1,
            timestamp: iso(Date.now()),
            trigger,
            actualValue,
            techCode: 'E42',
            techInfo: 'Contactor welded',
            eventNotificationType: 'HardWiredMonitor',
            component: {
              name: evse ? 'Connector' : 'ChargingStation',
              ...(evse ? { evse: { id: evse } } : {}),
            },
            variable: { name: 'Problem' },
          },
        ],
      });
    expect(await problem(1, 'true')).toEqual({});
    expect(
      await connectorRow(s.id, 1, {
        status: 'AVAILABLE',
        errorCode: 'OtherError',
        vendorErrorCode: 'E42',
        statusInfo: 'NotifyEvent: Connector Problem: Contactor welded',
      }),
    ).toMatchObject({
      status: 'AVAILABLE',
      errorCode: 'OtherError',
      vendorErrorCode: 'E42',
      statusInfo: 'NotifyEvent: Connector Problem: Contactor welded',
    });
    expect((await connectorRow(s.id, 2, { errorCode: 'NoError' })).errorCode).toBe('NoError');
    // The list shows it as a 1.6 error code ('⚠ Error: …').
    const listed = await t.call('GET', `/api/charger/${s.id}`, { token: admin });
    expect(listed.body.charger.connectors[0]).toMatchObject({ errorCode: 'OtherError' });
    // A periodic report is no event; false clears what the event set.
    await problem(2, 'true', 'Periodic');
    expect((await connectorRow(s.id, 2, { errorCode: 'NoError' })).errorCode).toBe('NoError');
    await problem(1, 'false', 'Delta');
    expect(await connectorRow(s.id, 1, { errorCode: 'NoError', statusInfo: null })).toMatchObject({
      errorCode: 'NoError',
      statusInfo: null,
    });
    // The whole station's problem is every connector's.
    await problem(undefined, 'true');
    expect((await connectorRow(s.id, 2, { errorCode: 'OtherError' })).errorCode).toBe('OtherError');

    expect(
      await s.call('SecurityEventNotification', { type: 'FirmwareUpdated', timestamp: iso(Date.now()) }),
    ).toEqual({});
    expect(await s.call('DataTransfer', { vendorId: 'Acme', messageId: 'Hello' })).toEqual({
      status: 'UnknownVendorId',
    });
    // Every frame is in the charger's message log.
    const logged = await eventually(async () => {
      const page = await t.call('GET', `/api/charger/${s.id}/message?size=100`, { token: admin });
      const actions = new Set((page.body.messages as Array<{ action: string }>).map((m) => m.action));
      return ['NotifyEvent', 'SecurityEventNotification', 'DataTransfer'].every((a) => actions.has(a))
        ? actions
        : null;
    });
    expect(logged.has('StatusNotification')).toBe(true);
    await s.close();
  });

  it('runs a reserved session: reserve → check in → start (remoteStartId) → Started/Updated/Ended → unplug → pay', async () => {
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
    expect(reserved.status, JSON.stringify(reserved.body)).toBe(200);
    const id = reserved.body.booking.id as number;
    expect((await t.call('POST', `/api/member/booking/${id}/check-in`, { token })).status).toBe(200);
    const started = await t.call('POST', `/api/member/booking/${id}/start`, { token });
    expect(started.status, JSON.stringify(started.body)).toBe(200);
    const request = s.commands.find((c) => c.action === 'RequestStartTransaction')!;
    expect(request.params).toEqual({
      evseId: 1,
      idToken: { idToken: idTag, type: 'Central' },
      remoteStartId: id,
    });

    const ref = 'b7c1f0e2-0000-4000-8000-000000000001';
    const T = Date.now();
    expect(await s.status('Occupied', T)).toEqual({});
    const answer = await s.tx('Started', ref, {
      at: T,
      trigger: 'RemoteStart',
      seqNo: 0,
      state: 'Charging',
      evse: 1,
      idToken: central(idTag),
      remoteStartId: id,
      wh: 100_000,
      soc: 30,
    });
    expect(answer).toEqual({ idTokenInfo: { status: 'Accepted' } });
    const stored = await session(s, ref);
    expect(stored).toMatchObject({ evseId: 1, ocppConnectorId: 1, remoteStartId: id, seqNo: 0, idTag });
    let booking = await whenStatus(s, ref, 'charging');
    expect(booking.id).toBe(id);
    expect((await connectorRow(s.id, 1, { status: 'CHARGING' })).status).toBe('CHARGING');

    // A reading in kWh, the default measurand.
    await s.tx('Updated', ref, {
      at: T + 1000,
      trigger: 'MeterValuePeriodic',
      seqNo: 1,
      wh: 106_000,
      kwh: true,
    });
    booking = await eventually(async () => {
      const current = await bookingOf(s, ref);
      return current?.energyWh === 6_000 ? current : null;
    });

    const stop = await t.call('POST', `/api/member/booking/${id}/stop`, { token });
    expect(stop.status, JSON.stringify(stop.body)).toBe(200);
    expect(s.commands).toContainEqual({ action: 'RequestStopTransaction', params: { transactionId: ref } });
    await s.tx('Ended', ref, {
      at: T + 2000,
      trigger: 'RemoteStop',
      seqNo: 2,
      stoppedReason: 'Remote',
      wh: 112_500,
    });
    booking = await whenStatus(s, ref, 'charged');
    expect(booking.energyWh).toBe(12_500);
    expect((await sessionOfRef(t, s.id, ref))!).toMatchObject({ status: 'COMPLETED', stopReason: 'Remote' });
    await s.status('Available', T + 3000);
    booking = await whenStatus(s, ref, 'stopped');
    // 12.5 kWh × 8.00 = 100.00; unplugged at once.
    expect(booking).toMatchObject({ priceByPower: '100.00', priceByPenalty: '0.00', totalAmount: '100.00' });
    const paid = await t.call('POST', `/api/member/booking/${id}/pay`, {
      token,
      body: { method: 'credit', amount: 100 },
    });
    expect(paid.status, JSON.stringify(paid.body)).toBe(200);
    expect((await bookingOf(s, ref))!.status).toBe('paid');
    await s.close();
  });

  it('runs a walk-in: an RFID card Authorized (with its member as group), then Started with it', async () => {
    const s = await station();
    const { user, idTag: appTag } = await member();
    const card = 'a1b2c3d4';
    const added = await t.call('POST', `/api/user/${user.id}/id-tag`, {
      token: admin,
      body: { idTag: card },
    });
    expect(added.status, JSON.stringify(added.body)).toBe(200);
    const rfid = { idToken: card.toUpperCase(), type: 'ISO14443' };
    expect(await s.call('Authorize', { idToken: rfid })).toEqual({
      idTokenInfo: { status: 'Accepted', groupIdToken: { idToken: appTag, type: 'Central' } },
    });
    // A card no member holds, and a charger that authorises nobody: Invalid (OCPP_UNKNOWN_TAGS=invalid).
    expect(await s.call('Authorize', { idToken: { idToken: 'DEADBEEF', type: 'ISO14443' } })).toEqual({
      idTokenInfo: { status: 'Invalid' },
    });
    expect(await s.call('Authorize', { idToken: { idToken: '', type: 'NoAuthorization' } })).toEqual({
      idTokenInfo: { status: 'Invalid' },
    });

    const ref = 'walk-in-1';
    const T = Date.now() - 60 * MINUTE;
    await s.status('Occupied', T - MINUTE);
    const answer = await s.tx('Started', ref, {
      at: T,
      trigger: 'Authorized',
      seqNo: 0,
      state: 'EVConnected',
      evse: 2,
      idToken: rfid,
      wh: 5_000,
    });
    expect(answer).toMatchObject({ idTokenInfo: { status: 'Accepted' } });
    const booking = await whenStatus(s, ref, 'charging');
    expect(booking).toMatchObject({ userId: user.id, connectorId: s.connectorIds[1] });
    expect(booking.startTime!.toISOString()).toBe(iso(T));
    expect((await historyOf(booking.id))[0]!.event).toBe('walk-in');
    // EVConnected at the start is no stop: charging has not begun.
    await s.tx('Updated', ref, {
      at: T + MINUTE,
      trigger: 'ChargingStateChanged',
      seqNo: 1,
      state: 'Charging',
    });
    await s.tx('Updated', ref, { at: T + 20 * MINUTE, trigger: 'MeterValuePeriodic', seqNo: 2, wh: 9_000 });
    expect((await bookingOf(s, ref))!.status).toBe('charging');
    await s.close();
  });

  it('a refused token gets its status, no booking, and a RequestStopTransaction', async () => {
    const s = await station();
    const { user, idTag } = await member();
    await createBooking(t, s.connectorIds[1]!, 'stopped', { userId: user.id });
    const ref = 'refused-1';
    const answer = await s.tx('Started', ref, {
      at: Date.now(),
      trigger: 'Authorized',
      seqNo: 0,
      evse: 1,
      idToken: central(idTag),
      wh: 0,
    });
    expect(answer).toEqual({ idTokenInfo: { status: 'Blocked' } });
    const stored = await session(s, ref);
    expect(stored.idTagStatus).toBe('Blocked');
    expect(await bookingOfSession(t, stored.id)).toBeUndefined();
    await eventually(async () => s.commands.some((c) => c.action === 'RequestStopTransaction'));
    expect(s.commands).toContainEqual({ action: 'RequestStopTransaction', params: { transactionId: ref } });
    await s.tx('Ended', ref, {
      at: Date.now(),
      trigger: 'Deauthorized',
      seqNo: 1,
      stoppedReason: 'DeAuthorized',
    });
    expect((await sessionOfRef(t, s.id, ref))!.status).toBe('COMPLETED');
    await s.close();
  });

  it('a Started before its token is kept pending; the event that brings the token starts the session', async () => {
    const s = await station();
    const { idTag } = await member();
    const ref = 'plug-first';
    const T = Date.now() - 30 * MINUTE;
    expect(
      await s.tx('Started', ref, {
        at: T,
        trigger: 'CablePluggedIn',
        seqNo: 0,
        state: 'EVConnected',
        evse: 1,
        wh: 70_000,
      }),
    ).toEqual({});
    const pending = await session(s, ref);
    expect(pending).toMatchObject({ idTag: '', idTagStatus: 'Pending', evseId: 1, meterStartWh: 70_000 });
    expect(await bookingOfSession(t, pending.id)).toBeUndefined();
    // Authorised a minute later by an event with no reading nor EVSE: the pending one's, billed from then.
    const answer = await s.tx('Updated', ref, {
      at: T + MINUTE,
      trigger: 'Authorized',
      seqNo: 1,
      idToken: central(idTag),
    });
    expect(answer).toEqual({ idTokenInfo: { status: 'Accepted' } });
    const stored = await session(s, ref);
    expect(stored).toMatchObject({
      idTag,
      idTagStatus: 'Accepted',
      meterStartWh: 70_000,
      ocppConnectorId: 1,
      evseId: 1,
    });
    expect(stored.startedAt.toISOString()).toBe(iso(T + MINUTE));
    await whenStatus(s, ref, 'charging');
    // An Ended of a transaction never heard of, with no token: accepted, nothing opened (as 1.6).
    expect(
      await s.tx('Ended', 'never-started', { at: Date.now(), trigger: 'StopAuthorized', seqNo: 5, wh: 9 }),
    ).toEqual({});
    expect(await sessionOfRef(t, s.id, 'never-started')).toBeUndefined();
    await s.close();
  });
});

describe('a full battery (the DC-full rule)', () => {
  it('SoC 100 in an Updated marks it full, priced as 1.6 prices it', async () => {
    const s = await station();
    const { idTag } = await member();
    const ref = 'full-soc';
    const T = Date.now() - 60 * MINUTE;
    await s.tx('Started', ref, {
      at: T,
      trigger: 'Authorized',
      seqNo: 0,
      state: 'Charging',
      evse: 1,
      idToken: central(idTag),
      wh: 1_000,
      soc: 50,
    });
    await s.tx('Updated', ref, {
      at: T + 10 * MINUTE,
      trigger: 'ChargingStateChanged',
      seqNo: 1,
      state: 'SuspendedEV',
    });
    expect((await bookingOf(s, ref))!.fullAt).toBeNull();
    await s.tx('Updated', ref, {
      at: T + 20 * MINUTE,
      trigger: 'MeterValuePeriodic',
      seqNo: 2,
      wh: 21_000,
      soc: 100,
    });
    const full = await eventually(async () => (await bookingOf(s, ref))?.fullAt ?? null);
    expect(full.toISOString()).toBe(iso(T + 20 * MINUTE));
    await s.tx('Ended', ref, {
      at: T + 30 * MINUTE,
      trigger: 'EVCommunicationLost',
      seqNo: 3,
      stoppedReason: 'EVDisconnected',
      wh: 21_000,
    });
    // 20 kWh × 8.00 = 160.00; full for 10 minutes × 5.00 = 50.00; cable out at the Ended, no overstay.
    expect(await whenStatus(s, ref, 'stopped')).toMatchObject({
      priceByPower: '160.00',
      priceByPenalty: '50.00',
      totalAmount: '210.00',
    });
    await s.close();
  });

  it('with no SoC, a SuspendedEV that lasts to the stop is full from its start', async () => {
    const s = await station();
    const ref = 'full-pause';
    const T = Date.now() - 60 * MINUTE;
    await s.tx('Started', ref, {
      at: T,
      trigger: 'Authorized',
      seqNo: 0,
      state: 'Charging',
      evse: 1,
      idToken: central((await member()).idTag),
      wh: 1_000,
    });
    await s.tx('Updated', ref, {
      at: T + 20 * MINUTE,
      trigger: 'ChargingStateChanged',
      seqNo: 1,
      state: 'SuspendedEV',
      wh: 6_000,
    });
    await s.tx('Ended', ref, {
      at: T + 30 * MINUTE,
      trigger: 'StopAuthorized',
      seqNo: 2,
      stoppedReason: 'Local',
      wh: 6_000,
    });
    await s.status('Available', T + 30 * MINUTE);
    const booking = await whenStatus(s, ref, 'stopped');
    expect(booking.fullAt!.toISOString()).toBe(iso(T + 20 * MINUTE));
    // 5 kWh × 8.00 = 40.00; 10 minutes full × 5.00 = 50.00.
    expect(booking).toMatchObject({ priceByPower: '40.00', priceByPenalty: '50.00' });
    await s.close();
  });
});

describe("overstay from the cable's removal, both TxStopPoint styles", () => {
  it('ended when charging stops: the connector Available later is the cable out', async () => {
    const s = await station();
    const ref = 'stop-at-charging-end';
    const T = Date.now() - 60 * MINUTE;
    await s.tx('Started', ref, {
      at: T,
      trigger: 'Authorized',
      seqNo: 0,
      state: 'Charging',
      evse: 1,
      idToken: central((await member()).idTag),
      wh: 1_000,
    });
    await s.tx('Ended', ref, {
      at: T + 30 * MINUTE,
      trigger: 'StopAuthorized',
      seqNo: 1,
      stoppedReason: 'Local',
      state: 'EVConnected',
      wh: 6_000,
    });
    const charged = await whenStatus(s, ref, 'charged');
    expect(charged.stopTime!.toISOString()).toBe(iso(T + 30 * MINUTE));
    await s.status('Available', T + 40 * MINUTE);
    const booking = await whenStatus(s, ref, 'stopped');
    expect(booking.avaliableAt!.toISOString()).toBe(iso(T + 40 * MINUTE));
    // 5 kWh × 8.00 = 40.00; 10 minutes − 5 allowance = 5 × 3.00 = 15.00.
    expect(booking).toMatchObject({ priceByPower: '40.00', priceByPenalty: '15.00', totalAmount: '55.00' });
    await s.close();
  });

  it('ended only at the cable removal: EVConnected stops charging, the Ended (EVDisconnected) is the cable out', async () => {
    const s = await station();
    const ref = 'stop-at-cable-out';
    const T = Date.now() - 60 * MINUTE;
    await s.tx('Started', ref, {
      at: T,
      trigger: 'Authorized',
      seqNo: 0,
      state: 'Charging',
      evse: 1,
      idToken: central((await member()).idTag),
      wh: 1_000,
    });
    await s.tx('Updated', ref, {
      at: T + 30 * MINUTE,
      trigger: 'StopAuthorized',
      seqNo: 1,
      state: 'EVConnected',
      wh: 6_000,
    });
    const charged = await whenStatus(s, ref, 'charged');
    expect(charged.stopTime!.toISOString()).toBe(iso(T + 30 * MINUTE));
    expect(charged.energyWh).toBe(5_000);
    // Periodic readings while the cable stays in change nothing.
    await s.tx('Updated', ref, { at: T + 35 * MINUTE, trigger: 'MeterValuePeriodic', seqNo: 2, wh: 6_000 });
    await s.tx('Ended', ref, {
      at: T + 40 * MINUTE,
      trigger: 'EVCommunicationLost',
      seqNo: 3,
      stoppedReason: 'EVDisconnected',
      state: 'Idle',
      wh: 6_000,
    });
    const booking = await whenStatus(s, ref, 'stopped');
    expect(booking.avaliableAt!.toISOString()).toBe(iso(T + 40 * MINUTE));
    expect(booking).toMatchObject({ priceByPower: '40.00', priceByPenalty: '15.00', totalAmount: '55.00' });
    // The connector's Available that follows changes nothing.
    await s.status('Available', T + 40 * MINUTE);
    expect((await bookingOf(s, ref))!.totalAmount).toBe('55.00');
    expect((await historyOf(booking.id)).map((e) => e.event)).toEqual([
      'walk-in',
      'charger-stop',
      'connector-available',
    ]);
    await s.close();
  });
});

describe('resends, out-of-order events and duplicate Started', () => {
  it('the same seqNo twice is applied once; an older Updated never rolls the meter back; an Updated after Ended never reopens', async () => {
    const s = await station();
    const ref = 'ordering';
    const T = Date.now() - 60 * MINUTE;
    await s.tx('Started', ref, {
      at: T,
      trigger: 'Authorized',
      seqNo: 0,
      state: 'Charging',
      evse: 1,
      idToken: central((await member()).idTag),
      wh: 1_000,
    });
    const stored = await session(s, ref);
    const rows = async () =>
      (
        await t.database.db
          .select({ n: count() })
          .from(meterValues)
          .where(eq(meterValues.sessionId, stored.id))
      )[0]!.n;
    const newer = { at: T + 20 * MINUTE, trigger: 'MeterValuePeriodic', seqNo: 2, wh: 9_000 };
    expect(await s.tx('Updated', ref, newer)).toEqual({});
    await eventually(async () => (await bookingOf(s, ref))?.energyWh === 8_000);
    const before = await rows();
    expect(await s.tx('Updated', ref, newer)).toEqual({});
    expect(await rows()).toBe(before);
    // seqNo 1 arrives late: kept for the record, the booking keeps 8 kWh.
    await s.tx('Updated', ref, {
      at: T + 10 * MINUTE,
      trigger: 'MeterValuePeriodic',
      seqNo: 1,
      wh: 5_000,
      state: 'SuspendedEVSE',
    });
    expect(await rows()).toBe(before + 1);
    expect((await bookingOf(s, ref))!.energyWh).toBe(8_000);
    expect((await sessionOfRef(t, s.id, ref))!).toMatchObject({
      lastMeterWh: 9_000,
      seqNo: 2,
      chargingState: 'Charging',
    });

    await s.tx('Ended', ref, {
      at: T + 30 * MINUTE,
      trigger: 'StopAuthorized',
      seqNo: 4,
      stoppedReason: 'Local',
      wh: 11_000,
    });
    await whenStatus(s, ref, 'charged');
    // seqNo 3 (sent before the Ended) arrives after it: the transaction stays closed, the energy 10 kWh.
    await s.tx('Updated', ref, {
      at: T + 25 * MINUTE,
      trigger: 'ChargingStateChanged',
      seqNo: 3,
      state: 'Charging',
      wh: 10_500,
    });
    // And a charger that sends an Updated after its Ended (a bug): nothing reopens either.
    await s.tx('Updated', ref, {
      at: T + 31 * MINUTE,
      trigger: 'ChargingStateChanged',
      seqNo: 5,
      state: 'Charging',
      wh: 12_000,
    });
    const booking = (await bookingOf(s, ref))!;
    expect(booking).toMatchObject({ status: 'charged', energyWh: 10_000 });
    expect((await sessionOfRef(t, s.id, ref))!).toMatchObject({ status: 'COMPLETED', meterStopWh: 11_000 });
    // The Ended sent again: one stop in the history.
    await s.tx('Ended', ref, {
      at: T + 30 * MINUTE,
      trigger: 'StopAuthorized',
      seqNo: 4,
      stoppedReason: 'Local',
      wh: 11_000,
    });
    expect(
      (await historyOf(booking.id)).filter((e) => e.event === 'charger-stop' || e.event === 'late-stop'),
    ).toHaveLength(1);
    await s.close();
  });

  it('a Started sent twice (even at once) is one session and one booking, answered alike', async () => {
    const s = await station();
    const { idTag } = await member();
    const started = {
      at: Date.now() - MINUTE,
      trigger: 'Authorized',
      seqNo: 0,
      state: 'Charging' as const,
      evse: 1,
      idToken: central(idTag),
      wh: 3_000,
    };
    const [a, b] = await Promise.all([s.tx('Started', 'twice', started), s.tx('Started', 'twice', started)]);
    const c = await s.tx('Started', 'twice', started);
    expect([a, b, c]).toEqual([
      { idTokenInfo: { status: 'Accepted' } },
      { idTokenInfo: { status: 'Accepted' } },
      { idTokenInfo: { status: 'Accepted' } },
    ]);
    const sessions = await t.database.db
      .select()
      .from(chargingSessions)
      .where(eq(chargingSessions.chargerId, s.id));
    expect(sessions).toHaveLength(1);
    const made = await t.database.db.select().from(bookings).where(eq(bookings.chargerId, s.id));
    expect(made).toHaveLength(1);
    await s.close();
  });
});

describe("the charger's clock, bounded", () => {
  it('a Started dated 366 days back (offline) starts when it reached us; one ahead of our clock too', async () => {
    const s = await station();
    const reported = Date.now() - 366 * 24 * 60 * MINUTE;
    const before = Date.now();
    await s.tx('Started', 'old-clock', {
      at: reported,
      trigger: 'Authorized',
      seqNo: 0,
      evse: 1,
      idToken: central((await member()).idTag),
      wh: 0,
      offline: true,
    });
    const booking = await whenStatus(s, 'old-clock', 'charging');
    expect(booking.startTime!.getTime()).toBeGreaterThanOrEqual(before);
    expect((await historyOf(booking.id))[0]!.detail).toMatchObject({
      reportedAt: iso(reported),
      correction: 'the charger time was before 48 hours before it reached us',
    });
    await s.tx('Ended', 'old-clock', {
      at: reported + 30 * MINUTE,
      trigger: 'StopAuthorized',
      seqNo: 1,
      wh: 2_000,
    });
    const stopEvent = (await historyOf(booking.id)).find((e) => e.event === 'charger-stop');
    expect(stopEvent!.detail).toMatchObject({
      correction: 'the charger time was before the start of its transaction',
    });

    await s.tx('Started', 'ahead', {
      at: Date.now() + 60 * MINUTE,
      trigger: 'Authorized',
      seqNo: 0,
      evse: 2,
      idToken: central((await member()).idTag),
      wh: 0,
    });
    const ahead = await whenStatus(s, 'ahead', 'charging');
    expect(ahead.startTime!.getTime()).toBeLessThanOrEqual(Date.now());
    expect((await historyOf(ahead.id))[0]!.detail).toMatchObject({
      correction: 'the charger time was ahead of ours',
    });
    await s.close();
  });
});

describe('odd but schema-valid values', () => {
  it('an unknown EVSE, huge or negative readings, MeterValues anywhere: answered, never an error', async () => {
    const s = await station();
    const { idTag } = await member();
    // An EVSE we do not know: the session is kept, no booking.
    expect(
      await s.tx('Started', 'nowhere', {
        at: Date.now(),
        trigger: 'Authorized',
        seqNo: 0,
        evse: 99,
        idToken: central(idTag),
        wh: 1e300,
      }),
    ).toMatchObject({
      idTokenInfo: { status: 'Accepted' },
    });
    const stored = await session(s, 'nowhere');
    expect(stored.connectorId).toBeNull();
    expect(
      await s.tx('Updated', 'nowhere', {
        at: Date.now(),
        trigger: 'MeterValuePeriodic',
        seqNo: 2_147_483_647,
        wh: -5,
      }),
    ).toEqual({});
    expect(
      await s.tx('Ended', 'nowhere', { at: Date.now(), trigger: 'StopAuthorized', seqNo: -1, wh: 1.5e15 }),
    ).toEqual({});
    const meter = (evseId: number, value: number) =>
      s.call('MeterValues', {
        evseId,
        meterValue: [{ timestamp: iso(Date.now()), sampledValue: [{ value }] }],
      });
    expect(await meter(0, 123)).toEqual({});
    expect(await meter(-3, 1e308)).toEqual({});
    expect(await meter(2_147_483_647, Number.MIN_VALUE)).toEqual({});
    expect(await s.status('Available', Date.now(), 77)).toEqual({});
    expect((await t.call('GET', '/api/health')).status).toBe(200);
    expect(t.logs()).not.toMatch(/handling a call failed/);
    await s.close();
  });

  it('MeterValues of an EVSE with an open transaction are its readings', async () => {
    const s = await station();
    await s.tx('Started', 'mv', {
      at: Date.now() - MINUTE,
      trigger: 'Authorized',
      seqNo: 0,
      evse: 2,
      state: 'Charging',
      idToken: central((await member()).idTag),
      wh: 2_000,
    });
    await whenStatus(s, 'mv', 'charging');
    await s.call('MeterValues', {
      evseId: 2,
      meterValue: [
        {
          timestamp: iso(Date.now()),
          sampledValue: [
            { value: 4.5, unitOfMeasure: { unit: 'kWh' } },
            { value: 64, measurand: 'SoC' },
          ],
        },
      ],
    });
    expect(
      await eventually(async () => {
        const booking = await bookingOf(s, 'mv');
        return booking?.energyWh === 2_500 ? booking : null;
      }),
    ).toMatchObject({ soc: 64 });
    await s.close();
  });

  it('ReservationStatusUpdate and DataTransfer from the charger are answered, not refused', async () => {
    const s = await station();
    expect(
      await s.call('ReservationStatusUpdate', { reservationId: 424242, reservationUpdateStatus: 'Expired' }),
    ).toEqual({});
    expect(await s.call('DataTransfer', { vendorId: 'com.example' })).toEqual({ status: 'UnknownVendorId' });
    await s.close();
  });
});
