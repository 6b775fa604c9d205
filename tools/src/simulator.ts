/**
 * Simulated OCPP chargers: they connect, boot, send heartbeats and status changes, answer the back-office's
 * commands, and may run charging sessions with meter values, state of charge and a full battery. Used by the
 * tests, the benchmark, the demo and `npm run simulate`.
 *
 * What a charger does is protocol-neutral (simulator-core.ts: sessions, energy, activity, reservations,
 * reboots, firmware and diagnostics); this file is its OCPP 1.6J wire, `SimulatedCharger`: Reset (reconnecting
 * after a hard reset), ChangeConfiguration / GetConfiguration, DataTransfer, RemoteStartTransaction and
 * RemoteStopTransaction, UnlockConnector, ChangeAvailability, TriggerMessage, ClearCache, the local
 * authorization list and reservations (simulator-auth.ts), SetChargingProfile and ClearChargingProfile (applied to
 * the power: simulator-profiles.ts), UpdateFirmware (the file downloaded over HTTP;
 * Downloading, Downloaded, Installing, a reboot with the new version, Installed) and GetDiagnostics (a small log
 * uploaded between Uploading and Uploaded). The OCPP 2.0.1 wire is `SimulatedCharger201` (simulator-201.ts);
 * `simulateChargers` starts either, by its `protocol` option (one for all, or a choice per charger).
 */
import { NO_REPLY } from '@ev/server/ocpp/rpc';
import { OCPP_CONFIGURATION_KEYS, sameIdTag, TRIGGER_MESSAGES } from '@ev/shared';
import { SimulatedCharger201 } from './simulator-201.ts';
import { handleAuthorization, type Reservation } from './simulator-auth.ts';
import {
  type Answer,
  ChargerCore,
  type Client,
  type DiagnosticsJob,
  type FirmwareJob,
  type SimulatedChargerSpec,
  type SimulatorOptions,
  type SimulatorProtocol,
  type StartAnswer,
} from './simulator-core.ts';
import {
  MAX_PERIODS,
  MAX_STACK_LEVEL,
  type ProfilePurpose,
  type SimulatedProfile,
  simulatedProfile,
  type WireProfile,
  type WireSchedule,
} from './simulator-profiles.ts';

export { SimulatedCharger201 } from './simulator-201.ts';
export {
  type Behaviour,
  type BootReason,
  ChargerCore,
  type ConnectorState,
  type ConnectorStatus,
  DEFAULT_POWER_KW,
  type FileTransferBehaviour,
  firmwareVersionOf,
  ocppEndpoint,
  type ProfileBehaviour,
  SESSION_SHARE,
  SIMULATOR_FIRMWARE,
  type SimulatedCar,
  type SimulatedChargerSpec,
  type SimulatorClock,
  type SimulatorEvent,
  type SimulatorOptions,
  type SimulatorProtocol,
  type TagPool,
  taper,
} from './simulator-core.ts';
export {
  ChargingProfiles,
  PROFILE_VOLTAGE,
  type SimulatedProfile,
} from './simulator-profiles.ts';

/** A simulated charger of either protocol. */
export type AnySimulatedCharger = SimulatedCharger | SimulatedCharger201;

/** A simulated charger takes every standard key the back office offers; any other key is NotSupported. */
const KNOWN_KEYS = new Set<string>(OCPP_CONFIGURATION_KEYS.map(({ key }) => key));

/** The values a simulated charger starts with, for GetConfiguration (HeartbeatInterval comes from the boot). */
const DEFAULT_VALUES: Record<string, string> = {
  MeterValueSampleInterval: '20',
  ConnectionTimeOut: '60',
  ClockAlignedDataInterval: '0',
  MeterValuesSampledData: 'Energy.Active.Import.Register,SoC,Power.Active.Import',
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

/** One simulated OCPP 1.6J charger. */
export class SimulatedCharger extends ChargerCore<number> {
  readonly protocols = ['ocpp1.6'];
  /** ChangeConfiguration's keys as set (GetConfiguration adds the defaults). */
  readonly configuration = new Map<string, string>();

  private bootPayload() {
    return {
      chargePointVendor: 'EV Simulator',
      chargePointModel: `SIM-${this.spec.connectors}C`,
      chargePointSerialNumber: `SN-${this.spec.id}`.slice(0, 25),
      firmwareVersion: this.firmwareVersion,
    };
  }

  protected async sendBoot(client: Client) {
    return (await client.call('BootNotification', this.bootPayload())) as {
      status: string;
      interval: number;
    };
  }

  protected sendHeartbeat(client: Client) {
    return client.call('Heartbeat', {});
  }

  protected onBooted(intervalS: number): void {
    this.configuration.set('HeartbeatInterval', String(intervalS));
  }

  protected reportStatus(connectorId: number, errorCode: string): Promise<unknown> {
    return (
      this.client?.call('StatusNotification', {
        connectorId,
        errorCode,
        status: this.connectorStates[connectorId - 1]!.status,
        timestamp: this.timestamp(),
      }) ?? Promise.resolve()
    );
  }

  protected async authorize(idTag: string) {
    const answer = (await this.client?.call('Authorize', { idTag })) as
      | { idTagInfo: { status: string; parentIdTag?: string } }
      | undefined;
    return answer?.idTagInfo;
  }

  protected async sendStart(
    connectorId: number,
    idTag: string,
    at: number,
    reservation: Reservation | null,
  ): Promise<StartAnswer<number>> {
    const answer = (await this.client?.call('StartTransaction', {
      connectorId,
      idTag,
      meterStart: this.connectorStates[connectorId - 1]!.meterWh,
      timestamp: new Date(at).toISOString(),
      ...(reservation ? { reservationId: reservation.id } : {}),
    })) as { transactionId: number; idTagInfo?: { status: string } };
    return {
      transactionId: answer.transactionId,
      ...(answer.idTagInfo ? { idTagStatus: answer.idTagInfo.status } : {}),
    };
  }

  protected stopsOnRefusedStart(): boolean {
    return (
      (this.configuration.get('StopTransactionOnInvalidId') ?? DEFAULT_VALUES.StopTransactionOnInvalidId) !==
      'false'
    );
  }

  protected async sendReading(
    connectorId: number,
    soc: number | undefined,
    powerW: number,
  ): Promise<unknown> {
    const state = this.connectorStates[connectorId - 1]!;
    const sampledValue = [
      { value: String(state.meterWh), measurand: 'Energy.Active.Import.Register', unit: 'Wh' },
      { value: String(powerW), measurand: 'Power.Active.Import', unit: 'W' },
    ];
    if (soc !== undefined) sampledValue.push({ value: String(soc), measurand: 'SoC', unit: 'Percent' });
    return this.client?.call('MeterValues', {
      connectorId,
      transactionId: state.transactionId ?? undefined,
      meterValue: [{ timestamp: this.timestamp(), sampledValue }],
    });
  }

  protected sendStop(connectorId: number, reason: string): Promise<unknown> {
    const state = this.connectorStates[connectorId - 1]!;
    return (
      this.client?.call('StopTransaction', {
        transactionId: state.transactionId,
        meterStop: state.meterWh,
        timestamp: this.timestamp(),
        reason,
      }) ?? Promise.resolve()
    );
  }

  protected sendFileStatus(client: Client, type: 'firmware' | 'diagnostics', status: string) {
    const action = type === 'firmware' ? 'FirmwareStatusNotification' : 'DiagnosticsStatusNotification';
    return client.call(action, { status });
  }

  protected settingsForLog(): Array<[string, string]> {
    return [...this.configuration];
  }

  protected handle(client: Client): void {
    const seen = (action: string, params: unknown) => this.seen(action, params);
    const answerOr = (answer: Answer) => this.answerOr(answer);
    client.handle('Reset', async ({ params }) => {
      seen('Reset', params);
      const answer = answerOr({ status: 'Accepted' });
      if (answer === NO_REPLY || answer.status !== 'Accepted') return answer;
      // Answer first, then go away and come back as a real charger does.
      setTimeout(() => void this.reboot(), 50);
      return answer;
    });
    client.handle('ChangeConfiguration', async ({ params }) => {
      seen('ChangeConfiguration', params);
      const { key, value } = params as { key: string; value: string };
      if (!KNOWN_KEYS.has(key)) return answerOr({ status: 'NotSupported' });
      const answer = answerOr({ status: 'Accepted' });
      if (ChargerCore.accepted(answer)) this.configuration.set(key, value);
      return answer;
    });
    client.handle('DataTransfer', async ({ params }) => {
      seen('DataTransfer', params);
      const { messageId } = params as { messageId?: string };
      if (messageId !== 'OpenBlocker' && messageId !== 'CloseBlocker')
        return answerOr({ status: 'UnknownMessageId' });
      return answerOr({ status: 'Accepted' });
    });
    client.handle('UnlockConnector', async ({ params }) => {
      seen('UnlockConnector', params);
      const { connectorId } = params as { connectorId: number };
      if (!this.connectorStates[connectorId - 1]) return answerOr({ status: 'NotSupported' });
      // A real lock sticks now and then: the demo shows it (unlockFailureRate); the tests choose 'reject'.
      if (Math.random() < (this.options.unlockFailureRate ?? 0)) return answerOr({ status: 'UnlockFailed' });
      return this.answerAs('Unlocked', 'UnlockFailed');
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
      if (answer === NO_REPLY || answer.status !== 'Accepted') return answer;
      // A connector charging now changes once its session ends (OCPP 1.6: Scheduled).
      return { status: this.changeAvailability(numbers, type) };
    });
    client.handle('TriggerMessage', async ({ params }) => {
      seen('TriggerMessage', params);
      const { requestedMessage, connectorId } = params as { requestedMessage: string; connectorId?: number };
      if (!TRIGGERABLE.has(requestedMessage)) return answerOr({ status: 'NotImplemented' });
      if (connectorId !== undefined && !this.connectorStates[connectorId - 1])
        return answerOr({ status: 'Rejected' });
      const answer = answerOr({ status: 'Accepted' });
      if (answer === NO_REPLY || answer.status !== 'Accepted') return answer;
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
      if (ChargerCore.accepted(answer)) {
        setTimeout(() => {
          void this.setStatus(connectorId, 'Preparing')
            .then(() => this.startCharging(connectorId, idTag))
            .catch(() => undefined);
        }, 10);
      }
      return answer;
    });
    client.handle('UpdateFirmware', async ({ params }) => {
      if (this.fileCommand('UpdateFirmware', params) === NO_REPLY) return NO_REPLY;
      // The answer first (it carries nothing), then the update, as a real charger does.
      const how = this.transfer();
      setTimeout(() => void this.updateFirmware(params as FirmwareJob, how).catch(() => undefined), 10);
      return {};
    });
    client.handle('GetDiagnostics', async ({ params }) => {
      if (this.fileCommand('GetDiagnostics', params) === NO_REPLY) return NO_REPLY;
      const how = this.transfer();
      if (how === 'no-diagnostics') return {};
      const fileName = this.diagnosticsFileName();
      setTimeout(
        () => void this.uploadDiagnostics(params as DiagnosticsJob, fileName, how).catch(() => undefined),
        10,
      );
      return { fileName };
    });
    client.handle('SetChargingProfile', async ({ params }) => {
      seen('SetChargingProfile', params);
      const { connectorId, csChargingProfiles } = params as {
        connectorId: number;
        csChargingProfiles: ChargingProfile16;
      };
      return this.setChargingProfile(profileOf16(connectorId, csChargingProfiles, this.clock.now()));
    });
    client.handle('ClearChargingProfile', async ({ params }) => {
      seen('ClearChargingProfile', params);
      const { id, connectorId, chargingProfilePurpose, stackLevel } = params as {
        id?: number;
        connectorId?: number;
        chargingProfilePurpose?: string;
        stackLevel?: number;
      };
      return this.clearChargingProfile({ id, connectorId, purpose: chargingProfilePurpose, stackLevel });
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
        value: 'Core,RemoteTrigger,LocalAuthListManagement,Reservation,SmartCharging',
      },
      { key: 'ChargeProfileMaxStackLevel', readonly: true, value: String(MAX_STACK_LEVEL) },
      { key: 'ChargingScheduleAllowedChargingRateUnit', readonly: true, value: 'Current,Power' },
      { key: 'ChargingScheduleMaxPeriods', readonly: true, value: String(MAX_PERIODS) },
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
}

/** OCPP 1.6's csChargingProfiles, as SetChargingProfile carries it. */
interface ChargingProfile16 extends WireProfile {
  chargingProfileId: number;
  transactionId?: number;
  chargingProfilePurpose: ProfilePurpose;
  chargingSchedule: WireSchedule;
}

/** A 1.6 profile in the core's terms (simulator-profiles.ts). */
function profileOf16(connectorId: number, p: ChargingProfile16, receivedAt: number): SimulatedProfile {
  return simulatedProfile(p, {
    id: p.chargingProfileId,
    connectorId,
    purpose: p.chargingProfilePurpose,
    schedule: p.chargingSchedule,
    receivedAt,
  });
}

/** The protocol a charger speaks under these options (default 1.6). */
export function protocolOf(id: string, options: SimulatorOptions): SimulatorProtocol {
  const { protocol } = options;
  return (typeof protocol === 'function' ? protocol(id) : protocol) ?? '1.6';
}

export interface Simulation<C extends AnySimulatedCharger = SimulatedCharger> {
  chargers: C[];
  /** Ids that could not connect or boot, with why. */
  failed: Array<{ id: string; error: string }>;
  stop(): Promise<void>;
}

/**
 * Starts these chargers, `concurrency` connections at a time, in the options' protocol (default 1.6; a choice
 * per charger gives chargers of either kind).
 */
export function simulateChargers(
  specs: SimulatedChargerSpec[],
  options: SimulatorOptions & { protocol?: '1.6' },
  concurrency?: number,
): Promise<Simulation<SimulatedCharger>>;
export function simulateChargers(
  specs: SimulatedChargerSpec[],
  options: SimulatorOptions & { protocol: '2.0.1' },
  concurrency?: number,
): Promise<Simulation<SimulatedCharger201>>;
export function simulateChargers(
  specs: SimulatedChargerSpec[],
  options: SimulatorOptions,
  concurrency?: number,
): Promise<Simulation<AnySimulatedCharger>>;
export async function simulateChargers(
  specs: SimulatedChargerSpec[],
  options: SimulatorOptions,
  concurrency = 200,
): Promise<Simulation<AnySimulatedCharger>> {
  const chargers = specs.map((spec) =>
    protocolOf(spec.id, options) === '2.0.1'
      ? new SimulatedCharger201(spec, options)
      : new SimulatedCharger(spec, options),
  );
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
