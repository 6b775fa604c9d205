/** Dates are shown in Thai locale (Buddhist calendar year), in the Asia/Bangkok time zone. */
const TIME_ZONE = 'Asia/Bangkok';

/**
 * Asia/Bangkok is UTC+7 all year (no daylight saving since 1920), so day and year arithmetic with the fixed
 * offset is exact, and much cheaper than Intl where millions of values go by (pricing, reports).
 */
export const BANGKOK_OFFSET_MS = 7 * 3_600_000;
const DAY_MS = 86_400_000;

/** The instant (epoch ms) the Bangkok day holding `at` starts. */
export const bangkokDayStart = (at: number): number =>
  Math.floor((at + BANGKOK_OFFSET_MS) / DAY_MS) * DAY_MS - BANGKOK_OFFSET_MS;

/** The calendar year in Bangkok of an instant (a tax document's year). */
export const bangkokYear = (at: Date | number): number =>
  new Date((typeof at === 'number' ? at : at.getTime()) + BANGKOK_OFFSET_MS).getUTCFullYear();

const dateFormat = new Intl.DateTimeFormat('th-TH', {
  timeZone: TIME_ZONE,
  day: '2-digit',
  month: '2-digit',
  year: 'numeric',
});
const dateTimeFormat = new Intl.DateTimeFormat('th-TH', {
  timeZone: TIME_ZONE,
  day: '2-digit',
  month: '2-digit',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  hour12: false,
});

function toDate(value: Date | string | number): Date | null {
  const date = value instanceof Date ? value : new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
}

/** "21/11/2569" for 2026-11-21; '-' for a missing or invalid value. */
export function formatThaiDate(value: Date | string | number | null | undefined): string {
  const date = value == null ? null : toDate(value);
  return date ? dateFormat.format(date) : '-';
}

/** "21/11/2569 14:05"; '-' for a missing or invalid value. */
export function formatThaiDateTime(value: Date | string | number | null | undefined): string {
  const date = value == null ? null : toDate(value);
  return date ? dateTimeFormat.format(date).replace(',', '') : '-';
}
