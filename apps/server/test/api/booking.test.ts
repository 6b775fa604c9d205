import { BOOKING_MESSAGES, BOOKING_STATUSES, type BookingStatus } from '@ev/shared';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bookingEvents, bookings, payments } from '../../src/db/schema/index.ts';
import { createBooking } from '../helpers/bookings.ts';
import { createParty, signedInUser } from '../helpers/factories.ts';
import { chargerPlace, createChargers } from '../helpers/ocpp.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';

let t: TestApp;
let admin: string;
let callcenter: string;
let station: string;
let marketting: string;
let connectorId: number;
let otherConnectorId: number;
let placeIds: { site: number; merchant: number; otherSite: number; otherMerchant: number };

beforeAll(async () => {
  t = await startTestApp();
  admin = (await signedInUser(t, { role: 'admin' })).token;
  callcenter = (await signedInUser(t, { role: 'callcenter' })).token;
  marketting = (await signedInUser(t, { role: 'marketting' })).token;
  const place = await chargerPlace(t);
  const other = await chargerPlace(t);
  connectorId = (await createChargers(t, admin, place, ['BK-LIST-01']))[0]!.connectorIds[0]!;
  otherConnectorId = (await createChargers(t, admin, other, ['BK-OTHER-01']))[0]!.connectorIds[0]!;
  placeIds = {
    site: place.site.id,
    merchant: place.merchant.id,
    otherSite: other.site.id,
    otherMerchant: other.merchant.id,
  };
  const party = await createParty(t, [place.site.id]);
  station = (await signedInUser(t, { role: 'station', partyId: party.id })).token;
});
afterAll(() => t.close());

type Action = 'stop' | 'force-stop' | 'avaliable' | 'set-amount' | 'pay' | 'cancel-payment' | 'delete';

const act = (action: Action, id: number, token = admin) => {
  switch (action) {
    case 'set-amount':
      return t.call('PATCH', `/api/booking/${id}`, { token, body: { amount: 150 } });
    case 'delete':
      return t.call('DELETE', `/api/booking/${id}`, { token });
    default:
      return t.call('POST', `/api/booking/${id}/${action}`, { token });
  }
};

/** Section 4: which status takes which staff action (stop needs a live charger: see booking-session.test.ts). */
const ALLOWED: Record<Exclude<Action, 'stop'>, BookingStatus[]> = {
  'force-stop': ['charging'],
  avaliable: ['charged'],
  'set-amount': ['stopped'],
  pay: ['stopped'],
  'cancel-payment': ['stopped'],
  delete: ['created', 'started', 'charging'],
};
const NOTICE: Record<Exclude<Action, 'stop'>, string> = {
  'force-stop': BOOKING_MESSAGES.forceStopped,
  avaliable: BOOKING_MESSAGES.avaliable,
  'set-amount': BOOKING_MESSAGES.setAmount,
  pay: BOOKING_MESSAGES.paid,
  'cancel-payment': BOOKING_MESSAGES.cancelledPayment,
  delete: BOOKING_MESSAGES.deleted,
};

describe('every staff action in every status (admin)', () => {
  for (const [action, allowed] of Object.entries(ALLOWED) as Array<
    [Exclude<Action, 'stop'>, BookingStatus[]]
  >) {
    for (const status of BOOKING_STATUSES) {
      const ok = allowed.includes(status);
      it(`${action} on ${status}: ${ok ? '200' : '409'}`, async () => {
        const booking = await createBooking(t, connectorId, status);
        const response = await act(action, booking.id);
        expect(response.status, JSON.stringify(response.body)).toBe(ok ? 200 : 409);
        if (ok) expect(response.body.message).toBe(NOTICE[action]);
        else expect(response.body.message).toMatch(/^A booking that is \w+ can't be /);
        const [after] = await t.database.db.select().from(bookings).where(eq(bookings.id, booking.id));
        if (!ok) expect(after!.status).toBe(status);
      });
    }
  }

  it('stop in a status other than charging is a 409 without calling the charger', async () => {
    const booking = await createBooking(t, connectorId, 'charged');
    const response = await act('stop', booking.id);
    expect(response.status).toBe(409);
    expect(response.body.message).toBe("A booking that is Charged can't be stopped");
  });
});

describe('what each action does', () => {
  it('force stop moves a charging booking to Unpaid, priced now, and records who did it', async () => {
    const booking = await createBooking(t, connectorId, 'charging');
    expect((await act('force-stop', booking.id, callcenter)).status).toBe(200);
    const [row] = await t.database.db.select().from(bookings).where(eq(bookings.id, booking.id));
    expect(row!.status).toBe('stopped');
    expect(row!.stopTime).not.toBeNull();
    expect(row!.avaliableAt).not.toBeNull();
    // 12 kWh × 7.50 = 90.00 (a KW plan: no time part); no overstay (stopped and available at once).
    expect(row!.priceByPower).toBe('90.00');
    expect(row!.priceByDuration).toBe('0.00');
    expect(row!.priceByPenalty).toBe('0.00');
    expect(row!.totalAmount).toBe('90.00');
    const events = await t.database.db
      .select()
      .from(bookingEvents)
      .where(eq(bookingEvents.bookingId, booking.id));
    expect(events.at(-1)).toMatchObject({
      event: 'force-stop',
      fromStatus: 'charging',
      toStatus: 'stopped',
      actor: 'staff',
    });
  });

  it('avaliable prices the overstay up to now', async () => {
    const booking = await createBooking(t, connectorId, 'charged');
    expect((await act('avaliable', booking.id)).status).toBe(200);
    const [row] = await t.database.db.select().from(bookings).where(eq(bookings.id, booking.id));
    // Stopped 10 minutes ago: 10 − 5 allowance = 5 started minutes × 2 baht (6 if a second ticked over).
    expect(['10.00', '12.00']).toContain(row!.priceByPenalty);
    expect(row!.status).toBe('stopped');
  });

  it('set amount overrides the total or a part, and pay takes the amount owed with a gapless invoice number', async () => {
    const first = await createBooking(t, connectorId, 'stopped');
    const second = await createBooking(t, connectorId, 'stopped');
    const patched = await t.call('PATCH', `/api/booking/${first.id}`, {
      token: admin,
      body: { priceByPenalty: 0 },
    });
    expect(patched.status).toBe(200);
    const list = await t.call('GET', `/api/booking?bookingId=${first.id}`, { token: admin });
    expect(list.body.bookings[0]).toMatchObject({
      priceByPenalty: 0,
      totalAmount: 90,
      computed: { priceByPenalty: 10 },
      overrides: { priceByPenalty: 0 },
    });
    // A stale screen: the amount it shows is no longer owed.
    const stale = await t.call('POST', `/api/booking/${first.id}/pay`, {
      token: admin,
      body: { amount: 100 },
    });
    expect(stale.status).toBe(409);
    expect(stale.body.message).toContain('90.00');
    expect(
      (await t.call('POST', `/api/booking/${first.id}/pay`, { token: admin, body: { amount: 90 } })).status,
    ).toBe(200);
    await t.call('PATCH', `/api/booking/${second.id}`, { token: admin, body: { amount: 99.5 } });
    expect((await act('pay', second.id)).status).toBe(200);
    const rows = await t.database.db.select().from(payments);
    const byBooking = new Map(rows.map((row) => [row.bookingId, row]));
    expect(byBooking.get(first.id)).toMatchObject({ amount: '90.00', method: 'manual' });
    expect(byBooking.get(second.id)).toMatchObject({ amount: '99.50', method: 'manual' });
    const numbers = rows.map((row) => row.invoiceNo).sort();
    const year = new Date(Date.now() + 7 * 3_600_000).getUTCFullYear();
    expect(numbers).toEqual(numbers.map((_, i) => `INV-${year}-${String(i + 1).padStart(6, '0')}`));
  });

  it('refuses a typed amount that is not a number with the spec text', async () => {
    const booking = await createBooking(t, connectorId, 'stopped');
    const response = await t.call('PATCH', `/api/booking/${booking.id}`, {
      token: admin,
      body: { amount: 'abc' },
    });
    expect(response.status).toBe(400);
    expect(response.body.message).toContain(BOOKING_MESSAGES.inputNumber);
  });

  it('a deleted booking leaves the list but keeps its history', async () => {
    const booking = await createBooking(t, connectorId, 'created');
    expect((await act('delete', booking.id)).status).toBe(200);
    const list = await t.call('GET', `/api/booking?bookingId=${booking.id}`, { token: admin });
    expect(list.body.total).toBe(0);
    const [row] = await t.database.db.select().from(bookings).where(eq(bookings.id, booking.id));
    expect(row!.deletedAt).not.toBeNull();
    expect((await act('delete', booking.id)).status).toBe(404);
  });
});

describe('roles and scope', () => {
  it('marketting has no booking screen: 403 on the list and every action', async () => {
    const booking = await createBooking(t, connectorId, 'stopped');
    expect((await t.call('GET', '/api/booking', { token: marketting })).status).toBe(403);
    for (const action of ['pay', 'cancel-payment', 'set-amount', 'delete'] as const) {
      expect((await act(action, booking.id, marketting)).status).toBe(403);
    }
  });

  it('force stop is for admin and callcenter only', async () => {
    const booking = await createBooking(t, connectorId, 'charging');
    expect((await act('force-stop', booking.id, station)).status).toBe(403);
  });

  it('only an admin deletes a charging booking', async () => {
    const booking = await createBooking(t, connectorId, 'charging');
    const refused = await act('delete', booking.id, callcenter);
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe('Only an admin can delete a booking that is charging');
    expect((await act('delete', booking.id, station)).status).toBe(403);
    expect((await act('delete', booking.id, admin)).status).toBe(200);
  });

  it("a station user sees and acts on its group's sites only (404 outside)", async () => {
    const mine = await createBooking(t, connectorId, 'stopped');
    const theirs = await createBooking(t, otherConnectorId, 'stopped');
    const list = await t.call('GET', '/api/booking?size=100', { token: station });
    const ids = list.body.bookings.map((row: { id: number }) => row.id);
    expect(ids).toContain(mine.id);
    expect(ids).not.toContain(theirs.id);
    expect((await act('pay', theirs.id, station)).status).toBe(404);
    expect((await t.call('GET', `/api/booking/${theirs.id}`, { token: station })).status).toBe(404);
    expect((await act('pay', mine.id, station)).status).toBe(200);
  });
});

describe('two staff at once', () => {
  it('exactly one of ten concurrent payments wins; the others get 409', async () => {
    const booking = await createBooking(t, connectorId, 'stopped');
    const answers = await Promise.all(Array.from({ length: 10 }, () => act('pay', booking.id)));
    expect(answers.filter((answer) => answer.status === 200)).toHaveLength(1);
    expect(answers.filter((answer) => answer.status === 409)).toHaveLength(9);
    const rows = await t.database.db.select().from(payments).where(eq(payments.bookingId, booking.id));
    expect(rows).toHaveLength(1);
  });

  it('two force stops racing: one wins, one history entry', async () => {
    const booking = await createBooking(t, connectorId, 'charging');
    const [first, second] = await Promise.all([act('force-stop', booking.id), act('force-stop', booking.id)]);
    expect([first.status, second.status].sort()).toEqual([200, 409]);
    const events = await t.database.db
      .select()
      .from(bookingEvents)
      .where(eq(bookingEvents.bookingId, booking.id));
    expect(events.filter((event) => event.event === 'force-stop')).toHaveLength(1);
  });
});

describe('the list', () => {
  it('shows today in Asia/Bangkok by default, and a range when asked', async () => {
    const old = await createBooking(t, connectorId, 'paid', {
      createdAt: new Date(Date.now() - 3 * 86_400_000),
    });
    const today = await t.call('GET', '/api/booking?size=100', { token: admin });
    expect(today.status).toBe(200);
    expect(today.body.bookings.map((row: { id: number }) => row.id)).not.toContain(old.id);
    const after = new Date(Date.now() - 4 * 86_400_000).toISOString();
    const ranged = await t.call('GET', `/api/booking?size=100&createdAfter=${after}&bookingId=${old.id}`, {
      token: admin,
    });
    expect(ranged.body).toMatchObject({
      total: 1,
      bookings: [{ id: old.id, status: 'paid', totalAmount: 100 }],
    });
  });

  it('filters by status, method, connector and member text, and refuses a bad date', async () => {
    const paid = await createBooking(t, otherConnectorId, 'paid');
    const response = await t.call(
      'GET',
      `/api/booking?status=paid&paymentMethod=credit&connectorId=${otherConnectorId}&userName=Driver`,
      { token: admin },
    );
    expect(response.body.bookings.map((row: { id: number }) => row.id)).toContain(paid.id);
    for (const row of response.body.bookings)
      expect(row).toMatchObject({ status: 'paid', connectorId: otherConnectorId });
    const bad = await t.call('GET', '/api/booking?createdAfter=yesterday', { token: admin });
    expect(bad.status).toBe(400);
  });

  it('answers each shape of query with its own values, however often the shape was seen', async () => {
    // The list keeps its statements per shape (filters, scope kind, sort) and fills in each call's values.
    // createBooking dates a booking an hour back: from just before these three, only they and later ones.
    const after = new Date(Date.now() - 3_600_000 - 1000).toISOString();
    const a1 = await createBooking(t, connectorId, 'paid');
    const a2 = await createBooking(t, connectorId, 'stopped');
    const b1 = await createBooking(t, otherConnectorId, 'paid');
    const mine = [a1.id, a2.id, b1.id];
    const ids = async (query: string, token = admin) => {
      const response = await t.call('GET', `/api/booking?size=100&createdAfter=${after}&${query}`, { token });
      expect(response.status, JSON.stringify(response.body)).toBe(200);
      return (response.body.bookings as Array<{ id: number }>)
        .map((row) => row.id)
        .filter((id) => mine.includes(id));
    };
    const { site, merchant, otherSite, otherMerchant } = placeIds;
    for (let round = 0; round < 2; round++) {
      expect(await ids(`landlordId=${site}`)).toEqual([a2.id, a1.id]);
      expect(await ids(`landlordId=${otherSite}`)).toEqual([b1.id]);
      expect((await ids(`landlordId=${site}&landlordId=${otherSite}`)).sort()).toEqual([...mine].sort());
      expect(await ids(`merchantId=${otherMerchant}`)).toEqual([b1.id]);
      expect(await ids(`merchantId=${merchant}&status=stopped`)).toEqual([a2.id]);
      expect(await ids('chargerId=bk-other')).toEqual([b1.id]);
      expect(await ids('chargerId=BK-LIST')).toEqual([a2.id, a1.id]);
      expect(await ids(`landlordId=${site}&sort=createdAt&order=asc`)).toEqual([a1.id, a2.id]);
      // A station user's scope is its group's sites: the same shape for any group.
      expect(await ids('', station)).toEqual([a2.id, a1.id]);
      expect(await ids(`landlordId=${otherSite}`, station)).toEqual([]);
    }
    // Paging: one row a page walks the same order as the whole list.
    const whole = await ids(`landlordId=${site}`);
    const paged = [];
    for (let page = 1; page <= whole.length + 1; page++) {
      const response = await t.call(
        'GET',
        `/api/booking?size=1&page=${page}&createdAfter=${after}&landlordId=${site}`,
        { token: admin },
      );
      paged.push(...(response.body.bookings as Array<{ id: number }>).map((row) => row.id));
    }
    expect(paged.filter((id) => mine.includes(id))).toEqual(whole);
  });

  it('prices a charging row live, from its snapshot', async () => {
    const booking = await createBooking(t, connectorId, 'charging');
    const response = await t.call('GET', `/api/booking?bookingId=${booking.id}`, { token: admin });
    // 12 kWh so far × 7.50 = 90.00.
    expect(response.body.bookings[0]).toMatchObject({
      live: true,
      priceByPower: 90,
      priceByDuration: 0,
      totalAmount: 90,
    });
  });
});

describe('reservations that pass unused', () => {
  it('are cancelled by the server once the slot ended 15 minutes ago', async () => {
    const { expireReservations } = await import('../../src/modules/member/member.service.ts');
    const now = Date.now();
    const stale = await createBooking(t, connectorId, 'started', {
      slotStart: new Date(now - 2 * 3_600_000),
      slotEnd: new Date(now - 16 * 60_000),
    });
    const fresh = await createBooking(t, connectorId, 'created', {
      slotStart: new Date(now - 3_600_000),
      slotEnd: new Date(now - 14 * 60_000),
    });
    expect(await expireReservations(t.database.db, now)).toBeGreaterThanOrEqual(1);
    const status = async (id: number) =>
      (await t.database.db.select().from(bookings).where(eq(bookings.id, id)))[0]!.status;
    expect(await status(stale.id)).toBe('cancelled');
    expect(await status(fresh.id)).toBe('created');
    const events = await t.database.db
      .select()
      .from(bookingEvents)
      .where(eq(bookingEvents.bookingId, stale.id));
    expect(events.at(-1)).toMatchObject({ event: 'cancel', actor: 'system', toStatus: 'cancelled' });
  });
});
