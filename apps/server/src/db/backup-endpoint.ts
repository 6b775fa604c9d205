import { randomBytes, timingSafeEqual } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { pipeline, Readable } from 'node:stream';
import { createGzip } from 'node:zlib';
import type { PGlite } from '@electric-sql/pglite';
import type { FastifyInstance } from 'fastify';
import { type Db, embeddedStoreOf } from './client.ts';

/** Where a server on the embedded database says how to ask it for a backup: DATA_DIR/<this>, mode 0600. */
export const BACKUP_ENDPOINT_FILE = 'backup-endpoint.json';
export const BACKUP_PATH = '/internal/db/backup';
export const BACKUP_TOKEN_HEADER = 'x-backup-token';
/** The size of the uncompressed tarball, for the tool to check it received all of it. */
export const BACKUP_SIZE_HEADER = 'x-backup-tar-bytes';

export interface BackupEndpoint {
  pid: number;
  url: string;
  token: string;
}

/**
 * A physical copy of the embedded database: a tarball of its data directory, made by PGlite's
 * `dumpDataDir`. It runs inside `client.transaction`, which holds PGlite's transaction lock: no other
 * transaction or query can run until it returns, so the files are copied between transactions, right after a
 * CHECKPOINT wrote every change to them (a restore then has almost no WAL to replay). Queries wait meanwhile.
 */
export async function dumpEmbedded(client: PGlite): Promise<Blob> {
  return client.transaction(async (tx) => {
    await tx.exec('CHECKPOINT');
    return client.dumpDataDir('none');
  });
}

/** How much of the tarball is read, and how much gzip gives out, at a time. */
const GZIP_CHUNK = 4 * 1024 * 1024;

/** The tarball's bytes in slices of GZIP_CHUNK: a copy of one slice at a time, not of the whole. */
async function* blobSlices(blob: Blob) {
  for (let at = 0; at < blob.size; at += GZIP_CHUNK) {
    yield Buffer.from(await blob.slice(at, at + GZIP_CHUNK).arrayBuffer());
  }
}

/**
 * The tarball as a gzip stream; an error of either stream destroys the result. It moves in 4 MB chunks, not
 * the 64 KB of a web stream: a busy server (chargers, payments: every PGlite query runs on the main thread)
 * gives each stream step one turn of its event loop, and 72 MB in 64 KB steps took a minute there (issue 31).
 */
export function gzipBlob(blob: Blob): Readable {
  const gzip = createGzip({ level: 3, chunkSize: GZIP_CHUNK });
  pipeline(Readable.from(blobSlices(blob), { objectMode: false }), gzip, () => {});
  return gzip;
}

export function readBackupEndpoint(dataDir: string): BackupEndpoint | null {
  try {
    const value = JSON.parse(fs.readFileSync(path.join(dataDir, BACKUP_ENDPOINT_FILE), 'utf8'));
    const ok =
      typeof value?.pid === 'number' && typeof value.url === 'string' && typeof value.token === 'string';
    return ok ? (value as BackupEndpoint) : null;
  } catch {
    return null;
  }
}

function sameToken(given: unknown, token: string): boolean {
  if (typeof given !== 'string' || given.length !== token.length) return false;
  return timingSafeEqual(Buffer.from(given), Buffer.from(token));
}

/** A connection from this machine: from loopback, or from the very address it reached (the tool is local). */
function fromThisHost(socket: { remoteAddress?: string; localAddress?: string }): boolean {
  const remote = socket.remoteAddress?.replace(/^::ffff:/, '');
  return (
    remote === '127.0.0.1' ||
    remote === '::1' ||
    (!!remote && remote === socket.localAddress?.replace(/^::ffff:/, ''))
  );
}

/** The address a local tool reaches the server at: a wildcard listen is reached on loopback. */
function localUrl(address: string, port: number): string {
  const host = address === '0.0.0.0' ? '127.0.0.1' : address === '::' ? '::1' : address;
  return `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
}

/**
 * When the server runs on the embedded database in DATA_DIR, `npm run db:backup` can't open it (the lock, and
 * PGlite is one process' single connection): it asks the server, which takes the backup from its own
 * instance. The tool authenticates with a random token the server writes, once listening, into a 0600 file in
 * DATA_DIR with its pid and address: whoever can read DATA_DIR can copy the database anyway. Only connections
 * from this machine are heard. Not under /api, not in the OpenAPI document; an unknown token, or a call from
 * elsewhere, gets the same 404 as a missing route.
 */
export function registerBackupEndpoint(app: FastifyInstance, db: Db) {
  const store = embeddedStoreOf(db);
  if (!store) return;
  const file = path.join(store.dataDir, BACKUP_ENDPOINT_FILE);
  const token = randomBytes(32).toString('hex');
  let running = false;

  app.post(BACKUP_PATH, { compress: false, schema: { hide: true } }, async (request, reply) => {
    if (!fromThisHost(request.socket) || !sameToken(request.headers[BACKUP_TOKEN_HEADER], token)) {
      return reply.status(404).send({ message: 'Not found' });
    }
    // One at a time: each holds a copy of the data directory in memory.
    if (running) return reply.status(409).send({ message: 'A backup is already running' });
    running = true;
    try {
      const started = performance.now();
      const blob = await dumpEmbedded(store.client);
      const pausedMs = Math.round(performance.now() - started);
      request.log.info({ bytes: blob.size, pausedMs }, 'database backup: data directory copied');
      const body = gzipBlob(blob);
      body.on('close', () => {
        running = false;
      });
      reply.header('content-type', 'application/gzip');
      reply.header('cache-control', 'no-store');
      reply.header(BACKUP_SIZE_HEADER, String(blob.size));
      return reply.send(body);
    } catch (error) {
      running = false;
      throw error;
    }
  });

  app.addHook('onListen', async () => {
    const address = app.server.address();
    if (!address || typeof address === 'string') return;
    const endpoint: BackupEndpoint = {
      pid: process.pid,
      url: localUrl(address.address, address.port),
      token,
    };
    const temporary = `${file}.${process.pid}.tmp`;
    fs.writeFileSync(temporary, JSON.stringify(endpoint), { mode: 0o600 });
    fs.renameSync(temporary, file);
  });
  app.addHook('onClose', async () => {
    if (readBackupEndpoint(store.dataDir)?.token === token) fs.rmSync(file, { force: true });
  });
}
