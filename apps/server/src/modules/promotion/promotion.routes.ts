import {
  errorResponse,
  idParam,
  messageResponse,
  PROMOTION_MESSAGES,
  promotionBody,
  promotionCreatedResponse,
  promotionListQuery,
  promotionListResponse,
  promotionPatchBody,
  promotionResponse,
} from '@ev/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Services } from '../../services.ts';
import { actorOf } from '../audit/audit.ts';
import {
  createPromotion,
  deletePromotion,
  getPromotion,
  listPromotions,
  promotionCodesFile,
  updatePromotion,
} from './promotion.service.ts';

const errors = { 400: errorResponse, 401: errorResponse, 403: errorResponse, 404: errorResponse };
const tags = ['promotion'];
const params = idParam(PROMOTION_MESSAGES.notFound);

/**
 * Promotions of the three types (document 3, sections 2 to 7): admin and marketting; the codes' download
 * admin only. Promotions belong to the whole network: no data scope narrows them.
 */
export const promotionRoutes =
  ({ db }: Services): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      '/api/promotion',
      {
        config: { permission: 'promotion.read' },
        schema: {
          tags,
          description: 'Promotions: a page `{ total, promotions }`, with each one’s codes counted.',
          querystring: promotionListQuery,
          response: { 200: promotionListResponse, ...errors },
        },
      },
      async (request) => listPromotions(db, request.query),
    );
    app.get(
      '/api/promotion/:id',
      {
        config: { permission: 'promotion.read' },
        schema: { tags, params, response: { 200: promotionResponse, ...errors } },
      },
      async (request) => ({ promotion: await getPromotion(db, request.params.id) }),
    );
    app.post(
      '/api/promotion',
      {
        config: { permission: 'promotion.write' },
        schema: {
          tags,
          description:
            'Creates a promotion and its `count` codes; answers them when more than one (saved as `{code}.csv`). ' +
            "409 'Code is already used'.",
          body: promotionBody,
          response: { 200: promotionCreatedResponse, 409: errorResponse, ...errors },
        },
      },
      async (request) => {
        const { id, codes } = await createPromotion(db, request.body, actorOf(request));
        return { message: 'Success', id, ...(codes.length > 1 ? { codes } : {}) };
      },
    );
    app.patch(
      '/api/promotion/:id',
      {
        config: { permission: 'promotion.write' },
        schema: {
          tags,
          description:
            'Saves the form (after creation only the names, homepage and point may change), or only `{ active }`.',
          params,
          body: promotionPatchBody,
          response: { 200: messageResponse, ...errors },
        },
      },
      async (request) => {
        await updatePromotion(db, request.params.id, request.body, actorOf(request));
        return { message: 'Success' };
      },
    );
    app.delete(
      '/api/promotion/:id',
      {
        config: { permission: 'promotion.write' },
        schema: { tags, params, response: { 200: messageResponse, 409: errorResponse, ...errors } },
      },
      async (request) => {
        await deletePromotion(db, request.params.id, actorOf(request));
        return { message: 'Success' };
      },
    );
    app.get(
      '/api/promotion/:id/code',
      {
        config: { permission: 'promotion.codes' },
        schema: {
          tags,
          description: 'The promotion’s codes as CSV (`{code}.csv`): each code, its uses and its limit.',
          params,
          response: errors,
        },
      },
      async (request, reply) => {
        const { fileName, csv } = await promotionCodesFile(db, request.params.id);
        return reply
          .header('Content-Type', 'text/csv; charset=utf-8')
          .header('Content-Disposition', `attachment; filename="${fileName}"`)
          .header('Access-Control-Expose-Headers', 'Content-Disposition')
          .send(csv as never);
      },
    );
  };
