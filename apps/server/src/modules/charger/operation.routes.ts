import {
  availabilityBody,
  can,
  chargerIdParam,
  configurationChangeBody,
  configurationResponse,
  errorResponse,
  noFieldsBody,
  operationResponse,
  resetBody,
  triggerBody,
  unlockBody,
} from '@ev/shared';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { Forbidden } from '../../lib/errors.ts';
import { authOf } from '../../plugins/auth.ts';
import { scopeOf } from '../../plugins/scope.ts';
import type { Services } from '../../services.ts';
import { actorOf } from '../audit/audit.ts';
import {
  availability,
  changeKey,
  clearAuthorizationCache,
  type OperationContext,
  readConfiguration,
  requestReport,
  resetCharger,
  trigger,
  unlock,
} from './operation.service.ts';

const tags = ['charger operations'];
const errors = {
  400: errorResponse,
  401: errorResponse,
  403: errorResponse,
  404: errorResponse,
  409: errorResponse,
  502: errorResponse,
  504: errorResponse,
};
/** The error answers of a command to one charger (the local list's routes share them). */
export const OPERATION_ERRORS = errors;
const ANSWERS =
  " Answers `{status}`, the charger's own word; NotImplemented or NotSupported as a CALLERROR answers NotSupported. " +
  '404 outside your scope, 409 offline (at once), 504 no answer within OCPP_COMMAND_TIMEOUT_MS, 502 any other CALLERROR.';

/** Operations on one charger (issue 32; docs/decisions.md, Charger operations; docs/permissions.md). */
export const chargerOperationRoutes =
  ({ db, config, commands }: Services): FastifyPluginAsyncZod =>
  async (app) => {
    const context = (request: FastifyRequest): OperationContext => ({
      db,
      commands,
      config,
      scope: scopeOf(authOf(request).user),
      actor: actorOf(request),
    });

    app.post(
      '/api/charger/:id/unlock',
      {
        config: { permission: 'charger.operate' },
        schema: {
          tags,
          description: `UnlockConnector: Unlocked, UnlockFailed or NotSupported.${ANSWERS}`,
          params: chargerIdParam,
          body: unlockBody,
          response: { 200: operationResponse, ...errors },
        },
      },
      (request) => unlock(context(request), request.params.id, request.body.connectorId),
    );

    app.post(
      '/api/charger/:id/reset',
      {
        config: { permission: 'charger.operate' },
        schema: {
          tags,
          description: `Reset, Soft or Hard (Hard: admin only): Accepted or Rejected.${ANSWERS}`,
          params: chargerIdParam,
          body: resetBody,
          response: { 200: operationResponse, ...errors },
        },
      },
      (request) => {
        if (request.body.type === 'Hard' && !can(authOf(request).user.adminRole, 'charger.configure'))
          throw new Forbidden('A hard reset is for the admin only');
        return resetCharger(context(request), request.params.id, request.body.type);
      },
    );

    app.post(
      '/api/charger/:id/availability',
      {
        config: { permission: 'charger.operate' },
        schema: {
          tags,
          description: `ChangeAvailability of a connector, or of the whole charger (connectorId 0): Accepted, Rejected or Scheduled (it changes once charging ends).${ANSWERS}`,
          params: chargerIdParam,
          body: availabilityBody,
          response: { 200: operationResponse, ...errors },
        },
      },
      (request) => availability(context(request), request.params.id, request.body),
    );

    app.post(
      '/api/charger/:id/trigger',
      {
        config: { permission: 'charger.operate' },
        schema: {
          tags,
          description: `TriggerMessage: Accepted, Rejected or NotImplemented.${ANSWERS}`,
          params: chargerIdParam,
          body: triggerBody,
          response: { 200: operationResponse, ...errors },
        },
      },
      (request) => trigger(context(request), request.params.id, request.body),
    );

    app.get(
      '/api/charger/:id/configuration',
      {
        config: { permission: 'charger.configure' },
        schema: {
          tags,
          description:
            'OCPP 1.6: GetConfiguration, every key the charger reports, with its read-only flag and value, and the keys it does not know ' +
            '(409 offline, 504 no answer in time, 502 a CALLERROR). OCPP 2.0.1: the device model of its last report (NotifyReport), ' +
            'at once and offline too, with the time it came (`reportedAt`, null before any report: POST configuration/report asks ' +
            'for one). 404 outside your scope.',
          params: chargerIdParam,
          response: { 200: configurationResponse, ...errors },
        },
      },
      (request) => readConfiguration(context(request), request.params.id),
    );

    app.patch(
      '/api/charger/:id/configuration',
      {
        config: { permission: 'charger.configure' },
        schema: {
          tags,
          description:
            'ChangeConfiguration of one key: Accepted, Rejected, RebootRequired or NotSupported. On an OCPP 2.0.1 charger it is ' +
            'SetVariables: a standard 1.6 key is mapped onto its component and variable (docs/ocpp.md), or the key names one ' +
            'as `Component[instance]@evse:connector.Variable[instance]`; a 1.6 key without a 2.0.1 counterpart answers ' +
            `NotSupported with a \`detail\` naming it (nothing is sent).${ANSWERS}`,
          params: chargerIdParam,
          body: configurationChangeBody,
          response: { 200: operationResponse, ...errors },
        },
      },
      (request) => changeKey(context(request), request.params.id, request.body),
    );

    app.post(
      '/api/charger/:id/configuration/report',
      {
        config: { permission: 'charger.configure' },
        schema: {
          tags,
          description:
            'OCPP 2.0.1: GetBaseReport FullInventory, the charger reports its device model anew (NotifyReport), which then ' +
            'replaces the stored one that GET configuration shows. Accepted, Rejected, NotSupported (also any 1.6 charger) ' +
            `or EmptyResultSet.${ANSWERS}`,
          params: chargerIdParam,
          body: noFieldsBody,
          response: { 200: operationResponse, ...errors },
        },
      },
      (request) => requestReport(context(request), request.params.id),
    );

    app.post(
      '/api/charger/:id/clear-cache',
      {
        config: { permission: 'charger.configure' },
        schema: {
          tags,
          description: `ClearCache, the charger's authorization cache: Accepted or Rejected.${ANSWERS}`,
          params: chargerIdParam,
          body: noFieldsBody,
          response: { 200: operationResponse, ...errors },
        },
      },
      (request) => clearAuthorizationCache(context(request), request.params.id),
    );
  };
