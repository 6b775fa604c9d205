/** Dates are shown in Thai locale (Buddhist calendar year), in the Asia/Bangkok time zone. */
const TIME_ZONE = 'Asia/Bangkok';

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
