import { BANGKOK_OFFSET_MS } from '@ev/shared';

/**
 * Calendar days in Asia/Bangkok for the date filters: a day picked in the browser is sent as the instants
 * its Bangkok day starts and ends (document 3, section 5: From at start of day, To at end of day, ISO),
 * whatever zone the browser is in. Bangkok is UTC+7 all year.
 */
const OFFSET = '+07:00';
const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** The Bangkok calendar day ('YYYY-MM-DD') of an instant; null when it is not one. */
export function bangkokDay(instant: Date | string | number): string | null {
  const date = instant instanceof Date ? instant : new Date(instant);
  if (Number.isNaN(date.getTime())) return null;
  return new Date(date.getTime() + BANGKOK_OFFSET_MS).toISOString().slice(0, 10);
}

/** The instant a Bangkok day starts: '2026-11-23T00:00:00.000+07:00'. */
export function dayStart(day: string): string {
  if (!DAY.test(day)) throw new RangeError(`Not a day: ${day}`);
  return `${day}T00:00:00.000${OFFSET}`;
}

/** The last millisecond of a Bangkok day: '2026-11-23T23:59:59.999+07:00'. */
export function dayEnd(day: string): string {
  if (!DAY.test(day)) throw new RangeError(`Not a day: ${day}`);
  return `${day}T23:59:59.999${OFFSET}`;
}

/** Today in Bangkok as From and To filter values. */
export function todayRange(now = Date.now()): { from: string; to: string } {
  const day = bangkokDay(now) as string;
  return { from: dayStart(day), to: dayEnd(day) };
}
