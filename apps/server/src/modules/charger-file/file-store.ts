/**
 * The bytes of charger files (firmware, diagnostics) in the database, in chunks of CHUNK_BYTES
 * (charger_file_chunks), so neither an upload nor a download ever holds a whole file in memory, and every
 * process on the database serves every file (as uploaded images are; docs/uploads.md). A file is offered
 * only once `complete`: an upload that fails or is cut leaves nothing offered, and its row is removed.
 */
import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { and, eq, lt, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { chargerFileChunks, chargerFiles } from '../../db/schema/index.ts';
import { AppError } from '../../lib/errors.ts';
import { type AuditActor, audit } from '../audit/audit.ts';

/** About 1 MiB a row: large enough to be few rows, small enough to be cheap in memory and in one query. */
export const CHUNK_BYTES = 1024 * 1024;
/** A sender that sends nothing for this long is cut off (slow or stalled senders hold no connection forever). */
export const IDLE_MS = 60_000;

export interface NewFile {
  kind: 'firmware' | 'diagnostics';
  chargerId?: string | null;
  chargerBrandId?: number | null;
  name: string;
  version?: string | null;
  createdBy?: number | null;
  /**
   * The staff user who uploads it: the file's completion is their audit entry (in its transaction; the
   * chunks before it are bytes, not changes to record). A charger's upload has none.
   */
  actor?: AuditActor;
}

export interface StoredFile {
  id: number;
  size: number;
  sha256: string;
}

/**
 * A file name safe to show, to put in a URL path and in a Content-Disposition: the last path segment, with
 * anything but letters, digits, '.', '-' and '_' turned into '_', at most 100 characters; `fallback` if
 * nothing is left.
 */
export function safeFileName(name: string | undefined | null, fallback: string): string {
  const base = (name ?? '').split(/[\\/]/).pop() ?? '';
  const clean = base
    .replace(/[^A-Za-z0-9._-]+/g, '_')
    .replace(/^[._]+/, '')
    .slice(0, 100);
  return clean.replace(/_+$/, '') || fallback;
}

/**
 * Writes a stream into a new file of `kind`: chunk by chunk as the bytes come, its SHA-256 computed on the
 * way, `complete` set at the end. More than `maxBytes` is a 413 with `tooLarge`; nothing at all a 400 with
 * `empty`; nothing for IDLE_MS cuts the sender off (`onIdle`). On any failure the file and its chunks are
 * removed and the error rethrown.
 */
export async function storeStream(
  db: Db,
  file: NewFile,
  source: AsyncIterable<Buffer>,
  limits: { maxBytes: number; tooLarge: string; empty: string; onIdle: () => void },
): Promise<StoredFile> {
  const [row] = await db
    .insert(chargerFiles)
    .values({
      kind: file.kind,
      chargerId: file.chargerId ?? null,
      chargerBrandId: file.chargerBrandId ?? null,
      name: file.name,
      version: file.version ?? null,
      contentType: 'application/octet-stream',
      size: 0,
      sha256: '',
      complete: false,
      createdBy: file.createdBy ?? null,
    })
    .returning({ id: chargerFiles.id });
  const id = row!.id;
  const hash = createHash('sha256');
  let size = 0;
  let seq = 0;
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  const writeChunk = async (bytes: Buffer) => {
    await db.insert(chargerFileChunks).values({ fileId: id, seq: seq++, bytes });
  };
  let idle: NodeJS.Timeout | undefined;
  const watch = () => {
    clearTimeout(idle);
    idle = setTimeout(limits.onIdle, IDLE_MS);
  };
  try {
    watch();
    for await (const data of source) {
      watch();
      size += data.length;
      if (size > limits.maxBytes) throw new AppError(413, limits.tooLarge);
      hash.update(data);
      pending.push(data);
      pendingBytes += data.length;
      while (pendingBytes >= CHUNK_BYTES) {
        const all = Buffer.concat(pending, pendingBytes);
        // The reader waits while a chunk is written: the sender is held back (TCP), memory stays bounded.
        await writeChunk(all.subarray(0, CHUNK_BYTES));
        const rest = all.subarray(CHUNK_BYTES);
        pending = rest.length > 0 ? [rest] : [];
        pendingBytes = rest.length;
      }
    }
    clearTimeout(idle);
    if (size === 0) throw new AppError(400, limits.empty);
    if (pendingBytes > 0) await writeChunk(Buffer.concat(pending, pendingBytes));
    const sha256 = hash.digest('hex');
    await db.transaction(async (tx) => {
      if (file.actor) {
        await audit(tx, file.actor, {
          entity: 'charger-file',
          entityId: id,
          action: 'upload',
          details: {
            kind: file.kind,
            name: file.name,
            version: file.version ?? null,
            chargerBrandId: file.chargerBrandId ?? null,
          },
        });
      }
      await tx.update(chargerFiles).set({ size, sha256, complete: true }).where(eq(chargerFiles.id, id));
    });
    return { id, size, sha256 };
  } catch (error) {
    clearTimeout(idle);
    await removeFile(db, id).catch(() => undefined);
    throw error;
  }
}

/** Deletes a file and its chunks (cascade). */
export async function removeFile(db: Db, id: number): Promise<void> {
  await db.delete(chargerFiles).where(eq(chargerFiles.id, id));
}

/**
 * A complete file's bytes as a stream, one chunk (one primary-key select) at a time, as the reader takes them.
 * A file deleted while it is read ends short (the client sees fewer bytes than Content-Length).
 */
export function fileStream(db: Db, id: number): Readable {
  async function* chunks() {
    for (let seq = 0; ; seq++) {
      const [chunk] = await db
        .select({ bytes: chargerFileChunks.bytes })
        .from(chargerFileChunks)
        .where(and(eq(chargerFileChunks.fileId, id), eq(chargerFileChunks.seq, seq)));
      if (!chunk) return;
      yield chunk.bytes;
    }
  }
  return Readable.from(chunks(), { objectMode: false, highWaterMark: 1 });
}

/**
 * Uploads cut off by a stopped process leave an incomplete file: removed once it is a day old (no upload
 * lasts that long; one under way is younger).
 */
export async function removeAbandonedUploads(db: Db): Promise<number> {
  const removed = await db
    .delete(chargerFiles)
    .where(and(eq(chargerFiles.complete, false), lt(chargerFiles.createdAt, sql`now() - interval '1 day'`)))
    .returning({ id: chargerFiles.id });
  return removed.length;
}
