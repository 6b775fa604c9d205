import { bookingReportQuery, can, couponReportQuery, errorResponse } from '@ev/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { Forbidden } from '../../lib/errors.ts';
import { authOf } from '../../plugins/auth.ts';
import { scopeOf } from '../../plugins/scope.ts';
import type { Services } from '../../services.ts';
import { sendBookingReport } from './booking-report.ts';
import { sendCouponReport } from './coupon-report.ts';

const errors = { 400: errorResponse, 401: errorResponse, 403: errorResponse, 404: errorResponse };

export const reportRoutes =
  ({ db }: Services): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      '/api/report/booking',
      {
        config: { permission: 'report.booking' },
        schema: {
          tags: ['report'],
          description:
            'Booking-Report_{timestamp}.xlsx of the bookings matching the filters (service dates filter createdAt, ' +
            'payment dates the payment), oldest first, streamed. style=processed (default): Thai dates in ' +
            'Asia/Bangkok, hh:mm:ss, labels, baht and the parts; style=raw (admin, merchant, callcenter, ' +
            'marketting only): ISO instants, Wh, seconds and codes under the API field names. 404 when none match.',
          querystring: bookingReportQuery,
          response: errors,
        },
      },
      async (request, reply) => {
        const { user } = authOf(request);
        if (request.query.style === 'raw' && !can(user.adminRole, 'report.booking.raw')) {
          throw new Forbidden('Style Raw is not allowed for your role');
        }
        return sendBookingReport(db, scopeOf(user), request.query, reply);
      },
    );
    app.get(
      '/api/report/user-promotion',
      {
        config: { permission: 'report.user-promotion' },
        schema: {
          tags: ['report'],
          description:
            'Coupon-Point-Report_{timestamp}.xlsx: one row per redemption of every type (Promotion Code, Point ' +
            'Code, Private Station Code), oldest first, streamed. Texts match partly whatever their case; ' +
            'merchantId and landlordId match where the redemption applies (the booking’s site for a discount on a ' +
            'booking, else the promotion’s sites); createdAfter/createdBefore filter the redeem time. Redeem dates ' +
            "in Asia/Bangkok. 404 'No matched discount found' when none match.",
          querystring: couponReportQuery,
          response: errors,
        },
      },
      async (request, reply) => sendCouponReport(db, request.query, reply),
    );
  };
