import {
  CHARGER_FILE_KINDS,
  CHARGER_FILE_MESSAGES,
  chargerFileListQuery,
  chargerFileListResponse,
  chargerFileRequestListResponse,
  chargerFileResponse,
  chargerIdParam,
  diagnosticsBody,
  diagnosticsResponse,
  errorResponse,
  FIRMWARE_MAX_BYTES,
  fileRequestListQuery,
  firmwareBatchBody,
  firmwareBody,
  firmwareUploadQuery,
  idParam,
  listQuery,
  messageResponse,
  operationResponse,
} from '@ev/shared';
import fastifyMultipart from '@fastify/multipart';
import { eq } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod, ZodTypeProvider } from 'fastify-type-provider-zod';
import { chargerBrands } from '../../db/schema/index.ts';
import { NotFound } from '../../lib/errors.ts';
import { authOf } from '../../plugins/auth.ts';
import { scopeOf } from '../../plugins/scope.ts';
import type { Services } from '../../services.ts';
import { actorOf } from '../audit/audit.ts';
import { BATCH_EVENTS, streamBatch } from '../charger/command.routes.ts';
import { CHARGER_BRAND_NOT_FOUND } from '../charger-brand/charger-brand.service.ts';
import { deleteFile, getFile, listChargerFiles, listFiles } from './charger-file.service.ts';
import {
  type FileRequestContext,
  listRequests,
  requestDiagnostics,
  updateChargerFirmware,
} from './file-request.service.ts';
import { fileStream, removeAbandonedUploads, safeFileName } from './file-store.ts';
import { startFirmwareBatch } from './firmware-batch.ts';
import { drainAfterRefusal, multipartFile, storeFrom } from './receive.ts';

const tags = ['charger files'];
const errors = { 400: errorResponse, 401: errorResponse, 403: errorResponse, 404: errorResponse };
const commandErrors = { ...errors, 409: errorResponse, 502: errorResponse, 504: errorResponse };
const fileIdParam = idParam(CHARGER_FILE_MESSAGES.notFound);
const brandIdParam = idParam(CHARGER_BRAND_NOT_FOUND);
const ANSWERS =
  ' NotImplemented or NotSupported as a CALLERROR answers NotSupported. 404 outside your scope, 409 offline (at once), ' +
  '504 no answer within OCPP_COMMAND_TIMEOUT_MS, 502 any other CALLERROR. The request is recorded whatever the answer.';

/** Headers of a file handed out: bytes to save, never a document to render (docs/uploads.md's rules). */
export function fileHeaders(name: string, size: number): Record<string, string> {
  return {
    'content-type': 'application/octet-stream',
    'content-length': String(size),
    'content-disposition': `attachment; filename="${name}"; filename*=UTF-8''${encodeURIComponent(name)}`,
    'x-content-type-options': 'nosniff',
    'content-security-policy': "default-src 'none'; sandbox",
    'cache-control': 'no-store',
    'accept-ranges': 'none',
  };
}

/**
 * Firmware and diagnostics (issue 32; docs/decisions.md, Firmware and diagnostics): the admin's files, the
 * UpdateFirmware and GetDiagnostics requests to one charger with their steps, and firmware to a whole brand.
 * The charger's side (the one-time links) is ocpp-file.routes.ts.
 */
export const chargerFileRoutes =
  ({ db, config, commands }: Services): FastifyPluginAsyncZod =>
  async (app) => {
    const context = (request: FastifyRequest): FileRequestContext => {
      const { user } = authOf(request);
      return { db, commands, config, scope: scopeOf(user), userId: user.id, actor: actorOf(request) };
    };
    // Uploads a stopped process cut off: once at start and every hour.
    const sweep = () =>
      removeAbandonedUploads(db).catch((error: unknown) =>
        app.log.warn({ err: error }, 'charger files: removing abandoned uploads failed'),
      );
    app.addHook('onReady', async () => void sweep());
    const sweeping = setInterval(() => void sweep(), 3600_000);
    sweeping.unref();
    app.addHook('onClose', async () => clearInterval(sweeping));

    app.get(
      '/api/charger-file',
      {
        config: { permission: 'charger.configure' },
        schema: {
          tags,
          description:
            'Firmware files (`kind=firmware`, optionally of one `chargerBrandId`) or every diagnostics file (`kind=diagnostics`), newest first. Only complete files are listed.',
          querystring: chargerFileListQuery,
          response: { 200: chargerFileListResponse, ...errors },
        },
      },
      (request) => listFiles(db, request.query),
    );
    app.get(
      '/api/charger-file/:id',
      {
        config: { permission: 'charger.configure' },
        schema: { tags, params: fileIdParam, response: { 200: chargerFileResponse, ...errors } },
      },
      async (request) => ({ file: await getFile(db, request.params.id) }),
    );
    app.get(
      '/api/charger-file/:id/download',
      {
        compress: false,
        config: { permission: 'charger.configure' },
        schema: {
          tags,
          description: 'The file itself (application/octet-stream, as an attachment), streamed.',
          params: fileIdParam,
          response: errors,
        },
      },
      async (request, reply) => {
        const file = await getFile(db, request.params.id);
        reply.headers(fileHeaders(file.name, file.size));
        return reply.send(fileStream(db, file.id) as never);
      },
    );
    app.delete(
      '/api/charger-file/:id',
      {
        config: { permission: 'charger.configure' },
        schema: {
          tags,
          description: 'Deletes a file; 409 for a firmware file an update in progress may still download.',
          params: fileIdParam,
          response: { 200: messageResponse, 409: errorResponse, ...errors },
        },
      },
      async (request) => {
        await deleteFile(db, request.params.id, actorOf(request));
        return { message: 'Successfully deleted data.' };
      },
    );

    // Multipart exists only in this scope: every other route keeps its JSON body and 1 MiB limit.
    await app.register(async (scope) => {
      await scope.register(fastifyMultipart);
      drainAfterRefusal(scope);
      scope.withTypeProvider<ZodTypeProvider>().post(
        '/api/charger-file',
        {
          config: { permission: 'charger.configure' },
          schema: {
            tags,
            description:
              `A firmware file as multipart/form-data in the field \`file\`, at most ${FIRMWARE_MAX_BYTES / 1024 / 1024} MB, streamed into the ` +
              'database (1 MB chunks, SHA-256 computed on the way); `version` (and the brand it is for, `chargerBrandId`) in the query. ' +
              'A failed or cut upload leaves nothing. 413 too large, 408 a sender silent for 60 s.',
            querystring: firmwareUploadQuery,
            response: {
              201: chargerFileResponse,
              408: errorResponse,
              413: errorResponse,
              415: errorResponse,
              ...errors,
            },
          },
        },
        async (request, reply) => {
          const { version, chargerBrandId } = request.query;
          if (chargerBrandId !== undefined) {
            const [brand] = await db
              .select({ id: chargerBrands.id })
              .from(chargerBrands)
              .where(eq(chargerBrands.id, chargerBrandId));
            if (!brand) throw new NotFound('No such charger brand');
          }
          if (!request.isMultipart())
            return reply.status(415).send({ message: CHARGER_FILE_MESSAGES.noFile });
          const limits = { maxBytes: FIRMWARE_MAX_BYTES, tooLarge: CHARGER_FILE_MESSAGES.firmwareTooLarge };
          const incoming = await multipartFile(request, limits, 'file');
          const stored = await storeFrom(
            db,
            request,
            {
              kind: 'firmware',
              chargerBrandId: chargerBrandId ?? null,
              name: safeFileName(incoming.name, 'firmware.bin'),
              version,
              createdBy: authOf(request).user.id,
              actor: actorOf(request),
            },
            incoming.source,
            limits,
          );
          request.log.info({ fileId: stored.id, size: stored.size }, 'firmware uploaded');
          return reply.status(201).send({ file: await getFile(db, stored.id) });
        },
      );
    });

    app.post(
      '/api/charger/:id/firmware',
      {
        config: { permission: 'charger.configure' },
        schema: {
          tags,
          description:
            'UpdateFirmware: the charger downloads the file through a one-time link from `retrieveDate` (default now). ' +
            `Answers \`{status}\`: Accepted (UpdateFirmware's answer has no status of its own) or NotSupported.${ANSWERS}`,
          params: chargerIdParam,
          body: firmwareBody,
          response: { 200: operationResponse, ...commandErrors },
        },
      },
      (request) => updateChargerFirmware(context(request), request.params.id, request.body),
    );
    app.post(
      '/api/charger/:id/diagnostics',
      {
        config: { permission: 'charger.configure' },
        schema: {
          tags,
          description:
            'GetDiagnostics: the charger uploads its diagnostics to a one-time link. Answers `{status, fileName}`: Accepted with ' +
            `the file it will upload, Accepted without one when it has nothing, or NotSupported.${ANSWERS}`,
          params: chargerIdParam,
          body: diagnosticsBody,
          response: { 200: diagnosticsResponse, ...commandErrors },
        },
      },
      (request) => requestDiagnostics(context(request), request.params.id, request.body),
    );
    for (const kind of CHARGER_FILE_KINDS) {
      app.get(
        `/api/charger/:id/${kind}`,
        {
          config: { permission: 'charger.configure' },
          schema: {
            tags,
            description: `The charger's latest ${kind === 'firmware' ? 'firmware updates' : 'diagnostics requests'}, newest first, with the steps it reported.`,
            params: chargerIdParam,
            querystring: fileRequestListQuery,
            response: { 200: chargerFileRequestListResponse, ...errors },
          },
        },
        (request) => listRequests(db, context(request).scope, request.params.id, kind, request.query.size),
      );
    }
    app.get(
      '/api/charger/:id/file',
      {
        config: { permission: 'charger.configure' },
        schema: {
          tags,
          description:
            'The diagnostics files the charger uploaded, newest first (download: /api/charger-file/{id}/download).',
          params: chargerIdParam,
          querystring: listQuery,
          response: { 200: chargerFileListResponse, ...errors },
        },
      },
      (request) => listChargerFiles(db, context(request).scope, request.params.id, request.query),
    );
    app.post(
      '/api/charger-brand/:id/firmware',
      {
        config: { permission: 'charger.batch' },
        schema: {
          tags,
          description:
            'Firmware to every active charger of the brand: UpdateFirmware to each (a request each, its steps on the charger), as a ' +
            `batch job (Batch History, its CSV). \`token\` is BATCH_COMMAND_TOKEN. ${BATCH_EVENTS}`,
          params: brandIdParam,
          body: firmwareBatchBody,
          response: errors,
        },
      },
      async (request, reply) => {
        const run = await startFirmwareBatch(context(request), app.log, request.params.id, request.body);
        streamBatch(reply, run);
      },
    );
  };
