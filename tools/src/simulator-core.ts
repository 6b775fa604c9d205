/**
 * The protocol-neutral half of a simulated charger (issue 33): its connectors and sessions, the energy they
 * deliver, the random activity, the members' holds, reservations, reboots and reconnections, firmware downloads
 * and diagnostics uploads. What goes over the wire is a subclass's: `SimulatedCharger` (simulator.ts) speaks
 * OCPP 1.6J, `SimulatedCharger201` (simulator-201.ts) OCPP 2.0.1. Both share this code, so a session delivers
 * the same energy in either protocol (docs/decisions.md, "Simulated energy").
 *
 * The core speaks in 1.6's words (connector statuses Available … Finishing, stop reasons Local, Remote,
 * EVDisconnected …, file statuses): the 1.6 wire sends them as they are, the 2.0.1 wire maps them
 * (simulator-201.ts; docs/ocpp.md, Simulator).
 *
 * Energy is what the connector could deliver: a reading adds its power (a share of the connector's maximum, less
 * as a car's battery nears full, within the charging profiles in force: simulator-profiles.ts) times the time
 * since the previous reading or the start, on the charger's clock. A profile's limit of 0 suspends the session
 * (SuspendedEVSE) until the limit rises.
 */
import { createHash } from 'node:crypto';
import { createRPCError, NO_REPLY, RPCClient } from '@ev/server/ocpp/rpc';
import { sameIdTag } from '@ev/shared';
import type { LocalListEntry, Reservation } from './simulator-auth.ts';
import {
  ChargingProfiles,
  type ClearCriteria,
  MAX_PERIODS,
  MAX_STACK_LEVEL,
  type RunningTransaction,
  type SimulatedProfile,
} from './simulator-profiles.ts';

/** The OCPP versions a simulated charger speaks. */
export type SimulatorProtocol = '1.6' | '2.0.1';

export interface SimulatedChargerSpec {
  id: string;
  /** OCPP connector numbers 1..connectors (in 2.0.1: EVSE 1..connectors, connector 1 on each). */
  connectors: number;
  /** HTTP Basic password (OCPP security profile 1). */
  password?: string;
  /** Each connector's maximum power in kW (`connectors.max_power_kw`), by OCPP connector number - 1. */
  maxPowerKw?: ReadonlyArray<number | null | undefined>;
  /** The charger's power type: a connector of unknown power gets 7.4 kW on AC (the default), 60 kW on DC. */
  powerType?: 'AC' | 'DC';
  /**
   * False: no FirmwareManagement profile, UpdateFirmware and GetDiagnostics (GetLog) are answered NotImplemented
   * (a demo brand's chargers, so staff see that answer too). Default true.
   */
  firmwareManagement?: boolean;
}

/** A car on a connector: its battery and state of charge (%), which rises as energy goes in. */
export interface SimulatedCar {
  batteryKwh: number;
  soc: number;
}

/** The charger's clock: the time it stamps on its messages and charges by, and a wait on it. */
export interface SimulatorClock {
  now(): number;
  sleep(ms: number): Promise<void>;
}

const realClock: SimulatorClock = {
  now: () => Date.now(),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
};

/** A connector of unknown power: a common wallbox on AC, a common fast charger on DC. */
export const DEFAULT_POWER_KW = { AC: 7.4, DC: 60 } as const;

/** The share of its maximum a session draws: the car's and the cable's limits (the draw is fixed per session). */
export const SESSION_SHARE: readonly [number, number] = [0.6, 0.95];

/** The power a battery takes as it fills: all of it to 80 %, then down to a fifth of it at 100 %. */
export const taper = (soc: number | null | undefined): number =>
  soc == null || soc < 80 ? 1 : Math.max(0.2, 1 - (soc - 80) * 0.04);

/** The longest a default reading waits for the register to move by 1 Wh (ms). */
const MAX_METER_WAIT_MS = 5000;

/**
 * How a simulated charger answers the back-office's commands. UpdateFirmware and GetDiagnostics have no status
 * to reject with: 'reject' answers them with a CALLERROR GenericError.
 */
export type Behaviour = 'normal' | 'silent' | 'reject' | 'not-supported';

/**
 * What a simulated charger does with SetChargingProfile (once `behaviour` let it through): 'obey' installs and
 * applies it (the default); 'reject' answers Rejected (a charger without smart charging: the tests' and
 * bench:power's rejecting charger).
 */
export type ProfileBehaviour = 'obey' | 'reject';

/**
 * How a firmware update or a diagnostics upload goes once accepted: 'download-fails' and 'upload-fails' spoil
 * the link's token (the server refuses it) and report DownloadFailed / UploadFailed; 'install-fails' reports
 * InstallationFailed after the download; 'no-diagnostics' answers GetDiagnostics without a file name.
 */
export type FileTransferBehaviour =
  | 'normal'
  | 'download-fails'
  | 'install-fails'
  | 'no-diagnostics'
  | 'upload-fails';

/** The firmware a simulated charger reports at boot until an update installs another. */
export const SIMULATOR_FIRMWARE = '1.6.0-sim';

export interface SimulatorOptions {
  /** ws://host:port (the /ocpp path is added when missing). */
  url: string;
  /**
   * The protocol the chargers speak (default 1.6), or a choice per charger. A 2.0.1 charger offers only the
   * subprotocol ocpp2.0.1 and is checked against the 2.0.1 schemas.
   */
  protocol?: SimulatorProtocol | ((id: string) => SimulatorProtocol);
  /** Overrides the heartbeat interval the server gives at boot (seconds). */
  heartbeatIntervalS?: number;
  /** Change connector statuses and run charging sessions with meter values every `activityMs` (per charger). */
  activity?: boolean;
  activityMs?: number;
  /** Per charger: how it answers commands (default normal). */
  behaviour?: (id: string) => Behaviour;
  /** How long a hard reset keeps it away (ms). */
  rebootMs?: number;
  /**
   * Set: like a real charger, one whose connection is refused or lost tries again after about this long (ms),
   * until it is stopped (the demo behind a load balancer: it waits for the balancer, and fails over). Unset: a
   * refused start rejects and a lost connection stays closed, for the tests to drive.
   */
  reconnectMs?: number;
  /** Strict validation of every frame, as the server does (off for benchmarks of 10,000s of chargers). */
  strict?: boolean;
  /** The share of UnlockConnector calls answered UnlockFailed, as a stuck lock (the demo: 0.1; default 0). */
  unlockFailureRate?: number;
  /** Per charger: whether it obeys charging profiles or rejects them (default obey). */
  profiles?: (id: string) => ProfileBehaviour;
  /** Per charger: how a firmware update or diagnostics upload goes (default normal). */
  fileTransfer?: (id: string) => FileTransferBehaviour;
  /** How diagnostics are uploaded: POST multipart/form-data (default) or PUT of the raw log. */
  diagnosticsUpload?: 'multipart' | 'put';
  /** Called on commands received and state changes (for logs and tests). */
  onEvent?: (event: SimulatorEvent) => void;
  /** The chargers' clock (default the real time): tests drive it instead of waiting. */
  clock?: SimulatorClock;
  /** The draws of each session's power (default Math.random). */
  random?: () => number;
  /**
   * The id tags the random activity's sessions start with (the demo: its members' tags). Without it a
   * session starts with a random tag, which a server that refuses unknown tags answers Invalid: the
   * connector then goes back to Available, as a real charger does when a card is refused at Authorize.
   */
  idTags?: TagPool;
}

/** Id tags lent to the random activity's sessions, one session at a time each. */
export interface TagPool {
  /** A tag no session holds now that this charger takes, or undefined (no session starts this time). */
  take(chargerId?: string): string | undefined;
  /**
   * The session is over (or never started): the tag may be lent again; `refused` when the charger refused it at
   * Authorize or StartTransaction (better not lend it again at once).
   */
  give(idTag: string, refused?: boolean): void;
}

export type SimulatorEvent =
  | { type: 'booted'; id: string }
  | { type: 'command'; id: string; action: string; params: unknown }
  | { type: 'status'; id: string; connectorId: number; status: string }
  /** A transaction's start or stop was answered by the server (bench:power times the answer). */
  | {
      type: 'transaction';
      id: string;
      connectorId: number;
      event: 'started' | 'stopped';
      transactionId: string;
    }
  /** A meter reading sent: the register (Wh) and the connector's power now (W, Power.Active.Import). */
  | {
      type: 'meter';
      id: string;
      connectorId: number;
      meterWh: number;
      powerW: number;
      inTransaction: boolean;
    }
  | { type: 'firmware' | 'diagnostics'; id: string; status: string }
  /** A firmware file downloaded whole: its size and SHA-256 (hex). */
  | { type: 'downloaded'; id: string; bytes: number; sha256: string }
  /** A diagnostics log uploaded: its size. */
  | { type: 'uploaded'; id: string; bytes: number }
  | { type: 'closed'; id: string };

export const ocppEndpoint = (url: string) => {
  const base = url.replace(/\/+$/, '');
  return base.endsWith('/ocpp') ? base : `${base}/ocpp`;
};

/** A connector's status, in OCPP 1.6's words (the 2.0.1 wire maps them onto connector and charging states). */
export type ConnectorStatus =
  | 'Available'
  | 'Preparing'
  | 'Charging'
  | 'SuspendedEV'
  | 'SuspendedEVSE'
  | 'Finishing'
  | 'Reserved'
  | 'Unavailable'
  /** A fault (the demo's, alerts' tests): reported with an error code; the random activity leaves it. */
  | 'Faulted';

export interface ConnectorState<Tx extends number | string = number | string> {
  status: ConnectorStatus;
  /** ReserveNow's reservation the connector holds (status Reserved until it is used, cancelled or expires). */
  reservation: Reservation | null;
  /** The random activity's tag of this session (given back to the pool when it ends). */
  walkTag: string | null;
  /** ChangeAvailability answered Scheduled during a session: applied once the session stops. */
  scheduled: 'Operative' | 'Inoperative' | null;
  /** 1.6: the server's integer; 2.0.1: the charger's own string (a UUID). */
  transactionId: Tx | null;
  /** When the transaction started (charger clock, ms): a Relative profile's schedule starts then. */
  startedAt: number | null;
  /** A start sent and not answered yet: a TxProfile may already come for it. */
  starting: boolean;
  /** The energy register as last reported (whole Wh, as OCPP 1.6 sends meterStart and meterStop). */
  meterWh: number;
  /** Energy delivered but not on the register yet (below 1 Wh). */
  pendingWh: number;
  /** Up to when the delivered energy is counted (charger clock, ms); null outside a transaction. */
  countedTo: number | null;
  /** This session's draw, a share of the connector's maximum power. */
  share: number;
  /** The last state of charge reported, %. */
  soc: number | null;
  car: SimulatedCar | null;
}

/** Why a charger boots (2.0.1's BootReasonEnumType; 1.6 sends none). */
export type BootReason = 'PowerUp' | 'RemoteReset' | 'FirmwareUpdate' | 'Triggered';

/** How a session starts: its tag was authorized already; the remote start it answers (2.0.1's remoteStartId). */
export interface StartOptions {
  authorized?: boolean;
  remoteStartId?: number;
}

/** What the wire's StartTransaction / TransactionEvent Started came back with. */
export interface StartAnswer<Tx> {
  transactionId: Tx;
  /** The tag's status in the answer, when it carries one. */
  idTagStatus?: string;
}

/** A firmware update to carry out: where the file is, from when, how often to retry (2.0.1's requestId). */
export interface FirmwareJob {
  location: string;
  retrieveDate: string;
  retries?: number;
  retryInterval?: number;
  requestId?: number;
}

/** A diagnostics (2.0.1: log) upload to carry out. */
export interface DiagnosticsJob {
  location: string;
  retries?: number;
  retryInterval?: number;
  startTime?: string;
  stopTime?: string;
  requestId?: number;
}

export type Client = InstanceType<typeof RPCClient>;
export type Answer = Record<string, unknown>;

/** One simulated charger, whatever it speaks. */
export abstract class ChargerCore<Tx extends number | string = number | string> {
  readonly connectorStates: ConnectorState<Tx>[];
  protected client: Client | null = null;
  private heartbeat: NodeJS.Timeout | null = null;
  private activity: NodeJS.Timeout | null = null;
  private retry: { timer: NodeJS.Timeout; resolve: () => void } | null = null;
  private connecting: Promise<void> | null = null;
  protected stopped = false;
  /** Why the next boot happens (2.0.1 says so in its BootNotification). */
  protected bootReason: BootReason = 'PowerUp';
  /** Connectors a member holds (the member simulator drives them): the random activity leaves them alone. */
  private readonly reserved = new Set<number>();
  /** Resolves when the charger has booted (again, after a reset). */
  booted: Promise<void> = Promise.resolve();
  /** What it reports at boot: an installed firmware update changes it. */
  firmwareVersion = SIMULATOR_FIRMWARE;
  /** The local authorization list (SendLocalList), by upper-cased id tag, and its version (0: none). */
  readonly localList = new Map<string, LocalListEntry>();
  localListVersion = 0;
  /** The list's capacity and a message's (the read-only keys LocalAuthListMaxLength, SendLocalListMaxLength). */
  localAuthListMaxLength = 1000;
  sendLocalListMaxLength = 100;
  /**
   * The status word to answer an action with instead of its own (tests: SendLocalList VersionMismatch,
   * ReserveNow Faulted); `behaviour` still applies to all.
   */
  readonly forcedAnswers = new Map<string, string>();
  /** Reservations' expiry timers, by connector number. */
  readonly reservationTimers = new Map<number, NodeJS.Timeout>();
  /** SetChargingProfile's profiles, applied to the power (simulator-profiles.ts). */
  readonly chargingProfiles = new ChargingProfiles();
  protected readonly clock: SimulatorClock;

  /** The subprotocols offered at the upgrade. */
  abstract readonly protocols: string[];

  constructor(
    readonly spec: SimulatedChargerSpec,
    protected readonly options: SimulatorOptions,
  ) {
    this.clock = options.clock ?? realClock;
    this.connectorStates = Array.from({ length: spec.connectors }, (_, i) => ({
      status: 'Available',
      transactionId: null,
      startedAt: null,
      starting: false,
      meterWh: 1_000_000 + i * 10_000,
      pendingWh: 0,
      countedTo: null,
      share: 1,
      soc: null,
      car: null,
      scheduled: null,
      reservation: null,
      walkTag: null,
    }));
  }

  // --- the wire: what a protocol sends and answers -----------------------------------------------------------

  /** Registers the answers to the back-office's commands on a new connection. */
  protected abstract handle(client: Client): void;
  /** BootNotification: the server's status word and heartbeat interval. */
  protected abstract sendBoot(client: Client): Promise<{ status: string; interval: number }>;
  protected abstract sendHeartbeat(client: Client): Promise<unknown>;
  /** Reports a connector's status (after it changed, at boot, when triggered). */
  protected abstract reportStatus(connectorId: number, errorCode: string): Promise<unknown>;
  /** Authorize: the tag's status and its parent (1.6) or group (2.0.1) tag; undefined when offline. */
  protected abstract authorize(idTag: string): Promise<{ status: string; parentIdTag?: string } | undefined>;
  /** StartTransaction / TransactionEvent Started with the register at `at`. */
  protected abstract sendStart(
    connectorId: number,
    idTag: string,
    at: number,
    reservation: Reservation | null,
    options: StartOptions,
  ): Promise<StartAnswer<Tx>>;
  /**
   * A meter reading of the register as it stands, the connector's power now (W, Power.Active.Import) and the
   * state of charge when known.
   */
  protected abstract sendReading(
    connectorId: number,
    soc: number | undefined,
    powerW: number,
  ): Promise<unknown>;
  /** StopTransaction / TransactionEvent Ended with the register as last read. */
  protected abstract sendStop(connectorId: number, reason: string): Promise<unknown>;
  /** A firmware or diagnostics step (1.6's words), on the current connection. */
  protected abstract sendFileStatus(
    client: Client,
    type: 'firmware' | 'diagnostics',
    status: string,
    requestId: number | undefined,
  ): Promise<unknown>;
  /** Whether a start answered with a refused tag ends the transaction at once (StopTransactionOnInvalidId). */
  protected abstract stopsOnRefusedStart(): boolean;
  /** The settings the diagnostics log lists. */
  protected abstract settingsForLog(): Array<[string, string]>;
  /** The heartbeat interval the boot gave (1.6 keeps it as a configuration key, 2.0.1 as a variable). */
  protected abstract onBooted(intervalS: number): void;
  /** A reservation ended other than by its use (2.0.1 reports it: ReservationStatusUpdate). */
  protected onReservationEnded(_reservation: Reservation, _why: 'Expired' | 'Removed'): void {}

  // --- connection ---------------------------------------------------------------------------------------------

  /** A connector's maximum power, kW: the spec's, else the default of the charger's power type. */
  maxPowerKw(connectorId: number): number {
    const kw = this.spec.maxPowerKw?.[connectorId - 1];
    return typeof kw === 'number' && Number.isFinite(kw) && kw > 0
      ? kw
      : DEFAULT_POWER_KW[this.spec.powerType ?? 'AC'];
  }

  protected timestamp(): string {
    return new Date(this.clock.now()).toISOString();
  }

  get connected(): boolean {
    return this.client !== null;
  }

  /** Connects and boots; rejects when the server refuses the connection. */
  async start(): Promise<void> {
    this.stopped = false;
    const client = new RPCClient({
      endpoint: ocppEndpoint(this.options.url),
      identity: this.spec.id,
      password: this.spec.password ?? null,
      protocols: this.protocols,
      strictMode: this.options.strict ?? true,
      reconnect: false,
      callTimeoutMs: 30_000,
      pingIntervalMs: 60_000,
    } as never);
    this.handle(client);
    client.on('close', () => {
      if (this.client !== client) return;
      this.client = null;
      this.clearTimers();
      this.options.onEvent?.({ type: 'closed', id: this.spec.id });
      if (this.options.reconnectMs !== undefined) void this.keepConnected().catch(() => undefined);
    });
    await client.connect();
    this.client = client;
    this.booted = this.boot(client);
    await this.booted;
  }

  /**
   * Connects and boots; with `reconnectMs`, tries again after a refusal (jittered, so a fleet does not come back
   * in one burst) until connected or stopped, and rejects only when stopped. Without it, as `start`.
   */
  keepConnected(): Promise<void> {
    // One attempt at a time: a connection lost while booting is retried by the attempt under way.
    this.connecting ??= this.connectLoop().finally(() => {
      this.connecting = null;
    });
    return this.connecting;
  }

  private async connectLoop(): Promise<void> {
    const every = this.options.reconnectMs;
    for (;;) {
      try {
        await this.start();
        return;
      } catch (error) {
        if (every === undefined || this.stopped) throw error;
        await this.close();
        await new Promise<void>((resolve) => {
          this.retry = { timer: setTimeout(resolve, every * (0.5 + Math.random())), resolve };
        });
        this.retry = null;
        if (this.stopped) throw error;
      }
    }
  }

  private async boot(client: Client): Promise<void> {
    const answer = await this.sendBoot(client);
    if (answer.status !== 'Accepted') throw new Error(`Boot of ${this.spec.id}: ${answer.status}`);
    this.bootReason = 'PowerUp';
    const intervalS = this.options.heartbeatIntervalS ?? answer.interval;
    this.onBooted(intervalS);
    this.options.onEvent?.({ type: 'booted', id: this.spec.id });
    for (let n = 1; n <= this.spec.connectors; n++) await this.sendStatus(n);
    this.heartbeat = setInterval(() => {
      if (this.client) this.sendHeartbeat(this.client).catch(() => undefined);
    }, intervalS * 1000);
    if (this.options.activity) {
      const every = this.options.activityMs ?? 5000;
      // One step at a time: a tick while the last step's calls are still queued (a slow server) is skipped,
      // so the activity never piles up calls ahead of a member's or a test's.
      let stepping = false;
      this.activity = setInterval(
        () => {
          if (stepping) return;
          stepping = true;
          void this.step()
            .catch(() => undefined)
            .finally(() => {
              stepping = false;
            });
        },
        every * (0.5 + Math.random()),
      );
    }
  }

  protected sendStatus(connectorId: number, errorCode = 'NoError'): Promise<unknown> {
    const state = this.connectorStates[connectorId - 1]!;
    this.options.onEvent?.({ type: 'status', id: this.spec.id, connectorId, status: state.status });
    return this.reportStatus(connectorId, errorCode);
  }

  // --- connectors and sessions ---------------------------------------------------------------------------------

  /** Sets a connector's status and reports it (for tests and the demo). */
  async setStatus(connectorId: number, status: ConnectorStatus, errorCode = 'NoError'): Promise<void> {
    // The energy so far was delivered at the power of the status it leaves (none unless Charging), and the
    // other connectors' at the share of a charger's max profile they had.
    this.settle();
    const state = this.connectorStates[connectorId - 1]!;
    state.status = status;
    // The cable out (or the connector taken out of use) ends a session of the pool's tag: its booking is over
    // (charged, with the cable in, it still holds the member: their tag elsewhere would be ConcurrentTx).
    if ((status === 'Available' || status === 'Unavailable') && state.transactionId === null)
      this.giveBack(state);
    await this.sendStatus(connectorId, errorCode);
  }

  /**
   * Holds an idle connector for a member: the random activity skips it until `release`. False when it is busy
   * (a session, a status other than Available) or already held.
   */
  reserve(connectorId: number): boolean {
    const state = this.connectorStates[connectorId - 1];
    if (
      !state ||
      this.reserved.has(connectorId) ||
      state.status !== 'Available' ||
      state.transactionId !== null
    )
      return false;
    this.reserved.add(connectorId);
    return true;
  }

  /** The member's hold ends; their car, if still on the connector, goes with it. */
  release(connectorId: number): void {
    this.reserved.delete(connectorId);
    const state = this.connectorStates[connectorId - 1];
    if (state) state.car = null;
  }

  isReserved(connectorId: number): boolean {
    return this.reserved.has(connectorId);
  }

  /**
   * One step of a connector's life: Available → Preparing → Charging (meter values) → Finishing → Available.
   * A reserved connector is left alone.
   */
  async step(connectorId = 1 + Math.floor(Math.random() * this.spec.connectors)): Promise<void> {
    const state = this.connectorStates[connectorId - 1];
    if (!this.client || !state || this.reserved.has(connectorId)) return;
    switch (state.status) {
      case 'Available':
        await this.setStatus(connectorId, 'Preparing');
        break;
      case 'Preparing':
        await this.walkIn(connectorId);
        break;
      case 'Charging':
      case 'SuspendedEV':
      case 'SuspendedEVSE':
        await this.sendMeterValue(connectorId);
        if (Math.random() < 0.3) await this.stopCharging(connectorId, 'EVDisconnected');
        break;
      case 'Finishing':
        await this.setStatus(connectorId, 'Available');
        break;
    }
  }

  /**
   * A car on the connector (before its session starts): readings report its state of charge, and the power
   * tapers as it nears full and stops at 100 %. Unplugging takes it away.
   */
  plugIn(connectorId: number, car: SimulatedCar): void {
    this.connectorStates[connectorId - 1]!.car = car;
  }

  /**
   * The random activity's session: a tag of the pool (or a random one) presented at Authorize; refused, the
   * driver leaves (Available again) and no transaction starts.
   */
  private async walkIn(connectorId: number): Promise<void> {
    const state = this.connectorStates[connectorId - 1]!;
    const pool = this.options.idTags;
    const idTag = pool ? pool.take(this.spec.id) : `SIM${Math.floor(Math.random() * 1e6)}`;
    if (idTag === undefined) {
      await this.setStatus(connectorId, 'Available');
      return;
    }
    state.walkTag = pool ? idTag : null;
    try {
      const answer = await this.authorize(idTag);
      if (answer?.status !== 'Accepted') {
        this.giveBack(state, true);
        await this.setStatus(connectorId, 'Available');
        return;
      }
      await this.startCharging(connectorId, idTag, { authorized: true });
    } catch (error) {
      this.giveBack(state);
      throw error;
    }
    // Refused at the start (the member charges elsewhere): no booking to wait for; the tag rests a while.
    if (state.transactionId === null && state.walkTag !== null) {
      pool?.give(state.walkTag, true);
      state.walkTag = null;
    }
  }

  protected giveBack(state: ConnectorState<Tx>, refused = false): void {
    if (state.walkTag !== null) this.options.idTags?.give(state.walkTag, refused);
    state.walkTag = null;
  }

  /** Ends the connector's reservation (used, cancelled, expired): Available again unless `keepStatus`. */
  async endReservation(
    connectorId: number,
    keepStatus = false,
    why: 'Used' | 'Expired' | 'Removed' = 'Removed',
  ): Promise<void> {
    const state = this.connectorStates[connectorId - 1];
    if (!state?.reservation) return;
    const reservation = state.reservation;
    state.reservation = null;
    clearTimeout(this.reservationTimers.get(connectorId));
    this.reservationTimers.delete(connectorId);
    if (why !== 'Used') this.onReservationEnded(reservation, why);
    if (!keepStatus && state.status === 'Reserved') await this.setStatus(connectorId, 'Available');
  }

  /**
   * Authorize (unless `authorized`) and the start (a random id tag unless given), then Charging; answers the
   * transaction id. On a Reserved connector only the reservation's tag (or one whose parent is the
   * reservation's) may start: its start carries the reservation's id. Energy counts from the start's
   * timestamp, at a share of the connector's power drawn for this session.
   */
  async startCharging(
    connectorId: number,
    idTag = `SIM${Math.floor(Math.random() * 1e6)}`,
    { authorized = false, remoteStartId }: StartOptions = {},
  ): Promise<Tx> {
    const state = this.connectorStates[connectorId - 1]!;
    const info = authorized ? undefined : await this.authorize(idTag);
    const reservation = state.reservation;
    if (reservation) {
      const parent = info?.parentIdTag;
      const mine =
        sameIdTag(reservation.idTag, idTag) ||
        (parent !== undefined && sameIdTag(reservation.parentIdTag ?? reservation.idTag, parent));
      if (!mine) throw new Error(`${this.spec.id}/${connectorId} is reserved for another id tag`);
      await this.endReservation(connectorId, true, 'Used');
    }
    const at = this.clock.now();
    state.starting = true;
    let answer: StartAnswer<Tx>;
    try {
      answer = await this.sendStart(connectorId, idTag, at, reservation, {
        authorized,
        ...(remoteStartId === undefined ? {} : { remoteStartId }),
      });
    } catch (error) {
      // Never started: a TxProfile that came for it meanwhile has no transaction to apply to.
      state.starting = false;
      this.chargingProfiles.endTransaction(connectorId);
      throw error;
    }
    const [low, high] = SESSION_SHARE;
    state.starting = false;
    state.transactionId = answer.transactionId;
    state.startedAt = at;
    state.pendingWh = 0;
    state.countedTo = at;
    state.share = low + (this.options.random ?? Math.random)() * (high - low);
    state.soc = null;
    this.options.onEvent?.({
      type: 'transaction',
      id: this.spec.id,
      connectorId,
      event: 'started',
      transactionId: String(answer.transactionId),
    });
    // A tag refused in the answer ends the transaction at once, as StopTransactionOnInvalidId (on) asks.
    if (this.stopsOnRefusedStart() && answer.idTagStatus !== undefined && answer.idTagStatus !== 'Accepted') {
      await this.stopCharging(connectorId, 'DeAuthorized');
      return answer.transactionId;
    }
    // A profile of 0 in force (a TxDefaultProfile, a TxProfile that came with the start): suspended at once.
    await this.setStatus(connectorId, this.allowedW(connectorId) <= 0 ? 'SuspendedEVSE' : 'Charging');
    return answer.transactionId;
  }

  /** The connector's running transaction, for the profiles (Relative schedules, TxProfiles). */
  private runningOn(connectorId: number, at: number): RunningTransaction | null {
    const state = this.connectorStates[connectorId - 1]!;
    if (state.transactionId === null) return null;
    return { id: state.transactionId, startedAt: state.startedAt ?? at };
  }

  /** What the car on the connector would draw now (kW): its session's share of the maximum, tapered by the SoC. */
  demandKw(connectorId: number): number {
    const state = this.connectorStates[connectorId - 1]!;
    if (state.transactionId === null || state.status !== 'Charging') return 0;
    if (state.car && state.car.soc >= 100) return 0;
    return this.maxPowerKw(connectorId) * state.share * taper(state.car?.soc ?? state.soc);
  }

  /** The composite limit of the charging profiles on the connector at `at` (W; Infinity: none in force). */
  allowedW(connectorId: number, at = this.clock.now()): number {
    return this.chargingProfiles.allowedW(connectorId, at, this.runningOn(connectorId, at));
  }

  /**
   * The power the connector delivers at `at` (now by default), kW: the least of the car's draw and the charging
   * profiles' limit (simulator-profiles.ts).
   */
  powerKw(connectorId: number, at = this.clock.now()): number {
    const demand = this.demandKw(connectorId);
    if (demand <= 0) return 0;
    if (this.chargingProfiles.size === 0) return demand;
    const delivered = this.chargingProfiles.deliveredW(
      at,
      this.connectorStates.map((_, i) => ({
        demandW: i + 1 === connectorId ? demand * 1000 : this.demandKw(i + 1) * 1000,
        transaction: this.runningOn(i + 1, at),
      })),
    );
    return delivered[connectorId - 1]! / 1000;
  }

  /** Counts every connector's energy up to now (but `except`'s): before anything that changes their power. */
  protected settle(except?: number): void {
    const now = this.clock.now();
    for (let n = 1; n <= this.spec.connectors; n++) if (n !== except) this.deliver(n, now);
  }

  /** Counts the energy delivered up to `to` (in slices, so the taper follows a car's rising SoC). */
  protected deliver(connectorId: number, to: number): void {
    const state = this.connectorStates[connectorId - 1]!;
    const from = state.countedTo;
    if (from === null) return;
    const slice = Math.max(10_000, (to - from) / 1000);
    for (let at = from; at < to; at += slice) {
      let wh = (this.powerKw(connectorId, at) * Math.min(slice, to - at)) / 3600;
      const car = state.car;
      if (car) {
        // The battery takes what it has room for: full is 100 % exactly.
        const room = Math.max(0, ((100 - car.soc) * car.batteryKwh * 1000) / 100);
        if (wh >= room) [wh, car.soc] = [room, 100];
        else car.soc += (wh / (car.batteryKwh * 1000)) * 100;
      }
      state.pendingWh += wh;
    }
    state.countedTo = Math.max(from, to);
  }

  /**
   * A meter reading: the energy register, and the state of charge when `soc` is given (or a car is plugged
   * in). Unless `addWh` says how much to add (tests), the register goes up by what the connector delivered since
   * the previous reading or the start; if that is under 1 Wh (a reading just after another), the reading waits
   * for the register to move (a fraction of a second at a connector's power; at most 5 s).
   */
  async sendMeterValue(connectorId: number, reading: { addWh?: number; soc?: number } = {}): Promise<void> {
    const state = this.connectorStates[connectorId - 1]!;
    if (reading.soc !== undefined) {
      state.soc = reading.soc;
      if (state.car) state.car.soc = Math.max(state.car.soc, reading.soc);
    }
    if (reading.addWh !== undefined) {
      state.meterWh += reading.addWh;
      state.pendingWh = 0;
      if (state.countedTo !== null) state.countedTo = this.clock.now();
    } else {
      // A schedule's period may have changed the limit since: suspended or resumed first.
      await this.followLimit(connectorId);
      this.deliver(connectorId, this.clock.now());
      const power = this.powerKw(connectorId);
      if (state.pendingWh < 1 && power > 0) {
        const wait = Math.ceil(((1 - state.pendingWh) * 3600) / power);
        await this.clock.sleep(Math.min(wait, MAX_METER_WAIT_MS));
        this.deliver(connectorId, this.clock.now());
      }
      const whole = Math.floor(state.pendingWh);
      state.meterWh += whole;
      state.pendingWh -= whole;
    }
    const soc = reading.soc ?? (state.car ? Math.floor(state.car.soc) : undefined);
    const powerW = Math.round(this.powerKw(connectorId) * 1000);
    this.options.onEvent?.({
      type: 'meter',
      id: this.spec.id,
      connectorId,
      meterWh: state.meterWh,
      powerW,
      inTransaction: state.transactionId !== null,
    });
    await this.sendReading(connectorId, soc, powerW);
  }

  /** The battery is full: SoC 100 and the connector SuspendedEV (the car stopped drawing). */
  async fill(connectorId: number): Promise<void> {
    await this.sendMeterValue(connectorId, { addWh: 0, soc: 100 });
    await this.setStatus(connectorId, 'SuspendedEV');
  }

  /** The cable is removed after a session: Available again, and the car gone. */
  async unplug(connectorId: number): Promise<void> {
    this.connectorStates[connectorId - 1]!.car = null;
    await this.setStatus(connectorId, 'Available');
  }

  /**
   * The stop (when a transaction runs), then Finishing. The stop gives the register as last read: energy since
   * the last reading is not counted (a test's explicit readings stay exactly the session's energy).
   */
  async stopCharging(connectorId: number, reason: string): Promise<void> {
    const state = this.connectorStates[connectorId - 1]!;
    // The others' energy so far, at the share of a max profile they had with this one.
    this.settle(connectorId);
    const transactionId = state.transactionId;
    if (transactionId !== null) await this.sendStop(connectorId, reason);
    state.transactionId = null;
    state.startedAt = null;
    state.countedTo = null;
    state.pendingWh = 0;
    // Its TxProfiles end with it.
    this.chargingProfiles.endTransaction(connectorId);
    if (transactionId !== null) {
      this.options.onEvent?.({
        type: 'transaction',
        id: this.spec.id,
        connectorId,
        event: 'stopped',
        transactionId: String(transactionId),
      });
    }
    await this.setStatus(connectorId, 'Finishing');
    const scheduled = state.scheduled;
    state.scheduled = null;
    if (scheduled === 'Inoperative') await this.setStatus(connectorId, 'Unavailable');
  }

  /**
   * ChangeAvailability, once the behaviour let it through: connectors charging change when their session ends
   * (Scheduled), the others at once, after the answer.
   */
  protected changeAvailability(
    numbers: number[],
    type: 'Operative' | 'Inoperative',
  ): 'Accepted' | 'Scheduled' {
    const busy = numbers.filter((n) => this.connectorStates[n - 1]!.transactionId !== null);
    for (const n of busy) this.connectorStates[n - 1]!.scheduled = type;
    const now = numbers.filter((n) => !busy.includes(n));
    setTimeout(() => {
      void (async () => {
        for (const n of now) {
          const state = this.connectorStates[n - 1]!;
          if (type === 'Inoperative' && state.status !== 'Unavailable')
            await this.setStatus(n, 'Unavailable');
          if (type === 'Operative' && state.status === 'Unavailable') await this.setStatus(n, 'Available');
        }
      })().catch(() => undefined);
    }, 10);
    return busy.length > 0 ? 'Scheduled' : 'Accepted';
  }

  // --- charging profiles -----------------------------------------------------------------------------------------

  /**
   * SetChargingProfile, either wire's, once turned into 1.6's words: Rejected for a connector the charger lacks, a
   * max profile on a connector (it is the charger's), a TxProfile on connector 0, or with no transaction running
   * (nor starting) on its connector or another's id, a stack level above MAX_STACK_LEVEL, more than MAX_PERIODS
   * periods; else the behaviours' answer (`behaviour`, then `profiles`). Accepted, it applies from now: the energy
   * so far is counted at the power before it, and a limit of 0 suspends the session (SuspendedEVSE) after the
   * answer, a limit above 0 resumes it.
   */
  protected setChargingProfile(profile: SimulatedProfile): Answer {
    const { connectorId, purpose } = profile;
    const state = connectorId > 0 ? this.connectorStates[connectorId - 1] : undefined;
    const refused =
      connectorId < 0 ||
      connectorId > this.spec.connectors ||
      (purpose === 'ChargePointMaxProfile' && connectorId !== 0) ||
      (purpose === 'TxProfile' &&
        (!state ||
          (state.transactionId === null && !state.starting) ||
          (state.transactionId !== null &&
            profile.transactionId !== undefined &&
            String(profile.transactionId) !== String(state.transactionId)))) ||
      profile.stackLevel > MAX_STACK_LEVEL ||
      profile.schedule.periods.length === 0 ||
      profile.schedule.periods.length > MAX_PERIODS;
    if (refused) return this.answerOr({ status: 'Rejected' });
    const answer = this.answerOr({ status: 'Accepted' });
    if (!ChargerCore.accepted(answer)) return answer;
    if ((this.options.profiles?.(this.spec.id) ?? 'obey') === 'reject') return { status: 'Rejected' };
    this.settle();
    // A TxProfile without a transaction id is the running transaction's.
    if (purpose === 'TxProfile' && profile.transactionId === undefined && state?.transactionId != null)
      profile.transactionId = state.transactionId;
    this.chargingProfiles.install(profile);
    this.afterProfiles();
    return answer;
  }

  /** ClearChargingProfile: Accepted when it named a profile (they are removed), else Unknown. */
  protected clearChargingProfile(criteria: ClearCriteria): Answer {
    const matches = this.chargingProfiles.matching(criteria);
    const answer = this.answerOr({ status: matches.length > 0 ? 'Accepted' : 'Unknown' });
    if (answer === NO_REPLY) return answer;
    // Neither version has a Rejected here.
    if (answer.status === 'Rejected') return { status: 'Unknown' };
    if (matches.length > 0) {
      this.settle();
      this.chargingProfiles.remove(matches);
      this.afterProfiles();
    }
    return answer;
  }

  /** After the answer: every session follows the new limits (suspends at 0, resumes above). */
  private afterProfiles(): void {
    setTimeout(() => {
      void (async () => {
        for (let n = 1; n <= this.spec.connectors; n++) await this.followLimit(n);
      })().catch(() => undefined);
    }, 10);
  }

  /** A session whose limit is 0 suspends (SuspendedEVSE); a suspended one resumes (Charging) once it rises. */
  protected async followLimit(connectorId: number): Promise<void> {
    const state = this.connectorStates[connectorId - 1]!;
    if (state.transactionId === null || !this.client) return;
    const allowed = this.allowedW(connectorId);
    if (allowed <= 0 && state.status === 'Charging') await this.setStatus(connectorId, 'SuspendedEVSE');
    else if (allowed > 0 && state.status === 'SuspendedEVSE') await this.setStatus(connectorId, 'Charging');
  }

  // --- answers ---------------------------------------------------------------------------------------------------

  protected behaviour(): Behaviour {
    return this.options.behaviour?.(this.spec.id) ?? 'normal';
  }

  protected seen(action: string, params: unknown): void {
    this.options.onEvent?.({ type: 'command', id: this.spec.id, action, params });
  }

  /** The answer, or what the charger's behaviour makes of it (silence, Rejected, a NotImplemented CALLERROR). */
  protected answerOr(answer: Answer): Answer {
    switch (this.behaviour()) {
      case 'silent':
        return NO_REPLY;
      case 'reject':
        return { ...answer, status: 'Rejected' };
      case 'not-supported':
        throw createRPCError('NotImplemented', 'Not implemented by this charger');
      default:
        return answer;
    }
  }

  /** An answer whose refusal is a status word of its own (UnlockFailed), not Rejected. */
  protected answerAs(status: string, refused: string): Answer {
    const answer = this.answerOr({ status });
    if (answer === NO_REPLY) return answer;
    return answer.status === 'Rejected' ? { status: refused } : answer;
  }

  protected static accepted(answer: Answer): boolean {
    return answer !== NO_REPLY && answer.status === 'Accepted';
  }

  /** UpdateFirmware and GetDiagnostics / GetLog: NotImplemented without the profile; no status to reject with. */
  protected fileCommand(action: string, params: unknown): 'go' | typeof NO_REPLY {
    this.seen(action, params);
    if (this.spec.firmwareManagement === false)
      throw createRPCError('NotImplemented', 'No FirmwareManagement profile on this charger');
    switch (this.behaviour()) {
      case 'silent':
        return NO_REPLY;
      case 'not-supported':
        throw createRPCError('NotImplemented', 'Not implemented by this charger');
      case 'reject':
        throw createRPCError('GenericError', 'Refused by this charger');
      default:
        return 'go';
    }
  }

  protected transfer(): FileTransferBehaviour {
    return this.options.fileTransfer?.(this.spec.id) ?? 'normal';
  }

  /** A diagnostics file's name: the charger and the time. */
  protected diagnosticsFileName(): string {
    return `diagnostics-${this.spec.id}-${new Date(this.clock.now()).toISOString().replace(/[:.]/g, '-')}.log`;
  }

  // --- firmware and diagnostics -----------------------------------------------------------------------------------

  /**
   * A firmware or diagnostics status, sent as soon as the charger is connected: one that rebooted meanwhile (a
   * Hard Reset All) sends it once it is back, as a real charger sends what it queued (for at most a minute).
   */
  protected async fileStatus(
    type: 'firmware' | 'diagnostics',
    status: string,
    requestId?: number,
  ): Promise<void> {
    this.options.onEvent?.({ type, id: this.spec.id, status });
    for (let waited = 0; !this.client && !this.stopped && waited < 60_000; waited += 100)
      await new Promise((resolve) => setTimeout(resolve, 100));
    if (this.client) await this.sendFileStatus(this.client, type, status, requestId).catch(() => undefined);
  }

  /**
   * From the retrieve date on: Downloading, the file fetched (as often as `retries` allows), Downloaded,
   * Installing, a reboot with the new version (from the file's name, else its hash), Installed.
   */
  protected async updateFirmware(request: FirmwareJob, how: FileTransferBehaviour): Promise<void> {
    const id = request.requestId;
    const wait = new Date(request.retrieveDate).getTime() - this.clock.now();
    if (wait > 0) await this.clock.sleep(wait);
    if (this.stopped) return;
    await this.fileStatus('firmware', 'Downloading', id);
    const location = how === 'download-fails' ? spoilToken(request.location) : request.location;
    const file = await this.withRetries(request, async () => {
      const response = await fetch(location, { signal: AbortSignal.timeout(120_000) });
      if (!response.ok) throw new Error(`HTTP ${response.status}`);
      const bytes = Buffer.from(await response.arrayBuffer());
      const declared = Number(response.headers.get('content-length'));
      if (bytes.length === 0 || (Number.isFinite(declared) && declared !== bytes.length))
        throw new Error(`${bytes.length} bytes of ${declared}`);
      return bytes;
    });
    if (!file) return this.fileStatus('firmware', 'DownloadFailed', id);
    const sha256 = createHash('sha256').update(file).digest('hex');
    this.options.onEvent?.({ type: 'downloaded', id: this.spec.id, bytes: file.length, sha256 });
    await this.fileStatus('firmware', 'Downloaded', id);
    await this.fileStatus('firmware', 'Installing', id);
    if (how === 'install-fails') return this.fileStatus('firmware', 'InstallationFailed', id);
    this.firmwareVersion = firmwareVersionOf(request.location, sha256);
    await this.reboot('FirmwareUpdate');
    await this.fileStatus('firmware', 'Installed', id);
  }

  /** Uploading, a small log sent to the location (PUT, or POST multipart), Uploaded or UploadFailed. */
  protected async uploadDiagnostics(
    request: DiagnosticsJob,
    fileName: string,
    how: FileTransferBehaviour,
  ): Promise<void> {
    const id = request.requestId;
    await this.fileStatus('diagnostics', 'Uploading', id);
    const location = how === 'upload-fails' ? spoilToken(request.location) : request.location;
    const log = this.diagnosticsLog(request);
    const sent = await this.withRetries(request, async () => {
      const put = this.options.diagnosticsUpload === 'put';
      let body: string | FormData = log;
      if (!put) {
        const form = new FormData();
        form.append('file', new Blob([log], { type: 'text/plain' }), fileName);
        body = form;
      }
      const response = await fetch(location, {
        method: put ? 'PUT' : 'POST',
        body,
        ...(put ? { headers: { 'content-type': 'text/plain' } } : {}),
        signal: AbortSignal.timeout(120_000),
      });
      if (!response.ok) throw new Error(`HTTP ${response.status}`);
      return true;
    });
    if (!sent) return this.fileStatus('diagnostics', 'UploadFailed', id);
    this.options.onEvent?.({ type: 'uploaded', id: this.spec.id, bytes: Buffer.byteLength(log) });
    await this.fileStatus('diagnostics', 'Uploaded', id);
  }

  /** Tries `attempt` once, then `retries` more times `retryInterval` seconds apart; null if none succeeded. */
  private async withRetries<T>(
    request: { retries?: number; retryInterval?: number },
    attempt: () => Promise<T>,
  ): Promise<T | null> {
    for (let n = 0; n <= (request.retries ?? 0); n++) {
      if (n > 0) await this.clock.sleep((request.retryInterval ?? 0) * 1000);
      if (this.stopped) return null;
      try {
        return await attempt();
      } catch {
        // the next try, if any
      }
    }
    return null;
  }

  /** What a simulated charger's diagnostics say: itself, its connectors, its configuration. */
  private diagnosticsLog(request: DiagnosticsJob): string {
    const lines = [
      `# Diagnostics of ${this.spec.id} (EV Simulator, firmware ${this.firmwareVersion})`,
      `# written ${new Date(this.clock.now()).toISOString()}`,
      `# period ${request.startTime ?? 'start'} .. ${request.stopTime ?? 'now'}`,
      ...this.connectorStates.map(
        (state, i) =>
          `connector ${i + 1}: ${state.status}, meter ${state.meterWh} Wh, transaction ${state.transactionId ?? '-'}`,
      ),
      ...this.settingsForLog().map(([key, value]) => `config ${key}=${value}`),
    ];
    return `${lines.join('\n')}\n`;
  }

  // --- going away and coming back --------------------------------------------------------------------------------

  protected async reboot(reason: BootReason = 'RemoteReset'): Promise<void> {
    await this.close();
    await new Promise((resolve) => setTimeout(resolve, this.options.rebootMs ?? 500));
    if (this.stopped) return;
    this.bootReason = reason;
    for (const state of this.connectorStates) {
      // Inoperative outlives a reboot, as ChangeAvailability's setting does on a real charger.
      state.status =
        state.status === 'Unavailable' || state.scheduled === 'Inoperative' ? 'Unavailable' : 'Available';
      state.scheduled = null;
      state.transactionId = null;
      state.startedAt = null;
      state.starting = false;
      state.countedTo = null;
      state.pendingWh = 0;
      state.car = null;
      // A reservation outlives a reboot (a real charger keeps it in its store); the session's tag is free again.
      if (state.reservation && state.status === 'Available') state.status = 'Reserved';
      this.giveBack(state);
    }
    // The transactions are gone, and their TxProfiles; the max and default profiles are kept, as a real
    // charger keeps them in its store.
    for (let n = 1; n <= this.spec.connectors; n++) this.chargingProfiles.endTransaction(n);
    await this.keepConnected().catch(() => undefined);
  }

  private clearTimers(): void {
    if (this.heartbeat) clearInterval(this.heartbeat);
    if (this.activity) clearInterval(this.activity);
    this.heartbeat = null;
    this.activity = null;
  }

  protected async close(): Promise<void> {
    const client = this.client;
    this.client = null;
    this.clearTimers();
    await client?.close({ code: 1000, force: true }).catch(() => undefined);
  }

  /** Disconnects for good. */
  async stop(): Promise<void> {
    this.stopped = true;
    for (const timer of this.reservationTimers.values()) clearTimeout(timer);
    this.reservationTimers.clear();
    if (this.retry) {
      clearTimeout(this.retry.timer);
      this.retry.resolve();
    }
    await this.close();
  }
}

/** The location with its one-time token spoiled (a link the server refuses): the failures of the tests. */
const spoilToken = (location: string) => location.replace(/(\/ocpp-files\/\w+\/)([^/]+)/, '$1spoiled-$2');

/** The version a file installs: the first 'n.n…' in its name (ev-sim-2.1.0.bin: 2.1.0), else its hash's start. */
export function firmwareVersionOf(location: string, sha256: string): string {
  let name = location.split('?')[0]!.split('/').pop() ?? '';
  try {
    name = decodeURIComponent(name);
  } catch {
    // keep it as it is
  }
  return (/\d+(?:\.\d+)+/.exec(name)?.[0] ?? `sim-${sha256.slice(0, 8)}`).slice(0, 50);
}
