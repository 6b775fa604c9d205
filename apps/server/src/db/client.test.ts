import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { durability, openDatabase } from './client.ts';
import { DataDirLockedError } from './lock.ts';
import { users } from './schema/index.ts';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ev-durable-'));
afterAll(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('openDatabase on disk (embedded PGlite)', () => {
  it('syncs commits to disk, locks the directory, and keeps the data across a reopen', async () => {
    const first = await openDatabase({ dataDir: dir });
    expect(first.kind).toBe('pglite');
    expect(fs.existsSync(path.join(dir, 'server.lock'))).toBe(true);
    // A second opening of the same directory is refused while the first holds it.
    await expect(openDatabase({ dataDir: dir })).rejects.toThrow(DataDirLockedError);

    const before = durability.fsyncCalls;
    const [row] = await first.db
      .insert(users)
      .values({ type: 'admin', email: 'durable@example.com', adminRole: 'admin' })
      .returning({ id: users.id });
    expect(durability.fsyncCalls).toBeGreaterThan(before);
    await first.close();
    expect(fs.existsSync(path.join(dir, 'server.lock'))).toBe(false);

    const second = await openDatabase({ dataDir: dir });
    try {
      const found = await second.db.select().from(users).where(eq(users.id, row!.id));
      expect(found).toHaveLength(1);
      expect(found[0]).toMatchObject({ email: 'durable@example.com', adminRole: 'admin' });
    } finally {
      await second.close();
    }
  });
});
