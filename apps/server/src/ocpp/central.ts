import { randomBytes } from 'node:crypto';
import type { IncomingMessage, Server } from 'node:http';
import os from 'node:os';
import type { Duplex } from 'node:stream';
import type { FastifyBaseLogger } from 'fastify';
import type { ChargerBus, HeldChargers } from '../cluster/bus.ts';
import type { Config } from '../config.ts';
import type { Db } from '../db/client.ts';
import { NO_METRICS, type OcppMetrics } from '../lib/metrics.ts';
import { toOcpp201Command } from './adapters/ocpp201-commands.ts';
import { RecentCalls } from './calls.ts';
import {
  type CallOptions,
  type ChargerCommands,
  type CommandAction,
  type CommandOutcome,
  OCPP201_ONLY_ACTIONS,
  ocpp16Params,
  withoutHints,
} from './commands.ts';
import type { ChargerEvents } from './events.ts';
import { OCPP16_HANDLERS } from './handlers/1.6/index.ts';
import { OCPP201_HANDLERS } from './handlers/2.0.1/index.ts';
import type { CallAnswer, CallContext, CallParams } from './handlers/context.ts';
import { type ConnectionLog, MessageLog, remoteAddressOf } from './message-log.ts';
import { chooseSubprotocol } from './negotiation.ts';
import { verifyOcppPassword } from './password.ts';
import {
  createOcpp16Validator,
  createOcpp201Validator,
  isOcpp201,
  OCPP_SUBPROTOCOLS,
  type OcppSubprotocol,
  toOcpp16Frame,
} from './protocol.ts';
import { createRPCError, RPCServer, TimeoutError } from './rpc.ts';
import { ChargePointStore } from './store.ts';
import { OCPP_PATH, refuseUpgrade, screenUpgrade } from './upgrade.ts';

/** How long a stopping server lets chargers finish their calls and answer the close (server.ts: 10 s in all). */
export const CLOSE_GRACE_MS = 3000;

/** Consecutive malformed frames tolerated (each answered with a CALLERROR) before a charger is disconnected. */
const MAX_BAD_MESSAGES = 20;
/**
 * The largest frame a charger may send. The biggest legitimate 1.6 frame is a StopTransaction carrying a long
 * session's meter values (hundreds of kB); the ws default (100 MiB) would let one charger exhaust memory.
 */
export const MAX_FRAME_BYTES = 2 * 1024 * 1024;

/** The part of ocpp-rpc's server-side client used here. */
interface RpcClient {
  identity: string;
  /** The subprotocol agreed at the upgrade ('ocpp1.6'). */
  protocol?: string;
  handshake?: { remoteAddress?: string; headers?: Record<string, string | string[] | undefined> };
  handle(
    method: string,
    handler: (call: {
      messageId: string;
      params: Record<string, unknown>;
    }) => Record<string, unknown> | Promise<Record<string, unknown>>,
  ): void;
  sendRaw(message: string): void;
  call(method: string, params?: unknown, options?: Record<string, unknown>): Promise<unknown>;
  close(options?: Record<string, unknown>): Promise<unknown>;
  on(event: string, listener: (event: unknown) => void): unknown;
}

/**
 * The OCPP 1.6J central system: accepts known, active chargers on /ocpp/{id} (HTTP Basic when the charger
 * has a password), stores what they report, and carries the back-office's commands to them (`commands`).
 */
export class OcppCentral {
  readonly server: InstanceType<typeof RPCServer>;
  readonly store: ChargePointStore;
  /** Every frame both ways, and each connection (message-log.ts). */
  readonly messageLog: MessageLog;
  private readonly connectionLogs = new WeakMap<RpcClient, ConnectionLog>();
  /** This process, as written in chargers.connected_node. */
  readonly nodeId = `${os.hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`;
  private readonly clients = new Map<string, RpcClient>();
  /** The TCP sockets of /ocpp upgrades, admitted or not yet: what a stop that runs late cuts. */
  private readonly sockets = new Set<Duplex>();
  private sweeper: NodeJS.Timeout | null = null;
  readonly commands: ChargerCommands;
  /** Several processes (NATS_URL): commands for chargers held elsewhere go through it. Null: one process. */
  private bus: ChargerBus | null = null;

  constructor(
    private readonly db: Db,
    private readonly config: Config,
    private readonly log: FastifyBaseLogger,
    /** What the modules do with the chargers' reports (ocpp/events.ts). */
    private readonly events: ChargerEvents,
    private readonly metrics: OcppMetrics = NO_METRICS,
  ) {
    this.store = new ChargePointStore(db, log);
    this.messageLog = new MessageLog(db, log, config.ocpp.messageLog, metrics);
    this.server = new RPCServer({
      // Both on one path (issue 33): admit() picks per charger, by its setting and what it offers.
      protocols: [...OCPP_SUBPROTOCOLS],
      strictMode: true,
      callTimeoutMs: config.ocpp.commandTimeoutMs,
      pingIntervalMs: 30_000,
      deferPingsOnActivity: true,
      maxBadMessages: MAX_BAD_MESSAGES,
      // Duck-typed: ocpp-rpc only calls `subprotocol` and `validate` (its typings name private fields too).
      strictModeValidators: [createOcpp16Validator() as never, createOcpp201Validator() as never],
      wssOptions: { maxPayload: MAX_FRAME_BYTES },
    });
    this.server.on('error', (error: unknown) => this.log.error({ err: error }, 'OCPP: server error'));
    this.server.auth((accept, reject, handshake) => {
      void this.admit(handshake.endpoint, handshake.identity, handshake.password, handshake.protocols).then(
        (verdict) => {
          if ('protocol' in verdict) {
            return accept({ chargerId: handshake.identity, protocol: verdict.protocol }, verdict.protocol);
          }
          const refusal = verdict;
          if (refusal.known) {
            this.messageLog.refused(
              {
                chargerId: handshake.identity,
                node: this.nodeId,
                remoteAddress: remoteAddressOf(handshake, config.trustProxy),
                protocol: [...handshake.protocols].join(',').slice(0, 100) || null,
              },
              refusal.code,
              refusal.message,
            );
          }
          reject(refusal.code, refusal.message);
        },
        (error: unknown) => {
          this.log.error({ err: error }, 'OCPP: admission failed');
          reject(500, 'Internal error');
        },
      );
    });
    this.server.on('client', (client: unknown) => this.onClient(client as RpcClient));
    this.commands = {
      // In a cluster any charger may be held by another process: each is a candidate, and one connected
      // nowhere answers its command with NATS's "no responders" at once (Offline), never after a timeout.
      connected: async (ids) => new Set(this.bus ? ids : ids.filter((id) => this.clients.has(id))),
      call: (chargerId, action, params, options) => this.call(chargerId, action, params, options),
      disconnect: async (chargerId, reason) => {
        if (this.clients.has(chargerId)) return this.disconnectHere(chargerId, reason);
        return this.bus ? this.bus.disconnect(chargerId, reason) : false;
      },
    };
  }

  /** What another process may ask of the chargers held here (cluster/bus.ts). */
  readonly held: HeldChargers = {
    callHere: (chargerId, action, params, timeoutMs) =>
      this.send(chargerId, action, params, { timeoutMs }, false),
    disconnectHere: (chargerId, reason) => this.disconnectHere(chargerId, reason),
    replaced: (chargerId, connection) => {
      const client = this.clients.get(chargerId);
      if (client !== connection) return;
      // Gone from here at once: no command may reach the stale socket while it closes (with a close frame:
      // the charger, should it still be there, learns why).
      this.clients.delete(chargerId);
      void this.closeClient(client, {
        code: 1000,
        reason: 'Replaced by a new connection',
        awaitPending: false,
      });
    },
  };

  /** Joins the cluster: commands for chargers not held here are routed through the bus. */
  join(bus: ChargerBus): void {
    this.bus = bus;
  }

  private async disconnectHere(chargerId: string, reason: string): Promise<boolean> {
    const client = this.clients.get(chargerId);
    if (!client) return false;
    this.log.info({ chargerId, reason }, 'OCPP: disconnecting charger');
    await this.closeClient(client, { code: 1000, reason, force: true });
    return true;
  }

  /** Closes a connection, telling the message log why (a forced close sends no close frame to report it). */
  private closeClient(
    client: RpcClient,
    options: { code: number; reason: string; force?: boolean; awaitPending?: boolean },
  ) {
    this.connectionLogs.get(client)?.closing(options.code, options.reason);
    return client.close(options);
  }

  /** Resolves once what the store holds back (connections, statuses) is in the database. */
  private readonly stored = () => this.store.flush();

  /** Chargers connected to this process now. */
  get connectedCount(): number {
    return this.clients.size;
  }

  /** Routes WebSocket upgrades on /ocpp/* of this HTTP server to the central system. */
  attach(httpServer: Server): void {
    httpServer.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) => {
      // Every byte of an upgrade is a stranger's until the charger is admitted: nothing it holds may throw.
      const verdict = screenUpgrade(request);
      if ('status' in verdict) {
        refuseUpgrade(socket, verdict.status, verdict.message);
        return;
      }
      this.sockets.add(socket);
      socket.once('close', () => this.sockets.delete(socket));
      this.server.handleUpgrade(request, socket as never, head).catch((error: unknown) => {
        this.log.error({ err: error, chargerId: verdict.chargerId }, 'OCPP: upgrade failed');
        refuseUpgrade(socket, 500, 'Internal error');
      });
    });
    const sweepMs = Math.min(10_000, Math.max(250, (this.config.ocpp.heartbeatIntervalS * 1000) / 4));
    this.sweeper = setInterval(() => {
      this.store.markSilentUnavailable().catch((error: unknown) => {
        this.log.error({ err: error }, 'OCPP: marking silent chargers failed');
      });
    }, sweepMs);
    this.sweeper.unref();
    this.messageLog.start();
  }

  private async admit(
    endpoint: string,
    identity: string,
    password: Buffer | undefined,
    protocols: Set<string>,
  ): Promise<{ code: number; message: string; known: boolean } | { protocol: OcppSubprotocol }> {
    if (endpoint !== OCPP_PATH) return { code: 404, message: 'Not found', known: false };
    // Looked up first, so that a known charger's refusal is recorded (message-log.ts); the answers are as before.
    const charger = await this.store.admission(identity);
    const known = charger !== null;
    const chosen = chooseSubprotocol(charger?.ocppProtocol ?? 'auto', protocols);
    if ('message' in chosen) return { code: 400, message: chosen.message, known };
    if (!charger) return { code: 404, message: 'Unknown charger', known };
    if (!charger.active) return { code: 403, message: 'Charger is inactive', known };
    if (charger.passwordHash && !verifyOcppPassword(charger.passwordHash, password)) {
      return { code: 401, message: 'Unauthorized', known };
    }
    return chosen;
  }

  private onClient(client: RpcClient): void {
    const id = client.identity;
    const v201 = isOcpp201(client.protocol);
    // Every frame ocpp-rpc sends goes through sendRaw: on a 1.6 connection its CALLERRORs leave with OCPP 1.6's
    // codes (ocpp-rpc's own are 2.0.1's, right as they are on a 2.0.1 connection).
    if (!v201) {
      const sendRaw = client.sendRaw.bind(client);
      client.sendRaw = (message) => sendRaw(typeof message === 'string' ? toOcpp16Frame(message) : message);
    }
    const previous = this.clients.get(id);
    this.clients.set(id, client);
    // A charger reconnecting before its old socket noticed: the new connection wins.
    if (previous) {
      this.bus?.release(id, previous);
      void this.closeClient(previous, { code: 1000, reason: 'Replaced by a new connection', force: true });
    }
    // Here too across processes: an older connection held by another process is closed. The charger shows
    // online (connected_node) once commands from any process reach it here.
    if (this.bus) {
      void this.bus.hold(id, client).then((held) => {
        if (held && this.clients.get(id) === client) {
          this.store.connected(id, this.nodeId, client.protocol);
          this.events.power?.connected(id, this.stored);
        }
      });
    } else {
      this.store.connected(id, this.nodeId, client.protocol);
      this.events.power?.connected(id, this.stored);
    }
    this.log.info({ chargerId: id }, 'OCPP: charger connected');
    this.metrics.watch(client);

    const logged = this.messageLog.connected({
      chargerId: id,
      node: this.nodeId,
      remoteAddress: client.handshake ? remoteAddressOf(client.handshake, this.config.trustProxy) : null,
      protocol: client.protocol ?? null,
    });
    this.connectionLogs.set(client, logged);
    // ocpp-rpc reports the frames it sends as well (its own CALLERRORs too, all through sendRaw): only what the
    // charger sends shows it alive; the log takes both.
    client.on('message', (event) => {
      const { message, outbound } = event as { message: unknown; outbound: boolean };
      if (!outbound) this.store.seen(id);
      logged.frame(message, outbound);
    });
    client.on('close', (event) => {
      const { code, reason } = (event ?? {}) as { code?: unknown; reason?: unknown };
      logged.closed(code, reason);
      this.bus?.release(id, client);
      if (this.clients.get(id) !== client) return;
      this.clients.delete(id);
      this.store.disconnected(id, this.nodeId);
      this.events.power?.disconnected(id, this.stored);
      this.log.info({ chargerId: id }, 'OCPP: charger disconnected');
    });
    client.on('badMessage', (event) => {
      const { error } = event as { error?: Error };
      this.log.warn({ chargerId: id, error: error?.message }, 'OCPP: malformed frame');
    });

    const recent = new RecentCalls();
    /**
     * Registers a handler: a retransmitted call gets the first answer (RecentCalls), and an unexpected
     * failure is logged and answered as InternalError without its details (no SQL or stack reaches a charger).
     */
    const handle = (method: string, run: (params: CallParams) => CallAnswer | Promise<CallAnswer>) =>
      client.handle(method, ({ messageId, params }) =>
        recent.answer(messageId, method, params, async () => {
          try {
            return await run(params);
          } catch (error) {
            if ((error as { rpcErrorCode?: string }).rpcErrorCode) throw error;
            this.log.error({ err: error, chargerId: id, method }, 'OCPP: handling a call failed');
            throw createRPCError('InternalError', 'Internal error');
          }
        }),
      );

    const context: CallContext = {
      chargerId: id,
      db: this.db,
      store: this.store,
      events: this.events,
      log: this.log,
      heartbeatIntervalS: this.config.ocpp.heartbeatIntervalS,
      guard: (step, run) => this.forBookings(id, step, run),
      stopRefused: (transactionId, idTagStatus) => this.stopRefused(id, transactionId, idTagStatus),
    };
    for (const [action, handler] of Object.entries(v201 ? OCPP201_HANDLERS : OCPP16_HANDLERS)) {
      handle(action, (params) => handler(context, params));
    }
  }

  /**
   * Applies a charger's report to bookings. The session is already stored: a failure here is logged and the
   * charger still gets its answer (an error would make it retry a StartTransaction and open a second session).
   */
  private async forBookings(chargerId: string, method: string, run: () => Promise<void>): Promise<void> {
    try {
      await run();
    } catch (error) {
      this.log.error({ err: error, chargerId, method }, 'OCPP: updating the booking failed');
    }
  }

  /**
   * A StartTransaction answered Invalid, Expired, Blocked or ConcurrentTx: the charger should end the transaction by itself
   * (StopTransactionOnInvalidId, on by default); it is also asked to, once it has our answer, in case that
   * setting is off. Its StopTransaction then closes the session (no booking was made).
   */
  private stopRefused(chargerId: string, transactionId: number, status: string): void {
    // A card no member holds, or one past its expiry (Invalid, Expired), is everyday traffic; a member who
    // owes or charges elsewhere, or a blocked card (Blocked, ConcurrentTx), is worth an operator's look.
    this.log[status === 'Invalid' || status === 'Expired' ? 'info' : 'warn'](
      { chargerId, transactionId, status },
      'OCPP: StartTransaction refused for its id tag',
    );
    setTimeout(() => {
      void this.call(chargerId, 'RemoteStopTransaction', { transactionId }).then((outcome) => {
        if (outcome.status !== 'answered')
          this.log.info(
            { chargerId, transactionId, outcome: outcome.status },
            'OCPP: remote stop of a refused tag',
          );
      });
    }, 50).unref();
  }

  private async call(
    chargerId: string,
    action: CommandAction,
    params: Record<string, unknown>,
    options: CallOptions = {},
  ): Promise<CommandOutcome> {
    const started = performance.now();
    const outcome = await this.send(chargerId, action, params, options, true);
    this.metrics.commandSent(action, outcome, (performance.now() - started) / 1000);
    return outcome;
  }

  private async send(
    chargerId: string,
    action: CommandAction,
    params: Record<string, unknown>,
    options: CallOptions,
    /** Whether a charger held by another process is asked through the bus (not for a request from there). */
    route: boolean,
  ): Promise<CommandOutcome> {
    const timeoutMs = options.timeoutMs ?? this.config.ocpp.commandTimeoutMs;
    const client = this.clients.get(chargerId);
    if (!client) {
      return route && this.bus ? this.bus.call(chargerId, action, params, timeoutMs) : { status: 'offline' };
    }
    try {
      if (isOcpp201(client.protocol)) {
        // The intent in 2.0.1's words (adapters/ocpp201-commands.ts); one with no counterpart is not sent.
        const command = await toOcpp201Command(this.db, chargerId, action, params);
        if ('unsupported' in command)
          return { status: 'error', code: 'NotSupported', message: command.unsupported, local: true };
        if ('local' in command) return { status: 'answered', response: command.local };
        const response = await client.call(command.action, command.params, { callTimeoutMs: timeoutMs });
        return {
          status: 'answered',
          response: await command.answer((response ?? {}) as Record<string, unknown>),
        };
      }
      if (OCPP201_ONLY_ACTIONS.has(action))
        return {
          status: 'error',
          code: 'NotSupported',
          message: `${action} is an OCPP 2.0.1 command; this charger speaks OCPP 1.6`,
          local: true,
        };
      const response = await client.call(action, withoutHints(ocpp16Params(action, params)), {
        callTimeoutMs: timeoutMs,
      });
      return { status: 'answered', response: (response ?? {}) as Record<string, unknown> };
    } catch (error) {
      if (error instanceof TimeoutError) return { status: 'timeout' };
      const rpc = error as { rpcErrorCode?: string; message?: string };
      // A socket closing while the call waits: the charger went offline.
      if (!this.clients.has(chargerId) && !rpc.rpcErrorCode) return { status: 'offline' };
      return { status: 'error', code: rpc.rpcErrorCode ?? 'GenericError', message: rpc.message ?? '' };
    }
  }

  /**
   * Stops the central system. Each charger's calls in flight are answered first, then its socket is closed
   * with 1012 (Service Restart: come back), which chargers answer by reconnecting with their back-off. A
   * socket still open after `graceMs` (a charger that leaves a command or the close unanswered) is cut.
   */
  async close(graceMs = CLOSE_GRACE_MS): Promise<void> {
    if (this.sweeper) clearInterval(this.sweeper);
    // Commands for this process's chargers stop coming here; once they reconnect elsewhere, they go there.
    this.bus?.stop();
    // ocpp-rpc starts every client's close without awaiting them; what it does await is the ws server's close,
    // whose callback (with client tracking, ws 8) comes only once its last WebSocket has closed: `closing`
    // settles when every charger's socket is gone, and each client's 'close' (below, onClient) has run.
    for (const client of this.clients.values())
      this.connectionLogs.get(client)?.closing(1012, 'Server restarting');
    const closing = this.server.close({ code: 1012, reason: 'Server restarting', awaitPending: true });
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<'late'>((resolve) => {
      timer = setTimeout(() => resolve('late'), graceMs);
    });
    if ((await Promise.race([closing, late])) === 'late') {
      this.log.warn({ chargers: this.clients.size }, 'OCPP: chargers slow to close: cutting their sockets');
      // Not client.close({ force }): a client already closing ignores it and keeps waiting for its calls in
      // flight (a command the charger never answers holds it up to the command timeout, past the deadline).
      // Destroying the socket ends its WebSocket at once; with the last one, `closing` settles.
      for (const socket of this.sockets) socket.destroy();
      await closing;
    }
    clearTimeout(timer);
    for (const id of this.clients.keys()) this.store.disconnected(id, this.nodeId);
    this.clients.clear();
    await this.store.close();
    await this.messageLog.close();
  }
}
