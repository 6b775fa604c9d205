import {
  chargerConnectionListResponse,
  chargerConnectionQuery,
  chargerIdParam,
  chargerMessageListResponse,
  chargerMessageQuery,
  errorResponse,
} from '@ev/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { authOf } from '../../plugins/auth.ts';
import { scopeOf } from '../../plugins/scope.ts';
import type { Services } from '../../services.ts';
import { listConnections, listMessages, sendMessageFile } from './message.service.ts';

const tags = ['charger messages'];
const errors = { 400: errorResponse, 401: errorResponse, 403: errorResponse, 404: errorResponse };

/** What a charger said: its message log and connections (issue 32; docs/decisions.md, Message log). */
export const chargerMessageRoutes =
  ({ db, config }: Services): FastifyPluginAsyncZod =>
  async (app) => {
    const bound = `${config.ocpp.messageLog.days} days and ${config.ocpp.messageLog.maxPerCharger.toLocaleString('en')}`;
    app.get(
      '/api/charger/:id/message',
      {
        config: { permission: 'charger.messages' },
        schema: {
          tags,
          description:
            'Every OCPP frame to and from the charger (call, result, error; malformed text too), credentials ' +
            `redacted, kept for ${bound} frames per charger: \`{ total, messages }\`, newest first. Filters: ` +
            '`action` (a result or error carries the action of the call it answers), `direction` (in: from the ' +
            'charger), `kind`, `createdAfter`/`createdBefore` (ISO 8601 with offset, inclusive), `afterId` ' +
            '(only messages newer than that id: the live tail). `mode=csv` or `mode=jsonl` downloads every ' +
            'match, oldest first, as `messages_{id}_{yyyyMMddHHmmss}.csv|.jsonl`; 404 when none match. ' +
            '404 for a charger outside your scope.',
          params: chargerIdParam,
          querystring: chargerMessageQuery,
          response: { 200: chargerMessageListResponse, ...errors },
        },
      },
      async (request, reply) => {
        const scope = scopeOf(authOf(request).user);
        const { query } = request;
        if (query.mode)
          return sendMessageFile(db, scope, request.params.id, { ...query, mode: query.mode }, reply);
        return listMessages(db, scope, request.params.id, query);
      },
    );

    app.get(
      '/api/charger/:id/connection',
      {
        config: { permission: 'charger.messages' },
        schema: {
          tags,
          description:
            "The charger's WebSocket connections, newest first: when, from where (the client address; X-Forwarded-For's " +
            'first hop with TRUST_PROXY=1), on which server process, and how each ended (close code and reason; ' +
            'null while open). Refused upgrades of the charger (400, 401, 403) show with `refusedStatus`, at most ' +
            'one per 10 s. `{ total, connections }`. 404 for a charger outside your scope.',
          params: chargerIdParam,
          querystring: chargerConnectionQuery,
          response: { 200: chargerConnectionListResponse, ...errors },
        },
      },
      (request) => listConnections(db, scopeOf(authOf(request).user), request.params.id, request.query),
    );
  };
