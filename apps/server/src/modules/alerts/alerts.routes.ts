import {
  ALERT_STREAM_EVENT,
  alertConditionParam,
  alertListQuery,
  alertListResponse,
  alertReadBody,
  alertSetting,
  alertSettingBody,
  alertSettingsResponse,
  alertSubscriptionsBody,
  alertSubscriptionsResponse,
  errorResponse,
  messageResponse,
} from '@ev/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { openEventStream } from '../../lib/sse.ts';
import { authOf } from '../../plugins/auth.ts';
import type { Services } from '../../services.ts';
import { actorOf } from '../audit/audit.ts';
import type { AlertHub } from './alert-hub.ts';
import {
  listSettings,
  listSubscriptions,
  saveSubscriptions,
  updateSetting,
} from './alert-settings.service.ts';
import { listAlerts, markRead } from './alerts.service.ts';

const errors = { 400: errorResponse, 401: errorResponse, 403: errorResponse, 404: errorResponse };
const tags = ['alerts'];

/** Issue 36 §2: the alerts' settings (admin), each user's subscriptions, the bell and its live stream. */
export const alertRoutes =
  ({ db }: Services, hub: AlertHub): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      '/api/alert-settings',
      {
        config: { permission: 'alert.settings' },
        schema: {
          tags,
          description:
            'Every alert condition with its threshold (minutes it must hold before it fires), whether it is ' +
            'on, and its webhook (the secret is never answered: `hasWebhookSecret`). Defaults for a condition ' +
            'never set.',
          response: { 200: alertSettingsResponse, ...errors },
        },
      },
      async () => ({ settings: await listSettings(db) }),
    );
    app.patch(
      '/api/alert-settings/:condition',
      {
        config: { permission: 'alert.settings' },
        schema: {
          tags,
          description:
            'Changes one condition: the keys given change, the others keep theirs; null clears the webhook URL ' +
            'or secret. A webhook URL needs a secret (the requests are signed with it). Audited (the secret ' +
            'redacted).',
          params: alertConditionParam,
          body: alertSettingBody,
          response: { 200: z.object({ message: z.string(), setting: alertSetting }), ...errors },
        },
      },
      async (request) => ({
        message: 'Success',
        setting: await updateSetting(db, request.params.condition, request.body, actorOf(request)),
      }),
    );
    app.get(
      '/api/alert-subscriptions',
      {
        config: { permission: 'alert.read' },
        schema: {
          tags,
          description:
            "The signed-in user's choice per condition: in the app (the bell) and by mail. A condition never " +
            'set: in the app yes, by mail no.',
          response: { 200: alertSubscriptionsResponse, ...errors },
        },
      },
      async (request) => ({ subscriptions: await listSubscriptions(db, authOf(request).user.id) }),
    );
    app.put(
      '/api/alert-subscriptions',
      {
        config: { permission: 'alert.read' },
        schema: {
          tags,
          description:
            "Sets the signed-in user's choice for the conditions given (the others keep theirs); answers all " +
            'of them. Only alerts within the user’s data scope reach them. Audited.',
          body: alertSubscriptionsBody,
          response: { 200: alertSubscriptionsResponse, ...errors },
        },
      },
      async (request) => {
        const { user } = authOf(request);
        return {
          subscriptions: await saveSubscriptions(db, user.id, request.body.subscriptions, actorOf(request)),
        };
      },
    );
    app.get(
      '/api/alerts',
      {
        config: { permission: 'alert.read' },
        schema: {
          tags,
          description:
            "The signed-in user's alerts: incidents in their data scope, of the conditions they have in the " +
            'app, newest first (by firedAt; `sort` firedAt, startedAt or resolvedAt), each with `read`. ' +
            'Filters: `open` (not resolved), `unread`, `condition`. `unread` counts all their unread alerts, ' +
            'whatever the filters (the bell).',
          querystring: alertListQuery,
          response: { 200: alertListResponse, ...errors },
        },
      },
      async (request) => listAlerts(db, authOf(request).user, request.query),
    );
    app.post(
      '/api/alerts/read',
      {
        // Read marks are the user's own bookkeeping of the bell, not a change to anyone's data: no audit entry.
        config: { permission: 'alert.read', audit: false },
        schema: {
          tags,
          description:
            'Marks alerts read for the signed-in user: `{ ids }`, or `{ all: true }` for every one they see. ' +
            'Ids they do not see are ignored.',
          body: alertReadBody,
          response: { 200: messageResponse, ...errors },
        },
      },
      async (request) => {
        await markRead(db, authOf(request).user, request.body);
        return { message: 'Success' };
      },
    );
    app.get(
      '/api/alerts/stream',
      {
        config: { permission: 'alert.read', queryToken: true },
        schema: {
          tags,
          description:
            `Server-sent events: an \`${ALERT_STREAM_EVENT}\` event with an AlertItem each time an alert the ` +
            'signed-in user sees in GET /api/alerts fires or resolves (whichever server process it happened ' +
            'on), and a comment every 25 s. The session goes in X-ACCESS-TOKEN or `accessToken`.',
          querystring: z.object({ accessToken: z.string().max(200).optional() }),
          response: errors,
        },
      },
      async (request, reply) => {
        const { user } = authOf(request);
        const stream = openEventStream(reply);
        const remove = hub.add(user.id, stream);
        reply.raw.on('close', remove);
        // Sent at once: the client knows the stream is open (and proxies see bytes).
        stream.comment('connected');
      },
    );
  };
