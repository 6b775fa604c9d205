/**
 * Several server processes, one network (docs/operations.md, Cluster). Each process holds the WebSockets of
 * the chargers that connected to it; NATS carries everything that must reach another process:
 *   ev.charger.{id}.call        a command for the charger, answered with its CommandOutcome
 *   ev.charger.{id}.disconnect  close its socket (a deactivated charger)
 *   ev.charger.{id}.claim       another process has a newer connection of it: close yours
 *   ev.sessions.forget          a sign-out, lock or role change: drop the sessions cached for 2 s
 * Only the process that holds a charger subscribes to its subjects, so a request for a charger connected
 * nowhere gets NATS's "no responders" at once: offline, without waiting for a timeout.
 */

import {
  connect,
  type Msg,
  type NatsConnection,
  RequestError,
  type Subscription,
  TimeoutError,
} from '@nats-io/transport-node';
import type { FastifyBaseLogger } from 'fastify';
import { COMMAND_ACTIONS, type CommandAction, type CommandOutcome } from '../ocpp/commands.ts';

/** Time a remote command may take beyond the charger's own timeout (the hop to the holder and back). */
export const ROUTE_MARGIN_MS = 2000;
/** How long a new connection waits for an old holder to let go of the charger before taking it anyway. */
const CLAIM_TIMEOUT_MS = 2000;
const ACTIONS = new Set<string>(COMMAND_ACTIONS);

/**
 * A NATS subject token can hold neither '.' nor '*', '>' or spaces; a charger id may hold '.' and '~'
 * (isChargerId: [A-Za-z0-9._~-]). '~' escapes both, so the mapping is one to one.
 */
export const subjectToken = (chargerId: string) => chargerId.replace(/~/g, '~7E').replace(/\./g, '~2E');
const subject = (chargerId: string, verb: 'call' | 'disconnect' | 'claim') =>
  `ev.charger.${subjectToken(chargerId)}.${verb}`;
const SESSIONS_FORGET = 'ev.sessions.forget';

const encoder = new TextEncoder();
const encode = (value: unknown) => encoder.encode(JSON.stringify(value));

/** What a process does for the chargers it holds, asked by another process. */
export interface HeldChargers {
  /** A command to a charger connected here (never forwarded again). */
  callHere(
    chargerId: string,
    action: CommandAction,
    params: Record<string, unknown>,
    timeoutMs: number,
  ): Promise<CommandOutcome>;
  disconnectHere(chargerId: string, reason: string): Promise<boolean>;
  /** Closes this process's connection of the charger: a newer one is held elsewhere. */
  replaced(chargerId: string, connection: object): void;
}

interface Hold {
  /** The local connection (its identity: a reconnect here makes a new one). */
  connection: object;
  /** When it connected (ms since the epoch): the newest connection of a charger wins. */
  at: number;
  subscription: Subscription | null;
  released: boolean;
}

/** Connects to NATS for good: reconnects by itself, forever, whenever the server goes away. */
export function connectBus(url: string, name: string): Promise<NatsConnection> {
  return connect({
    servers: url,
    name,
    maxReconnectAttempts: -1,
    reconnectTimeWait: 500,
    pingInterval: 10_000,
  });
}

/** How long a stopping process lets its last replies reach NATS before it closes the connection. */
const NATS_DRAIN_MS = 2000;

/** Drains the connection (its last replies go out), or closes it when that takes too long. */
export async function closeBus(nc: NatsConnection, log: FastifyBaseLogger): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'late'>((resolve) => {
    timer = setTimeout(() => resolve('late'), NATS_DRAIN_MS);
  });
  try {
    const drained = await Promise.race([nc.drain().then(() => 'drained' as const), late]);
    if (drained === 'late') await nc.close();
  } catch (error) {
    log.warn({ err: error }, 'closing NATS failed');
  } finally {
    clearTimeout(timer);
  }
}

/** The process's side of the cluster: routes commands to other processes and answers theirs. */
export class ChargerBus {
  private readonly holds = new Map<string, Hold>();
  private readonly sessions: Subscription;
  private stopped = false;
  /** False while the NATS server is away: a command for another process's charger fails at once then. */
  private connectedToNats = true;
  /** Since when (ms since the epoch) the NATS server has been away; null while it is reachable. */
  private awaySince: number | null = null;

  constructor(
    readonly nc: NatsConnection,
    readonly nodeId: string,
    private readonly log: FastifyBaseLogger,
    private readonly here: HeldChargers,
    onSessionsForgotten: () => void,
  ) {
    void this.watch();
    this.sessions = nc.subscribe(SESSIONS_FORGET, {
      callback: (error, msg) => {
        if (error || msg.string() === this.nodeId) return;
        onSessionsForgotten();
      },
    });
  }

  /** Follows the connection to NATS: logs its losses and keeps `reachable`. */
  private async watch(): Promise<void> {
    try {
      for await (const status of this.nc.status()) {
        if (status.type === 'disconnect') {
          this.connectedToNats = false;
          this.awaySince ??= Date.now();
          this.log.warn({ server: status.server }, 'NATS: disconnected; reconnecting');
        } else if (status.type === 'reconnect') {
          this.connectedToNats = true;
          this.awaySince = null;
          this.log.info({ server: status.server }, 'NATS: reconnected');
        } else if (status.type === 'error') this.log.error({ err: status.error }, 'NATS: error');
      }
    } catch {
      // The connection closed: nothing more to follow.
    }
  }

  /** Tells every other process to drop its cached sessions (this process dropped its own). */
  forgetSessions(): void {
    if (!this.stopped) this.nc.publish(SESSIONS_FORGET, this.nodeId);
  }

  /**
   * A charger connected here: any other process holding an older connection of it closes that one, then
   * commands for the charger come here. Should the other connection be the newer one (two connections racing),
   * this one is closed instead. True once commands reach it here (the NATS server has the subscription), false
   * when it is not held here after all. Never rejects.
   */
  async hold(chargerId: string, connection: object, at = Date.now()): Promise<boolean> {
    const hold: Hold = { connection, at, subscription: null, released: false };
    this.holds.set(chargerId, hold);
    try {
      const reply = await this.nc.request(subject(chargerId, 'claim'), encode({ node: this.nodeId, at }), {
        timeout: CLAIM_TIMEOUT_MS,
      });
      if ((reply.json() as { kept?: boolean }).kept) {
        this.log.warn(
          { chargerId },
          'cluster: a newer connection of this charger is held elsewhere: closing',
        );
        this.release(chargerId, connection);
        this.here.replaced(chargerId, connection);
        return false;
      }
    } catch (error) {
      // Nobody else held it: the usual case.
      if (!(error instanceof RequestError && error.isNoResponders()))
        this.log.warn({ err: error, chargerId }, 'cluster: claiming a charger got no answer; taking it');
    }
    if (hold.released || this.stopped) return false;
    hold.subscription = this.nc.subscribe(`ev.charger.${subjectToken(chargerId)}.*`, {
      callback: (error, msg) => {
        if (!error) void this.answer(chargerId, hold, msg);
      },
    });
    // Once the server has it, a command from any process finds the charger here.
    await this.nc.flush().catch(() => undefined);
    return !hold.released && !this.stopped;
  }

  /** The connection closed (or was replaced here): commands no longer come to it. */
  release(chargerId: string, connection: object): void {
    const hold = this.holds.get(chargerId);
    if (!hold || hold.connection !== connection) return;
    hold.released = true;
    hold.subscription?.unsubscribe();
    this.holds.delete(chargerId);
  }

  private async answer(chargerId: string, hold: Hold, msg: Msg): Promise<void> {
    const verb = msg.subject.slice(msg.subject.lastIndexOf('.') + 1);
    try {
      if (verb === 'claim') {
        const claim = msg.json() as { node?: unknown; at?: unknown };
        const theirs = typeof claim.at === 'number' ? claim.at : Number.POSITIVE_INFINITY;
        if (hold.at > theirs) {
          msg.respond(encode({ kept: true }));
          return;
        }
        this.log.info({ chargerId, node: claim.node }, 'cluster: charger reconnected to another process');
        this.release(chargerId, hold.connection);
        this.here.replaced(chargerId, hold.connection);
        msg.respond(encode({ kept: false }));
      } else if (verb === 'call') {
        const request = msg.json() as { action?: unknown; params?: unknown; timeoutMs?: unknown };
        if (
          typeof request.action !== 'string' ||
          !ACTIONS.has(request.action) ||
          typeof request.params !== 'object' ||
          request.params === null ||
          typeof request.timeoutMs !== 'number'
        ) {
          msg.respond(encode({ status: 'error', code: 'FormationViolation', message: 'Malformed command' }));
          return;
        }
        const outcome = await this.here.callHere(
          chargerId,
          request.action as CommandAction,
          request.params as Record<string, unknown>,
          request.timeoutMs,
        );
        msg.respond(encode(outcome));
      } else if (verb === 'disconnect') {
        const { reason } = msg.json() as { reason?: unknown };
        const closed = await this.here.disconnectHere(chargerId, String(reason ?? 'Disconnected'));
        msg.respond(encode({ closed }));
      }
    } catch (error) {
      this.log.error({ err: error, chargerId, verb }, 'cluster: answering a request failed');
      msg.respond(encode({ status: 'error', code: 'InternalError', message: 'Internal error' }));
    }
  }

  /** A command for a charger held by another process (or by none: offline at once). */
  async call(
    chargerId: string,
    action: CommandAction,
    params: Record<string, unknown>,
    timeoutMs: number,
  ): Promise<CommandOutcome> {
    // Waiting for the broker to come back would hold the caller for the whole timeout: say so at once.
    if (!this.connectedToNats)
      return { status: 'error', code: 'InternalError', message: 'The server cluster is unreachable (NATS)' };
    try {
      const reply = await this.nc.request(subject(chargerId, 'call'), encode({ action, params, timeoutMs }), {
        timeout: timeoutMs + ROUTE_MARGIN_MS,
      });
      return reply.json() as CommandOutcome;
    } catch (error) {
      if (error instanceof RequestError && error.isNoResponders()) return { status: 'offline' };
      if (error instanceof TimeoutError || (error as Error).cause instanceof TimeoutError)
        return { status: 'timeout' };
      this.log.warn({ err: error, chargerId, action }, 'cluster: a command could not be routed');
      return {
        status: 'error',
        code: 'InternalError',
        message: 'The server cluster could not route the command',
      };
    }
  }

  /** Closes the charger's socket wherever it is held; false when it is connected nowhere. */
  async disconnect(chargerId: string, reason: string): Promise<boolean> {
    try {
      const reply = await this.nc.request(subject(chargerId, 'disconnect'), encode({ reason }), {
        timeout: 5000,
      });
      return (reply.json() as { closed?: boolean }).closed === true;
    } catch (error) {
      if (error instanceof RequestError && error.isNoResponders()) return false;
      throw error;
    }
  }

  /** Whether the NATS server is reachable now (the metric ev_cluster_broker_connected). */
  get reachable(): boolean {
    return this.connectedToNats;
  }

  /** Since when the NATS server has been unreachable (ms since the epoch), null while reachable (alerts). */
  get unreachableSince(): number | null {
    return this.connectedToNats ? null : (this.awaySince ?? Date.now());
  }

  /** Chargers connected here now (sockets held). */
  get held(): number {
    return this.holds.size;
  }

  /** Stops taking requests for this process's chargers (the first step of a stop: they go elsewhere). */
  stop(): void {
    this.stopped = true;
    for (const hold of this.holds.values()) {
      hold.released = true;
      hold.subscription?.unsubscribe();
    }
    this.holds.clear();
    this.sessions.unsubscribe();
  }
}

/** The NATS URL for messages: its user, password or token (nats://token@host) never reach a log. */
export const shownNatsUrl = (url: string) => url.replace(/\/\/[^@/]*@/, '//***@');
