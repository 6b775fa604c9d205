import { errorResponse, UPLOAD_MAX_BYTES, UPLOAD_MESSAGES, uploadResponse } from '@ev/shared';
import fastifyMultipart from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod, ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError, Invalid, NotFound } from '../../lib/errors.ts';
import { sniffImage, UPLOAD_NAME, uploadName } from '../../lib/uploads.ts';
import type { Services } from '../../services.ts';
import { actorOf } from '../audit/audit.ts';
import { findUpload, importUploadDir, storeUpload } from './upload.service.ts';

const tags = ['upload'];
const NOT_FOUND = 'Image not found';

/**
 * Headers of a served image: its type as sniffed at upload and nothing else (nosniff), never run as a
 * document even if opened directly (a sandboxed CSP without sources), cached for good (a name is never
 * reused), and loadable by the member app and the public pages from any origin.
 */
const IMAGE_HEADERS = {
  'x-content-type-options': 'nosniff',
  'content-security-policy': "default-src 'none'; sandbox",
  'cache-control': 'public, max-age=31536000, immutable',
  'cross-origin-resource-policy': 'cross-origin',
  'content-disposition': 'inline',
};

/** The first file of a multipart request, read into memory (at most UPLOAD_MAX_BYTES). */
async function receiveUpload(request: FastifyRequest): Promise<Buffer> {
  if (!request.isMultipart())
    throw new AppError(
      415,
      `${UPLOAD_MESSAGES.missing} Send it as multipart/form-data, in the field 'file'.`,
    );
  try {
    const part = await request.file({
      limits: {
        // One byte more than allowed, checked below: busboy's own limit does not always make @fastify/multipart
        // throw (fastify-multipart#428: a file just over it was once taken, cut to the limit, in our suite).
        fileSize: UPLOAD_MAX_BYTES + 1,
        files: 1,
        fields: 10,
        parts: 11,
        fieldSize: 1024,
        headerPairs: 50,
      },
    });
    if (part?.fieldname !== 'file') {
      part?.file.resume();
      throw new Invalid(UPLOAD_MESSAGES.missing);
    }
    const bytes = await part.toBuffer();
    if (part.file.truncated || bytes.length > UPLOAD_MAX_BYTES)
      throw new AppError(413, UPLOAD_MESSAGES.tooLarge);
    return bytes;
  } catch (error) {
    if (error instanceof AppError) throw error;
    const status = (error as { statusCode?: number }).statusCode;
    if (status === 413 && (error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE')
      throw new AppError(413, UPLOAD_MESSAGES.tooLarge);
    if (status !== undefined && status >= 400 && status < 500) throw error;
    // Busboy's complaints (no boundary, a part cut short) are about the request, not the server.
    throw new Invalid(`The upload could not be read: ${(error as Error).message}`);
  }
}

/**
 * POST /api/upload stores an image for the rich-text editor; GET /uploads/{name} serves it, with no token:
 * the member app and the public legal pages show these images. They live in the database (table
 * uploaded_files), so every process on it serves them; at start, the images of UPLOAD_DIR (where they were
 * files before) not in it yet are imported.
 */
export const uploadRoutes =
  ({ db, config }: Services): FastifyPluginAsyncZod =>
  async (app) => {
    await importUploadDir(db, config.uploadDir, app.log);

    app.get(
      '/uploads/:name',
      {
        schema: {
          tags,
          description: 'An uploaded image (public, cached for good). Any other name is a 404.',
          params: z.object({ name: z.string() }),
          security: [],
        },
      },
      async (request, reply) => {
        const { name } = request.params;
        // Only a name of the form we make is looked up.
        if (!UPLOAD_NAME.test(name)) throw new NotFound(NOT_FOUND);
        const file = await findUpload(db, name);
        if (!file) throw new NotFound(NOT_FOUND);
        reply.headers({ ...IMAGE_HEADERS, 'content-length': String(file.bytes.length) });
        reply.type(file.contentType);
        return reply.send(file.bytes);
      },
    );

    // Multipart parsing exists only in this scope: every other route keeps its JSON body and limits.
    await app.register(async (scope) => {
      await scope.register(fastifyMultipart);
      scope.withTypeProvider<ZodTypeProvider>().post(
        '/api/upload',
        {
          config: { permission: 'page.write' },
          schema: {
            tags,
            description:
              "One image as multipart/form-data in the field `file`: PNG, JPEG, GIF or WebP by its bytes (the name and declared type don't count), at most 5 MB. Answers its URL, `/uploads/{name}`.",
            response: {
              201: uploadResponse,
              400: errorResponse,
              401: errorResponse,
              403: errorResponse,
              413: errorResponse,
              415: errorResponse,
            },
          },
        },
        async (request, reply) => {
          const bytes = await receiveUpload(request);
          const extension = sniffImage(bytes);
          if (!extension) throw new AppError(415, UPLOAD_MESSAGES.notImage);
          const name = uploadName(extension);
          await storeUpload(db, name, extension, bytes, actorOf(request));
          request.log.info({ name, size: bytes.length }, 'image uploaded');
          return reply.status(201).send({ url: `/uploads/${name}`, name, size: bytes.length });
        },
      );
    });
  };
