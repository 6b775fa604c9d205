import {
  chargerBody,
  chargerCreatedResponse,
  chargerIdParam,
  chargerListQuery,
  chargerListResponse,
  chargerPatchBody,
  chargerResponse,
  connectorTypeListResponse,
  errorResponse,
  messageResponse,
} from '@ev/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { authOf } from '../../plugins/auth.ts';
import { scopeOf } from '../../plugins/scope.ts';
import type { Services } from '../../services.ts';
import { actorOf } from '../audit/audit.ts';
import { chargerPowerProfile } from '../power/charger-power-profile.ts';
import { exportChargers } from './charger.export.ts';
import {
  chargerDropdown,
  createCharger,
  deleteCharger,
  getCharger,
  listChargers,
  listConnectorTypes,
  updateCharger,
} from './charger.service.ts';

const errors = { 400: errorResponse, 401: errorResponse, 403: errorResponse, 404: errorResponse };
const tags = ['charger'];

export const chargerRoutes =
  ({ db, commands, power }: Services): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      '/api/charger',
      {
        config: { permission: 'charger.read' },
        schema: {
          tags,
          description:
            'Chargers with their connectors: a page `{ total, chargers }`, `mode=dropdown`, or `mode=xlsx` (a workbook, one line per connector).',
          querystring: chargerListQuery,
          response: { 200: chargerListResponse, ...errors },
        },
      },
      async (request, reply) => {
        const scope = scopeOf(authOf(request).user);
        if (request.query.mode === 'dropdown') {
          return { chargers: await chargerDropdown(db, scope, request.query) };
        }
        if (request.query.mode === 'xlsx') return exportChargers(db, scope, request.query, reply);
        return listChargers(db, scope, request.query);
      },
    );
    app.get(
      '/api/charger/:id',
      {
        config: { permission: 'charger.read' },
        schema: { tags, params: chargerIdParam, response: { 200: chargerResponse, ...errors } },
      },
      async (request) => ({
        charger: await getCharger(db, scopeOf(authOf(request).user), request.params.id),
        powerProfile: await chargerPowerProfile(db, request.params.id),
      }),
    );
    app.post(
      '/api/charger',
      {
        config: { permission: 'charger.write' },
        schema: {
          tags,
          description:
            'Creates a charger (its id is the OCPP identity) with its connectors, in a site the caller sees.',
          body: chargerBody,
          response: { 200: chargerCreatedResponse, 409: errorResponse, ...errors },
        },
      },
      async (request) => {
        const id = await createCharger(db, authOf(request).user, request.body, actorOf(request));
        power.chargerChanged(id);
        return { message: 'Success', id };
      },
    );
    app.patch(
      '/api/charger/:id',
      {
        config: { permission: 'charger.write' },
        schema: {
          tags,
          description:
            'Saves the Charger Setting form (every existing connector must be sent; new ones are added), or only `{ active }`.',
          params: chargerIdParam,
          body: chargerPatchBody,
          response: { 200: messageResponse, 409: errorResponse, ...errors },
        },
      },
      async (request) => {
        await updateCharger(db, authOf(request).user, request.params.id, request.body, actorOf(request));
        power.chargerChanged(request.params.id);
        // A deactivated charger is refused at admission; drop the connection it already holds.
        if ('active' in request.body && !request.body.active) {
          await commands.disconnect(request.params.id, 'Charger deactivated');
        }
        return { message: 'Success' };
      },
    );
    app.delete(
      '/api/charger/:id',
      {
        config: { permission: 'charger.write' },
        schema: {
          tags,
          params: chargerIdParam,
          response: { 200: messageResponse, 409: errorResponse, ...errors },
        },
      },
      async (request) => {
        await deleteCharger(db, scopeOf(authOf(request).user), request.params.id, actorOf(request));
        return { message: 'Success' };
      },
    );
    app.get(
      '/api/connector-type',
      {
        config: { permission: 'connector-type.read' },
        schema: {
          tags,
          response: { 200: connectorTypeListResponse, 401: errorResponse, 403: errorResponse },
        },
      },
      async () => ({ connectorTypes: await listConnectorTypes(db) }),
    );
  };
