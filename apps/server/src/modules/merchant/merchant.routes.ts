import {
  createdResponse,
  errorResponse,
  idParam,
  merchantBody,
  merchantListQuery,
  merchantListResponse,
  merchantPatchBody,
  merchantResponse,
  messageResponse,
} from '@ev/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { authOf } from '../../plugins/auth.ts';
import { scopeOf } from '../../plugins/scope.ts';
import type { Services } from '../../services.ts';
import { actorOf } from '../audit/audit.ts';
import { exportMerchants } from './merchant.export.ts';
import {
  createMerchant,
  deleteMerchant,
  getMerchant,
  listMerchants,
  MERCHANT_NOT_FOUND,
  merchantDropdown,
  updateMerchant,
} from './merchant.service.ts';

const errors = { 400: errorResponse, 401: errorResponse, 403: errorResponse, 404: errorResponse };
const tags = ['merchant'];
/** `{ id }`: beyond the integer column it answers this area's 404, like any missing id. */
const params = idParam(MERCHANT_NOT_FOUND);

export const merchantRoutes =
  ({ db }: Services): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      '/api/merchant',
      {
        // The list and export need merchant.read; the dropdown is open to every role, narrowed by scope.
        config: { permission: 'merchant.read', modePermissions: { dropdown: 'merchant.dropdown' } },
        schema: {
          tags,
          description:
            'Clusters: a page `{ total, merchants }`, `mode=dropdown`, or `mode=xlsx` (a workbook).',
          querystring: merchantListQuery,
          response: { 200: merchantListResponse, ...errors },
        },
      },
      async (request, reply) => {
        const auth = authOf(request);
        const scope = scopeOf(auth.user);
        if (request.query.mode === 'dropdown') return { merchants: await merchantDropdown(db, scope) };
        if (request.query.mode === 'xlsx') return exportMerchants(db, scope, request.query, reply);
        return listMerchants(db, scope, request.query);
      },
    );
    app.get(
      '/api/merchant/:id',
      {
        config: { permission: 'merchant.read' },
        schema: { tags, params, response: { 200: merchantResponse, ...errors } },
      },
      async (request) => ({
        merchant: await getMerchant(db, scopeOf(authOf(request).user), request.params.id),
      }),
    );
    app.post(
      '/api/merchant',
      {
        config: { permission: 'merchant.write' },
        schema: { tags, body: merchantBody, response: { 200: createdResponse, ...errors } },
      },
      async (request) => ({
        message: 'Success',
        id: await createMerchant(db, request.body, actorOf(request)),
      }),
    );
    app.patch(
      '/api/merchant/:id',
      {
        config: { permission: 'merchant.write' },
        schema: {
          tags,
          description: 'Saves the Cluster Setting form, or only `{ active }`.',
          params,
          body: merchantPatchBody,
          response: { 200: messageResponse, ...errors },
        },
      },
      async (request) => {
        await updateMerchant(
          db,
          scopeOf(authOf(request).user),
          request.params.id,
          request.body,
          actorOf(request),
        );
        return { message: 'Success' };
      },
    );
    app.delete(
      '/api/merchant/:id',
      {
        config: { permission: 'merchant.write' },
        schema: { tags, params, response: { 200: messageResponse, 409: errorResponse, ...errors } },
      },
      async (request) => {
        await deleteMerchant(db, scopeOf(authOf(request).user), request.params.id, actorOf(request));
        return { message: 'Success' };
      },
    );
  };
