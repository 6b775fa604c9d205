/**
 * Simulated OCPP 1.6J chargers: they connect, boot, send heartbeats and status changes, answer Reset
 * (reconnecting after a hard reset), ChangeConfiguration, DataTransfer, RemoteStartTransaction and
 * RemoteStopTransaction, the local authorization list and reservations (simulator-auth.ts), and may run
 * charging sessions with meter values, state of charge and a full battery. Used by the tests, the benchmark,
 * the demo and `npm run simulate`.
 * UpdateFirmware: at the retrieve date it downloads the file over HTTP and walks Downloading, Downloaded,
 * Installing, a reboot with the new version, Installed. GetDiagnostics: it uploads a small log (PUT or POST
 * multipart) between Uploading and Uploaded.
 *
 * Energy is what the connector could deliver: a reading adds its power (a share of the connector's maximum, less
 * as a car's battery nears full) times the time since the previous reading or the start, on the charger's clock.
 */
import { createHash } from 'node:crypto';
import { createRPCError, NO_REPLY, RPCClient } from '@ev/server/ocpp/rpc';
import { OCPP_CONFIGURATION_KEYS, sameIdTag, TRIGGER_MESSAGES } from '@ev/shared';
import { handleAuthorization, type LocalListEntry, type Reservation } from './simulator-auth.ts';

export interface SimulatedChargerSpec {
  id: string;
  /** OCPP connector numbers 1..connectors. */
  connectors: number;
  /** HTTP Basic password (OCPP security profile 1). */
  password?: string;
  /** Each connector's maximum power in kW (`connectors.max_power_kw`), by OCPP connector number - 1. */
  maxPowerKw?: ReadonlyArray<number | null | undefined>;
  /** The charger's power type: a connector of unknown power gets 7.4 kW on AC (the default), 60 kW on DC. */
  powerType?: 'AC' | 'DC';
  /**
   * False: no FirmwareManagement profile, UpdateFirmware and GetDiagnostics are answered NotImplemented (a
   * demo brand's chargers, so staff see that answer too). Default true.
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
  | { type: 'firmware' | 'diagnostics'; id: string; status: string }
  /** A firmware file downloaded whole: its size and SHA-256 (hex). */
  | { type: 'downloaded'; id: string; bytes: number; sha256: string }
  /** A diagnostics log uploaded: its size. */
  | { type: 'uploaded'; id: string; bytes: number }
  | { type: 'closed'; id: string };

/** A simulated charger takes every standard key the back office offers; any other key is NotSupported. */
const KNOWN_KEYS = new Set<string>(OCPP_CONFIGURATION_KEYS.map(({ key }) => key));

/** The values a simulated charger starts with, for GetConfiguration (HeartbeatInterval comes from the boot). */
const DEFAULT_VALUES: Record<string, string> = {
  MeterValueSampleInterval: '20',
  ConnectionTimeOut: '60',
  ClockAlignedDataInterval: '0',
  MeterValuesSampledData: 'Energy.Active.Import.Register,SoC',
  MeterValuesAlignedData: '',
  StopTxnSampledData: 'Energy.Active.Import.Register',
  StopTxnAlignedData: '',
  WebSocketPingInterval: '30',
  MinimumStatusDuration: '0',
  ResetRetries: '1',
  TransactionMessageAttempts: '3',
  TransactionMessageRetryInterval: '60',
  BlinkRepeat: '3',
  LightIntensity: '50',
  MaxEnergyOnInvalidId: '0',
  AllowOfflineTxForUnknownId: 'false',
  AuthorizationCacheEnabled: 'true',
  AuthorizeRemoteTxRequests: 'false',
  LocalAuthorizeOffline: 'true',
  LocalPreAuthorize: 'false',
  LocalAuthListEnabled: 'true',
  StopTransactionOnEVSideDisconnect: 'true',
  StopTransactionOnInvalidId: 'true',
  UnlockConnectorOnEVSideDisconnect: 'true',
};

/** TriggerMessage's messages a simulated charger sends when asked: all of OCPP 1.6's. */
const TRIGGERABLE = new Set<string>(TRIGGER_MESSAGES);

export const ocppEndpoint = (url: string) => {
  const base = url.replace(/\/+$/, '');
  return base.endsWith('/ocpp') ? base : `${base}/ocpp`;
};

interface ConnectorState {
  status: 'Available' | 'Preparing' | 'Charging' | 'SuspendedEV' | 'Finishing' | 'Reserved' | 'Unavailable';
  /** ReserveNow's reservation the connector holds (status Reserved until it is used, cancelled or expires). */
  reservation: Reservation | null;
  /** The random activity's tag of this session (given back to the pool when it ends). */
  walkTag: string | null;
  /** ChangeAvailability answered Scheduled during a session: applied once the session stops. */
  scheduled: 'Operative' | 'Inoperative' | null;
  transactionId: number | null;
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

/** One simulated charger. */
export class SimulatedCharger {
  readonly configuration = new Map<string, string>();
  readonly connectorStates: ConnectorState[];
  private client: InstanceType<typeof RPCClient> | null = null;
  private heartbeat: NodeJS.Timeout | null = null;
  private activity: NodeJS.Timeout | null = null;
  private retry: { timer: NodeJS.Timeout; resolve: () => void } | null = null;
  private connecting: Promise<void> | null = null;
  private stopped = false;
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
  private readonly clock: SimulatorClock;

  constructor(
    readonly spec: SimulatedChargerSpec,
    private readonly options: SimulatorOptions,
  ) {
    this.clock = options.clock ?? realClock;
    this.connectorStates = Array.from({ length: spec.connectors }, (_, i) => ({
      status: 'Available',
      transactionId: null,
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

  /** A connector's maximum power, kW: the spec's, else the default of the charger's power type. */
  maxPowerKw(connectorId: number): number {
    const kw = this.spec.maxPowerKw?.[connectorId - 1];
    return typeof kw === 'number' && Number.isFinite(kw) && kw > 0
      ? kw
      : DEFAULT_POWER_KW[this.spec.powerType ?? 'AC'];
  }

  private timestamp(): string {
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
      protocols: ['ocpp1.6'],
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

  private bootPayload() {
    return {
      chargePointVendor: 'EV Simulator',
      chargePointModel: `SIM-${this.spec.connectors}C`,
      chargePointSerialNumber: `SN-${this.spec.id}`.slice(0, 25),
      firmwareVersion: this.firmwareVersion,
    };
  }

  private async boot(client: InstanceType<typeof RPCClient>): Promise<void> {
    const answer = (await client.call('BootNotification', this.bootPayload())) as {
      status: string;
      interval: number;
    };
    if (answer.status !== 'Accepted') throw new Error(`Boot of ${this.spec.id}: ${answer.status}`);
    const intervalS = this.options.heartbeatIntervalS ?? answer.interval;
    this.configuration.set('HeartbeatInterval', String(intervalS));
    this.options.onEvent?.({ type: 'booted', id: this.spec.id });
    for (let n = 1; n <= this.spec.connectors; n++) await this.sendStatus(n);
    this.heartbeat = setInterval(() => {
      this.client?.call('Heartbeat', {}).catch(() => undefined);
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

  private sendStatus(connectorId: number, errorCode = 'NoError'): Promise<unknown> {
    const state = this.connectorStates[connectorId - 1]!;
    this.options.onEvent?.({ type: 'status', id: this.spec.id, connectorId, status: state.status });
    return (
      this.client?.call('StatusNotification', {
        connectorId,
        errorCode,
        status: state.status,
        timestamp: this.timestamp(),
      }) ?? Promise.resolve()
    );
  }

  /** Sets a connector's status and reports it (for tests and the demo). */
  async setStatus(
    connectorId: number,
    status: ConnectorState['status'],
    errorCode = 'NoError',
  ): Promise<void> {
    // The energy so far was delivered at the power of the status it leaves (none unless Charging).
    this.deliver(connectorId, this.clock.now());
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
      const answer = (await this.client?.call('Authorize', { idTag })) as
        | { idTagInfo: { status: string } }
        | undefined;
      if (answer?.idTagInfo.status !== 'Accepted') {
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

  private giveBack(state: ConnectorState, refused = false): void {
    if (state.walkTag !== null) this.options.idTags?.give(state.walkTag, refused);
    state.walkTag = null;
  }

  /** Ends the connector's reservation (used, cancelled, expired): Available again unless `keepStatus`. */
  async endReservation(connectorId: number, keepStatus = false): Promise<void> {
    const state = this.connectorStates[connectorId - 1];
    if (!state?.reservation) return;
    state.reservation = null;
    clearTimeout(this.reservationTimers.get(connectorId));
    this.reservationTimers.delete(connectorId);
    if (!keepStatus && state.status === 'Reserved') await this.setStatus(connectorId, 'Available');
  }

  /**
   * Authorize (unless `authorized`) and StartTransaction (a random id tag unless given), then Charging; answers
   * the transaction id. On a Reserved connector only the reservation's tag (or one whose parent is the
   * reservation's) may start: its StartTransaction carries the reservationId. Energy counts from the start's
   * timestamp, at a share of the connector's power drawn for this session.
   */
  async startCharging(
    connectorId: number,
    idTag = `SIM${Math.floor(Math.random() * 1e6)}`,
    { authorized = false }: { authorized?: boolean } = {},
  ): Promise<number> {
    const state = this.connectorStates[connectorId - 1]!;
    const info = authorized
      ? undefined
      : (
          (await this.client?.call('Authorize', { idTag })) as
            | { idTagInfo: { parentIdTag?: string } }
            | undefined
        )?.idTagInfo;
    const reservation = state.reservation;
    if (reservation) {
      const parent = info?.parentIdTag;
      const mine =
        sameIdTag(reservation.idTag, idTag) ||
        (parent !== undefined && sameIdTag(reservation.parentIdTag ?? reservation.idTag, parent));
      if (!mine) throw new Error(`${this.spec.id}/${connectorId} is reserved for another id tag`);
      await this.endReservation(connectorId, true);
    }
    const at = this.clock.now();
    const answer = (await this.client?.call('StartTransaction', {
      connectorId,
      idTag,
      meterStart: state.meterWh,
      timestamp: new Date(at).toISOString(),
      ...(reservation ? { reservationId: reservation.id } : {}),
    })) as { transactionId: number; idTagInfo?: { status: string } };
    const [low, high] = SESSION_SHARE;
    state.transactionId = answer.transactionId;
    state.pendingWh = 0;
    state.countedTo = at;
    state.share = low + (this.options.random ?? Math.random)() * (high - low);
    state.soc = null;
    // A tag refused in the answer ends the transaction at once, as StopTransactionOnInvalidId (on) asks.
    const stopsRefused =
      (this.configuration.get('StopTransactionOnInvalidId') ?? DEFAULT_VALUES.StopTransactionOnInvalidId) !==
      'false';
    if (stopsRefused && answer.idTagInfo && answer.idTagInfo.status !== 'Accepted') {
      await this.stopCharging(connectorId, 'DeAuthorized');
      return answer.transactionId;
    }
    await this.setStatus(connectorId, 'Charging');
    return answer.transactionId;
  }

  /** The power the connector delivers now, kW: its session's share of the maximum, tapered by the SoC. */
  powerKw(connectorId: number): number {
    const state = this.connectorStates[connectorId - 1]!;
    if (state.transactionId === null || state.status !== 'Charging') return 0;
    if (state.car && state.car.soc >= 100) return 0;
    return this.maxPowerKw(connectorId) * state.share * taper(state.car?.soc ?? state.soc);
  }

  /** Counts the energy delivered up to `to` (in slices, so the taper follows a car's rising SoC). */
  private deliver(connectorId: number, to: number): void {
    const state = this.connectorStates[connectorId - 1]!;
    const from = state.countedTo;
    if (from === null) return;
    const slice = Math.max(10_000, (to - from) / 1000);
    for (let at = from; at < to; at += slice) {
      let wh = (this.powerKw(connectorId) * Math.min(slice, to - at)) / 3600;
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
    const sampledValue = [
      { value: String(state.meterWh), measurand: 'Energy.Active.Import.Register', unit: 'Wh' },
    ];
    if (soc !== undefined) {
      sampledValue.push({ value: String(soc), measurand: 'SoC', unit: 'Percent' });
    }
    await this.client?.call('MeterValues', {
      connectorId,
      transactionId: state.transactionId ?? undefined,
      meterValue: [{ timestamp: this.timestamp(), sampledValue }],
    });
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
   * StopTransaction (when one runs), then Finishing. The stop gives the register as last read: energy since the
   * last reading is not counted (a test's explicit readings stay exactly the session's energy).
   */
  async stopCharging(connectorId: number, reason: string): Promise<void> {
    const state = this.connectorStates[connectorId - 1]!;
    if (state.transactionId !== null) {
      await this.client?.call('StopTransaction', {
        transactionId: state.transactionId,
        meterStop: state.meterWh,
        timestamp: this.timestamp(),
        reason,
      });
    }
    state.transactionId = null;
    state.countedTo = null;
    state.pendingWh = 0;
    await this.setStatus(connectorId, 'Finishing');
    const scheduled = state.scheduled;
    state.scheduled = null;
    if (scheduled === 'Inoperative') await this.setStatus(connectorId, 'Unavailable');
  }

  private handle(client: InstanceType<typeof RPCClient>): void {
    const behaviour = () => this.options.behaviour?.(this.spec.id) ?? 'normal';
    const seen = (action: string, params: unknown) =>
      this.options.onEvent?.({ type: 'command', id: this.spec.id, action, params });
    const answerOr = (answer: Record<string, unknown>): Record<string, unknown> => {
      switch (behaviour()) {
        case 'silent':
          return NO_REPLY;
        case 'reject':
          return { ...answer, status: 'Rejected' };
        case 'not-supported':
          throw createRPCError('NotImplemented', 'Not implemented by this charger');
        default:
          return answer;
      }
    };
    client.handle('Reset', async ({ params }) => {
      seen('Reset', params);
      const answer = answerOr({ status: 'Accepted' });
      if (answer === NO_REPLY || (answer as { status: string }).status !== 'Accepted') return answer;
      // Answer first, then go away and come back as a real charger does.
      setTimeout(() => void this.reboot(), 50);
      return answer;
    });
    client.handle('ChangeConfiguration', async ({ params }) => {
      seen('ChangeConfiguration', params);
      const { key, value } = params as { key: string; value: string };
      if (!KNOWN_KEYS.has(key)) return answerOr({ status: 'NotSupported' });
      const answer = answerOr({ status: 'Accepted' });
      if (answer !== NO_REPLY && (answer as { status: string }).status === 'Accepted')
        this.configuration.set(key, value);
      return answer;
    });
    client.handle('DataTransfer', async ({ params }) => {
      seen('DataTransfer', params);
      const { messageId } = params as { messageId?: string };
      if (messageId !== 'OpenBlocker' && messageId !== 'CloseBlocker')
        return answerOr({ status: 'UnknownMessageId' });
      return answerOr({ status: 'Accepted' });
    });
    /** An answer whose refusal is a status word of its own (UnlockFailed), not Rejected. */
    const answerAs = (status: string, refused: string): Record<string, unknown> => {
      const answer = answerOr({ status });
      if (answer === NO_REPLY) return answer;
      return (answer as { status: string }).status === 'Rejected' ? { status: refused } : answer;
    };
    client.handle('UnlockConnector', async ({ params }) => {
      seen('UnlockConnector', params);
      const { connectorId } = params as { connectorId: number };
      if (!this.connectorStates[connectorId - 1]) return answerOr({ status: 'NotSupported' });
      // A real lock sticks now and then: the demo shows it (unlockFailureRate); the tests choose 'reject'.
      if (Math.random() < (this.options.unlockFailureRate ?? 0)) return answerOr({ status: 'UnlockFailed' });
      return answerAs('Unlocked', 'UnlockFailed');
    });
    client.handle('ChangeAvailability', async ({ params }) => {
      seen('ChangeAvailability', params);
      const { connectorId, type } = params as { connectorId: number; type: 'Operative' | 'Inoperative' };
      const numbers =
        connectorId === 0
          ? this.connectorStates.map((_, i) => i + 1)
          : this.connectorStates[connectorId - 1]
            ? [connectorId]
            : [];
      if (numbers.length === 0) return answerOr({ status: 'Rejected' });
      const answer = answerOr({ status: 'Accepted' });
      if (answer === NO_REPLY || (answer as { status: string }).status !== 'Accepted') return answer;
      // A connector charging now changes once its session ends (OCPP 1.6: Scheduled).
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
      return busy.length > 0 ? { status: 'Scheduled' } : answer;
    });
    client.handle('TriggerMessage', async ({ params }) => {
      seen('TriggerMessage', params);
      const { requestedMessage, connectorId } = params as { requestedMessage: string; connectorId?: number };
      if (!TRIGGERABLE.has(requestedMessage)) return answerOr({ status: 'NotImplemented' });
      if (connectorId !== undefined && !this.connectorStates[connectorId - 1])
        return answerOr({ status: 'Rejected' });
      const answer = answerOr({ status: 'Accepted' });
      if (answer === NO_REPLY || (answer as { status: string }).status !== 'Accepted') return answer;
      // The requested message follows the answer, as OCPP 1.6 asks.
      setTimeout(() => void this.sendTriggered(requestedMessage, connectorId).catch(() => undefined), 10);
      return answer;
    });
    client.handle('GetConfiguration', async ({ params }) => {
      seen('GetConfiguration', params);
      const answer = answerOr({});
      if (answer === NO_REPLY) return answer;
      const asked = (params as { key?: string[] }).key;
      const entries = this.configurationEntries();
      const known = new Map(entries.map((entry) => [entry.key, entry]));
      if (!asked || asked.length === 0) return { configurationKey: entries };
      return {
        configurationKey: asked.filter((key) => known.has(key)).map((key) => known.get(key)!),
        unknownKey: asked.filter((key) => !known.has(key)),
      };
    });
    client.handle('ClearCache', async ({ params }) => {
      seen('ClearCache', params);
      return answerOr({ status: 'Accepted' });
    });
    client.handle('RemoteStartTransaction', async ({ params }) => {
      seen('RemoteStartTransaction', params);
      const { connectorId = 1, idTag } = params as { connectorId?: number; idTag: string };
      const state = this.connectorStates[connectorId - 1];
      if (!state || state.transactionId !== null) return answerOr({ status: 'Rejected' });
      // A reserved connector starts for its reservation's tag only.
      if (state.reservation && !sameIdTag(state.reservation.idTag, idTag))
        return answerOr({ status: 'Rejected' });
      const answer = answerOr({ status: 'Accepted' });
      if (answer !== NO_REPLY && (answer as { status: string }).status === 'Accepted') {
        setTimeout(() => {
          void this.setStatus(connectorId, 'Preparing')
            .then(() => this.startCharging(connectorId, idTag))
            .catch(() => undefined);
        }, 10);
      }
      return answer;
    });
    /** UpdateFirmware and GetDiagnostics: NotImplemented without the profile; no status to reject with. */
    const fileCommand = (action: string, params: unknown): 'go' | typeof NO_REPLY => {
      seen(action, params);
      if (this.spec.firmwareManagement === false)
        throw createRPCError('NotImplemented', 'No FirmwareManagement profile on this charger');
      switch (behaviour()) {
        case 'silent':
          return NO_REPLY;
        case 'not-supported':
          throw createRPCError('NotImplemented', 'Not implemented by this charger');
        case 'reject':
          throw createRPCError('GenericError', 'Refused by this charger');
        default:
          return 'go';
      }
    };
    const transfer = () => this.options.fileTransfer?.(this.spec.id) ?? 'normal';
    client.handle('UpdateFirmware', async ({ params }) => {
      if (fileCommand('UpdateFirmware', params) === NO_REPLY) return NO_REPLY;
      // The answer first (it carries nothing), then the update, as a real charger does.
      setTimeout(
        () => void this.updateFirmware(params as FirmwareRequest, transfer()).catch(() => undefined),
        10,
      );
      return {};
    });
    client.handle('GetDiagnostics', async ({ params }) => {
      if (fileCommand('GetDiagnostics', params) === NO_REPLY) return NO_REPLY;
      const how = transfer();
      if (how === 'no-diagnostics') return {};
      const fileName = `diagnostics-${this.spec.id}-${new Date(this.clock.now()).toISOString().replace(/[:.]/g, '-')}.log`;
      setTimeout(
        () => void this.uploadDiagnostics(params as DiagnosticsRequest, fileName, how).catch(() => undefined),
        10,
      );
      return { fileName };
    });
    client.handle('RemoteStopTransaction', async ({ params }) => {
      seen('RemoteStopTransaction', params);
      const { transactionId } = params as { transactionId: number };
      const index = this.connectorStates.findIndex((state) => state.transactionId === transactionId);
      if (index < 0) return answerOr({ status: 'Rejected' });
      const answer = answerOr({ status: 'Accepted' });
      if (answer !== NO_REPLY)
        setTimeout(() => void this.stopCharging(index + 1, 'Remote').catch(() => undefined), 10);
      return answer;
    });

    handleAuthorization(this, client, { seen, answerOr });
  }

  /**
   * A firmware or diagnostics status, sent as soon as the charger is connected: one that rebooted meanwhile (a
   * Hard Reset All) sends it once it is back, as a real charger sends what it queued (for at most a minute).
   */
  private async fileStatus(type: 'firmware' | 'diagnostics', status: string): Promise<void> {
    this.options.onEvent?.({ type, id: this.spec.id, status });
    const action = type === 'firmware' ? 'FirmwareStatusNotification' : 'DiagnosticsStatusNotification';
    for (let waited = 0; !this.client && !this.stopped && waited < 60_000; waited += 100)
      await new Promise((resolve) => setTimeout(resolve, 100));
    await this.client?.call(action, { status }).catch(() => undefined);
  }

  /**
   * From the retrieve date on: Downloading, the file fetched (as often as `retries` allows), Downloaded,
   * Installing, a reboot with the new version (from the file's name, else its hash), Installed.
   */
  private async updateFirmware(request: FirmwareRequest, how: FileTransferBehaviour): Promise<void> {
    const wait = new Date(request.retrieveDate).getTime() - this.clock.now();
    if (wait > 0) await this.clock.sleep(wait);
    if (this.stopped) return;
    await this.fileStatus('firmware', 'Downloading');
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
    if (!file) return this.fileStatus('firmware', 'DownloadFailed');
    const sha256 = createHash('sha256').update(file).digest('hex');
    this.options.onEvent?.({ type: 'downloaded', id: this.spec.id, bytes: file.length, sha256 });
    await this.fileStatus('firmware', 'Downloaded');
    await this.fileStatus('firmware', 'Installing');
    if (how === 'install-fails') return this.fileStatus('firmware', 'InstallationFailed');
    this.firmwareVersion = firmwareVersionOf(request.location, sha256);
    await this.reboot();
    await this.fileStatus('firmware', 'Installed');
  }

  /** Uploading, a small log sent to the location (PUT, or POST multipart), Uploaded or UploadFailed. */
  private async uploadDiagnostics(
    request: DiagnosticsRequest,
    fileName: string,
    how: FileTransferBehaviour,
  ): Promise<void> {
    await this.fileStatus('diagnostics', 'Uploading');
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
    if (!sent) return this.fileStatus('diagnostics', 'UploadFailed');
    this.options.onEvent?.({ type: 'uploaded', id: this.spec.id, bytes: Buffer.byteLength(log) });
    await this.fileStatus('diagnostics', 'Uploaded');
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
  private diagnosticsLog(request: DiagnosticsRequest): string {
    const lines = [
      `# Diagnostics of ${this.spec.id} (EV Simulator, firmware ${this.firmwareVersion})`,
      `# written ${new Date(this.clock.now()).toISOString()}`,
      `# period ${request.startTime ?? 'start'} .. ${request.stopTime ?? 'now'}`,
      ...this.connectorStates.map(
        (state, i) =>
          `connector ${i + 1}: ${state.status}, meter ${state.meterWh} Wh, transaction ${state.transactionId ?? '-'}`,
      ),
      ...[...this.configuration].map(([key, value]) => `config ${key}=${value}`),
    ];
    return `${lines.join('\n')}\n`;
  }

  /** GetConfiguration's keys: what the back office may set, then the read-only facts of this charger. */
  configurationEntries(): Array<{ key: string; readonly: boolean; value: string }> {
    const settable = [...KNOWN_KEYS].map((key) => ({
      key,
      readonly: false,
      value: this.configuration.get(key) ?? DEFAULT_VALUES[key] ?? '',
    }));
    return [
      ...settable,
      { key: 'NumberOfConnectors', readonly: true, value: String(this.spec.connectors) },
      {
        key: 'SupportedFeatureProfiles',
        readonly: true,
        value: 'Core,RemoteTrigger,LocalAuthListManagement,Reservation',
      },
      { key: 'ChargeProfileMaxStackLevel', readonly: true, value: '0' },
      { key: 'LocalAuthListMaxLength', readonly: true, value: String(this.localAuthListMaxLength) },
      { key: 'SendLocalListMaxLength', readonly: true, value: String(this.sendLocalListMaxLength) },
      { key: 'ReserveConnectorZeroSupported', readonly: true, value: 'false' },
    ];
  }

  /** The message TriggerMessage asked for. */
  private async sendTriggered(message: string, connectorId: number | undefined): Promise<void> {
    const client = this.client;
    if (!client) return;
    const numbers = connectorId ? [connectorId] : this.connectorStates.map((_, i) => i + 1);
    switch (message) {
      case 'BootNotification':
        await client.call('BootNotification', this.bootPayload());
        break;
      case 'Heartbeat':
        await client.call('Heartbeat', {});
        break;
      case 'StatusNotification':
        for (const n of numbers) await this.sendStatus(n);
        break;
      case 'MeterValues':
        for (const n of numbers) await this.sendMeterValue(n, { addWh: 0 });
        break;
      case 'DiagnosticsStatusNotification':
        await client.call('DiagnosticsStatusNotification', { status: 'Idle' });
        break;
      case 'FirmwareStatusNotification':
        await client.call('FirmwareStatusNotification', { status: 'Idle' });
        break;
    }
  }

  private async reboot(): Promise<void> {
    await this.close();
    await new Promise((resolve) => setTimeout(resolve, this.options.rebootMs ?? 500));
    if (this.stopped) return;
    for (const state of this.connectorStates) {
      // Inoperative outlives a reboot, as ChangeAvailability's setting does on a real charger.
      state.status =
        state.status === 'Unavailable' || state.scheduled === 'Inoperative' ? 'Unavailable' : 'Available';
      state.scheduled = null;
      state.transactionId = null;
      state.countedTo = null;
      state.pendingWh = 0;
      state.car = null;
      // A reservation outlives a reboot (a real charger keeps it in its store); the session's tag is free again.
      if (state.reservation && state.status === 'Available') state.status = 'Reserved';
      this.giveBack(state);
    }
    await this.keepConnected().catch(() => undefined);
  }

  private clearTimers(): void {
    if (this.heartbeat) clearInterval(this.heartbeat);
    if (this.activity) clearInterval(this.activity);
    this.heartbeat = null;
    this.activity = null;
  }

  private async close(): Promise<void> {
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

interface FirmwareRequest {
  location: string;
  retrieveDate: string;
  retries?: number;
  retryInterval?: number;
}

interface DiagnosticsRequest {
  location: string;
  retries?: number;
  retryInterval?: number;
  startTime?: string;
  stopTime?: string;
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

export interface Simulation {
  chargers: SimulatedCharger[];
  /** Ids that could not connect or boot, with why. */
  failed: Array<{ id: string; error: string }>;
  stop(): Promise<void>;
}

/** Starts these chargers, `concurrency` connections at a time. */
export async function simulateChargers(
  specs: SimulatedChargerSpec[],
  options: SimulatorOptions,
  concurrency = 200,
): Promise<Simulation> {
  const chargers = specs.map((spec) => new SimulatedCharger(spec, options));
  const failed: Simulation['failed'] = [];
  let next = 0;
  const worker = async () => {
    while (next < chargers.length) {
      const charger = chargers[next++]!;
      try {
        await charger.keepConnected();
      } catch (error) {
        const { code, message } = error as { code?: number; message: string };
        failed.push({ id: charger.spec.id, error: code ? `${code} ${message}` : message });
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, chargers.length) }, worker));
  return {
    chargers,
    failed,
    stop: async () => {
      await Promise.all(chargers.map((charger) => charger.stop()));
    },
  };
}
