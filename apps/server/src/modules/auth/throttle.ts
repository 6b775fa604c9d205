import { and, asc, count, eq, gt, inArray, lt } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { authFailures } from '../../db/schema/index.ts';
import { TooManyRequests } from '../../lib/errors.ts';

export interface ThrottleRule {
  key: string;
  max: number;
  windowMs: number;
}

/** Throws 429 when any rule's key has reached its maximum of recorded attempts within its window. */
export async function assertNotThrottled(db: Db, rules: ThrottleRule[], message: string): Promise<void> {
  for (const rule of rules) {
    const since = new Date(Date.now() - rule.windowMs);
    const where = and(eq(authFailures.key, rule.key), gt(authFailures.at, since));
    const [row] = await db.select({ n: count() }).from(authFailures).where(where);
    if ((row?.n ?? 0) >= rule.max) {
      const [oldest] = await db
        .select({ at: authFailures.at })
        .from(authFailures)
        .where(where)
        .orderBy(asc(authFailures.at))
        .limit(1);
      const retryMs = oldest ? oldest.at.getTime() + rule.windowMs - Date.now() : rule.windowMs;
      const retryAfterSeconds = Math.max(1, Math.ceil(retryMs / 1000));
      throw new TooManyRequests(
        `${message} Try again in ${Math.ceil(retryAfterSeconds / 60)} minute(s).`,
        retryAfterSeconds,
      );
    }
  }
}

/** Records one attempt against each key, and forgets attempts older than a day. */
export async function recordAttempt(db: Db, keys: string[]): Promise<void> {
  await db.insert(authFailures).values(keys.map((key) => ({ key })));
  await db.delete(authFailures).where(lt(authFailures.at, new Date(Date.now() - 24 * 3600_000)));
}

export async function clearAttempts(db: Db, keys: string[]): Promise<void> {
  await db.delete(authFailures).where(inArray(authFailures.key, keys));
}
