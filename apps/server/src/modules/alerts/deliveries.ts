/**
 * Sending the alerts' mail and webhooks (docs/alerts.md, Deliveries). The evaluation queues them as pending
 * rows; this job claims the due ones with a conditional update (attempts + 1, next_attempt_at pushed out as a
 * lease, so no other process takes them meanwhile), sends them with no transaction held, then marks each sent
 * or schedules its retry with exponential backoff; 'failed' after MAX_ATTEMPTS. A sent row is never claimed
 * again. A process that dies mid-send leaves its rows to be retried once the lease ends: a receiver may then
 * see one delivery twice, with the same X-EV-Delivery id.
 */
import { createHmac } from 'node:crypto';
import { ALERT_CONDITION_LABELS, type AlertCondition, type AlertWebhookBody } from '@ev/shared';
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/client.ts';
import { alertDeliveries, alertIncidents, users } from '../../db/schema/index.ts';
import type { Mailer } from '../../lib/mail.ts';
import { loadSettings } from './alert-settings.service.ts';
import { escapeHtml, mailTime } from './alert-text.ts';
import { type IncidentRow, toAlertItem } from './alerts.service.ts';

/** Waits before the 2nd, 3rd, … attempt: 30 s, 1, 2, 4, 8, 16, 32 min. */
export const BACKOFF_MS = [30_000, 60_000, 120_000, 240_000, 480_000, 960_000, 1_920_000];
/** After this many attempts a delivery is 'failed'. */
export const MAX_ATTEMPTS = 8;
/** A claimed row is not due again for this long (its sender died if it is still pending then). */
export const LEASE_MS = 2 * 60_000;
export const WEBHOOK_TIMEOUT_MS = 5000;
const MAIL_TIMEOUT_MS = 60_000;
/** Rows claimed per round. */
const CLAIM = 50;

export const backoffMs = (attempts: number) =>
  BACKOFF_MS[Math.min(Math.max(attempts, 1), BACKOFF_MS.length) - 1]!;

export type AlertEvent = 'fired' | 'resolved';
export type WebhookAlert = AlertWebhookBody['alert'];

export const webhookAlert = (row: IncidentRow): WebhookAlert => {
  const { read: _read, ...alert } = toAlertItem(row, false);
  return alert;
};

/** `sha256=<hex HMAC-SHA256 of the raw body with the secret>`: the X-EV-Signature header. */
export const signatureOf = (body: string, secret: string) =>
  `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;

/** What a failed send says in last_error and the log: never the URL's query or the secret. */
function failureText(error: unknown): string {
  const e = error as { name?: string; message?: string; cause?: { code?: string; message?: string } };
  if (e?.name === 'TimeoutError') return 'no answer in time';
  return String(e?.cause?.code ?? e?.cause?.message ?? e?.message ?? error).slice(0, 300);
}

/**
 * POSTs one webhook: the JSON body signed with the secret, 5 s at most; a 2xx answer is delivered, anything
 * else throws. Redirects are not followed (the operator gives the final URL).
 */
export async function postWebhook(
  url: string,
  secret: string,
  body: AlertWebhookBody,
  deliveryId: string,
): Promise<void> {
  const raw = JSON.stringify(body);
  const response = await fetch(url, {
    method: 'POST',
    redirect: 'manual',
    headers: {
      'Content-Type': 'application/json',
      'User-Agent': 'EV-Backoffice-Alerts',
      'X-EV-Signature': signatureOf(raw, secret),
      'X-EV-Delivery': deliveryId,
      'X-EV-Event': body.event,
    },
    body: raw,
    signal: AbortSignal.timeout(WEBHOOK_TIMEOUT_MS),
  });
  await response.arrayBuffer().catch(() => undefined);
  if (response.status < 200 || response.status >= 300) throw new Error(`HTTP ${response.status}`);
}

/** An alert's mail: '[EV Alert] Charger CP-1 offline' / '[Resolved] …', the message, the times, the link. */
export function alertMail(
  alert: WebhookAlert,
  title: string,
  event: AlertEvent,
  appUrl: string,
): { subject: string; text: string; html: string; link?: string } {
  const label = ALERT_CONDITION_LABELS[alert.condition as AlertCondition] ?? alert.condition;
  const link = alert.link ? `${appUrl}${alert.link}` : undefined;
  const lines = [
    event === 'resolved' && alert.resolvedAt
      ? `Resolved at ${mailTime(alert.resolvedAt)}: ${alert.message}`
      : alert.message,
    '',
    `Alert: ${label}`,
    `Began: ${mailTime(alert.startedAt)}`,
    `Fired: ${mailTime(alert.firedAt)}`,
    ...(alert.resolvedAt ? [`Resolved: ${mailTime(alert.resolvedAt)}`] : []),
    ...(link ? ['', `Open: ${link}`] : []),
    '',
    `You get this mail because your alert subscriptions have "${label}" by mail: ${appUrl}/alerts`,
  ];
  const html = lines
    .map((line) => {
      if (!line) return '<br>';
      const escaped = escapeHtml(line);
      return link && line.endsWith(link)
        ? `<p>Open: <a href="${escapeHtml(link)}">${escapeHtml(link)}</a></p>`
        : `<p>${escaped}</p>`;
    })
    .join('\n');
  return {
    subject: `${event === 'resolved' ? '[Resolved]' : '[EV Alert]'} ${title}`,
    text: lines.join('\n'),
    html,
    link,
  };
}

export const titleOf = (row: IncidentRow) =>
  typeof (row.details as { title?: unknown } | null)?.title === 'string'
    ? (row.details as { title: string }).title
    : row.message;

export interface DeliveryContext {
  db: Db;
  mailer: Mailer;
  /** APP_URL: the links in mails. */
  appUrl: string;
  log: FastifyBaseLogger;
}

interface Claimed {
  id: number;
  incidentId: number;
  event: AlertEvent;
  channel: 'mail' | 'webhook';
  target: string;
  attempts: number;
}

const rowsOf = <T>(result: unknown) => ((result as { rows?: T[] }).rows ?? []) as T[];

/** Takes the due pending rows for this process (attempts + 1, due again only after the lease). */
async function claim(db: Db, now: Date): Promise<Claimed[]> {
  const at = sql`${now.toISOString()}::timestamptz`;
  const lease = sql`${new Date(now.getTime() + LEASE_MS).toISOString()}::timestamptz`;
  const rows = rowsOf<{
    id: string | number;
    incident_id: string | number;
    event: AlertEvent;
    channel: 'mail' | 'webhook';
    target: string;
    attempts: number;
  }>(
    await db.execute(sql`update ${alertDeliveries} as d set attempts = d.attempts + 1, next_attempt_at = ${lease}
      where d.id in (select id from ${alertDeliveries} where status = 'pending' and next_attempt_at <= ${at}
          order by next_attempt_at, id limit ${CLAIM} for update skip locked)
        and d.status = 'pending' and d.next_attempt_at <= ${at}
      returning d.id, d.incident_id, d.event, d.channel, d.target, d.attempts`),
  );
  return rows.map((row) => ({
    id: Number(row.id),
    incidentId: Number(row.incident_id),
    event: row.event,
    channel: row.channel,
    target: row.target,
    attempts: Number(row.attempts),
  }));
}

const withTimeout = <T>(work: Promise<T>, ms: number, what: string) =>
  new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${what}: no answer in time`)), ms);
    work.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });

export interface DeliveryRound {
  sent: number;
  retrying: number;
  failed: number;
}

/** Sends what is due at `now`, round after round until nothing is; answers what became of them. */
export async function deliverDue(ctx: DeliveryContext, now: Date): Promise<DeliveryRound> {
  const total: DeliveryRound = { sent: 0, retrying: 0, failed: 0 };
  for (;;) {
    const claimed = await claim(ctx.db, now);
    if (claimed.length === 0) return total;
    const round = await sendClaimed(ctx, claimed, now);
    total.sent += round.sent;
    total.retrying += round.retrying;
    total.failed += round.failed;
    if (claimed.length < CLAIM) return total;
  }
}

async function sendClaimed(ctx: DeliveryContext, claimed: Claimed[], now: Date): Promise<DeliveryRound> {
  const { db } = ctx;
  const incidents = new Map(
    (
      await db
        .select()
        .from(alertIncidents)
        .where(inArray(alertIncidents.id, [...new Set(claimed.map((c) => c.incidentId))]))
    ).map((row) => [row.id, row]),
  );
  const userIds = claimed.filter((c) => c.channel === 'mail').map((c) => Number(c.target));
  const recipients = new Map(
    userIds.length === 0
      ? []
      : (
          await db
            .select({ id: users.id, email: users.email, active: users.active })
            .from(users)
            .where(inArray(users.id, userIds.filter(Number.isSafeInteger)))
        ).map((row) => [row.id, row]),
  );
  const settings = claimed.some((c) => c.channel === 'webhook') ? await loadSettings(db) : null;
  const round: DeliveryRound = { sent: 0, retrying: 0, failed: 0 };

  await Promise.all(
    claimed.map(async (delivery) => {
      const incident = incidents.get(delivery.incidentId);
      let permanent: string | null = null;
      try {
        if (!incident) throw new Error('incident gone');
        const alert = webhookAlert(incident);
        if (delivery.channel === 'mail') {
          const user = recipients.get(Number(delivery.target));
          if (!user?.active) {
            permanent = 'no active user';
            throw new Error(permanent);
          }
          const mail = alertMail(alert, titleOf(incident), delivery.event, ctx.appUrl);
          await withTimeout(ctx.mailer.send({ to: user.email, ...mail }), MAIL_TIMEOUT_MS, 'mail');
        } else {
          const secret = settings?.get(incident.condition as AlertCondition)?.webhookSecret;
          if (!secret) {
            permanent = 'no webhook secret';
            throw new Error(permanent);
          }
          await postWebhook(
            delivery.target,
            secret,
            { event: delivery.event, alert, sentAt: now.toISOString() },
            String(delivery.id),
          );
        }
        const [done] = await db
          .update(alertDeliveries)
          .set({ status: 'sent', sentAt: now, lastError: null })
          .where(
            and(
              eq(alertDeliveries.id, delivery.id),
              eq(alertDeliveries.status, 'pending'),
              eq(alertDeliveries.attempts, delivery.attempts),
            ),
          )
          .returning({ id: alertDeliveries.id });
        if (done) round.sent++;
      } catch (error) {
        const text = permanent ?? failureText(error);
        const last = permanent !== null || delivery.attempts >= MAX_ATTEMPTS;
        await db
          .update(alertDeliveries)
          .set(
            last
              ? { status: 'failed', lastError: text }
              : { nextAttemptAt: new Date(now.getTime() + backoffMs(delivery.attempts)), lastError: text },
          )
          .where(
            and(
              eq(alertDeliveries.id, delivery.id),
              eq(alertDeliveries.status, 'pending'),
              eq(alertDeliveries.attempts, delivery.attempts),
            ),
          );
        if (last) round.failed++;
        else round.retrying++;
        ctx.log.warn(
          {
            delivery: delivery.id,
            incident: delivery.incidentId,
            channel: delivery.channel,
            attempts: delivery.attempts,
            error: text,
          },
          last ? 'alerts: a delivery failed for good' : 'alerts: a delivery failed; retrying later',
        );
      }
    }),
  );
  return round;
}
