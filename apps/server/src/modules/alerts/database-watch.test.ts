import type { FastifyBaseLogger } from 'fastify';
import { describe, expect, it } from 'vitest';
import type { MailMessage } from '../../lib/mail.ts';
import { DatabaseWatch, type Outage } from './database-watch.ts';
import { BACKOFF_MS } from './deliveries.ts';

const quiet = { error() {}, warn() {}, info() {} } as unknown as FastifyBaseLogger;
const T = Date.parse('2026-06-01T07:00:00Z');
const at = (ms: number) => new Date(T + ms);

/** A watch whose database answers while `up`, whose mail fails while `mailFails`. */
function watch() {
  const state = { up: true, mailFails: false };
  const mails: MailMessage[] = [];
  const recorded: Outage[] = [];
  const w = new DatabaseWatch({
    probe: async () => {
      if (!state.up) throw new Error('connection refused');
    },
    nodeId: 'node-1',
    mailer: {
      send: async (message) => {
        if (state.mailFails) throw new Error('SMTP down');
        mails.push(message);
      },
    },
    appUrl: 'https://ev.example.com',
    log: quiet,
    record: async (outage) => {
      recorded.push(outage);
      return 1;
    },
  });
  w.remember({
    enabled: true,
    thresholdMin: 1,
    webhookUrl: null,
    webhookSecret: null,
    recipients: [{ userId: 5, email: 'ops@example.com' }],
  });
  return { w, state, mails, recorded };
}

describe('the database watch', () => {
  it('fires from memory once past the threshold, and records the outage resolved when the database is back', async () => {
    const { w, state, mails, recorded } = watch();
    expect(await w.check(at(0))).toBe(true);
    state.up = false;
    expect(await w.check(at(10_000))).toBe(false);
    expect(await w.check(at(60_000))).toBe(false);
    expect(mails).toEqual([]);
    await w.check(at(70_000));
    await w.check(at(100_000));
    await w.check(at(400_000));
    expect(mails.map((m) => [m.to, m.subject])).toEqual([
      ['ops@example.com', '[EV Alert] Database unreachable'],
    ]);
    expect(mails[0]!.text).toContain('The database unreachable from server process node-1 since 14:00');
    expect(recorded).toEqual([]);

    state.up = true;
    expect(await w.check(at(500_000))).toBe(true);
    expect(recorded).toEqual([
      {
        subjectId: 'database@node-1',
        title: 'Database unreachable',
        message: expect.stringContaining('node-1'),
        startedAt: at(10_000),
        firedAt: at(70_000),
        resolvedAt: at(500_000),
        sends: [expect.objectContaining({ channel: 'mail', target: '5', status: 'sent', attempts: 1 })],
      },
    ]);
    // Nothing more for this outage.
    await w.check(at(600_000));
    expect(recorded).toHaveLength(1);
    expect(mails).toHaveLength(1);
  });

  it('an outage shorter than the threshold says and records nothing; a disabled condition never fires', async () => {
    const { w, state, mails, recorded } = watch();
    state.up = false;
    await w.check(at(0));
    await w.check(at(30_000));
    state.up = true;
    await w.check(at(50_000));
    expect(mails).toEqual([]);
    expect(recorded).toEqual([]);

    w.remember({ enabled: false, thresholdMin: 1, webhookUrl: null, webhookSecret: null, recipients: [] });
    state.up = false;
    await w.check(at(100_000));
    await w.check(at(1_000_000));
    state.up = true;
    await w.check(at(1_100_000));
    expect(mails).toEqual([]);
    expect(recorded).toEqual([]);
  });

  it('a mail that fails is retried with the backoff, in memory; what is still pending is recorded so', async () => {
    const { w, state, mails, recorded } = watch();
    state.up = false;
    state.mailFails = true;
    await w.check(at(0));
    await w.check(at(60_000));
    await w.check(at(60_000 + BACKOFF_MS[0]! - 1));
    state.mailFails = false;
    expect(mails).toEqual([]);
    await w.check(at(60_000 + BACKOFF_MS[0]!));
    expect(mails).toHaveLength(1);
    state.up = true;
    await w.check(at(300_000));
    expect(recorded[0]!.sends).toEqual([
      expect.objectContaining({ status: 'sent', attempts: 2, lastError: null }),
    ]);

    // Back before a retry succeeded: the delivery is recorded pending (the usual job sends it).
    state.up = false;
    state.mailFails = true;
    await w.check(at(400_000));
    await w.check(at(460_000));
    state.up = true;
    await w.check(at(470_000));
    expect(recorded[1]!.sends).toEqual([
      expect.objectContaining({ status: 'pending', attempts: 1, lastError: 'SMTP down' }),
    ]);
  });
});
