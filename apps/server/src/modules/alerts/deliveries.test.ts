import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { sinceText } from './alert-text.ts';
import { alertMail, BACKOFF_MS, backoffMs, signatureOf, type WebhookAlert } from './deliveries.ts';

const alert: WebhookAlert = {
  id: 7,
  condition: 'charger-offline',
  subjectType: 'charger',
  subjectId: 'CP-1',
  message: 'Charger CP-1 at Site <A> offline since 14:02',
  link: '/charger/CP-1',
  landlordId: 3,
  // 14:02 and 14:12 in Bangkok (UTC+7).
  startedAt: '2026-06-01T07:02:00.000Z',
  firedAt: '2026-06-01T07:12:00.000Z',
  resolvedAt: null,
};

describe('alert texts', () => {
  it('say since when in Bangkok time, with the day when it began another day', () => {
    const now = new Date('2026-06-01T07:12:00Z');
    expect(sinceText(new Date('2026-06-01T07:02:00Z'), now)).toBe('14:02');
    // 23:50 on 31 May in Bangkok.
    expect(sinceText(new Date('2026-05-31T16:50:00Z'), now)).toBe('31/05 23:50');
  });

  it('mail: the subject, the message, the times in Bangkok time, the link; HTML escaped', () => {
    const fired = alertMail(alert, 'Charger CP-1 offline', 'fired', 'https://ev.example.com');
    expect(fired.subject).toBe('[EV Alert] Charger CP-1 offline');
    expect(fired.text).toContain('Charger CP-1 at Site <A> offline since 14:02');
    expect(fired.text).toContain('Began: 01/06/2569 14:02 (Bangkok time)');
    expect(fired.text).toContain('Fired: 01/06/2569 14:12 (Bangkok time)');
    expect(fired.text).toContain('Open: https://ev.example.com/charger/CP-1');
    expect(fired.html).toContain('Site &lt;A&gt;');
    expect(fired.html).toContain('<a href="https://ev.example.com/charger/CP-1">');
    const resolved = alertMail(
      { ...alert, resolvedAt: '2026-06-01T07:20:00.000Z' },
      'Charger CP-1 offline',
      'resolved',
      'https://ev.example.com',
    );
    expect(resolved.subject).toBe('[Resolved] Charger CP-1 offline');
    expect(resolved.text.split('\n')[0]).toBe(
      'Resolved at 01/06/2569 14:20 (Bangkok time): Charger CP-1 at Site <A> offline since 14:02',
    );
  });
});

describe('webhook signing and retries', () => {
  it('signs the raw body: sha256=<hex HMAC-SHA256 with the secret>', () => {
    const body = JSON.stringify({ event: 'fired', alert, sentAt: alert.firedAt });
    const expected = createHmac('sha256', 'secret-0123456789abcdef').update(body).digest('hex');
    expect(signatureOf(body, 'secret-0123456789abcdef')).toBe(`sha256=${expected}`);
    expect(signatureOf(`${body} `, 'secret-0123456789abcdef')).not.toBe(`sha256=${expected}`);
  });

  it('waits 30 s, then twice as long each time, after each failed attempt', () => {
    expect([1, 2, 3, 4, 5, 6, 7].map(backoffMs)).toEqual(BACKOFF_MS);
    expect(BACKOFF_MS).toEqual([30_000, 60_000, 120_000, 240_000, 480_000, 960_000, 1_920_000]);
    expect(backoffMs(20)).toBe(1_920_000);
  });
});
