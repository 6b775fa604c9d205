import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { type Db, MIGRATIONS } from '../../db/client.ts';
import { hasSqlState } from '../../lib/errors.ts';
import type { Lifecycle } from '../../lib/lifecycle.ts';

/** A database that has not answered in this long is reported unreachable (a probe must not hang). */
export const READY_DATABASE_TIMEOUT_MS = 2000;

/** The newest migration this build carries: drizzle records its `when` as `created_at` once applied. */
const latestMigration = (() => {
  const journal = JSON.parse(fs.readFileSync(path.join(MIGRATIONS, 'meta', '_journal.json'), 'utf8')) as {
    entries: Array<{ tag: string; when: number }>;
  };
  return journal.entries.at(-1) ?? { tag: '(none)', when: 0 };
})();

/** The database did not answer in time: down, or busy (PGlite runs one query at a time). */
class DatabaseSilent extends Error {
  constructor() {
    super(`no answer within ${READY_DATABASE_TIMEOUT_MS / 1000} s`);
  }
}

/** Both drivers (pg, PGlite) answer `execute` with `rows`. */
type Applied = { rows: Array<{ applied: boolean }> };

/** No drizzle schema or migrations table: the database was never migrated. */
const NOT_MIGRATED = new Set(['3F000', '42P01']);

export interface ReadinessSource {
  lifecycle: Lifecycle;
  /** The HTTP server listens: it carries the OCPP upgrade too. */
  listening: () => boolean;
  /** Told when the database stops or starts answering (not on every probe). */
  onDatabaseChange?: (error: unknown) => void;
}

/**
 * Answers why the server is not ready, or null when it is: listening and not stopping, the database answering
 * a round trip within READY_DATABASE_TIMEOUT_MS, and the latest migration applied (checked until true once,
 * then a plain `select 1`). Messages never carry driver errors: the route is public.
 */
export function readinessCheck(db: Db, source: ReadinessSource): () => Promise<string | null> {
  let migrated = false;
  let databaseDown = false;
  /** Probes at the same moment share one round trip (the route is public). */
  let pending: Promise<string | null> | null = null;
  const check = async (): Promise<string | null> => {
    const { state } = source.lifecycle;
    if (state === 'stopping') return 'Shutting down';
    if (state === 'starting' || !source.listening()) return 'Starting: the server is not listening yet';
    let timer: NodeJS.Timeout | undefined;
    try {
      const query = migrated
        ? db.execute(sql`select 1`).then(() => true)
        : db
            .execute(
              sql`select exists (select 1 from drizzle.__drizzle_migrations where created_at >= ${latestMigration.when}) as applied`,
            )
            .then((result) => Boolean((result as unknown as Applied).rows[0]?.applied));
      const timeout = new Promise<never>((_resolve, reject) => {
        timer = setTimeout(() => reject(new DatabaseSilent()), READY_DATABASE_TIMEOUT_MS);
      });
      // The query may still fail after the timeout won: that later failure is expected, not unhandled.
      query.catch(() => {});
      const applied = await Promise.race([query, timeout]);
      if (databaseDown) source.onDatabaseChange?.(null);
      databaseDown = false;
      if (!applied) return `Database migrations are not applied (latest: ${latestMigration.tag})`;
      migrated = true;
      return null;
    } catch (error) {
      if (hasSqlState(error, NOT_MIGRATED)) {
        return `Database migrations are not applied (latest: ${latestMigration.tag})`;
      }
      if (!databaseDown) source.onDatabaseChange?.(error);
      databaseDown = true;
      return error instanceof DatabaseSilent
        ? `Database unreachable: ${error.message}`
        : 'Database unreachable';
    } finally {
      clearTimeout(timer);
    }
  };
  return () => {
    pending ??= check().finally(() => {
      pending = null;
    });
    return pending;
  };
}
