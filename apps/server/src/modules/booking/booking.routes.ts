import {
  BOOKING_MESSAGES,
  bookingAmountBody,
  bookingDetailResponse,
  bookingListQuery,
  bookingListResponse,
  bookingPayBody,
  errorResponse,
  idParam,
  messageResponse,
  noFieldsBody,
} from '@ev/shared';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { authOf } from '../../plugins/auth.ts';
import { scopeOf } from '../../plugins/scope.ts';
import type { Services } from '../../services.ts';
import { actorOf } from '../audit/audit.ts';
import { payBooking } from '../payment/settlement.ts';
import { exportBookings } from './booking.export.ts';
import {
  avaliableBooking,
  cancelBookingPayment,
  deleteBooking,
  forceStopBooking,
  getBooking,
  listBookings,
  setBookingAmount,
  stopBooking,
} from './booking.service.ts';
import { bookingScope } from './lifecycle.ts';

const errors = {
  400: errorResponse,
  401: errorResponse,
  403: errorResponse,
  404: errorResponse,
  409: errorResponse,
};
const tags = ['booking'];
const params = idParam(BOOKING_MESSAGES.notFound);

export const bookingRoutes =
  ({ db, commands, payments, background }: Services): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      '/api/booking',
      {
        config: { permission: 'booking.read' },
        schema: {
          tags,
          description:
            'Bookings `{ total, bookings }` (section 7 filters; without createdAfter/createdBefore the day is today ' +
            'in Asia/Bangkok), newest first. Amounts are baht; a charging row is a live estimate (`live`). ' +
            '`mode=xlsx` downloads Booking_{timestamp}.xlsx with the same filters.',
          querystring: bookingListQuery,
          response: { 200: bookingListResponse, ...errors },
        },
      },
      async (request, reply) => {
        const scope = scopeOf(authOf(request).user);
        if (request.query.mode === 'xlsx') return exportBookings(db, scope, request.query, reply);
        return listBookings(db, scope, request.query);
      },
    );
    app.get(
      '/api/booking/:id',
      {
        config: { permission: 'booking.read' },
        schema: {
          tags,
          description: 'One booking and its history: every transition with its time and who made it.',
          params,
          response: { 200: bookingDetailResponse, ...errors },
        },
      },
      async (request) => getBooking(db, scopeOf(authOf(request).user), request.params.id),
    );

    const staffContext = (request: FastifyRequest) => ({
      db,
      commands,
      user: authOf(request).user,
      actor: actorOf(request),
    });
    const action = (
      path: string,
      permission: 'booking.stop' | 'booking.force-stop' | 'booking.payment',
      description: string,
      run: (request: FastifyRequest, id: number) => Promise<string>,
    ) =>
      app.post(
        `/api/booking/:id/${path}`,
        {
          config: { permission },
          schema: {
            tags,
            description,
            params,
            body: noFieldsBody,
            response: { 200: messageResponse, ...errors, 502: errorResponse, 504: errorResponse },
          },
        },
        async (request) => ({ message: await run(request, request.params.id) }),
      );

    action(
      'stop',
      'booking.stop',
      'Charging only: sends RemoteStopTransaction; the charger StopTransaction then makes it charged. ' +
        'An offline charger is a 409 that says so; a charger that refuses is a 502, one that is silent a 504.',
      async (request, id) => {
        await stopBooking(staffContext(request), id);
        return BOOKING_MESSAGES.stopped;
      },
    );
    action(
      'force-stop',
      'booking.force-stop',
      'Charging only (admin, callcenter): to the payment stage (Unpaid) at once, priced now. The charger is ' +
        'asked to stop; its late StopTransaction is recorded without changing the booking.',
      async (request, id) => {
        await forceStopBooking(staffContext(request), id, (m) => request.log.warn(m));
        return BOOKING_MESSAGES.forceStopped;
      },
    );
    action(
      'avaliable',
      'booking.payment',
      'Charged only: skips the cable removal; priced now.',
      async (request, id) => {
        await avaliableBooking(staffContext(request), id);
        return BOOKING_MESSAGES.avaliable;
      },
    );
    action(
      'cancel-payment',
      'booking.payment',
      'Unpaid only: nothing is owed; the booking is cancelled.',
      async (request, id) => {
        await cancelBookingPayment(staffContext(request), id);
        return BOOKING_MESSAGES.cancelledPayment;
      },
    );

    app.post(
      '/api/booking/:id/pay',
      {
        config: { permission: 'booking.payment' },
        schema: {
          tags,
          description:
            'Unpaid only: a manual payment of the amount owed (the admin amount if set, else the priced parts), ' +
            'with the next invoice number. `amount`, when sent, must be that amount (409 otherwise). A payment ' +
            'still waiting for the payment provider is a 409; a refusal 402, no answer in time 504.',
          params,
          body: bookingPayBody,
          response: { 200: messageResponse, ...errors, 402: errorResponse, 504: errorResponse },
        },
      },
      async (request) => {
        const { user } = authOf(request);
        await payBooking(
          payments,
          request.params.id,
          { kind: 'staff', userId: user.id },
          {
            method: 'manual',
            amount: request.body?.amount,
            where: bookingScope(scopeOf(user)),
            audit: actorOf(request),
          },
        );
        return { message: BOOKING_MESSAGES.paid };
      },
    );
    app.patch(
      '/api/booking/:id',
      {
        config: { permission: 'booking.payment' },
        schema: {
          tags,
          description:
            'Unpaid only (Set amount): `amount` overrides the total, `priceByPower`, `priceByDuration` and ' +
            '`priceByPenalty` override a part; null clears an override.',
          params,
          body: bookingAmountBody,
          response: { 200: messageResponse, ...errors },
        },
      },
      async (request) => {
        await setBookingAmount(staffContext(request), request.params.id, request.body);
        return { message: BOOKING_MESSAGES.setAmount };
      },
    );
    app.delete(
      '/api/booking/:id',
      {
        config: { permission: 'booking.delete' },
        schema: {
          tags,
          description:
            'Created or started; an admin also while charging (the charger is then asked to stop). The booking ' +
            'leaves every list; it and its history are kept.',
          params,
          response: { 200: messageResponse, ...errors },
        },
      },
      async (request) => {
        await deleteBooking(staffContext(request), request.params.id, (m) => request.log.warn(m), background);
        return { message: BOOKING_MESSAGES.deleted };
      },
    );
  };
