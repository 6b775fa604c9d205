/**
 * Simulated OCPP 1.6J chargers: they connect, boot, send heartbeats and status changes, answer Reset
 * (reconnecting after a hard reset), ChangeConfiguration, DataTransfer, RemoteStartTransaction and
 * RemoteStopTransaction, and may run charging sessions with meter values, state of charge and a full battery. Used by the tests, the benchmark, the demo and `npm run simulate`.
 *
 * Energy is what the connector could deliver: a reading adds its power (a share of the connector's maximum, less
 * as a car's battery nears full) times the time since the previous reading or the start, on the charger's clock.
 */
import { createRPCError, NO_REPLY, RPCClient } from '@ev/server/ocpp/rpc';
import { OCPP_CONFIGURATION_KEYS } from '@ev/shared';

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

/** How a simulated charger answers the back-office's commands. */
export type Behaviour = 'normal' | 'silent' | 'reject' | 'not-supported';

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
  /** Called on commands received and state changes (for logs and tests). */
  onEvent?: (event: SimulatorEvent) => void;
  /** The chargers' clock (default the real time): tests drive it instead of waiting. */
  clock?: SimulatorClock;
  /** The draws of each session's power (default Math.random). */
  random?: () => number;
}

export type SimulatorEvent =
  | { type: 'booted'; id: string }
  | { type: 'command'; id: string; action: string; params: unknown }
  | { type: 'status'; id: string; connectorId: number; status: string }
  | { type: 'closed'; id: string };

/** A simulated charger takes every standard key the back office offers; any other key is NotSupported. */
const KNOWN_KEYS = new Set<string>(OCPP_CONFIGURATION_KEYS.map(({ key }) => key));

export const ocppEndpoint = (url: string) => {
  const base = url.replace(/\/+$/, '');
  return base.endsWith('/ocpp') ? base : `${base}/ocpp`;
};

interface ConnectorState {
  status: 'Available' | 'Preparing' | 'Charging' | 'SuspendedEV' | 'Finishing';
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

  private async boot(client: InstanceType<typeof RPCClient>): Promise<void> {
    const answer = (await client.call('BootNotification', {
      chargePointVendor: 'EV Simulator',
      chargePointModel: `SIM-${this.spec.connectors}C`,
      chargePointSerialNumber: `SN-${this.spec.id}`.slice(0, 25),
      firmwareVersion: '1.6.0-sim',
    })) as { status: string; interval: number };
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
    this.connectorStates[connectorId - 1]!.status = status;
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
        await this.startCharging(connectorId);
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
   * Authorize and StartTransaction (a random id tag unless given), then Charging; answers the transaction id.
   * Energy counts from the start's timestamp, at a share of the connector's power drawn for this session.
   */
  async startCharging(connectorId: number, idTag = `SIM${Math.floor(Math.random() * 1e6)}`): Promise<number> {
    const state = this.connectorStates[connectorId - 1]!;
    await this.client?.call('Authorize', { idTag });
    const at = this.clock.now();
    const answer = (await this.client?.call('StartTransaction', {
      connectorId,
      idTag,
      meterStart: state.meterWh,
      timestamp: new Date(at).toISOString(),
    })) as { transactionId: number };
    const [low, high] = SESSION_SHARE;
    state.transactionId = answer.transactionId;
    state.pendingWh = 0;
    state.countedTo = at;
    state.share = low + (this.options.random ?? Math.random)() * (high - low);
    state.soc = null;
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
    client.handle('RemoteStartTransaction', async ({ params }) => {
      seen('RemoteStartTransaction', params);
      const { connectorId = 1, idTag } = params as { connectorId?: number; idTag: string };
      const state = this.connectorStates[connectorId - 1];
      if (!state || state.transactionId !== null) return answerOr({ status: 'Rejected' });
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
  }

  private async reboot(): Promise<void> {
    await this.close();
    await new Promise((resolve) => setTimeout(resolve, this.options.rebootMs ?? 500));
    if (this.stopped) return;
    for (const state of this.connectorStates) {
      state.status = 'Available';
      state.transactionId = null;
      state.countedTo = null;
      state.pendingWh = 0;
      state.car = null;
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
    if (this.retry) {
      clearTimeout(this.retry.timer);
      this.retry.resolve();
    }
    await this.close();
  }
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
