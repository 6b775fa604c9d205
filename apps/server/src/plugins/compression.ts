import { constants } from 'node:zlib';
import fastifyCompress from '@fastify/compress';
import type { FastifyInstance } from 'fastify';

/** Answers smaller than this go as they are: compressing them saves less than its own cost. */
export const COMPRESS_THRESHOLD_BYTES = 1024;

/**
 * Compresses API answers (JSON, CSV) for clients that ask (`Accept-Encoding`), brotli first, then gzip.
 * Brotli at quality 4 on the fly: quality 11 (the library's default) costs ~50x the CPU for a few percent
 * less. The web app's files are compressed once at build time (`apps/web/precompress.ts`) and sent as they
 * are by @fastify/static's `preCompressed`; this plugin leaves an answer that already has a Content-Encoding
 * alone. Event streams are hijacked replies and never buffered here; xlsx and images are compressed formats
 * (mime-db) and skipped.
 */
export async function registerCompression(app: FastifyInstance) {
  await app.register(fastifyCompress, {
    global: true,
    threshold: COMPRESS_THRESHOLD_BYTES,
    encodings: ['br', 'gzip'],
    brotliOptions: { params: { [constants.BROTLI_PARAM_QUALITY]: 4 } },
  });
}
