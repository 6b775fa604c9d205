import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DataDirLockedError, lockDataDir } from './lock.ts';

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ev-lock-'));
});
afterEach(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

const lockFile = () => path.join(dir, 'server.lock');

/** The pid of a process that has exited. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', '']);
  expect(child.pid).toBeGreaterThan(0);
  return child.pid!;
}

describe('lockDataDir', () => {
  it('writes a lock naming this process, and release removes it', () => {
    const release = lockDataDir(dir);
    const info = JSON.parse(fs.readFileSync(lockFile(), 'utf8'));
    expect(info).toMatchObject({ pid: process.pid, host: os.hostname(), since: expect.any(String) });
    release();
    expect(fs.existsSync(lockFile())).toBe(false);
    release(); // a second release is harmless
  });

  it('creates the directory when it does not exist', () => {
    const nested = path.join(dir, 'a', 'b');
    const release = lockDataDir(nested);
    expect(fs.existsSync(path.join(nested, 'server.lock'))).toBe(true);
    release();
  });

  it('refuses a second lock on the same directory while the first is held', () => {
    const release = lockDataDir(dir);
    expect(() => lockDataDir(dir)).toThrow(DataDirLockedError);
    expect(() => lockDataDir(dir)).toThrow(new RegExp(`pid ${process.pid}`));
    release();
    // Once released, the directory can be locked again.
    lockDataDir(dir)();
  });

  it('takes over a lock left by a process that died', () => {
    const pid = deadPid();
    fs.writeFileSync(
      lockFile(),
      JSON.stringify({ pid, host: os.hostname(), since: '2020-01-01T00:00:00.000Z' }),
    );
    const release = lockDataDir(dir);
    expect(JSON.parse(fs.readFileSync(lockFile(), 'utf8')).pid).toBe(process.pid);
    release();
    expect(fs.existsSync(lockFile())).toBe(false);
  });

  it('takes over an unreadable lock file', () => {
    fs.writeFileSync(lockFile(), '{half-writ');
    const release = lockDataDir(dir);
    expect(JSON.parse(fs.readFileSync(lockFile(), 'utf8')).pid).toBe(process.pid);
    release();
  });

  it('respects a lock held on another host, where it cannot tell whether the holder lives', () => {
    const pid = deadPid();
    fs.writeFileSync(lockFile(), JSON.stringify({ pid, host: `not-${os.hostname()}`, since: 'x' }));
    expect(() => lockDataDir(dir)).toThrow(DataDirLockedError);
    expect(fs.existsSync(lockFile())).toBe(true);
  });

  it('does not remove a lock that another process took after a stale release', () => {
    const release = lockDataDir(dir);
    // Someone else's lock replaced ours (e.g. an operator removed the file and started another server).
    fs.writeFileSync(lockFile(), JSON.stringify({ pid: 1, host: os.hostname(), since: 'other' }));
    release();
    expect(fs.existsSync(lockFile())).toBe(true);
  });
});
