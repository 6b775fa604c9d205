/**
 * The bell's live streams (GET /api/alerts/stream; docs/alerts.md, In the app). An incident that fires or
 * resolves is announced by its id: on NATS when the process is one of a cluster (every process, this one
 * included, hears it and tells the streams it holds), in the process otherwise. Each process reads the
 * incident and which of its streams' users see it (scope, in-app subscription) with one query, and sends
 * each of them the AlertItem with their own `read`.
 */
import { ALERT_STREAM_EVENT } from '@ev/shared';
import type { NatsConnection, Subscription } from '@nats-io/transport-node';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/client.ts';
import type { EventStream } from '../../lib/sse.ts';
import { audienceOf, toAlertItem } from './alerts.service.ts';

/** The NATS subject of the announcements: `{ ids: number[] }`. */
export const ALERTS_SUBJECT = 'ev.alerts.changed';
/** A comment on every stream this often, so proxies keep an idle stream open. */
export const HEARTBEAT_MS = 25_000;

interface Listener {
  userId: number;
  stream: EventStream;
}

export class AlertHub {
  private readonly listeners = new Set<Listener>();
  private readonly subscription: Subscription | null = null;
  private readonly heartbeat: NodeJS.Timeout;
  private readonly running = new Set<Promise<void>>();
  private closed = false;

  constructor(
    private readonly db: Db,
    private readonly log: FastifyBaseLogger,
    private readonly nats?: NatsConnection,
  ) {
    if (nats) {
      this.subscription = nats.subscribe(ALERTS_SUBJECT, {
        callback: (error, msg) => {
          if (error) return;
          try {
            const { ids } = msg.json() as { ids?: unknown };
            if (Array.isArray(ids)) this.tell(ids.filter((id): id is number => Number.isSafeInteger(id)));
          } catch {
            // not ours: ignored
          }
        },
      });
    }
    this.heartbeat = setInterval(() => {
      for (const { stream } of this.listeners) stream.comment('heartbeat');
    }, HEARTBEAT_MS);
    this.heartbeat.unref();
  }

  /** A stream of this user's alerts; answers its removal. */
  add(userId: number, stream: EventStream): () => void {
    const listener = { userId, stream };
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** These incidents fired or resolved (committed): every process's streams hear of it. */
  announce(ids: number[]): void {
    if (ids.length === 0 || this.closed) return;
    if (this.nats && !this.nats.isClosed()) {
      try {
        this.nats.publish(ALERTS_SUBJECT, JSON.stringify({ ids }));
        return;
      } catch (error) {
        this.log.warn({ err: error }, 'alerts: announcing on NATS failed; telling this process only');
      }
    }
    this.tell(ids);
  }

  /** Tells this process's streams (what runs is awaited by `settled`). */
  private tell(ids: number[]): void {
    if (this.listeners.size === 0) return;
    const work: Promise<void> = this.send(ids)
      .catch((error: unknown) => this.log.warn({ err: error }, 'alerts: telling the live streams failed'))
      .finally(() => this.running.delete(work));
    this.running.add(work);
  }

  private async send(ids: number[]): Promise<void> {
    for (const id of ids) {
      const listeners = [...this.listeners];
      if (listeners.length === 0) return;
      const found = await audienceOf(this.db, id, [...new Set(listeners.map((l) => l.userId))]);
      if (!found) continue;
      for (const { userId, stream } of listeners) {
        const read = found.readers.get(userId);
        if (read !== undefined) stream.send(ALERT_STREAM_EVENT, toAlertItem(found.incident, read));
      }
    }
  }

  /** Streams open in this process. */
  get size(): number {
    return this.listeners.size;
  }

  /** Resolves once the announcements heard so far reached the streams (tests). */
  async settled(): Promise<void> {
    while (this.running.size > 0) await Promise.all([...this.running]);
  }

  /** Ends every stream (the server is stopping: it must not wait for browsers to go away). */
  close(): void {
    this.closed = true;
    clearInterval(this.heartbeat);
    this.subscription?.unsubscribe();
    for (const { stream } of this.listeners) stream.end();
    this.listeners.clear();
  }
}
