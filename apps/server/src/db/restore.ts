import fs from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { createGunzip } from 'node:zlib';
import { syncFile } from './backup.ts';
import { createEmbeddedClient } from './client.ts';
import { lockDataDir, lockHolder } from './lock.ts';
import { formatBytes, onInterrupt, seconds, ToolError, type ToolOutput } from './tool-output.ts';

export interface RestoreOptions {
  dataDir: string;
  file: string;
  output: ToolOutput;
}

/** Restores a backup into an empty (or new) data directory, then opens it once to check it starts. */
export async function restoreEmbedded(
  options: RestoreOptions,
): Promise<{ tables: number; migrations: number }> {
  const { dataDir, output } = options;
  const file = path.resolve(options.file);
  if (!fs.existsSync(file) || !fs.statSync(file).isFile()) throw new ToolError(`No backup file at ${file}`);
  const existed = fs.existsSync(dataDir);
  if (existed) {
    const holder = lockHolder(dataDir);
    if (holder) {
      throw new ToolError(
        `A server (pid ${holder.pid} on ${holder.host}) is running on ${dataDir}: ` +
          'stop it, and restore into an empty directory',
      );
    }
    const entries = fs.readdirSync(dataDir);
    if (entries.length > 0) {
      const shown = entries.slice(0, 3).join(', ') + (entries.length > 3 ? ', …' : '');
      throw new ToolError(
        `${dataDir} is not empty (${shown}): restore only into an empty or new directory ` +
          '(move the old one aside first)',
      );
    }
  }
  const started = performance.now();
  const { tar, version } = await readTarball(file);
  const release = lockDataDir(dataDir);
  const pgdata = path.join(dataDir, 'pgdata');
  const undo = () => {
    // Leave the directory as it was: empty (it was checked), or absent.
    fs.rmSync(pgdata, { recursive: true, force: true });
    release();
    if (!existed && fs.existsSync(dataDir) && fs.readdirSync(dataDir).length === 0) fs.rmdirSync(dataDir);
  };
  const stopWatching = onInterrupt(undo);
  try {
    output.progress(`Restoring ${formatBytes(tar.size)} of data directory into ${dataDir}…`);
    let client: Awaited<ReturnType<typeof createEmbeddedClient>>;
    try {
      client = await createEmbeddedClient(dataDir, { loadDataDir: tar });
    } catch (error) {
      throw new ToolError(
        `The backup (PostgreSQL ${version} data) does not start: ${(error as Error).message ?? error}`,
      );
    }
    let tables = 0;
    let migrations = 0;
    try {
      const counted = await client.query<{ tables: number; migrations: number }>(
        `select (select count(*)::int from pg_tables where schemaname = 'public') as tables,
                coalesce((select count(*)::int from pg_tables where schemaname = 'drizzle'), 0) as migrations`,
      );
      tables = counted.rows[0]?.tables ?? 0;
      if (counted.rows[0]?.migrations) {
        const applied = await client.query<{ n: number }>(
          'select count(*)::int as n from drizzle.__drizzle_migrations',
        );
        migrations = applied.rows[0]?.n ?? 0;
      }
    } finally {
      await client.close();
    }
    syncTree(pgdata);
    output.progress(`  restored and checked in ${seconds(started)}`);
    release();
    return { tables, migrations };
  } catch (error) {
    undo();
    throw error;
  } finally {
    stopWatching();
  }
}

/** The tarball inside a backup file, checked to be one with a PG_VERSION; and that version. */
async function readTarball(file: string): Promise<{ tar: Blob; version: string }> {
  const chunks: Buffer[] = [];
  try {
    await pipeline(fs.createReadStream(file), createGunzip(), async (source: AsyncIterable<Buffer>) => {
      for await (const chunk of source) chunks.push(chunk);
    });
  } catch (error) {
    throw new ToolError(`${file} is not a backup made by db:backup (${(error as Error).message})`);
  }
  const tar = new Blob(chunks);
  chunks.length = 0;
  const version = await pgVersionOf(tar);
  if (!version) throw new ToolError(`${file} is not a backup made by db:backup (no data directory inside)`);
  return { tar, version };
}

/** The PostgreSQL major version of the data directory in a tarball (its PG_VERSION entry), or null. */
async function pgVersionOf(tar: Blob): Promise<string | null> {
  let offset = 0;
  while (offset + 512 <= tar.size) {
    const header = Buffer.from(await tar.slice(offset, offset + 512).arrayBuffer());
    if (header.subarray(257, 262).toString('latin1') !== 'ustar') return null;
    const name = header.subarray(0, 100).toString('utf8').replace(/\0.*$/s, '');
    const size = Number.parseInt(
      header.subarray(124, 136).toString('latin1').replace(/\0/g, '').trim() || '0',
      8,
    );
    if (name.replace(/^\.?\//, '') === 'PG_VERSION') {
      return (await tar.slice(offset + 512, offset + 512 + size).text()).trim();
    }
    offset += 512 + Math.ceil(size / 512) * 512;
  }
  return null;
}

/** Every file and directory under `dir` synced to disk (PGlite's loader writes without fsync). */
function syncTree(dir: string) {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const child = path.join(dir, entry.name);
    if (entry.isDirectory()) syncTree(child);
    else if (entry.isFile()) syncFile(child);
  }
  syncFile(dir);
}
