/**
 * Receiving a file from outside (an admin's firmware upload, a charger's diagnostics upload): every byte is
 * a stranger's. A declared length over the limit is refused before a byte is read; the bytes stream into the
 * database (file-store.ts) as they come; a sender that stalls, or takes longer than `deadlineMs`, is cut off;
 * anything wrong with the request is a 4xx `{message}`, and only the server's own failures a 500.
 */

import type { Readable } from 'node:stream';
import { CHARGER_FILE_MESSAGES } from '@ev/shared';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Db } from '../../db/client.ts';
import { AppError, Invalid } from '../../lib/errors.ts';
import { IDLE_MS, type NewFile, type StoredFile, storeStream } from './file-store.ts';

/** What a multipart body may add around its file (boundaries, part headers, a few small fields). */
const MULTIPART_OVERHEAD = 64 * 1024;

export interface Limits {
  maxBytes: number;
  tooLarge: string;
  /** The longest an upload may take in all (the diagnostics link is claimed for that long). */
  deadlineMs?: number;
}

/** A failure of the sender's stream (cut, malformed), as opposed to one of ours (the database). */
class SenderError extends Error {
  constructor(readonly original: unknown) {
    super((original as Error)?.message ?? String(original));
  }
}

/**
 * The sender's bytes, its failures marked as its own. Leaving early (a refusal) does not destroy the request:
 * its rest is then read and dropped (drainAfterRefusal), so the connection stays in step.
 */
async function* fromSender(source: AsyncIterable<Buffer>): AsyncGenerator<Buffer> {
  const stream = source as Readable;
  const chunks = typeof stream.iterator === 'function' ? stream.iterator({ destroyOnReturn: false }) : source;
  try {
    for await (const chunk of chunks) yield chunk as Buffer;
  } catch (error) {
    throw new SenderError(error);
  }
}

/** 413 at once when the request says it is larger than the file may be (plus `overhead`). */
export function refuseDeclaredSize(request: FastifyRequest, limits: Limits, overhead = 0): void {
  const declared = Number(request.headers['content-length']);
  if (Number.isFinite(declared) && declared > limits.maxBytes + overhead)
    throw new AppError(413, limits.tooLarge);
}

/** After a refusal, how much more of the body is read (and dropped) so the sender gets the answer. */
const DRAIN_BYTES = 64 * 1024 * 1024;
const DRAIN_MS = 30_000;

/**
 * A refusal before the whole body was read (413, 404, 410…): the rest of the body is read and dropped, so the
 * sender, still sending, then reads our answer (closing at once would reset the connection under it, and the
 * answer would be lost). Past DRAIN_BYTES or DRAIN_MS the connection is cut: a sender can't keep it for good.
 */
export function drainAfterRefusal(scope: FastifyInstance): void {
  scope.addHook('onSend', async (request, reply, payload) => {
    const raw = request.raw;
    if (reply.statusCode < 400 || raw.complete) return payload;
    // Nothing left to read it with: the connection must not carry another request.
    if (raw.destroyed) {
      reply.header('connection', 'close');
      return payload;
    }
    raw.unpipe();
    let left = DRAIN_BYTES;
    const cut = setTimeout(() => raw.destroy(), DRAIN_MS);
    cut.unref();
    raw.on('data', (chunk: Buffer) => {
      left -= chunk.length;
      if (left < 0) raw.destroy();
    });
    raw.once('close', () => clearTimeout(cut));
    raw.resume();
    return payload;
  });
}

/** The first file of a multipart request (in `field`, or any field), with its name; 400 without one. */
export async function multipartFile(
  request: FastifyRequest,
  limits: Limits,
  field?: string,
): Promise<{ name: string | undefined; source: AsyncIterable<Buffer> }> {
  refuseDeclaredSize(request, limits, MULTIPART_OVERHEAD);
  try {
    const part = await request.file({
      limits: {
        // One byte more than allowed: storeStream sees it and answers 413 with our message.
        fileSize: limits.maxBytes + 1,
        files: 1,
        fields: 10,
        parts: 11,
        fieldSize: 1024,
        headerPairs: 50,
      },
    });
    if (!part || (field !== undefined && part.fieldname !== field)) {
      part?.file.resume();
      throw new Invalid(CHARGER_FILE_MESSAGES.noFile);
    }
    return { name: part.filename, source: part.file };
  } catch (error) {
    if (error instanceof AppError) throw error;
    const status = (error as { statusCode?: number }).statusCode;
    if (status !== undefined && status >= 400 && status < 500) throw error;
    throw new Invalid(`The upload could not be read: ${(error as Error).message}`);
  }
}

/**
 * Streams `source` into a new file; a sender's failure (cut off, stalled, past the deadline, malformed) is a
 * 4xx, the file removed.
 */
export async function storeFrom(
  db: Db,
  request: FastifyRequest,
  file: NewFile,
  source: AsyncIterable<Buffer>,
  limits: Limits,
): Promise<StoredFile> {
  let cut: 'idle' | 'late' | null = null;
  const cutOff = (why: 'idle' | 'late') => {
    cut ??= why;
    request.raw.destroy();
  };
  const deadline = limits.deadlineMs ? setTimeout(() => cutOff('late'), limits.deadlineMs) : undefined;
  try {
    return await storeStream(db, file, fromSender(source), {
      maxBytes: limits.maxBytes,
      tooLarge: limits.tooLarge,
      empty: CHARGER_FILE_MESSAGES.empty,
      onIdle: () => cutOff('idle'),
    });
  } catch (error) {
    if (cut === 'idle')
      throw new AppError(408, `Nothing came for ${IDLE_MS / 1000} s: the upload was cut off.`);
    if (cut === 'late') throw new AppError(408, 'The upload took too long and was cut off.');
    if (!(error instanceof SenderError)) throw error;
    const original = error.original as { code?: string; statusCode?: number };
    if (original?.code === 'FST_REQ_FILE_TOO_LARGE') throw new AppError(413, limits.tooLarge);
    throw new Invalid(`The upload was cut off or malformed: ${error.message}`);
  } finally {
    clearTimeout(deadline);
  }
}
