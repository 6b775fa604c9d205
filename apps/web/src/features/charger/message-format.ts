import type { ChargerConnection } from '@ev/shared';

const timeFormat = new Intl.DateTimeFormat('th-TH', {
  timeZone: 'Asia/Bangkok',
  day: '2-digit',
  month: '2-digit',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
  fractionalSecondDigits: 3,
  hour12: false,
});

/** A frame's time to the millisecond, Thai calendar, Bangkok time: '28/11/2569 18:44:20.385'. */
export function formatLogTime(iso: string | null): string {
  if (!iso) return '-';
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? '-' : timeFormat.format(date).replace(',', '');
}

/** How many characters of a payload its one-line preview shows (the row opens to the whole of it). */
export const PREVIEW_CHARS = 300;

/** A payload on one line, cut at PREVIEW_CHARS. */
export function payloadPreview(payload: unknown): string {
  const text = JSON.stringify(payload) ?? 'null';
  return text.length > PREVIEW_CHARS ? `${text.slice(0, PREVIEW_CHARS)}…` : text;
}

/** A payload as people read it: indented JSON. */
export const prettyPayload = (payload: unknown) => JSON.stringify(payload, null, 2) ?? 'null';

/** '45 s', '12 min 5 s', '3 h 20 min', '2 d 4 h'. */
export function durationText(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  if (s < 60) return `${s} s`;
  const min = Math.floor(s / 60);
  if (min < 60) return `${min} min ${s % 60} s`;
  const h = Math.floor(min / 60);
  if (h < 24) return `${h} h ${min % 60} min`;
  return `${Math.floor(h / 24)} d ${h % 24} h`;
}

/** How long a connection lasted (so far, while open); '-' for a refused attempt. */
export function connectionDuration(connection: ChargerConnection, now = Date.now()): string {
  if (connection.refusedStatus !== null) return '-';
  const end = connection.disconnectedAt ? Date.parse(connection.disconnectedAt) : now;
  return durationText(end - Date.parse(connection.connectedAt));
}

/** How a connection ended: '1000 Replaced by a new connection', 'Open', 'Refused 401 Unauthorized'. */
export function connectionEnd(connection: ChargerConnection): string {
  const reason = connection.closeReason ?? '';
  if (connection.refusedStatus !== null) return `Refused ${connection.refusedStatus} ${reason}`.trim();
  if (!connection.disconnectedAt) return 'Open';
  return [connection.closeCode ?? '', reason].join(' ').trim() || 'Closed';
}
