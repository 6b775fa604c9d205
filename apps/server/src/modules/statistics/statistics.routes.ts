import { dashboardResponse, errorResponse, statisticsQuery, statisticsResponse } from '@ev/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { authOf } from '../../plugins/auth.ts';
import { scopeOf } from '../../plugins/scope.ts';
import type { Services } from '../../services.ts';
import { dashboard } from './dashboard.service.ts';
import { sendStatistics } from './statistics.export.ts';
import { statistics } from './statistics.service.ts';

const errors = { 400: errorResponse, 401: errorResponse, 403: errorResponse, 404: errorResponse };
const tags = ['statistics'];
const MEASURES =
  'Energy (Wh), sessions, charging and idle seconds of the bookings that started in a period; revenue (paid ' +
  'less refunded), discount, green-point and refund baht of the payments made in it; utilisation = charging ' +
  'seconds / (connectors × elapsed seconds), null for the payment-method and promotion splits ' +
  '(docs/statistics.md). Bangkok calendar periods (ISO weeks, Monday first) over [from, to), at most ' +
  '1,830 days; the Booking Report’s filters within the caller’s scope (a filter outside it matches nothing).';

export const statisticsRoutes =
  ({ db }: Services): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      '/api/statistics',
      {
        config: { permission: 'statistics.read' },
        schema: {
          tags,
          description: `The measures by period and split key, with the range's totals. ${MEASURES}`,
          querystring: statisticsQuery,
          response: { 200: statisticsResponse, ...errors },
        },
      },
      async (request) => statistics(db, scopeOf(authOf(request).user), request.query),
    );
    app.get(
      '/api/statistics/export',
      {
        config: { permission: 'statistics.read' },
        schema: {
          tags,
          description:
            'Statistics_{timestamp}.xlsx: the table of GET /api/statistics with the same query, one row a ' +
            'period and split key, Thai dates (Buddhist year), kWh, baht, hh:mm:ss. 404 when it has no row.',
          querystring: statisticsQuery,
          response: errors,
        },
      },
      async (request, reply) => sendStatistics(db, scopeOf(authOf(request).user), request.query, reply),
    );
    app.get(
      '/api/dashboard',
      {
        config: { permission: 'dashboard.read' },
        schema: {
          tags,
          description:
            'The caller’s scope at a glance: connectors by state now, chargers down, sessions charging and ' +
            'bookings unpaid; today so far against the same weekday’s mean over the 4 weeks before (to the same ' +
            'time of day); the last 30 days by day, sessions by hour, payments by method, sites by utilisation.',
          response: { 200: dashboardResponse, ...errors },
        },
      },
      async (request) => dashboard(db, scopeOf(authOf(request).user)),
    );
  };
