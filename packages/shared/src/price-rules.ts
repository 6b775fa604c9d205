/**
 * Pure rules of price plans shared by the form and the server: the per-minute display rate and the
 * overlap of override windows.
 *
 * A window covers its From minute through its To minute, both included (minute resolution): 22:00–23:59
 * runs up to midnight, 2027-04-13 00:00 – 2027-04-15 23:59 covers three whole days. So two windows that share
 * a minute (08:00–10:00 and 10:00–12:00) overlap; To must be after From.
 */
import { toSatang } from './money.ts';

/** Minutes since midnight of an `HH:mm` time; NaN when it is not one. */
export function minutesOf(time: string): number {
  const match = /^([01]\d|2[0-3]):([0-5]\d)$/.exec(time);
  return match ? Number(match[1]) * 60 + Number(match[2]) : Number.NaN;
}

/** Minutes since 1970-01-01 00:00 of a wall-clock `YYYY-MM-DD HH:mm` (no time zone involved); NaN if invalid. */
export function wallMinutesOf(dateTime: string): number {
  const match = /^(\d{4})-(\d{2})-(\d{2}) ([01]\d|2[0-3]):([0-5]\d)$/.exec(dateTime);
  if (!match) return Number.NaN;
  const [, year, month, day, hour, minute] = match.map(Number) as number[];
  const at = Date.UTC(year!, month! - 1, day!, hour!, minute!);
  const date = new Date(at);
  // 2027-02-30 rolls over to March: not a real date.
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month! - 1 || date.getUTCDate() !== day) {
    return Number.NaN;
  }
  return at / 60_000;
}

/** A window in minutes, both ends included. */
export interface Span {
  from: number;
  to: number;
}

/** True when two inclusive spans share at least one minute. */
export const spansOverlap = (a: Span, b: Span): boolean => a.from <= b.to && b.from <= a.to;

/**
 * The first pair of rows whose windows overlap, as indexes `[earlier, later]` in the rows' order, or null.
 * `key` groups rows that can collide (the day of a weekly window); rows whose span is invalid are skipped.
 */
export function firstOverlap<T>(
  rows: readonly T[],
  spanOf: (row: T) => Span | null,
  key: (row: T) => string | number = () => '',
): [number, number] | null {
  for (let later = 1; later < rows.length; later++) {
    const b = spanOf(rows[later]!);
    if (!b) continue;
    for (let earlier = 0; earlier < later; earlier++) {
      const a = spanOf(rows[earlier]!);
      if (a && key(rows[earlier]!) === key(rows[later]!) && spansOverlap(a, b)) return [earlier, later];
    }
  }
  return null;
}

/**
 * The approximate per-minute rate shown when calculateMethod is BAHT_MIN: bahtPerHour / 60 with 3 decimals,
 * rounded half up, computed on integer satang (40 -> '0.667'). '' when the amount is not a baht amount.
 */
export function perMinuteRate(bahtPerHour: number | string | null | undefined): string {
  if (bahtPerHour === null || bahtPerHour === undefined || bahtPerHour === '') return '';
  let satang: number;
  try {
    satang = toSatang(bahtPerHour);
  } catch {
    return '';
  }
  // satang / 60 baht = satang / 6 thousandths of a baht.
  const sign = satang < 0 ? '-' : '';
  const thousandths = Math.round(Math.abs(satang) / 6);
  return `${sign}${Math.trunc(thousandths / 1000)}.${String(thousandths % 1000).padStart(3, '0')}`;
}
