import { and, asc, count, eq, gt, inArray, lt } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { authFailures } from '../../db/schema/index.ts';
import { TooManyRequests } from '../../lib/errors.ts';

export interface ThrottleRule {
  key: string;
  max: number;
  windowMs: number;
}

/** The ids of the rows one attempt recorded; a success hands them to forgetAttempt. */
export type Attempt = number[];

/**
 * Records one attempt against each rule's key, then throws 429 when a key holds more than its maximum
 * within its window (the throttled attempt is taken back, so it does not extend the wait). Recording
 * before checking holds under concurrent requests: the n-th of a burst sees at least n rows, so a burst of
 * parallel guesses cannot all pass a check made before any of them was recorded.
 * The rows stay as failures unless the caller forgets them (success) or clears the key.
 */
export async function takeAttempt(db: Db, rules: ThrottleRule[], message: string): Promise<Attempt> {
  const rows = await db
    .insert(authFailures)
    .values(rules.map((rule) => ({ key: rule.key })))
    .returning({ id: authFailures.id });
  const attempt = rows.map((row) => row.id);
  for (const rule of rules) {
    const since = new Date(Date.now() - rule.windowMs);
    const where = and(eq(authFailures.key, rule.key), gt(authFailures.at, since));
    const [row] = await db.select({ n: count() }).from(authFailures).where(where);
    if ((row?.n ?? 0) > rule.max) {
      const [oldest] = await db
        .select({ at: authFailures.at })
        .from(authFailures)
        .where(where)
        .orderBy(asc(authFailures.at))
        .limit(1);
      await forgetAttempt(db, attempt);
      const retryMs = oldest ? oldest.at.getTime() + rule.windowMs - Date.now() : rule.windowMs;
      const retryAfterSeconds = Math.max(1, Math.ceil(retryMs / 1000));
      throw new TooManyRequests(
        `${message} Try again in ${Math.ceil(retryAfterSeconds / 60)} minute(s).`,
        retryAfterSeconds,
      );
    }
  }
  await db.delete(authFailures).where(lt(authFailures.at, new Date(Date.now() - 24 * 3600_000)));
  return attempt;
}

/** Takes back the rows of one attempt (it succeeded, so it is no failure). */
export async function forgetAttempt(db: Db, attempt: Attempt): Promise<void> {
  if (attempt.length > 0) await db.delete(authFailures).where(inArray(authFailures.id, attempt));
}

/** Forgets every attempt recorded against the keys (a success resets the account's count). */
export async function clearAttempts(db: Db, keys: string[]): Promise<void> {
  await db.delete(authFailures).where(inArray(authFailures.key, keys));
}
