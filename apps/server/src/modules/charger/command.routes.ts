import {
  BATCH_MESSAGES,
  type BatchConfiguration,
  type BatchKind,
  batchConfigBody,
  batchConfigQuery,
  batchHardResetQuery,
  batchJobListQuery,
  batchJobListResponse,
  errorResponse,
  idParam,
  messageResponse,
  noFieldsBody,
} from '@ev/shared';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { AppError, Invalid } from '../../lib/errors.ts';
import { openEventStream } from '../../lib/sse.ts';
import { authOf } from '../../plugins/auth.ts';
import { scopeOf } from '../../plugins/scope.ts';
import type { Services } from '../../services.ts';
import { type AuditActor, actorOf } from '../audit/audit.ts';
import {
  BATCH_JOB_NOT_FOUND,
  BatchRun,
  type BatchTarget,
  batchJobCsv,
  checkBatchToken,
  listBatchJobs,
} from './batch.service.ts';
import { type BlockerAction, CONNECTOR_NOT_FOUND, sendBlocker } from './blocker.service.ts';
import { localListResult } from './local-list.service.ts';

const errors = { 400: errorResponse, 401: errorResponse, 403: errorResponse, 404: errorResponse };
const tags = ['charger commands'];
const connectorIdParam = idParam(CONNECTOR_NOT_FOUND);
const batchJobIdParam = idParam(BATCH_JOB_NOT_FOUND);

/** Config All's configurations list is small (30 rows of at most 550 characters): a GET body beyond is refused. */
const GET_BODY_LIMIT = 64 * 1024;

/**
 * The JSON body of a GET, read by hand for Config All only: Fastify parses no body on GET (and refuses a body
 * schema there), and turning that on for every GET would change every other route. Undefined without one.
 */
async function readGetBody(request: FastifyRequest): Promise<unknown> {
  const { headers } = request;
  const length = headers['content-length'];
  if (headers['transfer-encoding'] === undefined && (length === undefined || length === '0'))
    return undefined;
  const type = headers['content-type'] ?? '';
  if (!/^application\/json\s*(;|$)/i.test(type)) {
    throw new AppError(415, `Unsupported Media Type: ${type || 'none'} (send application/json)`);
  }
  if (Number(length) > GET_BODY_LIMIT) throw new AppError(413, 'Request body is too large');
  const chunks: Buffer[] = [];
  let size = 0;
  // Read to the end even past the limit, so the answer is a 413 rather than a reset connection.
  for await (const chunk of request.raw as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size <= GET_BODY_LIMIT) chunks.push(chunk);
  }
  if (size > GET_BODY_LIMIT) throw new AppError(413, 'Request body is too large');
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown;
  } catch {
    throw new Invalid(`body: ${BATCH_MESSAGES.bodyJson}`);
  }
}

/**
 * Config All's list from exactly one of its three forms: the `configurations` query parameter, the `body`
 * query parameter, or a JSON request body `{ configurations }`. None or two at once is a 400.
 */
async function configurationsOf(
  request: FastifyRequest,
  query: { configurations?: BatchConfiguration[]; body?: { configurations: BatchConfiguration[] } },
): Promise<BatchConfiguration[]> {
  const sent = await readGetBody(request);
  let fromBody: BatchConfiguration[] | undefined;
  if (sent !== undefined) {
    const parsed = batchConfigBody.safeParse(sent);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      throw new Invalid(`${['body', ...issue.path.map(String)].join('.')}: ${issue.message}`);
    }
    fromBody = parsed.data.configurations;
  }
  const given = [query.configurations, query.body?.configurations, fromBody].filter(
    (list) => list !== undefined,
  );
  if (given.length > 1) throw new Invalid(BATCH_MESSAGES.once);
  if (given.length === 0) throw new Invalid(`querystring.configurations: ${BATCH_MESSAGES.configurations}`);
  return given[0]!;
}

/** Runs a batch job, its progress going out as the server-sent events BATCH_EVENTS describes. */
export function streamBatch(reply: FastifyReply, run: BatchRun): void {
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
}

export const BATCH_EVENTS =
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
            body: noFieldsBody,
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
            actorOf(request),
          ),
        }),
      );
    }

    const runBatch = async (
      reply: FastifyReply,
      actor: AuditActor,
      kind: BatchKind,
      configurations: Array<{ key: string; value: string }> | null,
      target?: BatchTarget,
    ) =>
      streamBatch(
        reply,
        await BatchRun.create(db, commands, app.log, config, actor, kind, configurations, target),
      );

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
        await runBatch(reply, actorOf(request), 'hard-reset', null);
      },
    );
    app.get(
      '/api/charger/batch/config',
      {
        config: { permission: 'charger.batch', queryToken: true },
        schema: {
          tags,
          description:
            'Config All: ChangeConfiguration of each key/value pair on every charger. The pairs come in exactly ' +
            'one of: the `configurations` query parameter (JSON `[{key, value}]`), the `body` query parameter ' +
            '(JSON `{"configurations":[{key, value}]}`, the spec\'s name), or a JSON request body ' +
            `\`{configurations}\` on this GET (Content-Type application/json). ${BATCH_EVENTS}`,
          querystring: batchConfigQuery,
          response: errors,
        },
      },
      async (request, reply) => {
        const configurations = await configurationsOf(request, request.query);
        checkBatchToken(config.batch.token, request.query.token);
        await runBatch(reply, actorOf(request), 'config', configurations);
      },
    );
    app.get(
      '/api/charger/batch/local-list',
      {
        config: { permission: 'charger.batch', queryToken: true },
        schema: {
          tags,
          description:
            "Send Local List All (issue 32 §4): each charger's local authorization list, as " +
            'POST /api/charger/{id}/local-list sends it (Rejected with the reason when the list does not fit or ' +
            `the charger refuses it). ${BATCH_EVENTS}`,
          querystring: batchHardResetQuery,
          response: errors,
        },
      },
      async (request, reply) => {
        checkBatchToken(config.batch.token, request.query.token);
        await runBatch(reply, actorOf(request), 'local-list', null, {
          command: { send: (chargerId) => localListResult({ db, commands, config }, chargerId) },
        });
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
