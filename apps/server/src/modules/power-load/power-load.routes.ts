import { errorResponse, idParam, sitePower as sitePowerResponse } from '@ev/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { authOf } from '../../plugins/auth.ts';
import { scopeOf } from '../../plugins/scope.ts';
import type { Services } from '../../services.ts';
import { LANDLORD_NOT_FOUND } from '../landlord/landlord.service.ts';
import { sitePower } from './site-power.ts';

const errors = { 400: errorResponse, 401: errorResponse, 403: errorResponse, 404: errorResponse };

/** A site's live load (issue 34): the roles and the scope of GET /api/landlord/:id. */
export const powerLoadRoutes =
  ({ db }: Services): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      '/api/landlord/:id/power',
      {
        config: { permission: 'landlord.read' },
        schema: {
          tags: ['landlord'],
          description:
            "The site's live load: its power over the last hour (60 points, one per minute, oldest first, the last the current minute; none without a limit) against its limit, and each active session's allowance now.",
          params: idParam(LANDLORD_NOT_FOUND),
          response: { 200: sitePowerResponse, ...errors },
        },
      },
      async (request) => sitePower(db, scopeOf(authOf(request).user), request.params.id),
    );
  };
