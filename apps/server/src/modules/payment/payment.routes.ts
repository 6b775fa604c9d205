import {
  BOOKING_MESSAGES,
  errorResponse,
  idParam,
  messageResponse,
  paymentListQuery,
  paymentListResponse,
  refundBody,
} from '@ev/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { authOf } from '../../plugins/auth.ts';
import { scopeOf } from '../../plugins/scope.ts';
import type { Services } from '../../services.ts';
import { actorOf } from '../audit/audit.ts';
import { exportPayments } from './payment.export.ts';
import { listPayments } from './payment.service.ts';
import { refundPayment } from './settlement.ts';

const errors = { 400: errorResponse, 401: errorResponse, 403: errorResponse, 404: errorResponse };
const tags = ['payment'];
const params = idParam(BOOKING_MESSAGES.paymentNotFound);

export const paymentRoutes =
  ({ db, payments }: Services): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      '/api/payment',
      {
        config: { permission: 'payment.read' },
        schema: {
          tags,
          description:
            'Payments `{ total, payments }` (section 7 filters), newest first; amounts in baht. `mode=xlsx` ' +
            'downloads Payment_{timestamp}.xlsx with the same filters.',
          querystring: paymentListQuery,
          response: { 200: paymentListResponse, ...errors },
        },
      },
      async (request, reply) => {
        const scope = scopeOf(authOf(request).user);
        if (request.query.mode === 'xlsx') return exportPayments(db, scope, request.query, reply);
        return listPayments(db, scope, request.query);
      },
    );
    app.post(
      '/api/payment/:id/refund',
      {
        config: { permission: 'payment.refund' },
        schema: {
          tags,
          description:
            'Refunds a payment exactly once, at most the amount paid, with a credit-note number naming its ' +
            'invoice. Not for Zero or QR Promptpay payments (409). The refund is recorded pending, the payment ' +
            'provider asked, and the outcome recorded: a refusal is a 502 (nothing paid back, it may be tried ' +
            'again), no answer in time a 504 (it stays pending and is settled when the provider answers; 409 ' +
            'meanwhile). The default gateway records the refund for manual settlement.',
          params,
          body: refundBody,
          response: {
            200: messageResponse,
            ...errors,
            409: errorResponse,
            502: errorResponse,
            504: errorResponse,
          },
        },
      },
      async (request) => {
        const { user } = authOf(request);
        await refundPayment(
          payments,
          scopeOf(user),
          request.params.id,
          request.body.amount,
          actorOf(request),
        );
        return { message: BOOKING_MESSAGES.refunded };
      },
    );
  };
