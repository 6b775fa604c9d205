import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { type Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip } from 'node:zlib';
import {
  BACKUP_PATH,
  BACKUP_SIZE_HEADER,
  BACKUP_TOKEN_HEADER,
  dumpEmbedded,
  gzipBlob,
  readBackupEndpoint,
} from './backup-endpoint.ts';
import { createEmbeddedClient } from './client.ts';
import { DataDirLockedError, lockDataDir, lockHolder } from './lock.ts';
import { formatBytes, onInterrupt, ToolError, type ToolOutput, throttled } from './tool-output.ts';

/*
 * The backup format is PGlite's own: a tarball of the data directory (`dumpDataDir`), gzipped. A restore is
 * `PGlite.create({ loadDataDir })` on the empty directory, as PGlite itself would load it (docs/decisions.md).
 */

export const hasEmbeddedDatabase = (dataDir: string) =>
  fs.existsSync(path.join(dataDir, 'pgdata', 'PG_VERSION'));

export interface BackupOptions {
  dataDir: string;
  file: string;
  force: boolean;
  output: ToolOutput;
}

export interface BackupResult {
  /** 'server': taken by the running server (its pid); 'directory': the tool opened DATA_DIR itself. */
  from: 'server' | 'directory';
  pid?: number;
  bytes: number;
  tarBytes: number;
}

/** Writes a consistent backup of the embedded database in `dataDir` to `file`, whether a server runs on it or not. */
export async function backupEmbedded(options: BackupOptions): Promise<BackupResult> {
  const file = path.resolve(options.file);
  if (fs.existsSync(file) && !options.force)
    throw new ToolError(`${file} exists: pass --force to overwrite it`);
  if (!fs.existsSync(path.dirname(file))) throw new ToolError(`The directory of ${file} does not exist`);
  if (!hasEmbeddedDatabase(options.dataDir)) {
    throw new ToolError(
      `No embedded database in ${options.dataDir} (no pgdata/PG_VERSION): nothing to back up`,
    );
  }
  let release: () => void;
  try {
    release = lockDataDir(options.dataDir);
  } catch (error) {
    if (!(error instanceof DataDirLockedError)) throw error;
    return backupFromServer(options, file);
  }
  let tar: Blob;
  try {
    options.output.progress(`Opening the embedded database in ${options.dataDir} (no server runs on it)…`);
    const client = await createEmbeddedClient(options.dataDir);
    try {
      tar = await dumpEmbedded(client);
    } finally {
      await client.close();
    }
  } finally {
    release();
  }
  const bytes = await writeBackupFile(gzipBlob(tar), tar.size, file, options);
  return { from: 'directory', bytes, tarBytes: tar.size };
}

/** A server holds DATA_DIR: it takes the backup from its own PGlite instance and streams it (backup-endpoint.ts). */
async function backupFromServer(options: BackupOptions, file: string): Promise<BackupResult> {
  const holder = lockHolder(options.dataDir);
  const endpoint = readBackupEndpoint(options.dataDir);
  const who = holder ? `A server (pid ${holder.pid} on ${holder.host})` : 'A server';
  if (!endpoint || (holder && endpoint.pid !== holder.pid)) {
    throw new ToolError(
      `${who} holds ${options.dataDir} but offers no backup endpoint yet (still starting, or an older version): ` +
        'try again once it is ready, or stop it and run the backup again',
    );
  }
  options.output.progress(`${who} runs on ${options.dataDir}: asking it for the backup…`);
  const response = await new Promise<http.IncomingMessage>((resolve, reject) => {
    const request = http.request(`${endpoint.url}${BACKUP_PATH}`, {
      method: 'POST',
      headers: { [BACKUP_TOKEN_HEADER]: endpoint.token },
    });
    request.on('response', resolve);
    request.on('error', (error) =>
      reject(
        new ToolError(`Cannot reach the server (pid ${endpoint.pid}) at ${endpoint.url}: ${error.message}`),
      ),
    );
    request.end();
  });
  if (response.statusCode !== 200) {
    let text = '';
    for await (const chunk of response) text += chunk;
    let message = text;
    try {
      message = JSON.parse(text).message ?? text;
    } catch {}
    throw new ToolError(
      `The server (pid ${endpoint.pid}) refused the backup: ${response.statusCode} ${message}`,
    );
  }
  const tarBytes = Number(response.headers[BACKUP_SIZE_HEADER]);
  const bytes = await writeBackupFile(response, tarBytes, file, options);
  return { from: 'server', pid: endpoint.pid, bytes, tarBytes };
}

/**
 * Streams the gzipped tarball into a temporary file beside `file`, checks it (it decompresses whole, to the
 * size the source announced, and is a tarball), syncs it, then moves it to `file`: an interrupted or failed
 * backup never leaves anything under that name.
 */
async function writeBackupFile(source: Readable, tarBytes: number, file: string, options: BackupOptions) {
  const temporary = path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}.partial`);
  const report = throttled(options.output.progress);
  let written = 0;
  const stopWatching = onInterrupt(() => fs.rmSync(temporary, { force: true }));
  const counter = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      written += chunk.length;
      report(`  ${formatBytes(written)} written`);
      done(null, chunk);
    },
  });
  try {
    try {
      await pipeline(source, counter, fs.createWriteStream(temporary, { mode: 0o600, flags: 'wx' }));
    } catch (error) {
      throw new ToolError(
        `The backup stopped before its end (${(error as Error).message}): nothing was written`,
      );
    }
    report(`  ${formatBytes(written)} written`, true);
    const checked = await tarballSize(temporary);
    if (!Number.isFinite(tarBytes) || checked !== tarBytes) {
      throw new ToolError(`The backup is incomplete (${checked} of ${tarBytes} bytes): nothing was written`);
    }
    syncFile(temporary);
    if (options.force) fs.renameSync(temporary, file);
    else {
      try {
        fs.linkSync(temporary, file); // fails if `file` appeared meanwhile: never overwritten without --force
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'EEXIST') {
          throw new ToolError(`${file} exists: pass --force to overwrite it`);
        }
        throw error;
      }
    }
    syncFile(path.dirname(file));
    return written;
  } finally {
    stopWatching();
    fs.rmSync(temporary, { force: true });
  }
}

/** The size of the tarball a backup file holds; a ToolError when it is not a whole gzipped tarball. */
async function tarballSize(file: string): Promise<number> {
  let size = 0;
  let head = Buffer.alloc(0);
  try {
    await pipeline(fs.createReadStream(file), createGunzip(), async (chunks: AsyncIterable<Buffer>) => {
      for await (const chunk of chunks) {
        if (head.length < 512) head = Buffer.concat([head, chunk.subarray(0, 512 - head.length)]);
        size += chunk.length;
      }
    });
  } catch (error) {
    throw new ToolError(`${file} is not a backup made by db:backup (${(error as Error).message})`);
  }
  if (head.subarray(257, 262).toString('latin1') !== 'ustar') {
    throw new ToolError(`${file} is not a backup made by db:backup (no tarball inside)`);
  }
  return size;
}

export function syncFile(file: string) {
  const fd = fs.openSync(file, 'r');
  try {
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}
