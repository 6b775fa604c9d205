import { and, asc, count, eq, gt, inArray, lt, max, min, sql } from 'drizzle-orm';
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

/**
 * Sign-in throttling as the OWASP authentication cheat sheet advises: no account lock-out (which would let
 * anyone lock any staff member out), but a delay that grows with the failures of one account from one
 * address, and a ceiling on the failures of one address across accounts (password spraying). Successes are
 * never counted.
 */
export interface GrowingDelay {
  /** Failures of one account from one address that cost nothing. */
  freeFailures: number;
  /** The wait after the first failure past the free ones; each further failure doubles it. */
  baseDelayMs: number;
  maxDelayMs: number;
  /** Failures older than this are forgotten. */
  windowMs: number;
}

/** The wait imposed after `failures` failures: none within the free ones, then doubling up to the maximum. */
export function delayAfter(failures: number, rule: GrowingDelay): number {
  if (failures < rule.freeFailures) return 0;
  return Math.min(rule.baseDelayMs * 2 ** (failures - rule.freeFailures), rule.maxDelayMs);
}

const retryAfter = (waitMs: number) => Math.max(1, Math.ceil(waitMs / 1000));
const inMinutes = (seconds: number) =>
  seconds < 60 ? `${seconds} second(s)` : `${Math.ceil(seconds / 60)} minute(s)`;

/**
 * Throws 429 (with the seconds to wait) while the key's failures impose a delay, or while `ceiling.key` holds
 * `ceiling.max` failures or more within its window. Records nothing.
 */
export async function checkDelay(
  db: Db,
  key: string,
  rule: GrowingDelay,
  ceiling: ThrottleRule,
  message: string,
): Promise<void> {
  const now = Date.now();
  const [pair] = await db
    .select({ n: count(), last: max(authFailures.at) })
    .from(authFailures)
    .where(and(eq(authFailures.key, key), gt(authFailures.at, new Date(now - rule.windowMs))));
  const waitMs = pair?.last ? pair.last.getTime() + delayAfter(pair.n, rule) - now : 0;
  if (waitMs > 0) {
    const seconds = retryAfter(waitMs);
    throw new TooManyRequests(`${message} Try again in ${inMinutes(seconds)}.`, seconds);
  }
  const within = and(
    eq(authFailures.key, ceiling.key),
    gt(authFailures.at, new Date(now - ceiling.windowMs)),
  );
  const [address] = await db
    .select({ n: count(), oldest: min(authFailures.at) })
    .from(authFailures)
    .where(within);
  if (address && address.n >= ceiling.max) {
    const seconds = retryAfter((address.oldest?.getTime() ?? now) + ceiling.windowMs - now);
    throw new TooManyRequests(`${message} Try again in ${inMinutes(seconds)}.`, seconds);
  }
}

/** Records one failure against each key (and forgets failures older than a day). */
export async function recordFailure(db: Db, keys: string[]): Promise<void> {
  await db.insert(authFailures).values(keys.map((key) => ({ key })));
  await db.delete(authFailures).where(lt(authFailures.at, new Date(Date.now() - 24 * 3600_000)));
}

/** Forgets the failures of every key starting with `prefix` (an account's, from every address). */
export async function clearAttemptsStartingWith(db: Pick<Db, 'delete'>, prefix: string): Promise<void> {
  await db.delete(authFailures).where(sql`starts_with(${authFailures.key}, ${prefix})`);
}

/**
 * Runs at most `capacity` tasks of one key at a time in this process; the others wait their turn (never
 * refused for waiting). Checking a delay and recording a failure are two steps: without a turn, a burst of
 * parallel guesses would all pass the check before any failure was recorded. With several server processes,
 * each keeps its own turns, so a burst gets at most one guess in flight per process.
 */
export class Turns {
  private readonly queues = new Map<string, { running: number; waiting: Array<() => void> }>();

  async run<T>(key: string, capacity: number, task: () => Promise<T>): Promise<T> {
    let queue = this.queues.get(key);
    if (!queue) {
      queue = { running: 0, waiting: [] };
      this.queues.set(key, queue);
    }
    if (queue.running >= capacity) {
      const current = queue;
      await new Promise<void>((resolve) => current.waiting.push(resolve));
    } else {
      queue.running++;
    }
    try {
      return await task();
    } finally {
      const next = queue.waiting.shift();
      // The turn passes straight to the next waiter; the key is forgotten when nobody holds or waits for it.
      if (next) next();
      else if (--queue.running === 0) this.queues.delete(key);
    }
  }
}
