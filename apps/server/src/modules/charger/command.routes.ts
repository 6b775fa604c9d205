import {
  batchConfigQuery,
  batchHardResetQuery,
  batchJobIdParam,
  batchJobListQuery,
  batchJobListResponse,
  errorResponse,
  messageResponse,
} from '@ev/shared';
import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { openEventStream } from '../../lib/sse.ts';
import { authOf } from '../../plugins/auth.ts';
import { scopeOf } from '../../plugins/scope.ts';
import type { Services } from '../../services.ts';
import { BatchRun, batchJobCsv, checkBatchToken, listBatchJobs } from './batch.service.ts';
import { type BlockerAction, sendBlocker } from './blocker.service.ts';

const errors = { 400: errorResponse, 401: errorResponse, 403: errorResponse, 404: errorResponse };
const tags = ['charger commands'];
const connectorIdParam = z.object({ id: z.coerce.number().int().positive().max(2_147_483_647) });

const BATCH_EVENTS =
  'Server-sent events: `size` (the number of chargers), `job` (`{id}` of the batch job), one `update` ' +
  '`{id, result}` per charger (result: Accepted, Rejected, NotSupported, Offline, Timeout), `error` ' +
  '`{message}` on failure; the stream ends when every charger is reported. The session goes in ' +
  'X-ACCESS-TOKEN or `accessToken`; `token` is BATCH_COMMAND_TOKEN. Closing the stream does not stop the job.';

/** Open/Close blocker and the batch commands (Hard Reset All, Config All) with their job history. */
export const chargerCommandRoutes =
  ({ db, config, commands }: Services): FastifyPluginAsyncZod =>
  async (app) => {
    for (const action of ['open', 'close'] as BlockerAction[]) {
      app.post(
        `/api/connector/:id/${action}-blocker`,
        {
          config: { permission: 'connector.blocker' },
          schema: {
            tags,
            description: `Sends DataTransfer ${action === 'open' ? 'OpenBlocker' : 'CloseBlocker'} for the connector's parking blocker to its charger. 409 offline, 502 rejected or error, 504 no answer in time.`,
            params: connectorIdParam,
            response: {
              200: messageResponse,
              409: errorResponse,
              502: errorResponse,
              504: errorResponse,
              ...errors,
            },
          },
        },
        async (request) => ({
          message: await sendBlocker(
            db,
            commands,
            config,
            scopeOf(authOf(request).user),
            request.params.id,
            action,
          ),
        }),
      );
    }

    const runBatch = async (
      reply: FastifyReply,
      userId: number,
      kind: 'hard-reset' | 'config',
      configurations: Array<{ key: string; value: string }> | null,
    ) => {
      const run = await BatchRun.create(db, commands, app.log, config, userId, kind, configurations);
      const stream = openEventStream(reply);
      stream.send('size', run.total);
      stream.send('job', { id: run.jobId });
      reply.raw.on('close', () => run.detach());
      void run.run({
        update: (event) => stream.send('update', event),
        end: () => stream.end(),
        error: (message) => {
          stream.send('error', { message });
          stream.end();
        },
      });
    };

    app.get(
      '/api/charger/batch/hard-reset',
      {
        config: { permission: 'charger.batch', queryToken: true },
        schema: {
          tags,
          description: `Hard Reset All. ${BATCH_EVENTS}`,
          querystring: batchHardResetQuery,
          response: errors,
        },
      },
      async (request, reply) => {
        checkBatchToken(config.batch.token, request.query.token);
        await runBatch(reply, authOf(request).user.id, 'hard-reset', null);
      },
    );
    app.get(
      '/api/charger/batch/config',
      {
        config: { permission: 'charger.batch', queryToken: true },
        schema: {
          tags,
          description: `Config All: ChangeConfiguration of each key/value pair (the \`configurations\` query parameter, JSON \`[{key, value}]\`) on every charger. ${BATCH_EVENTS}`,
          querystring: batchConfigQuery,
          response: errors,
        },
      },
      async (request, reply) => {
        checkBatchToken(config.batch.token, request.query.token);
        await runBatch(reply, authOf(request).user.id, 'config', request.query.configurations);
      },
    );
    app.get(
      '/api/charger/batch/jobs',
      {
        config: { permission: 'charger.batch' },
        schema: {
          tags,
          description: 'Batch jobs, newest first, with counts of each result.',
          querystring: batchJobListQuery,
          response: { 200: batchJobListResponse, ...errors },
        },
      },
      async (request) => listBatchJobs(db, request.query),
    );
    app.get(
      '/api/charger/batch/jobs/:id/csv',
      {
        config: { permission: 'charger.batch' },
        schema: {
          tags,
          description: 'The per-charger results of a batch job (CSV).',
          params: batchJobIdParam,
          response: errors,
        },
      },
      async (request, reply) => {
        const { fileName, csv } = await batchJobCsv(db, request.params.id);
        return reply
          .header('Content-Type', 'text/csv; charset=utf-8')
          .header('Content-Disposition', `attachment; filename="${fileName}"`)
          .header('Access-Control-Expose-Headers', 'Content-Disposition')
          .send(csv as never);
      },
    );
  };
