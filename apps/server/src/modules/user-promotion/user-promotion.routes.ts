import { errorResponse, userPromotionListQuery, userPromotionListResponse } from '@ev/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { authOf } from '../../plugins/auth.ts';
import { scopeOf } from '../../plugins/scope.ts';
import type { Services } from '../../services.ts';
import { exportUserPromotions, listUserPromotions } from './user-promotion.service.ts';

const errors = { 400: errorResponse, 401: errorResponse, 403: errorResponse, 404: errorResponse };

/**
 * Private-station members (document 3, Member page): the redemptions of landlord codes, for admin (all) and
 * the station role (members of its group's sites).
 */
export const userPromotionRoutes =
  ({ db }: Services): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      '/api/user-promotion',
      {
        config: { permission: 'user-promotion.read' },
        schema: {
          tags: ['user-promotion'],
          description:
            'Private-station members `{ total, userPromotions }`: each redemption of a landlord code (`type=landlord`, ' +
            'required) with the member, their code and license plate, and the promotion’s clusters and sites; newest ' +
            'first. Texts match partly whatever their case; `merchantId` matches the clusters of the promotion’s ' +
            'sites, `landlordId` its sites. A station user sees the members of its group’s sites. `mode=xlsx` ' +
            "downloads Private-Station-Member_{timestamp}.xlsx with the same filters (404 'No matched member found').",
          querystring: userPromotionListQuery,
          response: { 200: userPromotionListResponse, ...errors },
        },
      },
      async (request, reply) => {
        const scope = scopeOf(authOf(request).user);
        if (request.query.mode === 'xlsx') return exportUserPromotions(db, scope, request.query, reply);
        return listUserPromotions(db, scope, request.query);
      },
    );
  };
