import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export class DataDirLockedError extends Error {
  constructor(dir: string, holder: string) {
    super(
      `The data directory ${dir} is in use by another server process (${holder}).\n` +
        'Stop that process first, or point DATA_DIR at another directory. ' +
        'Two processes writing one embedded database would corrupt it.',
    );
    this.name = 'DataDirLockedError';
  }
}

export interface LockInfo {
  pid: number;
  host: string;
  since: string;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function readLock(file: string): LockInfo | null {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8')) as LockInfo;
  } catch {
    return null;
  }
}

/** The process holding the lock on `dir`, or null when none does (no lock, or one left by a dead process here). */
export function lockHolder(dir: string): LockInfo | null {
  const holder = readLock(path.join(dir, 'server.lock'));
  if (!holder) return null;
  return holder.host === os.hostname() && !isAlive(holder.pid) ? null : holder;
}

/**
 * Takes the exclusive lock on DATA_DIR, so that a second process pointed at the same embedded database
 * refuses to start. A lock left by a process that died on this host is taken over.
 * Returns the function that releases it.
 */
export function lockDataDir(dir: string): () => void {
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, 'server.lock');
  const mine: LockInfo = { pid: process.pid, host: os.hostname(), since: new Date().toISOString() };
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const fd = fs.openSync(file, 'wx');
      fs.writeFileSync(fd, JSON.stringify(mine));
      fs.fsyncSync(fd);
      fs.closeSync(fd);
      let released = false;
      return () => {
        if (released) return;
        released = true;
        const current = readLock(file);
        if (current?.pid === mine.pid && current.since === mine.since) fs.rmSync(file, { force: true });
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const holder = readLock(file);
      const stale = holder === null || (holder.host === mine.host && !isAlive(holder.pid));
      if (!stale)
        throw new DataDirLockedError(dir, `pid ${holder.pid} on ${holder.host} since ${holder.since}`);
      fs.rmSync(file, { force: true });
    }
  }
  throw new DataDirLockedError(dir, 'another process kept taking the lock');
}
