import { BOOKING_MESSAGES } from '@ev/shared';
import type { SimulatedCharger, SimulatorEvent } from '@ev/tools/simulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPrice, signedInUser } from '../helpers/factories.ts';
import {
  bookingDetail,
  bookingIn,
  chargingBooking,
  type Member,
  signedInMember,
} from '../helpers/member-session.ts';
import { chargerPlace, createChargers, eventually, simulate } from '../helpers/ocpp.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';

/**
 * A member's whole session over OCPP, as the companion app and a real charger make it: reserve → check in →
 * start (RemoteStartTransaction) → meter values → full → stop → unplug → priced → pay → refund. Then the
 * staff's Stop and Force stop on a live simulated charger.
 */
let t: TestApp;
let admin: string;
let simulation: Awaited<ReturnType<typeof simulate>>;
let charger: SimulatedCharger;
let connectorIds: number[];
const seen: SimulatorEvent[] = [];

beforeAll(async () => {
  t = await startTestApp({ OCPP_COMMAND_TIMEOUT_MS: '2000' });
  admin = (await signedInUser(t, { role: 'admin' })).token;
  const place = await chargerPlace(t);
  // 8.00 baht per kWh, 3 baht per overstay minute, 5 baht per minute once a DC charge is full (after 0 min).
  place.price = await createPrice(t, {
    method: 'KW',
    bahtPerKwh: '8.00',
    penaltyBahtPerMin: '3.00',
    penaltyDcFullBahtPerMin: '5.00',
  });
  connectorIds = (await createChargers(t, admin, place, ['SESSION-01'], { connectors: 3 }))[0]!.connectorIds;
  simulation = await simulate(t, [{ id: 'SESSION-01', connectors: 3 }], {
    onEvent: (event) => seen.push(event),
  });
  charger = simulation.chargers[0]!;
});
afterAll(async () => {
  await simulation?.stop();
  await t.close();
});

const member = () => signedInMember(t);
const booking = (id: number) => bookingDetail(t.call, admin, id);
const statusOf = (id: number, status: string) => bookingIn(t.call, admin, id, status);
/** Reserves, checks in and starts on that connector (by index); answers the booking id once it is charging. */
const charging = (who: Member, connectorIndex: number) =>
  chargingBooking(t, admin, who, connectorIds[connectorIndex]!);

describe("a member's session, end to end", () => {
  it('reserve → check in → start → meter values → full → stop → unplug → priced → pay → refund', async () => {
    const driver = await member();
    const id = await charging(driver, 0);
    expect(seen).toContainEqual({
      type: 'command',
      id: 'SESSION-01',
      action: 'RemoteStartTransaction',
      params: { connectorId: 1, idTag: driver.idTag },
    });

    await charger.sendMeterValue(1, { addWh: 12_500, soc: 80 });
    let detail = await eventually(async () => {
      const current = await booking(id);
      return current.booking.totalEnergyKwh === 12.5 ? current : null;
    });
    expect(detail.booking).toMatchObject({ soc: 80, live: true, priceByPower: 100 });

    await charger.fill(1);
    detail = await eventually(async () => {
      const current = await booking(id);
      return current.booking.fullAt ? current : null;
    });
    expect(detail.booking.soc).toBe(100);

    await charger.stopCharging(1, 'EVDisconnected');
    detail = await statusOf(id, 'charged');
    expect(detail.booking.stopTime).not.toBeNull();

    await charger.unplug(1);
    detail = await statusOf(id, 'stopped');
    // 12.5 kWh × 8.00 = 100.00; unplugged at once (no overstay); full to stop within a minute: at most 1 × 5.
    expect(detail.booking.priceByPower).toBe(100);
    expect(detail.booking.priceByDuration).toBe(0);
    expect([0, 5]).toContain(detail.booking.priceByPenalty);
    expect(detail.booking.live).toBe(false);
    const total = detail.booking.totalAmount as number;

    const paid = await t.call('POST', `/api/member/booking/${id}/pay`, {
      token: driver.token,
      body: { method: 'credit', amount: total },
    });
    expect(paid.status, JSON.stringify(paid.body)).toBe(200);
    expect(paid.body).toMatchObject({ message: BOOKING_MESSAGES.paid, amount: total });
    detail = await booking(id);
    expect(detail.booking).toMatchObject({
      status: 'paid',
      paymentMethod: 'credit',
      invoiceNo: paid.body.invoiceNo,
    });

    const payments = await t.call('GET', `/api/payment?bookingId=${id}`, { token: admin });
    const refund = await t.call('POST', `/api/payment/${payments.body.payments[0].id}/refund`, {
      token: admin,
      body: { amount: total },
    });
    expect(refund.status).toBe(200);

    const history = (await booking(id)).history as Array<{ event: string; actor: string; toStatus: string }>;
    expect(history.map((entry) => `${entry.event}:${entry.actor}:${entry.toStatus}`)).toEqual([
      'reserve:member:created',
      'charger-reserve:system:created',
      'check-in:member:started',
      'remote-start:member:started',
      'charger-start:charger:charging',
      'full:charger:charging',
      'charger-stop:charger:charged',
      'connector-available:charger:stopped',
      'pay:member:paid',
      'refund:staff:paid',
    ]);
  });

  it("a member's RFID tag with no booking makes a walk-in booking", async () => {
    const driver = await member();
    await charger.setStatus(3, 'Preparing');
    await charger.startCharging(3, driver.idTag);
    const list = await eventually(async () => {
      const response = await t.call('GET', `/api/booking?connectorId=${connectorIds[2]}&status=charging`, {
        token: admin,
      });
      return response.body.total === 1 ? response.body : null;
    });
    expect(list.bookings[0]).toMatchObject({ userId: driver.user.id, slotStart: null });
    const history = (await booking(list.bookings[0].id)).history;
    expect(history[0]).toMatchObject({ event: 'walk-in', actor: 'charger', actorName: 'SESSION-01' });
    await charger.stopCharging(3, 'Local');
    await charger.unplug(3);
    await statusOf(list.bookings[0].id, 'stopped');
  });

  it('refuses a slot more than a day ahead, a second open booking, and a taken slot', async () => {
    const driver = await member();
    const later = Date.now() + 25 * 3_600_000;
    const ahead = await t.call('POST', '/api/member/booking', {
      token: driver.token,
      body: {
        connectorId: connectorIds[1],
        slotStart: new Date(later).toISOString(),
        slotEnd: new Date(later + 3_600_000).toISOString(),
      },
    });
    expect(ahead.status).toBe(400);
    expect(ahead.body.message).toBe('body.slotStart: at most 1 day ahead');
    const now = Date.now();
    const slot = (connector: number) => ({
      connectorId: connectorIds[connector],
      slotStart: new Date(now + 3_600_000).toISOString(),
      slotEnd: new Date(now + 7_200_000).toISOString(),
    });
    const first = await t.call('POST', '/api/member/booking', { token: driver.token, body: slot(1) });
    expect(first.status).toBe(200);
    const second = await t.call('POST', '/api/member/booking', { token: driver.token, body: slot(2) });
    expect(second.status).toBe(409);
    expect(second.body.message).toBe(`You already have booking ${first.body.booking.id} in progress`);
    // Another member can't take the same connector for an overlapping slot.
    const other = await member();
    const taken = await t.call('POST', '/api/member/booking', { token: other.token, body: slot(1) });
    expect(taken.status).toBe(409);
    expect(taken.body.message).toBe('This connector is booked for that time');
    await t.call('POST', `/api/member/booking/${first.body.booking.id}/cancel`, { token: driver.token });
    const staffToken = await t.call('GET', '/api/member/booking', { token: admin });
    expect(staffToken.status).toBe(401);
  });
});

describe('staff Stop and Force stop on a live charger', () => {
  it('Stop sends RemoteStopTransaction; the charger stops and the booking becomes charged', async () => {
    const id = await charging(await member(), 1);
    const response = await t.call('POST', `/api/booking/${id}/stop`, { token: admin });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    expect(response.body.message).toBe(BOOKING_MESSAGES.stopped);
    const detail = await statusOf(id, 'charged');
    expect(detail.history.map((entry: { event: string }) => entry.event)).toContain('stop');
    await charger.unplug(2);
    await statusOf(id, 'stopped');
  });

  it('Force stop goes to Unpaid at once; the charger told to stop reports a late stop, recorded', async () => {
    const id = await charging(await member(), 1);
    await charger.sendMeterValue(2, { addWh: 2_000 });
    const response = await t.call('POST', `/api/booking/${id}/force-stop`, { token: admin });
    expect(response.status).toBe(200);
    expect(response.body.message).toBe(BOOKING_MESSAGES.forceStopped);
    const detail = await eventually(async () => {
      const current = await booking(id);
      return current.history.some((entry: { event: string }) => entry.event === 'late-stop') ? current : null;
    });
    expect(detail.booking).toMatchObject({ status: 'stopped', priceByPower: 16 });
    await charger.unplug(2);
  });

  it('Stop on an offline charger says so (409)', async () => {
    const id = await charging(await member(), 1);
    await charger.stop();
    await eventually(async () => {
      const response = await t.call('POST', `/api/booking/${id}/stop`, { token: admin });
      return response.status === 409 && response.body.message === BOOKING_MESSAGES.offline;
    });
  });
});
