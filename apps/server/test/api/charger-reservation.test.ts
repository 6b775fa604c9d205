import type { SimulatedCharger, SimulatorEvent } from '@ev/tools/simulator';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bookingEvents } from '../../src/db/schema/index.ts';
import { memberTag } from '../../src/modules/member/member.service.ts';
import { signedInUser } from '../helpers/factories.ts';
import { chargerPlace, createChargers, eventually, simulate } from '../helpers/ocpp.ts';
import { memberWithSession } from '../helpers/promotions.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';

/**
 * Issue 32 §4, reservations at the charger: a member's reservation for now is sent as ReserveNow (the connector
 * shows Reserved, the member's start carries the reservation), taken back with CancelReservation when it is
 * cancelled, expires or is deleted; any other answer of the charger keeps the booking. `t.app.jobs.settled()`
 * waits for the calls made after the booking committed.
 */
const HOUR = 3_600_000;
let t: TestApp;
let admin: string;
let simulation: Awaited<ReturnType<typeof simulate>>;
let charger: SimulatedCharger;
let connectorIds: number[];
let offlineConnector: number;
const seen: SimulatorEvent[] = [];
const behaviours = new Map<string, 'silent' | 'reject' | 'not-supported'>();

beforeAll(async () => {
  t = await startTestApp({ OCPP_COMMAND_TIMEOUT_MS: '1000' });
  admin = (await signedInUser(t, { role: 'admin' })).token;
  const place = await chargerPlace(t);
  const [res, off] = await createChargers(t, admin, place, ['RES-01', 'RES-OFF'], { connectors: 2 });
  connectorIds = res!.connectorIds;
  offlineConnector = off!.connectorIds[0]!;
  simulation = await simulate(t, [{ id: 'RES-01', connectors: 2 }], {
    onEvent: (event) => seen.push(event),
    behaviour: (id) => behaviours.get(id) ?? 'normal',
  });
  charger = simulation.chargers[0]!;
});
afterAll(async () => {
  await simulation?.stop();
  await t.close();
});

const commands = (action: string) =>
  seen
    .filter((e) => e.type === 'command' && e.id === 'RES-01' && e.action === action)
    .map((e) => (e as { params: Record<string, unknown> }).params);

async function member() {
  const { user, token } = await memberWithSession(t);
  return { user, token, idTag: await memberTag(t.database.db, user.id) };
}

async function reserve(token: string, connectorId: number, startsInMs = 0) {
  const start = Date.now() + startsInMs;
  const response = await t.call('POST', '/api/member/booking', {
    token,
    body: {
      connectorId,
      slotStart: new Date(start).toISOString(),
      slotEnd: new Date(start + HOUR).toISOString(),
    },
  });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  await t.app.jobs.settled();
  return response.body.booking as { id: number; slotEnd: string; status: string };
}

type Entry = { event: string; actor: string; toStatus: string; detail: Record<string, unknown> | null };
const detail = async (id: number) => (await t.call('GET', `/api/booking/${id}`, { token: admin })).body;
const eventsOf = async (id: number, event: string) =>
  ((await detail(id)).history as Entry[]).filter((entry) => entry.event === event);
const connectorStatus = async (number: number) =>
  (
    (await t.call('GET', '/api/charger/RES-01', { token: admin })).body.charger.connectors as Array<{
      ocppConnectorId: number;
      status: string;
    }>
  ).find((c) => c.ocppConnectorId === number)?.status;

describe('ReserveNow', () => {
  it('reserves the connector for the member until the slot ends: Reserved, and the start carries the reservation', async () => {
    const driver = await member();
    const booking = await reserve(driver.token, connectorIds[0]!);
    expect(commands('ReserveNow')).toEqual([
      { connectorId: 1, expiryDate: booking.slotEnd, idTag: driver.idTag, reservationId: booking.id },
    ]);
    const [answer] = await eventsOf(booking.id, 'charger-reserve');
    expect(answer).toMatchObject({
      actor: 'system',
      toStatus: 'created',
      detail: { answer: 'Accepted', connectorId: 1, expiryDate: booking.slotEnd },
    });
    await eventually(async () => (await connectorStatus(1)) === 'RESERVED');
    expect(charger.connectorStates[0]!.reservation).toMatchObject({ id: booking.id, idTag: driver.idTag });

    // Nobody else takes it: another member's booking of the slot is refused, and another tag at the charger.
    const other = await member();
    const taken = await t.call('POST', '/api/member/booking', {
      token: other.token,
      body: {
        connectorId: connectorIds[0],
        slotStart: new Date().toISOString(),
        slotEnd: new Date(Date.now() + HOUR).toISOString(),
      },
    });
    expect(taken.status).toBe(409);
    await expect(charger.startCharging(1, other.idTag)).rejects.toThrow(/reserved for another id tag/);

    // The member's own start: StartTransaction carries the reservation, which links it to the booking.
    await t.call('POST', `/api/member/booking/${booking.id}/check-in`, { token: driver.token });
    const started = await t.call('POST', `/api/member/booking/${booking.id}/start`, { token: driver.token });
    expect(started.status, JSON.stringify(started.body)).toBe(200);
    const charging = await eventually(async () => {
      const current = await detail(booking.id);
      return current.booking.status === 'charging' ? current : null;
    });
    expect((charging.history as Entry[]).find((e) => e.event === 'charger-start')?.detail).toMatchObject({
      reservationId: booking.id,
    });
    expect(charger.connectorStates[0]!.reservation).toBeNull();
    await eventually(async () => (await connectorStatus(1)) === 'CHARGING');
    await charger.stopCharging(1, 'Local');
    await charger.unplug(1);
  });

  it('is not sent for a reservation of later (the slot starts in two hours)', async () => {
    const before = commands('ReserveNow').length;
    const later = await reserve((await member()).token, connectorIds[1]!, 2 * HOUR);
    expect(commands('ReserveNow')).toHaveLength(before);
    expect(await eventsOf(later.id, 'charger-reserve')).toEqual([]);
    await t.call('DELETE', `/api/booking/${later.id}`, { token: admin });
    await t.app.jobs.settled();
    expect(commands('CancelReservation')).toEqual([]);
  });
});

describe('CancelReservation', () => {
  it('takes the reservation back when the member cancels: Available again', async () => {
    const driver = await member();
    const booking = await reserve(driver.token, connectorIds[1]!);
    await eventually(async () => (await connectorStatus(2)) === 'RESERVED');
    const cancelled = await t.call('POST', `/api/member/booking/${booking.id}/cancel`, {
      token: driver.token,
    });
    expect(cancelled.body.booking.status).toBe('cancelled');
    await t.app.jobs.settled();
    expect(commands('CancelReservation')).toEqual([{ reservationId: booking.id }]);
    expect(await eventsOf(booking.id, 'charger-cancel-reservation')).toMatchObject([
      { actor: 'system', toStatus: 'cancelled', detail: { answer: 'Accepted', reason: 'cancelled' } },
    ]);
    await eventually(async () => (await connectorStatus(2)) === 'AVAILABLE');
  });

  it('takes it back when the reservation expires unused', async () => {
    const booking = await reserve((await member()).token, connectorIds[1]!);
    // The minute job, run as if an hour and a quarter had passed.
    expect(await t.app.jobs.expireReservations(Date.now() + HOUR + 16 * 60_000)).toBe(1);
    await t.app.jobs.settled();
    expect(commands('CancelReservation').at(-1)).toEqual({ reservationId: booking.id });
    expect(await eventsOf(booking.id, 'charger-cancel-reservation')).toMatchObject([
      { detail: { answer: 'Accepted', reason: 'expired' } },
    ]);
    expect((await detail(booking.id)).booking.status).toBe('cancelled');
    await eventually(async () => (await connectorStatus(2)) === 'AVAILABLE');
  });

  it('takes it back when staff delete the booking', async () => {
    const booking = await reserve((await member()).token, connectorIds[1]!);
    expect((await t.call('DELETE', `/api/booking/${booking.id}`, { token: admin })).status).toBe(200);
    await t.app.jobs.settled();
    expect(commands('CancelReservation').at(-1)).toEqual({ reservationId: booking.id });
    // Deleted, the booking is out of the API: its history is read from the database.
    const history = await t.database.db
      .select({ detail: bookingEvents.detail })
      .from(bookingEvents)
      .where(
        and(eq(bookingEvents.bookingId, booking.id), eq(bookingEvents.event, 'charger-cancel-reservation')),
      );
    expect(history).toEqual([{ detail: { answer: 'Accepted', reason: 'deleted' } }]);
    await eventually(async () => (await connectorStatus(2)) === 'AVAILABLE');
  });

  it("records the charger's refusal of it (a reservation it no longer holds)", async () => {
    const driver = await member();
    const booking = await reserve(driver.token, connectorIds[1]!);
    charger.forcedAnswers.set('CancelReservation', 'Rejected');
    await t.call('POST', `/api/member/booking/${booking.id}/cancel`, { token: driver.token });
    await t.app.jobs.settled();
    charger.forcedAnswers.clear();
    expect(await eventsOf(booking.id, 'charger-cancel-reservation')).toMatchObject([
      { detail: { answer: 'Rejected', reason: 'cancelled' } },
    ]);
    // Still reserved at the charger: it lapses at the slot's end (or staff cancel it there).
    await charger.endReservation(2);
  });
});

describe('whatever the charger answers, the booking stands', () => {
  const cases: Array<[string, () => void, number?]> = [
    ['Rejected', () => behaviours.set('RES-01', 'reject')],
    ['Occupied', () => charger.forcedAnswers.set('ReserveNow', 'Occupied')],
    ['Faulted', () => charger.forcedAnswers.set('ReserveNow', 'Faulted')],
    ['Unavailable', () => charger.forcedAnswers.set('ReserveNow', 'Unavailable')],
    ['NotSupported', () => behaviours.set('RES-01', 'not-supported')],
    ['Offline', () => undefined, -1],
  ];
  for (const [answer, arrange, connector] of cases) {
    it(`${answer}: recorded, the booking stays Created, and a cancel sends nothing`, async () => {
      arrange();
      const driver = await member();
      const booking = await reserve(driver.token, connector === -1 ? offlineConnector : connectorIds[1]!);
      behaviours.clear();
      charger.forcedAnswers.clear();
      expect(await eventsOf(booking.id, 'charger-reserve')).toMatchObject([{ detail: { answer } }]);
      expect((await detail(booking.id)).booking.status).toBe('created');
      expect(charger.connectorStates[1]!.reservation).toBeNull();
      const cancels = commands('CancelReservation').length;
      await t.call('POST', `/api/member/booking/${booking.id}/cancel`, { token: driver.token });
      await t.app.jobs.settled();
      expect(commands('CancelReservation')).toHaveLength(cancels);
      expect(await eventsOf(booking.id, 'charger-cancel-reservation')).toEqual([]);
    });
  }

  it('Timeout (no answer): recorded, the booking stays Created; a cancel still asks, in case it was taken late', async () => {
    behaviours.set('RES-01', 'silent');
    const driver = await member();
    const booking = await reserve(driver.token, connectorIds[1]!);
    behaviours.clear();
    expect(await eventsOf(booking.id, 'charger-reserve')).toMatchObject([{ detail: { answer: 'Timeout' } }]);
    expect((await detail(booking.id)).booking.status).toBe('created');
    await t.call('POST', `/api/member/booking/${booking.id}/cancel`, { token: driver.token });
    await t.app.jobs.settled();
    expect(commands('CancelReservation').at(-1)).toEqual({ reservationId: booking.id });
    // The silent charger never held it: it says so.
    expect(await eventsOf(booking.id, 'charger-cancel-reservation')).toMatchObject([
      { detail: { answer: 'Rejected', reason: 'cancelled' } },
    ]);
  });
});
