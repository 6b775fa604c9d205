import { randomBytes } from 'node:crypto';
import type { IncomingMessage, Server } from 'node:http';
import os from 'node:os';
import type { Duplex } from 'node:stream';
import type { FastifyBaseLogger } from 'fastify';
import type { ChargerBus, HeldChargers } from '../cluster/bus.ts';
import type { Config } from '../config.ts';
import type { Db } from '../db/client.ts';
import { NO_METRICS, type OcppMetrics } from '../lib/metrics.ts';
import { onConnectorStatus, onMeterValues, onStopTransaction } from '../modules/booking/charger-events.ts';
import { authorizeTag, chargerStart } from '../modules/booking/charger-start.ts';
import { RecentCalls } from './calls.ts';
import type { CallOptions, ChargerCommands, CommandAction, CommandOutcome } from './commands.ts';
import { verifyOcppPassword } from './password.ts';
import { createOcpp16Validator, toOcpp16Frame } from './protocol.ts';
import { createRPCError, RPCServer, TimeoutError } from './rpc.ts';
import { backOfficeStatus, ChargePointStore } from './store.ts';
import {
  chargerTime,
  type MeterValue,
  recordMeterValues,
  type StartRequest,
  stopTransaction,
} from './transactions.ts';
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
    private readonly metrics: OcppMetrics = NO_METRICS,
  ) {
    this.store = new ChargePointStore(db, log);
    this.server = new RPCServer({
      protocols: ['ocpp1.6'],
      strictMode: true,
      callTimeoutMs: config.ocpp.commandTimeoutMs,
      pingIntervalMs: 30_000,
      deferPingsOnActivity: true,
      maxBadMessages: MAX_BAD_MESSAGES,
      // Duck-typed: ocpp-rpc only calls `subprotocol` and `validate` (its typings name private fields too).
      strictModeValidators: [createOcpp16Validator() as never],
      wssOptions: { maxPayload: MAX_FRAME_BYTES },
    });
    this.server.on('error', (error: unknown) => this.log.error({ err: error }, 'OCPP: server error'));
    this.server.auth((accept, reject, handshake) => {
      void this.admit(handshake.endpoint, handshake.identity, handshake.password, handshake.protocols).then(
        (refusal) =>
          refusal ? reject(refusal.code, refusal.message) : accept({ chargerId: handshake.identity }),
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
      void client.close({ code: 1000, reason: 'Replaced by a new connection', awaitPending: false });
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
    await client.close({ code: 1000, reason, force: true });
    return true;
  }

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
  }

  private async admit(
    endpoint: string,
    identity: string,
    password: Buffer | undefined,
    protocols: Set<string>,
  ): Promise<{ code: number; message: string } | null> {
    if (endpoint !== OCPP_PATH) return { code: 404, message: 'Not found' };
    if (!protocols.has('ocpp1.6')) return { code: 400, message: 'Subprotocol ocpp1.6 required' };
    const charger = await this.store.admission(identity);
    if (!charger) return { code: 404, message: 'Unknown charger' };
    if (!charger.active) return { code: 403, message: 'Charger is inactive' };
    if (charger.passwordHash && !verifyOcppPassword(charger.passwordHash, password)) {
      return { code: 401, message: 'Unauthorized' };
    }
    return null;
  }

  private onClient(client: RpcClient): void {
    const id = client.identity;
    // Every frame ocpp-rpc sends goes through sendRaw: its CALLERRORs leave with OCPP 1.6's codes.
    const sendRaw = client.sendRaw.bind(client);
    client.sendRaw = (message) => sendRaw(typeof message === 'string' ? toOcpp16Frame(message) : message);
    const previous = this.clients.get(id);
    this.clients.set(id, client);
    // A charger reconnecting before its old socket noticed: the new connection wins.
    if (previous) {
      this.bus?.release(id, previous);
      void previous.close({ code: 1000, reason: 'Replaced by a new connection', force: true });
    }
    // Here too across processes: an older connection held by another process is closed. The charger shows
    // online (connected_node) once commands from any process reach it here.
    if (this.bus) {
      void this.bus.hold(id, client).then((held) => {
        if (held && this.clients.get(id) === client) this.store.connected(id, this.nodeId);
      });
    } else this.store.connected(id, this.nodeId);
    this.log.info({ chargerId: id }, 'OCPP: charger connected');
    this.metrics.watch(client);

    // ocpp-rpc reports the frames it sends as well: only what the charger sends shows it alive.
    client.on('message', (event) => {
      if (!(event as { outbound: boolean }).outbound) this.store.seen(id);
    });
    client.on('close', () => {
      this.bus?.release(id, client);
      if (this.clients.get(id) !== client) return;
      this.clients.delete(id);
      this.store.disconnected(id, this.nodeId);
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
    const handle = (
      method: string,
      run: (params: Record<string, unknown>) => Record<string, unknown> | Promise<Record<string, unknown>>,
    ) =>
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

    const heartbeatIntervalS = this.config.ocpp.heartbeatIntervalS;
    handle('BootNotification', (params) => {
      this.store.booted(
        id,
        {
          vendor: String(params.chargePointVendor),
          model: String(params.chargePointModel),
          serialNumber: (params.chargePointSerialNumber as string | undefined) ?? null,
          firmwareVersion: (params.firmwareVersion as string | undefined) ?? null,
        },
        heartbeatIntervalS,
      );
      return { status: 'Accepted', currentTime: new Date().toISOString(), interval: heartbeatIntervalS };
    });
    handle('Heartbeat', () => ({ currentTime: new Date().toISOString() }));
    handle('StatusNotification', async (params) => {
      const number = params.connectorId as number;
      // Connector 0 is the charger as a whole: its connectors report their own statuses.
      if (number > 0) {
        const at = chargerTime(params.timestamp as string | undefined);
        this.store.status(id, number, {
          status: backOfficeStatus(String(params.status)),
          errorCode: String(params.errorCode),
          vendorErrorCode: (params.vendorErrorCode as string | undefined) ?? null,
          info: (params.info as string | undefined) ?? null,
          at,
        });
        const status = String(params.status);
        if (status === 'Available' || status === 'SuspendedEV' || status === 'Charging') {
          await this.forBookings(id, 'StatusNotification', () =>
            onConnectorStatus(this.db, id, { ocppConnectorId: number, status, at }),
          );
        }
      }
      return {};
    });
    handle('Authorize', async (params) => ({
      idTagInfo: { status: await authorizeTag(this.db, id, String(params.idTag)) },
    }));
    handle('StartTransaction', async (params) => {
      const answer = await chargerStart(this.db, id, params as unknown as StartRequest, (step, run) =>
        this.forBookings(id, step, run),
      );
      if (answer.refused) this.stopRefused(id, answer.transactionId, answer.idTagStatus);
      return { transactionId: answer.transactionId, idTagInfo: { status: answer.idTagStatus } };
    });
    handle('MeterValues', async (params) => {
      const reading = await recordMeterValues(
        this.db,
        id,
        params as { connectorId: number; transactionId?: number; meterValue: MeterValue[] },
      );
      if (reading) await this.forBookings(id, 'MeterValues', () => onMeterValues(this.db, id, reading));
      return {};
    });
    handle('StopTransaction', async (params) => {
      const stopped = await stopTransaction(this.db, id, params as Parameters<typeof stopTransaction>[2]);
      if (stopped)
        await this.forBookings(id, 'StopTransaction', () => onStopTransaction(this.db, id, stopped));
      else this.log.warn({ chargerId: id, transactionId: params.transactionId }, 'OCPP: unknown transaction');
      return { idTagInfo: { status: 'Accepted' } };
    });
    handle('DataTransfer', () => ({ status: 'UnknownVendorId' }));
    handle('DiagnosticsStatusNotification', () => ({}));
    handle('FirmwareStatusNotification', () => ({}));
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
   * A StartTransaction answered Blocked or ConcurrentTx: the charger should end the transaction by itself
   * (StopTransactionOnInvalidId, on by default); it is also asked to, once it has our answer, in case that
   * setting is off. Its StopTransaction then closes the session (no booking was made).
   */
  private stopRefused(chargerId: string, transactionId: number, status: string): void {
    // A card at a private station that isn't a member's (Invalid) is everyday traffic there; a member who
    // owes or charges elsewhere (Blocked, ConcurrentTx) is worth an operator's look.
    this.log[status === 'Invalid' ? 'info' : 'warn'](
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
      const response = await client.call(action, params, { callTimeoutMs: timeoutMs });
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
  }
}
