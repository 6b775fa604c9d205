/**
 * The database's own alert (docs/alerts.md, Database unreachable). Every alert lives in the database, so this
 * one cannot: each process probes the database (`select 1`, with a timeout) on the evaluation timer, and once
 * it has failed for the condition's threshold it sends the mail and webhook itself, from memory, once per
 * outage (retried with the same backoff, in memory). What it knows of who to tell (the subscribers, the
 * webhook, the threshold) is what the last successful pass read. When the database answers again the outage is
 * recorded as an incident already resolved (its times kept), with the deliveries made, and 'resolved' goes out
 * through the usual deliveries. It is per process by nature: each process that loses the database says so.
 */
import { ALERT_DEFAULT_THRESHOLD_MIN } from '@ev/shared';
import type { FastifyBaseLogger } from 'fastify';
import type { Mailer } from '../../lib/mail.ts';
import { sinceText } from './alert-text.ts';
import { alertMail, backoffMs, MAX_ATTEMPTS, postWebhook, type WebhookAlert } from './deliveries.ts';

/** What the last successful pass read: who to tell when the database is away. */
export interface OutageAudience {
  enabled: boolean;
  thresholdMin: number;
  webhookUrl: string | null;
  webhookSecret: string | null;
  recipients: Array<{ userId: number; email: string }>;
}

/** One delivery made (or still tried) from memory. */
export interface DirectSend {
  channel: 'mail' | 'webhook';
  /** A user's id (mail) or the URL (webhook), as alert_deliveries.target. */
  target: string;
  email?: string;
  status: 'pending' | 'sent' | 'failed';
  attempts: number;
  nextAt: number;
  lastError: string | null;
  sentAt: Date | null;
}

export interface Outage {
  subjectId: string;
  title: string;
  message: string;
  startedAt: Date;
  firedAt: Date;
  resolvedAt: Date;
  sends: DirectSend[];
}

export interface DatabaseWatchOptions {
  /** `select 1` on the database. */
  probe: () => Promise<unknown>;
  timeoutMs?: number;
  /** This process (chargers.connected_node's form): the subject of its outages. */
  nodeId: string;
  mailer: Mailer;
  appUrl: string;
  log: FastifyBaseLogger;
  /** Writes an outage that fired, once the database answers again; answers the incident's id. */
  record: (outage: Outage) => Promise<number | null>;
}

export const PROBE_TIMEOUT_MS = 5000;

export class DatabaseWatch {
  private audience: OutageAudience = {
    enabled: true,
    thresholdMin: ALERT_DEFAULT_THRESHOLD_MIN['database-unreachable'],
    webhookUrl: null,
    webhookSecret: null,
    recipients: [],
  };
  private downSince: Date | null = null;
  private fired: { at: Date; alert: WebhookAlert; title: string; sends: DirectSend[] } | null = null;

  constructor(private readonly options: DatabaseWatchOptions) {}

  /** Who to tell, as the database said last. */
  remember(audience: OutageAudience): void {
    this.audience = audience;
  }

  /** Whether the database is away now (as the last check found it). */
  get down(): boolean {
    return this.downSince !== null;
  }

  private async probe(): Promise<boolean> {
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        this.options.probe(),
        new Promise((_resolve, reject) => {
          timer = setTimeout(
            () => reject(new Error('no answer in time')),
            this.options.timeoutMs ?? PROBE_TIMEOUT_MS,
          );
        }),
      ]);
      return true;
    } catch {
      return false;
    } finally {
      clearTimeout(timer);
    }
  }

  /**
   * Probes the database at `now` and does what follows: fire (from memory), retry what is due, or record the
   * outage now that it answers. Answers whether the database answered.
   */
  async check(now: Date): Promise<boolean> {
    if (!(await this.probe())) {
      if (!this.downSince) {
        this.downSince = now;
        this.options.log.error({ node: this.options.nodeId }, 'alerts: the database does not answer');
      }
      const { enabled, thresholdMin } = this.audience;
      if (!this.fired && enabled && now.getTime() - this.downSince.getTime() >= thresholdMin * 60_000)
        this.fire(now, this.downSince);
      await this.sendDue(now);
      return false;
    }
    if (this.downSince) {
      const downSince = this.downSince;
      const fired = this.fired;
      this.downSince = null;
      this.fired = null;
      this.options.log.info({ node: this.options.nodeId }, 'alerts: the database answers again');
      if (fired) {
        const outage: Outage = {
          subjectId: fired.alert.subjectId,
          title: fired.title,
          message: fired.alert.message,
          startedAt: downSince,
          firedAt: fired.at,
          resolvedAt: now,
          sends: fired.sends,
        };
        try {
          await this.options.record(outage);
        } catch (error) {
          this.options.log.error({ err: error }, 'alerts: recording the database outage failed');
        }
      }
    }
    return true;
  }

  private fire(now: Date, downSince: Date): void {
    const { nodeId } = this.options;
    const title = 'Database unreachable';
    const alert: WebhookAlert = {
      // No row yet: the incident gets its id when the database answers again (its 'resolved' carries it).
      id: 0,
      condition: 'database-unreachable',
      subjectType: 'system',
      subjectId: `database@${nodeId}`,
      message: `The database unreachable from server process ${nodeId} since ${sinceText(downSince, now)}`,
      link: null,
      landlordId: null,
      startedAt: downSince.toISOString(),
      firedAt: now.toISOString(),
      resolvedAt: null,
    };
    const due = now.getTime();
    const fresh = (channel: 'mail' | 'webhook', target: string, email?: string): DirectSend => ({
      channel,
      target,
      email,
      status: 'pending',
      attempts: 0,
      nextAt: due,
      lastError: null,
      sentAt: null,
    });
    const sends = this.audience.recipients.map((r) => fresh('mail', String(r.userId), r.email));
    if (this.audience.webhookUrl && this.audience.webhookSecret)
      sends.push(fresh('webhook', this.audience.webhookUrl));
    this.fired = { at: now, alert, title, sends };
    this.options.log.error(
      { node: nodeId, mails: this.audience.recipients.length, webhook: Boolean(this.audience.webhookUrl) },
      'alerts: database unreachable past its threshold: alerting from memory',
    );
  }

  private async sendDue(now: Date): Promise<void> {
    const fired = this.fired;
    if (!fired) return;
    const secret = this.audience.webhookSecret;
    await Promise.all(
      fired.sends
        .filter((send) => send.status === 'pending' && send.nextAt <= now.getTime())
        .map(async (send) => {
          send.attempts++;
          try {
            if (send.channel === 'mail') {
              const mail = alertMail(fired.alert, fired.title, 'fired', this.options.appUrl);
              await this.options.mailer.send({ to: send.email ?? '', ...mail });
            } else {
              if (!secret) throw new Error('no webhook secret');
              await postWebhook(
                send.target,
                secret,
                { event: 'fired', alert: fired.alert, sentAt: now.toISOString() },
                `${fired.alert.subjectId}@${fired.at.getTime()}`,
              );
            }
            send.status = 'sent';
            send.sentAt = now;
            send.lastError = null;
          } catch (error) {
            send.lastError = String((error as Error)?.message ?? error).slice(0, 300);
            if (send.attempts >= MAX_ATTEMPTS) send.status = 'failed';
            else send.nextAt = now.getTime() + backoffMs(send.attempts);
            this.options.log.warn(
              { channel: send.channel, attempts: send.attempts, error: send.lastError },
              'alerts: a database-outage alert failed to go out',
            );
          }
        }),
    );
  }
}
