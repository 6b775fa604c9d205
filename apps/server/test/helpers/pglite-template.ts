import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { MIGRATIONS, openDatabase } from '../../src/db/client.ts';

/** A hash of the committed migrations: a new migration makes a new template. */
function migrationsHash(): string {
  const hash = createHash('sha256');
  const walk = (dir: string) => {
    for (const name of fs.readdirSync(dir).sort()) {
      const file = path.join(dir, name);
      if (fs.statSync(file).isDirectory()) walk(file);
      else hash.update(name).update(fs.readFileSync(file));
    }
  };
  walk(MIGRATIONS);
  return hash.digest('hex').slice(0, 16);
}

let cached: Promise<Blob> | null = null;

/**
 * A dump of a freshly migrated in-memory PGlite database, made once per migration set and kept in the
 * temp directory. Loading it takes ~0.4 s where initdb and migrations take ~4 s, for every test file.
 * Each test still gets its own database: the dump is copied into a new in-memory instance.
 */
export function migratedTemplate(): Promise<Blob> {
  cached ??= (async () => {
    const file = path.join(os.tmpdir(), `ev-pglite-template-${migrationsHash()}.tar`);
    if (!fs.existsSync(file)) {
      const database = await openDatabase({});
      const client = (database.db as unknown as { $client: { dumpDataDir(c: 'none'): Promise<Blob> } })
        .$client;
      const dump = await client.dumpDataDir('none');
      await database.close();
      const temporary = `${file}.${process.pid}.tmp`;
      fs.writeFileSync(temporary, Buffer.from(await dump.arrayBuffer()));
      fs.renameSync(temporary, file); // atomic: parallel workers never read half a file
    }
    return new Blob([fs.readFileSync(file)]);
  })();
  return cached;
}
