import { CHARGER_FILE_MESSAGES, DIAGNOSTICS_MAX_BYTES, errorResponse } from '@ev/shared';
import fastifyMultipart from '@fastify/multipart';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod, ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Services } from '../../services.ts';
import { fileHeaders } from './charger-file.routes.ts';
import { attachDiagnostics, diagnosticsRequestOf } from './file-request.service.ts';
import { fileStream, safeFileName } from './file-store.ts';
import { claimUploadLink, finishUploadLink, firmwareOfLink, releaseUploadLink } from './file-token.ts';
import { drainAfterRefusal, type Limits, multipartFile, refuseDeclaredSize, storeFrom } from './receive.ts';

const tags = ['charger files'];
/** A diagnostics upload may take 10 minutes in all (32 MB at 55 kB/s); its link is claimed for 15. */
const UPLOAD_DEADLINE_MS = 10 * 60_000;
const LIMITS: Limits = {
  maxBytes: DIAGNOSTICS_MAX_BYTES,
  tooLarge: CHARGER_FILE_MESSAGES.diagnosticsTooLarge,
  deadlineMs: UPLOAD_DEADLINE_MS,
};
const linkErrors = { 404: errorResponse, 410: errorResponse };
const tokenParam = z.object({ token: z.string().max(200) });

/**
 * The chargers' side of firmware and diagnostics (issue 32): the one-time links of UpdateFirmware and
 * GetDiagnostics, outside /api and without a session (a charger's HTTP client has none): the token in the path
 * is the credential (file-token.ts). Any process serves any link: tokens and files are in the database.
 */
export const ocppFileRoutes =
  ({ db }: Services): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      '/ocpp-files/firmware/:token/:name',
      {
        compress: false,
        schema: {
          tags,
          description:
            "UpdateFirmware's location: the firmware file, streamed (Content-Length, application/octet-stream). The link serves " +
            'every retry of the charger until it reports the file downloaded, or until it expires (the retrieve date plus a day); ' +
            'then 410. The name is for the charger: the token alone picks the file.',
          params: tokenParam.extend({ name: z.string().max(300) }),
          security: [],
          response: linkErrors,
        },
      },
      async (request, reply) => {
        const file = await firmwareOfLink(db, request.params.token);
        request.log.info({ chargerId: file.chargerId, fileId: file.fileId }, 'firmware download');
        reply.headers(fileHeaders(file.name, file.size));
        return reply.send(fileStream(db, file.fileId) as never);
      },
    );

    const upload = async (request: FastifyRequest<{ Params: { token: string } }>, reply: FastifyReply) => {
      const claim = await claimUploadLink(db, request.params.token);
      try {
        if (!request.isMultipart()) refuseDeclaredSize(request, LIMITS);
        const incoming = request.isMultipart()
          ? await multipartFile(request, LIMITS)
          : { name: undefined, source: request.raw };
        const asked = await diagnosticsRequestOf(db, claim.chargerId, claim.createdAt);
        const name = safeFileName(
          incoming.name ?? asked?.answerFileName,
          `diagnostics-${claim.chargerId}-${new Date().toISOString().replace(/[:.]/g, '-')}.log`,
        );
        const stored = await storeFrom(
          db,
          request,
          { kind: 'diagnostics', chargerId: claim.chargerId, name },
          incoming.source,
          LIMITS,
        );
        await finishUploadLink(db, claim, stored.id);
        if (asked) await attachDiagnostics(db, asked.id, stored.id);
        request.log.info(
          { chargerId: claim.chargerId, fileId: stored.id, size: stored.size },
          'diagnostics uploaded',
        );
        return reply.send({ message: 'Uploaded.' });
      } catch (error) {
        await releaseUploadLink(db, claim).catch(() => undefined);
        throw error;
      }
    };

    // Bodies of any type are left unread here (streamed by the route); multipart only in this scope.
    await app.register(async (scope) => {
      scope.removeAllContentTypeParsers();
      scope.addContentTypeParser('*', (_request, _payload, done) => done(null));
      await scope.register(fastifyMultipart);
      drainAfterRefusal(scope);
      const route = scope.withTypeProvider<ZodTypeProvider>();
      const schema = (how: string) => ({
        tags,
        description:
          `GetDiagnostics' location: the charger's diagnostics ${how}, at most ${DIAGNOSTICS_MAX_BYTES / 1024 / 1024} MB, ` +
          'within 10 minutes (a sender silent for 60 s is cut off: 408). One upload per link: it then answers 410; ' +
          'an upload under way meanwhile makes another 409; a failed one leaves the link for the charger to retry.',
        params: tokenParam,
        security: [],
        response: {
          200: z.object({ message: z.string() }),
          400: errorResponse,
          408: errorResponse,
          409: errorResponse,
          413: errorResponse,
          ...linkErrors,
        },
      });
      route.put('/ocpp-files/diagnostics/:token', { schema: schema('as the raw request body') }, upload);
      route.post(
        '/ocpp-files/diagnostics/:token',
        { schema: schema('as multipart/form-data (the first file, any field) or a raw body') },
        upload,
      );
    });
  };
