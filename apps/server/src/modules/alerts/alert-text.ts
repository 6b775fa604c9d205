/** Times in alerts' messages and mails: Bangkok time, as every screen shows them. */
import { BANGKOK_OFFSET_MS, bangkokDayStart, formatThaiDateTime } from '@ev/shared';

const pad = (n: number) => String(n).padStart(2, '0');

/**
 * 'since' text of a message: '14:02' on the day the alert fires, '21/11 14:02' on another day (Bangkok time).
 */
export function sinceText(startedAt: Date, now: Date): string {
  const local = new Date(startedAt.getTime() + BANGKOK_OFFSET_MS);
  const time = `${pad(local.getUTCHours())}:${pad(local.getUTCMinutes())}`;
  if (bangkokDayStart(startedAt.getTime()) === bangkokDayStart(now.getTime())) return time;
  return `${pad(local.getUTCDate())}/${pad(local.getUTCMonth() + 1)} ${time}`;
}

/** A mail's times: '21/11/2569 14:05 (Bangkok time)'. */
export const mailTime = (at: Date | string) => `${formatThaiDateTime(at)} (Bangkok time)`;

const HTML_ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};
export const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]!);
