import { BANGKOK_OFFSET_MS, type StatPeriod } from '@ev/shared';
import { type SQL, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';

/**
 * Bangkok calendar periods (UTC+7 all year, no daylight saving: the fixed offset is exact), in SQL for the
 * grouping and in TypeScript for the periods' bounds. Weeks are ISO weeks, Monday first (date_trunc('week')).
 */
const DAY_MS = 86_400_000;

/** An instant as the Bangkok wall-clock time (timestamp without time zone). */
export const bangkokLocal = (column: AnyPgColumn | SQL) =>
  sql`((${column} at time zone 'UTC') + interval '7 hours')`;

/** The Bangkok period holding the instant, as its first day 'yyyy-mm-dd'. The period is an enum value. */
export const periodOf = (column: AnyPgColumn | SQL, period: StatPeriod) =>
  sql<string>`to_char(date_trunc(${sql.raw(`'${period}'`)}, ${bangkokLocal(column)}), 'YYYY-MM-DD')`;

/** The Bangkok day of an instant, as a date. */
export const bangkokDay = (column: AnyPgColumn | SQL) => sql<string>`(${bangkokLocal(column)})::date`;

/** The instant the Bangkok period holding `at` starts. */
export function periodStart(at: number, period: StatPeriod): number {
  const local = new Date(Math.floor((at + BANGKOK_OFFSET_MS) / DAY_MS) * DAY_MS);
  const y = local.getUTCFullYear();
  const m = local.getUTCMonth();
  let start: number;
  if (period === 'day') start = local.getTime();
  else if (period === 'week') start = local.getTime() - ((local.getUTCDay() + 6) % 7) * DAY_MS;
  else if (period === 'month') start = Date.UTC(y, m, 1);
  else start = Date.UTC(y, 0, 1);
  return start - BANGKOK_OFFSET_MS;
}

/** The instant the period after the one starting at `start` starts. */
export function nextPeriod(start: number, period: StatPeriod): number {
  if (period === 'day') return start + DAY_MS;
  if (period === 'week') return start + 7 * DAY_MS;
  const local = new Date(start + BANGKOK_OFFSET_MS);
  const next =
    period === 'month'
      ? Date.UTC(local.getUTCFullYear(), local.getUTCMonth() + 1, 1)
      : Date.UTC(local.getUTCFullYear() + 1, 0, 1);
  return next - BANGKOK_OFFSET_MS;
}

/** The Bangkok date 'yyyy-mm-dd' of an instant. */
export const bangkokDate = (at: number) => new Date(at + BANGKOK_OFFSET_MS).toISOString().slice(0, 10);

export interface Period {
  /** Its first day, 'yyyy-mm-dd'. */
  key: string;
  /** The part of the period inside the range asked for (epoch ms, [start, end)). */
  start: number;
  end: number;
}

/** The periods that meet [from, to), in order, each cut to the range. */
export function periodsOf(from: number, to: number, period: StatPeriod): Period[] {
  const periods: Period[] = [];
  for (let start = periodStart(from, period); start < to; start = nextPeriod(start, period)) {
    periods.push({
      key: bangkokDate(start),
      start: Math.max(start, from),
      end: Math.min(nextPeriod(start, period), to),
    });
  }
  return periods;
}
