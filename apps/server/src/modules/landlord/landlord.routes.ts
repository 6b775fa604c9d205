import {
  createdResponse,
  errorResponse,
  idParam,
  landlordBody,
  landlordListQuery,
  landlordListResponse,
  landlordPatchBody,
  landlordResponse,
  messageResponse,
} from '@ev/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { authOf } from '../../plugins/auth.ts';
import { scopeOf } from '../../plugins/scope.ts';
import type { Services } from '../../services.ts';
import { actorOf } from '../audit/audit.ts';
import { exportLandlords } from './landlord.export.ts';
import {
  createLandlord,
  deleteLandlord,
  getLandlord,
  LANDLORD_NOT_FOUND,
  landlordDropdown,
  listLandlords,
  updateLandlord,
} from './landlord.service.ts';

const errors = { 400: errorResponse, 401: errorResponse, 403: errorResponse, 404: errorResponse };
const tags = ['landlord'];
/** `{ id }`: beyond the integer column it answers this area's 404, like any missing id. */
const params = idParam(LANDLORD_NOT_FOUND);

export const landlordRoutes =
  ({ db, power }: Services): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      '/api/landlord',
      {
        // The list and export need landlord.read; the dropdown is open to every role, narrowed by scope.
        config: { permission: 'landlord.read', modePermissions: { dropdown: 'landlord.dropdown' } },
        schema: {
          tags,
          description: 'Sites: a page `{ total, landlords }`, `mode=dropdown`, or `mode=xlsx` (a workbook).',
          querystring: landlordListQuery,
          response: { 200: landlordListResponse, ...errors },
        },
      },
      async (request, reply) => {
        const auth = authOf(request);
        const scope = scopeOf(auth.user);
        if (request.query.mode === 'dropdown') {
          return { landlords: await landlordDropdown(db, scope, request.query) };
        }
        if (request.query.mode === 'xlsx') return exportLandlords(db, scope, request.query, reply);
        return listLandlords(db, scope, request.query);
      },
    );
    app.get(
      '/api/landlord/:id',
      {
        config: { permission: 'landlord.read' },
        schema: { tags, params, response: { 200: landlordResponse, ...errors } },
      },
      async (request) => ({
        landlord: await getLandlord(db, scopeOf(authOf(request).user), request.params.id),
      }),
    );
    app.post(
      '/api/landlord',
      {
        config: { permission: 'landlord.create' },
        schema: {
          tags,
          description: 'Admin and callcenter choose the cluster; other roles create in their own.',
          body: landlordBody,
          response: { 200: createdResponse, ...errors },
        },
      },
      async (request) => ({
        message: 'Success',
        id: await createLandlord(db, authOf(request).user, request.body, actorOf(request)),
      }),
    );
    app.patch(
      '/api/landlord/:id',
      {
        config: { permission: 'landlord.update' },
        schema: {
          tags,
          description: 'Saves the Site Setting form (business hours replaced), or only `{ active }`.',
          params,
          body: landlordPatchBody,
          response: { 200: messageResponse, ...errors },
        },
      },
      async (request) => {
        await updateLandlord(db, authOf(request).user, request.params.id, request.body, actorOf(request));
        power.siteChanged(request.params.id);
        return { message: 'Success' };
      },
    );
    app.delete(
      '/api/landlord/:id',
      {
        config: { permission: 'landlord.delete' },
        schema: { tags, params, response: { 200: messageResponse, 409: errorResponse, ...errors } },
      },
      async (request) => {
        await deleteLandlord(db, scopeOf(authOf(request).user), request.params.id, actorOf(request));
        return { message: 'Success' };
      },
    );
  };
