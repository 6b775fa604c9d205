/**
 * Alerts (issue 36 §2; docs/alerts.md): the evaluation and delivery jobs of one process, its database watch
 * and the bell's live streams. Every process runs them; the database's unique indexes make one incident and
 * one delivery of each however many do.
 */

import type { NatsConnection } from '@nats-io/transport-node';
import { and, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/client.ts';
import { alertDeliveries, alertIncidents, users } from '../../db/schema/index.ts';
import type { Mailer } from '../../lib/mail.ts';
import { AlertHub } from './alert-hub.ts';
import { loadSettings } from './alert-settings.service.ts';
import { activeStaff, mailOn, userSees } from './audience.ts';
import { DatabaseWatch, type Outage } from './database-watch.ts';
import { type DeliveryRound, deliverDue } from './deliveries.ts';
import { evaluatePass, type PassResult } from './evaluate.ts';

export interface AlertsOptions {
  db: Db;
  mailer: Mailer;
  log: FastifyBaseLogger;
  appUrl: string;
  everyMs: number;
  /** This process (chargers.connected_node's form). */
  nodeId: string;
  /** Several processes: the NATS connection (the live streams' announcements) and the bus's reachability. */
  nats?: NatsConnection;
  bus?: { readonly unreachableSince: number | null } | null;
}

export interface TickResult extends PassResult {
  /** The database answered this tick's probe (nothing else ran when it did not). */
  databaseUp: boolean;
  delivered: DeliveryRound;
}

const NOTHING_DELIVERED: DeliveryRound = { sent: 0, retrying: 0, failed: 0 };

export class Alerts {
  readonly hub: AlertHub;
  readonly watch: DatabaseWatch;
  /** No charger's outage is dated before this process began watching (conditions.ts). */
  private readonly watchingSince = new Date();
  private chain: Promise<unknown> = Promise.resolve();
  private running = 0;
  private timers: NodeJS.Timeout[] = [];
  private stopped = false;

  constructor(private readonly options: AlertsOptions) {
    this.hub = new AlertHub(options.db, options.log, options.nats);
    this.watch = new DatabaseWatch({
      probe: () => options.db.execute(sql`select 1`),
      nodeId: options.nodeId,
      mailer: options.mailer,
      appUrl: options.appUrl,
      log: options.log,
      record: (outage) => this.recordOutage(outage),
    });
  }

  /** One run at a time in a process; a call during a run runs after it (tests see what they just wrote). */
  private serial<T>(work: () => Promise<T>): Promise<T> {
    this.running++;
    const run = this.chain.then(work).finally(() => this.running--);
    this.chain = run.catch(() => undefined);
    return run;
  }

  /** Probe, evaluate, announce, deliver: the timer's work, and `app.jobs.evaluateAlerts(now)`. */
  tick(now = Date.now()): Promise<TickResult> {
    return this.serial(async () => {
      const at = new Date(now);
      const databaseUp = await this.watch.check(at);
      if (!databaseUp)
        return { databaseUp, skipped: true, fired: [], resolved: [], delivered: NOTHING_DELIVERED };
      const pass = await evaluatePass(
        this.options.db,
        {
          now: at,
          watchingSince: this.watchingSince,
          natsUnreachableSince: this.options.bus ? this.options.bus.unreachableSince : undefined,
        },
        {
          onError: (condition, error) =>
            this.options.log.error({ err: error, condition }, 'alerts: evaluating a condition failed'),
        },
      );
      if (pass.fired.length + pass.resolved.length > 0) {
        this.options.log.info({ fired: pass.fired, resolved: pass.resolved }, 'alerts: incidents changed');
        this.hub.announce([...pass.fired, ...pass.resolved]);
      }
      await this.rememberAudience();
      const delivered = await deliverDue(this.delivery(), at);
      return { ...pass, databaseUp, delivered };
    });
  }

  /** Sends the deliveries due at `now` (`app.jobs.deliverAlerts(now)`, and its own timer). */
  deliver(now = Date.now()): Promise<DeliveryRound> {
    return this.serial(async () =>
      this.watch.down ? NOTHING_DELIVERED : deliverDue(this.delivery(), new Date(now)),
    );
  }

  private delivery() {
    return {
      db: this.options.db,
      mailer: this.options.mailer,
      appUrl: this.options.appUrl,
      log: this.options.log,
    };
  }

  /** What the database watch needs when the database is away: read while it is here. */
  private async rememberAudience(): Promise<void> {
    const { db } = this.options;
    const setting = (await loadSettings(db)).get('database-unreachable')!;
    const recipients = await db
      .select({ userId: users.id, email: users.email })
      .from(users)
      .where(and(activeStaff, mailOn('database-unreachable'), userSees(null, null)));
    this.watch.remember({ ...setting, recipients });
  }

  /** A database outage that fired, written once the database answers: resolved, with what was sent. */
  private async recordOutage(outage: Outage): Promise<number | null> {
    const { db } = this.options;
    const id = await db.transaction(async (tx) => {
      const [row] = await tx
        .insert(alertIncidents)
        .values({
          condition: 'database-unreachable',
          subjectType: 'system',
          subjectId: outage.subjectId,
          merchantId: null,
          landlordId: null,
          message: outage.message,
          link: null,
          details: { title: outage.title },
          startedAt: outage.startedAt,
          firedAt: outage.firedAt,
          clearSince: outage.resolvedAt,
          resolvedAt: outage.resolvedAt,
        })
        .returning({ id: alertIncidents.id });
      const incidentId = row!.id;
      for (const send of outage.sends) {
        await tx
          .insert(alertDeliveries)
          .values({
            incidentId,
            event: 'fired',
            channel: send.channel,
            target: send.target,
            status: send.status,
            attempts: send.attempts,
            nextAttemptAt: outage.resolvedAt,
            lastError: send.lastError,
            sentAt: send.sentAt,
          })
          .onConflictDoNothing();
        if (send.status === 'failed') continue;
        await tx
          .insert(alertDeliveries)
          .values({
            incidentId,
            event: 'resolved',
            channel: send.channel,
            target: send.target,
            nextAttemptAt: outage.resolvedAt,
          })
          .onConflictDoNothing();
      }
      return incidentId;
    });
    this.hub.announce([id]);
    return id;
  }

  /** Runs at start, then every ALERTS_EVERY_MS (skipping a turn while a run goes on); deliveries more often. */
  start(): void {
    const evaluate = () => {
      if (this.stopped || this.running > 0) return;
      this.tick().catch((error: unknown) =>
        this.options.log.error({ err: error }, 'alerts: evaluation failed'),
      );
    };
    const deliver = () => {
      if (this.stopped || this.running > 0) return;
      this.deliver().catch((error: unknown) =>
        this.options.log.error({ err: error }, 'alerts: sending deliveries failed'),
      );
    };
    evaluate();
    const every = this.options.everyMs;
    this.timers = [setInterval(evaluate, every), setInterval(deliver, Math.min(every, 10_000))];
    for (const timer of this.timers) timer.unref();
  }

  /** Ends the live streams (first: the server must not wait for browsers). */
  closeStreams(): void {
    this.hub.close();
  }

  /** Stops the timers and waits for the run under way. */
  async stop(): Promise<void> {
    this.stopped = true;
    for (const timer of this.timers) clearInterval(timer);
    await this.chain;
  }
}
