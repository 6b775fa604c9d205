import {
  BOOKING_MESSAGES,
  errorResponse,
  homepagePromotionsResponse,
  idParam,
  memberBookingListResponse,
  memberBookingResponse,
  memberForgotPasswordBody,
  memberGuidesResponse,
  memberLoginBody,
  memberLoginResponse,
  memberPayBody,
  memberPayResponse,
  memberPointResponse,
  memberResetPasswordBody,
  messageResponse,
  noFieldsBody,
  redeemBody,
  redeemResponse,
  reserveBody,
} from '@ev/shared';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { memberOf } from '../../plugins/auth.ts';
import type { Services } from '../../services.ts';
import { checkedSignIn, createSession, forgotPassword, resetPassword } from '../auth/auth.service.ts';
import {
  cancelAtCharger,
  type ReservationContext,
  reserveAtCharger,
} from '../booking/charger-reservation.ts';
import { memberGuides } from '../page/page.service.ts';
import { memberPoints } from '../payment/adjustments.ts';
import { payBooking } from '../payment/settlement.ts';
import { homepagePromotions } from '../promotion/promotion.service.ts';
import { redeemCode } from '../promotion/redeem.ts';
import {
  cancelReservation,
  checkIn,
  memberBooking,
  memberBookings,
  memberTag,
  ownBooking,
  reserve,
  startCharging,
  stopCharging,
} from './member.service.ts';

const errors = {
  400: errorResponse,
  401: errorResponse,
  403: errorResponse,
  404: errorResponse,
  409: errorResponse,
};
const tags = ['member'];
const params = idParam(BOOKING_MESSAGES.notFound);
const config = { member: true };

/**
 * The companion app's side of a booking (it is not ours to build, but its bookings must exist): sign in as a
 * member, reserve a connector, check in, start and stop, pay. Documented under the OpenAPI tag 'member'.
 */
export const memberRoutes =
  ({ db, config: appConfig, commands, payments, mailer, background }: Services): FastifyPluginAsyncZod =>
  async (app) => {
    const reservations: ReservationContext = { db, commands };
    app.post(
      '/api/member/login',
      {
        config: { public: true },
        schema: {
          tags,
          description:
            'Signs a member (mobile user) in, with the same limits as staff sign-in. Answers the access token ' +
            '(X-ACCESS-TOKEN) and the id tag the app starts sessions with.',
          body: memberLoginBody,
          security: [],
          response: { 200: memberLoginResponse, ...errors, 429: errorResponse },
        },
      },
      async (request) => {
        const user = await checkedSignIn(
          { db, ip: request.ip, sessionTtlMs: appConfig.sessionTtlMs },
          request.body,
          'mobile',
        );
        const accessToken = await createSession(db, user.id, appConfig.sessionTtlMs);
        return { message: 'Success', accessToken, idTag: await memberTag(db, user.id) };
      },
    );
    app.post(
      '/api/member/forgot-password',
      {
        config: { public: true },
        schema: {
          tags,
          description:
            "Mails the member a single-use link (one hour) to the web app's set-password page, which then sends " +
            'the member back to the app. Always 200 (an unknown or locked member gets no mail); throttled like ' +
            "staff's forgot-password (3 per account, 10 per address an hour), counted apart.",
          body: memberForgotPasswordBody,
          security: [],
          response: { 200: messageResponse, 400: errorResponse, 429: errorResponse },
        },
      },
      async (request) => {
        await forgotPassword(
          { db, ip: request.ip, sessionTtlMs: appConfig.sessionTtlMs, mailer, appUrl: appConfig.appUrl },
          request.body,
          'mobile',
        );
        return { message: 'Success' };
      },
    );
    app.post(
      '/api/member/reset-password',
      {
        config: { public: true },
        schema: {
          tags,
          description:
            "Sets a member's password with the token of a reset or invitation link (members' links only): the " +
            "link works once, spends the member's other links, signs the member out everywhere and lifts the " +
            "sign-in wait of the member's failed attempts. An invalid, used or expired link is a 400.",
          body: memberResetPasswordBody,
          security: [],
          response: { 200: messageResponse, 400: errorResponse },
        },
      },
      async (request) => {
        await resetPassword(db, request.body, 'mobile');
        return { message: 'Success' };
      },
    );
    app.get(
      '/api/member/booking',
      {
        config,
        schema: {
          tags,
          description: "The member's 50 latest bookings.",
          response: { 200: memberBookingListResponse, ...errors },
        },
      },
      async (request) => ({ bookings: await memberBookings(db, memberOf(request).id) }),
    );
    app.get(
      '/api/member/promotion',
      {
        config,
        schema: {
          tags,
          description:
            'The promotions of the app’s homepage: shown there, active, valid now and with a code left (the code ' +
            'itself for a one-code promotion), newest first.',
          response: { 200: homepagePromotionsResponse, ...errors },
        },
      },
      async () => ({ promotions: await homepagePromotions(db) }),
    );
    app.get(
      '/api/member/point',
      {
        config,
        schema: {
          tags,
          description:
            'The member’s green points: the balance, the rate card in force (earn `toPoint` per `fromBaht` ' +
            'paid; `fromPoint` points are worth `toBaht`; null when none is in force, and points can’t be ' +
            'redeemed) and the latest 50 ledger entries, newest first.',
          response: { 200: memberPointResponse, ...errors },
        },
      },
      async (request) => memberPoints(db, memberOf(request).id),
    );
    app.post(
      '/api/member/promotion/redeem',
      {
        config,
        schema: {
          tags,
          description:
            'Redeems a code (any case): a discount for one of the member’s bookings not yet paid (taken off at ' +
            'its payment), a point code’s points credited, a private station code’s sites with the license ' +
            'plate. One redemption of a code per member; a code’s uses are taken exactly, however many redeem ' +
            'at once. Each refusal has its own message.',
          body: redeemBody,
          response: { 200: redeemResponse, ...errors },
        },
      },
      async (request) => ({
        message: 'Success',
        ...(await redeemCode(db, memberOf(request).id, request.body)),
      }),
    );
    app.get(
      '/api/member/guide',
      {
        config,
        schema: {
          tags,
          description:
            'The tutorials the app shows: active ones given a display order (Manage Tutorials), in that order.',
          response: { 200: memberGuidesResponse, ...errors },
        },
      },
      async () => memberGuides(db),
    );
    app.get(
      '/api/member/booking/:id',
      {
        config,
        schema: {
          tags,
          description: 'One of the member own bookings, with its live price while charging.',
          params,
          response: { 200: memberBookingResponse, ...errors },
        },
      },
      async (request) => ({ booking: await memberBooking(db, memberOf(request).id, request.params.id) }),
    );
    app.post(
      '/api/member/booking',
      {
        config,
        schema: {
          tags,
          description:
            'Reserves a connector for a slot (ISO instants) starting at most 1 day ahead and at most 4 hours ' +
            'long: status created. One open booking per member; overlapping slots of a connector are a 409.',
          body: reserveBody,
          response: { 200: memberBookingResponse, ...errors },
        },
      },
      async (request) => {
        const userId = memberOf(request).id;
        const id = await reserve(db, userId, request.body);
        // Committed: a reservation for now goes to the charger (ReserveNow), its answer to the history.
        background.run(`ReserveNow of booking ${id}`, () => reserveAtCharger(reservations, id));
        return { booking: await memberBooking(db, userId, id) };
      },
    );

    const step = (
      path: string,
      description: string,
      run: (request: FastifyRequest, userId: number, id: number) => Promise<void>,
    ) =>
      app.post(
        `/api/member/booking/:id/${path}`,
        {
          config,
          schema: {
            tags,
            description,
            params,
            body: noFieldsBody,
            response: { 200: memberBookingResponse, ...errors, 502: errorResponse, 504: errorResponse },
          },
        },
        async (request) => {
          const userId = memberOf(request).id;
          await run(request, userId, request.params.id);
          return { booking: await memberBooking(db, userId, request.params.id) };
        },
      );
    step(
      'check-in',
      'Created → started: the member is at the charger (15 minutes before the slot to its end).',
      (_r, userId, id) => checkIn(db, userId, id),
    );
    step(
      'start',
      'Started: the server sends RemoteStartTransaction with the member id tag; the charger StartTransaction ' +
        'then makes the booking charging.',
      (_r, userId, id) => startCharging(db, commands, userId, id),
    );
    step(
      'stop',
      'Charging: sends RemoteStopTransaction; StopTransaction makes it charged.',
      (_r, userId, id) => stopCharging(db, commands, userId, id),
    );
    step(
      'cancel',
      'Created or started: cancels the reservation (and the charger’s, CancelReservation, if it took one).',
      async (_r, userId, id) => {
        await cancelReservation(db, userId, id);
        background.run(`CancelReservation of booking ${id}`, () =>
          cancelAtCharger(reservations, id, 'cancelled'),
        );
      },
    );

    app.post(
      '/api/member/booking/:id/pay',
      {
        config,
        schema: {
          tags,
          description:
            'Unpaid (stopped) → paid, by the method chosen in the app; a free session is recorded as zero. ' +
            '`amount`, when sent, must be the amount owed (409 otherwise). The payment provider is called with ' +
            'no lock held: a refusal is a 402 (the booking stays Unpaid), no answer in time a 504 (the payment ' +
            'stays pending and is completed when the provider answers; another pay meanwhile is a 409). ' +
            'The booking’s discount code comes off first; `point` green points (whole) are redeemed at the ' +
            'card in force, at most what is left to pay (400 beyond it, 409 without the balance), and given ' +
            'back if the provider says no. The amount charged earns points by the card in force.',
          params,
          body: memberPayBody,
          response: { 200: memberPayResponse, ...errors, 402: errorResponse, 504: errorResponse },
        },
      },
      async (request) => {
        const userId = memberOf(request).id;
        const paid = await payBooking(
          payments,
          request.params.id,
          { kind: 'member', userId },
          {
            method: request.body.method,
            amount: request.body.amount,
            point: request.body.point,
            where: ownBooking(userId),
          },
        );
        return { message: BOOKING_MESSAGES.paid, ...paid };
      },
    );
  };
