import {
  createdResponse,
  errorResponse,
  idParam,
  messageResponse,
  partyBody,
  partyListQuery,
  partyListResponse,
  partyPatchBody,
  partyResponse,
} from '@ev/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { authOf } from '../../plugins/auth.ts';
import { scopeOf } from '../../plugins/scope.ts';
import type { Services } from '../../services.ts';
import { actorOf } from '../audit/audit.ts';
import {
  createParty,
  deleteParty,
  getParty,
  listParties,
  PARTY_NOT_FOUND,
  partyDropdown,
  updateParty,
} from './party.service.ts';

const errors = { 400: errorResponse, 401: errorResponse, 403: errorResponse, 404: errorResponse };
const tags = ['party'];
/** `{ id }`: beyond the integer column it answers this area's 404, like any missing id. */
const params = idParam(PARTY_NOT_FOUND);

export const partyRoutes =
  ({ db }: Services): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      '/api/party',
      {
        // The list and export need party.read; the dropdown is open to every role, narrowed by scope.
        config: { permission: 'party.read', modePermissions: { dropdown: 'party.dropdown' } },
        schema: {
          tags,
          description: 'Groups: a page `{ total, partys }`, or `mode=dropdown`.',
          querystring: partyListQuery,
          response: { 200: partyListResponse, ...errors },
        },
      },
      async (request) => {
        const auth = authOf(request);
        const scope = scopeOf(auth.user);
        if (request.query.mode === 'dropdown') return { partys: await partyDropdown(db, scope) };
        return listParties(db, scope, request.query);
      },
    );
    app.get(
      '/api/party/:id',
      {
        config: { permission: 'party.read' },
        schema: { tags, params, response: { 200: partyResponse, ...errors } },
      },
      async (request) => ({ party: await getParty(db, scopeOf(authOf(request).user), request.params.id) }),
    );
    app.post(
      '/api/party',
      {
        config: { permission: 'party.write' },
        schema: { tags, body: partyBody, response: { 200: createdResponse, ...errors } },
      },
      async (request) => ({ message: 'Success', id: await createParty(db, request.body, actorOf(request)) }),
    );
    app.patch(
      '/api/party/:id',
      {
        config: { permission: 'party.write' },
        schema: {
          tags,
          description: 'Saves the Group Setting form (its sites cannot change), or only `{ active }`.',
          params,
          body: partyPatchBody,
          response: { 200: messageResponse, ...errors },
        },
      },
      async (request) => {
        await updateParty(
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
      '/api/party/:id',
      {
        config: { permission: 'party.write' },
        schema: { tags, params, response: { 200: messageResponse, 409: errorResponse, ...errors } },
      },
      async (request) => {
        await deleteParty(db, scopeOf(authOf(request).user), request.params.id, actorOf(request));
        return { message: 'Success' };
      },
    );
  };
