import { expect } from 'vitest';
import { createUser } from './factories.ts';
import { eventually } from './ocpp.ts';
import type { TestApp } from './test-app.ts';

/**
 * A member's booking on a simulated charger, through the member API as the companion app makes it
 * (booking-session.test.ts, power-pricing.test.ts); `admin` reads the booking back as staff see it.
 */

/** A member signed in through the member API. */
export async function signedInMember(t: TestApp) {
  const user = await createUser(t, { type: 'mobile' });
  const signIn = await t.call('POST', '/api/member/login', { body: { email: user.email, pass: user.pass } });
  expect(signIn.status).toBe(200);
  return { user, token: signIn.body.accessToken as string, idTag: signIn.body.idTag as string };
}

export type Member = Awaited<ReturnType<typeof signedInMember>>;

/** Calls to a server: the test app's `t.call`, or a cluster process's (`callsTo`). */
type Api = TestApp['call'];

/** The booking's detail as staff read it (GET /api/booking/:id through `staff`): `booking` and its `history`. */
export const bookingDetail = async (staff: Api, admin: string, id: number) =>
  (await staff('GET', `/api/booking/${id}`, { token: admin })).body;

/** Waits until the booking is in `status`; answers its detail then. */
export const bookingIn = (staff: Api, admin: string, id: number, status: string, timeoutMs?: number) =>
  eventually(async () => {
    const detail = await bookingDetail(staff, admin, id);
    return detail.booking?.status === status ? detail : null;
  }, timeoutMs);

/** The member reserves our connector `connectorId` for the coming hour through `via`; answers the booking id. */
export async function reserveBooking(via: Api, who: { token: string }, connectorId: number) {
  const now = Date.now();
  const reserved = await via('POST', '/api/member/booking', {
    token: who.token,
    body: {
      connectorId,
      slotStart: new Date(now).toISOString(),
      slotEnd: new Date(now + 3_600_000).toISOString(),
    },
  });
  expect(reserved.status, JSON.stringify(reserved.body)).toBe(200);
  expect(reserved.body.booking.status).toBe('created');
  return reserved.body.booking.id as number;
}

/**
 * The member reserves our connector `connectorId` for now through `via`, and once the charger accepted the
 * reservation (ReserveNow, read through `staff`) checks in and starts; answers the booking id.
 */
export async function startBooking(
  via: Api,
  staff: Api,
  admin: string,
  who: { token: string },
  connectorId: number,
) {
  const id = await reserveBooking(via, who, connectorId);
  // The reservation for now goes to the charger (ReserveNow), recorded once it answers (issue 32 §4): one order
  // of events.
  const reserveNow = await eventually(async () =>
    (
      (await bookingDetail(staff, admin, id)).history as Array<{ event: string; detail: { answer: string } }>
    ).find((entry) => entry.event === 'charger-reserve'),
  );
  expect(reserveNow.detail.answer).toBe('Accepted');
  const checkedIn = await via('POST', `/api/member/booking/${id}/check-in`, { token: who.token });
  expect(checkedIn.status, JSON.stringify(checkedIn.body)).toBe(200);
  expect(checkedIn.body.booking.status).toBe('started');
  const started = await via('POST', `/api/member/booking/${id}/start`, { token: who.token });
  expect(started.status, JSON.stringify(started.body)).toBe(200);
  return id;
}

/** `startBooking` on the test app; answers the booking id once it is charging. */
export async function chargingBooking(t: TestApp, admin: string, who: Member, connectorId: number) {
  const id = await startBooking(t.call, t.call, admin, who, connectorId);
  await bookingIn(t.call, admin, id, 'charging');
  return id;
}
