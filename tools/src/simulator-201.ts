/**
 * The OCPP 2.0.1 wire of a simulated charger (issue 33): the same charger as the 1.6 one (simulator-core.ts:
 * sessions, energy, activity, reservations, reboots, files), speaking 2.0.1 over the subprotocol ocpp2.0.1 with
 * every frame checked against the official 2.0.1 schemas (strict mode, unless a benchmark turns it off).
 *
 * How the core's 1.6 words become 2.0.1 (docs/ocpp.md, Simulator):
 * - Connector n is EVSE n, connector 1. Its 1.6 status becomes a connector status: Preparing, Charging,
 *   SuspendedEV and Finishing are Occupied (a StatusNotification only when that changes); during a transaction
 *   Charging and SuspendedEV are its charging state (TransactionEvent Updated, ChargingStateChanged).
 * - A session is a transaction of the charger's own id (a UUID): TransactionEvent Started (the register,
 *   Transaction.Begin; the idToken, ISO14443 unless a remote start gave another type; remoteStartId and
 *   reservationId when there are), Updated for each reading (MeterValuePeriodic: the register and the SoC),
 *   Ended at the stop (the register as last read, Transaction.End; stoppedReason from 1.6's reason), seqNo 0, 1, 2…
 *   The transaction starts and ends at the power path (TxStartPoint and TxStopPoint PowerPathClosed), as 1.6's
 *   StartTransaction and StopTransaction do: the cable stays in (Occupied) until `unplug` reports Available.
 * - A reading carries the register, the power now (Power.Active.Import, W) and the SoC; outside a transaction it
 *   is a MeterValues.
 * - SetChargingProfile / ClearChargingProfile: EVSE n is connector n, ChargingStationMaxProfile is 1.6's
 *   ChargePointMaxProfile; the core applies them (simulator-profiles.ts). A limit of 0 is the charging state
 *   SuspendedEVSE.
 * - An error code other than NoError in `setStatus` is a NotifyEvent (Connector, Problem, techCode the code).
 */
import { randomUUID } from 'node:crypto';
import { createRPCError, NO_REPLY } from '@ev/server/ocpp/rpc';
import { sameIdTag } from '@ev/shared';
import { DeviceModel, standardVariables, type VariableRef } from './simulator-201-model.ts';
import {
  applyLocalList,
  cancelReservation,
  type Kit,
  type LocalListEntry,
  type Reservation,
  reserveNow,
} from './simulator-auth.ts';
import {
  type Answer,
  type BootReason,
  ChargerCore,
  type Client,
  type ConnectorStatus,
  type SimulatedChargerSpec,
  type SimulatorOptions,
  type StartAnswer,
  type StartOptions,
} from './simulator-core.ts';
import type { ProfilePurpose, SimulatedProfile, WireProfile, WireSchedule } from './simulator-profiles.ts';
import { simulatedProfile } from './simulator-profiles.ts';

type IdToken = { idToken: string; type: string };

/** 1.6's connector status as 2.0.1's connector status. */
const CONNECTOR_STATUS: Record<ConnectorStatus, string> = {
  Available: 'Available',
  Preparing: 'Occupied',
  Charging: 'Occupied',
  SuspendedEV: 'Occupied',
  SuspendedEVSE: 'Occupied',
  Finishing: 'Occupied',
  Reserved: 'Reserved',
  Unavailable: 'Unavailable',
  Faulted: 'Faulted',
};

/** During a transaction: 1.6's status as 2.0.1's charging state. */
const CHARGING_STATE: Partial<Record<ConnectorStatus, string>> = {
  Charging: 'Charging',
  SuspendedEV: 'SuspendedEV',
  SuspendedEVSE: 'SuspendedEVSE',
  Preparing: 'EVConnected',
  Finishing: 'EVConnected',
};

/** 1.6's stop reason as 2.0.1's stoppedReason and the trigger reason of the Ended event. */
const STOPPED: Record<string, { stoppedReason: string; triggerReason: string }> = {
  Local: { stoppedReason: 'Local', triggerReason: 'StopAuthorized' },
  Remote: { stoppedReason: 'Remote', triggerReason: 'RemoteStop' },
  // The core's 'EVDisconnected' stop leaves the cable in (Finishing, as the 1.6 simulator's) until `unplug`:
  // over 2.0.1 that is the EV stopping, not its departure (an Ended for EVDisconnected says the cable is out).
  EVDisconnected: { stoppedReason: 'StoppedByEV', triggerReason: 'ChargingStateChanged' },
  DeAuthorized: { stoppedReason: 'DeAuthorized', triggerReason: 'Deauthorized' },
  HardReset: { stoppedReason: 'ImmediateReset', triggerReason: 'ResetCommand' },
  SoftReset: { stoppedReason: 'Reboot', triggerReason: 'ResetCommand' },
  Reboot: { stoppedReason: 'Reboot', triggerReason: 'ResetCommand' },
  PowerLoss: { stoppedReason: 'PowerLoss', triggerReason: 'AbnormalCondition' },
  EmergencyStop: { stoppedReason: 'EmergencyStop', triggerReason: 'AbnormalCondition' },
  UnlockCommand: { stoppedReason: 'Other', triggerReason: 'UnlockCommand' },
};

/** 2.0.1's profile purposes in 1.6's words (the core's); the external constraints limit as a max profile does. */
const PURPOSE_16: Record<string, ProfilePurpose> = {
  ChargingStationMaxProfile: 'ChargePointMaxProfile',
  ChargingStationExternalConstraints: 'ChargePointMaxProfile',
  TxDefaultProfile: 'TxDefaultProfile',
  TxProfile: 'TxProfile',
};

/** OCPP 2.0.1's chargingProfile, as SetChargingProfile carries it. */
interface ChargingProfile201 extends WireProfile {
  id: number;
  chargingProfilePurpose: string;
  transactionId?: string;
  chargingSchedule: WireSchedule[];
}

/**
 * A 2.0.1 profile in the core's terms (simulator-profiles.ts): its first schedule (the one a station without
 * ISO 15118 uses). An EVSE's ChargingStationMaxProfile keeps its EVSE, so the core refuses it, as 2.0.1 does.
 */
function profileOf201(evseId: number, p: ChargingProfile201, receivedAt: number): SimulatedProfile {
  return simulatedProfile(p, {
    id: p.id,
    connectorId: evseId,
    purpose: PURPOSE_16[p.chargingProfilePurpose] ?? 'TxDefaultProfile',
    schedule: p.chargingSchedule[0]!,
    receivedAt,
  });
}

/** TriggerMessage's messages a simulated 2.0.1 charger sends when asked. */
const TRIGGERABLE = new Set([
  'BootNotification',
  'Heartbeat',
  'StatusNotification',
  'MeterValues',
  'TransactionEvent',
  'FirmwareStatusNotification',
  'LogStatusNotification',
]);

const register = (wh: number, context: string) => ({
  value: wh,
  context,
  measurand: 'Energy.Active.Import.Register',
  unitOfMeasure: { unit: 'Wh' },
});
const power = (watts: number, context: string) => ({
  value: watts,
  context,
  measurand: 'Power.Active.Import',
  unitOfMeasure: { unit: 'W' },
});
const stateOfCharge = (soc: number, context: string) => ({
  value: soc,
  context,
  measurand: 'SoC',
  unitOfMeasure: { unit: 'Percent' },
});

/** One simulated OCPP 2.0.1 charging station. */
export class SimulatedCharger201 extends ChargerCore<string> {
  readonly protocols = ['ocpp2.0.1'];
  /** Its variables (GetVariables, SetVariables, GetBaseReport). */
  readonly model: DeviceModel;
  /** Per EVSE: the next seqNo of its transaction, the charging state and connector status last sent. */
  private readonly seqNos = new Map<number, number>();
  private readonly chargingStates = new Map<number, string>();
  private readonly reported = new Map<number, string>();
  /** The idToken a remote start gave (its type), for the transaction it starts. */
  private readonly remoteTokens = new Map<number, IdToken>();
  /** Reset OnIdle answered Scheduled: the charger resets once no transaction runs. */
  private resetWhenIdle = false;
  private eventId = 0;

  constructor(spec: SimulatedChargerSpec, options: SimulatorOptions) {
    super(spec, options);
    this.model = new DeviceModel(
      standardVariables(this.spec.connectors, {
        identity: this.spec.id,
        availability: (evseId) => this.availability(evseId),
        powerW: (evseId) => this.powerKw(evseId) * 1000,
        maxPowerW: (evseId) => this.maxPowerKw(evseId) * 1000,
        localListEntries: () => this.localList.size,
        chargingProfiles: () => this.chargingProfiles.size,
        connectorType: this.spec.powerType === 'DC' ? 'cCCS2' : 'cType2',
      }),
    );
  }

  private availability(evseId?: number): string {
    const states = evseId ? [this.connectorStates[evseId - 1]!] : this.connectorStates;
    if (states.every((s) => s.status === 'Unavailable')) return 'Unavailable';
    if (evseId) return CONNECTOR_STATUS[states[0]!.status];
    return states.some((s) => s.status === 'Available') ? 'Available' : 'Occupied';
  }

  private nextSeq(evseId: number): number {
    const seqNo = this.seqNos.get(evseId) ?? 0;
    this.seqNos.set(evseId, seqNo + 1);
    return seqNo;
  }

  private call(action: string, params: Record<string, unknown>): Promise<unknown> {
    if (!this.client) return Promise.reject(new Error(`${this.spec.id} is not connected`));
    return this.client.call(action, params);
  }

  // --- the core's wire -------------------------------------------------------------------------------------------

  private bootPayload() {
    return {
      reason: this.bootReason,
      chargingStation: {
        vendorName: 'EV Simulator',
        model: `SIM201-${this.spec.connectors}C`,
        serialNumber: `SN-${this.spec.id}`.slice(0, 25),
        firmwareVersion: this.firmwareVersion,
      },
    };
  }

  protected override async sendBoot(client: Client) {
    return (await client.call('BootNotification', this.bootPayload())) as {
      status: string;
      interval: number;
    };
  }

  protected override sendHeartbeat(client: Client) {
    return client.call('Heartbeat', {});
  }

  protected override onBooted(intervalS: number): void {
    this.model.put('OCPPCommCtrlr', 'HeartbeatInterval', String(intervalS));
    // A new connection: every EVSE's status is reported again.
    this.reported.clear();
  }

  protected override async reportStatus(evseId: number, errorCode: string, force = false): Promise<unknown> {
    const state = this.connectorStates[evseId - 1]!;
    if (state.transactionId !== null) {
      const chargingState = CHARGING_STATE[state.status];
      if (chargingState && chargingState !== this.chargingStates.get(evseId)) {
        this.chargingStates.set(evseId, chargingState);
        await this.transactionEvent(evseId, 'Updated', 'ChargingStateChanged');
      }
    }
    if (errorCode !== 'NoError') await this.notifyProblem(evseId, errorCode);
    const connectorStatus = CONNECTOR_STATUS[state.status];
    if (!force && this.reported.get(evseId) === connectorStatus) return;
    this.reported.set(evseId, connectorStatus);
    return this.client?.call('StatusNotification', {
      timestamp: this.timestamp(),
      connectorStatus,
      evseId,
      connectorId: 1,
    });
  }

  /** A fault (1.6's error code) as 2.0.1 reports one: a NotifyEvent on the connector's Problem variable. */
  private notifyProblem(evseId: number, errorCode: string): Promise<unknown> {
    return this.call('NotifyEvent', {
      generatedAt: this.timestamp(),
      seqNo: 0,
      eventData: [
        {
          eventId: ++this.eventId,
          timestamp: this.timestamp(),
          trigger: 'Delta',
          actualValue: 'true',
          techCode: errorCode.slice(0, 50),
          eventNotificationType: 'HardWiredNotification',
          component: { name: 'Connector', evse: { id: evseId, connectorId: 1 } },
          variable: { name: 'Problem' },
        },
      ],
    });
  }

  protected override async authorize(idTag: string) {
    const answer = (await this.client?.call('Authorize', {
      idToken: { idToken: idTag, type: 'ISO14443' },
    })) as { idTokenInfo: { status: string; groupIdToken?: IdToken } } | undefined;
    if (!answer) return undefined;
    const group = answer.idTokenInfo.groupIdToken?.idToken;
    return { status: answer.idTokenInfo.status, ...(group ? { parentIdTag: group } : {}) };
  }

  protected override async sendStart(
    evseId: number,
    idTag: string,
    at: number,
    reservation: Reservation | null,
    { remoteStartId }: StartOptions,
  ): Promise<StartAnswer<string>> {
    const transactionId = randomUUID();
    const token = this.remoteTokens.get(evseId);
    this.remoteTokens.delete(evseId);
    this.seqNos.set(evseId, 0);
    this.chargingStates.set(evseId, 'Charging');
    const answer = (await this.call('TransactionEvent', {
      eventType: 'Started',
      timestamp: new Date(at).toISOString(),
      triggerReason: remoteStartId === undefined ? 'Authorized' : 'RemoteStart',
      seqNo: this.nextSeq(evseId),
      transactionInfo: {
        transactionId,
        chargingState: 'Charging',
        ...(remoteStartId === undefined ? {} : { remoteStartId }),
      },
      evse: { id: evseId, connectorId: 1 },
      idToken: token && sameIdTag(token.idToken, idTag) ? token : { idToken: idTag, type: 'ISO14443' },
      meterValue: [
        {
          timestamp: new Date(at).toISOString(),
          sampledValue: [register(this.meterOf(evseId), 'Transaction.Begin')],
        },
      ],
      ...(reservation ? { reservationId: reservation.id } : {}),
    })) as { idTokenInfo?: { status: string } };
    return { transactionId, ...(answer.idTokenInfo ? { idTagStatus: answer.idTokenInfo.status } : {}) };
  }

  private meterOf(evseId: number): number {
    return this.connectorStates[evseId - 1]!.meterWh;
  }

  /** A TransactionEvent Updated or Ended of the EVSE's running transaction, with a reading when given. */
  private transactionEvent(
    evseId: number,
    eventType: 'Updated' | 'Ended',
    triggerReason: string,
    more: { sampledValue?: unknown[]; stoppedReason?: string } = {},
  ): Promise<unknown> {
    const state = this.connectorStates[evseId - 1]!;
    const timestamp = this.timestamp();
    return this.call('TransactionEvent', {
      eventType,
      timestamp,
      triggerReason,
      seqNo: this.nextSeq(evseId),
      transactionInfo: {
        transactionId: state.transactionId,
        chargingState: this.chargingStates.get(evseId) ?? 'Charging',
        ...(more.stoppedReason ? { stoppedReason: more.stoppedReason } : {}),
      },
      evse: { id: evseId, connectorId: 1 },
      ...(more.sampledValue ? { meterValue: [{ timestamp, sampledValue: more.sampledValue }] } : {}),
    });
  }

  protected override async sendReading(
    evseId: number,
    soc: number | undefined,
    powerW: number,
  ): Promise<unknown> {
    const state = this.connectorStates[evseId - 1]!;
    const context = 'Sample.Periodic';
    const sampledValue = [
      register(state.meterWh, context),
      power(powerW, context),
      ...(soc === undefined ? [] : [stateOfCharge(soc, context)]),
    ];
    if (state.transactionId !== null) {
      return this.transactionEvent(evseId, 'Updated', 'MeterValuePeriodic', { sampledValue });
    }
    return this.client?.call('MeterValues', {
      evseId,
      meterValue: [{ timestamp: this.timestamp(), sampledValue }],
    });
  }

  protected override async sendStop(evseId: number, reason: string): Promise<unknown> {
    const { stoppedReason, triggerReason } = STOPPED[reason] ?? {
      stoppedReason: 'Other',
      triggerReason: 'AbnormalCondition',
    };
    // The cable is still in: the car is connected, no energy flows.
    this.chargingStates.set(evseId, 'EVConnected');
    try {
      return await this.transactionEvent(evseId, 'Ended', triggerReason, {
        stoppedReason,
        sampledValue: [register(this.meterOf(evseId), 'Transaction.End')],
      });
    } finally {
      this.seqNos.delete(evseId);
      this.chargingStates.delete(evseId);
    }
  }

  protected override sendFileStatus(
    client: Client,
    type: 'firmware' | 'diagnostics',
    status: string,
    requestId: number | undefined,
  ): Promise<unknown> {
    const id = requestId === undefined ? {} : { requestId };
    if (type === 'firmware') return client.call('FirmwareStatusNotification', { status, ...id });
    return client.call('LogStatusNotification', {
      status: status === 'UploadFailed' ? 'UploadFailure' : status,
      ...id,
    });
  }

  protected override stopsOnRefusedStart(): boolean {
    return this.model.value('TxCtrlr', 'StopTxOnInvalidId') !== 'false';
  }

  protected override settingsForLog(): Array<[string, string]> {
    return this.model.entries();
  }

  protected override onReservationEnded(reservation: Reservation, why: 'Expired' | 'Removed'): void {
    // Cancelled by the back office: it knows. Expired: the charger tells it.
    if (why !== 'Expired') return;
    void this.client
      ?.call('ReservationStatusUpdate', { reservationId: reservation.id, reservationUpdateStatus: 'Expired' })
      .catch(() => undefined);
  }

  /** A reboot, whatever its cause, does any reset that was waiting for the charger to be idle. */
  protected override reboot(reason?: BootReason): Promise<void> {
    this.resetWhenIdle = false;
    return super.reboot(reason);
  }

  /** A stop, and then the reset that waited for the charger to be idle (Reset OnIdle answered Scheduled). */
  override async stopCharging(evseId: number, reason: string): Promise<void> {
    await super.stopCharging(evseId, reason);
    if (this.resetWhenIdle && this.connectorStates.every((s) => s.transactionId === null)) {
      this.resetWhenIdle = false;
      setTimeout(() => void this.reboot(), 50);
    }
  }

  // --- the back office's commands -------------------------------------------------------------------------------

  /** Through the behaviour: go on, answer the command's own refusal, or nothing / NotImplemented. */
  private gate(action: string, params: unknown): 'go' | 'reject' | typeof NO_REPLY {
    this.seen(action, params);
    switch (this.behaviour()) {
      case 'silent':
        return NO_REPLY;
      case 'not-supported':
        throw createRPCError('NotImplemented', 'Not implemented by this charger');
      case 'reject':
        return 'reject';
      default:
        return 'go';
    }
  }

  /** The connector numbers an EVSE names (none: all); empty when it names one this charger lacks. */
  private evses(evseId: number | undefined): number[] {
    if (evseId === undefined || evseId === 0) return this.connectorStates.map((_, i) => i + 1);
    return this.connectorStates[evseId - 1] ? [evseId] : [];
  }

  protected override handle(client: Client): void {
    const kit: Kit = {
      seen: (action, params) => this.seen(action, params),
      answerOr: (answer) => this.answerOr(answer),
    };
    const on = (action: string, handler: (params: Record<string, unknown>) => Answer | Promise<Answer>) =>
      client.handle(action, async ({ params }) => handler(params as Record<string, unknown>));

    on('Reset', (params) => {
      this.seen('Reset', params);
      const { type, evseId } = params as { type: 'Immediate' | 'OnIdle'; evseId?: number };
      const numbers = evseId === undefined ? [] : this.evses(evseId);
      if (evseId !== undefined && numbers.length !== 1) return this.answerOr({ status: 'Rejected' });
      const answer = this.answerOr({ status: 'Accepted' });
      if (!ChargerCore.accepted(answer)) return answer;
      const running = (evseId === undefined ? this.evses(undefined) : numbers).filter(
        (n) => this.connectorStates[n - 1]!.transactionId !== null,
      );
      if (type === 'OnIdle' && running.length > 0) {
        if (evseId === undefined) this.resetWhenIdle = true;
        return { status: 'Scheduled' };
      }
      // Answer first; Immediate ends the transactions (ImmediateReset), then the charger (or EVSE) restarts.
      setTimeout(() => {
        void (async () => {
          for (const n of running) await this.stopCharging(n, 'HardReset');
          if (evseId === undefined) await this.reboot();
          else {
            await this.setStatus(evseId, 'Unavailable');
            await this.setStatus(evseId, 'Available');
          }
        })().catch(() => undefined);
      }, 50);
      return answer;
    });

    on('ChangeAvailability', (params) => {
      this.seen('ChangeAvailability', params);
      const { operationalStatus, evse } = params as {
        operationalStatus: 'Operative' | 'Inoperative';
        evse?: { id: number };
      };
      const numbers = this.evses(evse?.id);
      if (numbers.length === 0) return this.answerOr({ status: 'Rejected' });
      const answer = this.answerOr({ status: 'Accepted' });
      if (!ChargerCore.accepted(answer)) return answer;
      return { status: this.changeAvailability(numbers, operationalStatus) };
    });

    on('UnlockConnector', (params) => {
      this.seen('UnlockConnector', params);
      const { evseId, connectorId } = params as { evseId: number; connectorId: number };
      const state = this.connectorStates[evseId - 1];
      if (!state || connectorId !== 1) return this.answerAs('UnknownConnector', 'UnlockFailed');
      if (state.transactionId !== null) return this.answerAs('OngoingAuthorizedTransaction', 'UnlockFailed');
      if (Math.random() < (this.options.unlockFailureRate ?? 0))
        return this.answerAs('UnlockFailed', 'UnlockFailed');
      return this.answerAs('Unlocked', 'UnlockFailed');
    });

    on('TriggerMessage', (params) => {
      this.seen('TriggerMessage', params);
      const { requestedMessage, evse } = params as { requestedMessage: string; evse?: { id: number } };
      if (!TRIGGERABLE.has(requestedMessage)) return this.answerOr({ status: 'NotImplemented' });
      const numbers = this.evses(evse?.id);
      if (numbers.length === 0) return this.answerOr({ status: 'Rejected' });
      const answer = this.answerOr({ status: 'Accepted' });
      if (!ChargerCore.accepted(answer)) return answer;
      // The requested message follows the answer.
      setTimeout(() => void this.sendTriggered(requestedMessage, numbers).catch(() => undefined), 10);
      return answer;
    });

    on('ClearCache', (params) => {
      this.seen('ClearCache', params);
      return this.answerOr({ status: 'Accepted' });
    });

    on('GetVariables', (params) => {
      const gate = this.gate('GetVariables', params);
      if (gate === NO_REPLY) return NO_REPLY;
      const data = (params as { getVariableData: VariableRef[] }).getVariableData;
      const results = this.model.get(data);
      return {
        getVariableResult:
          gate === 'reject'
            ? results.map(({ attributeValue: _, ...result }) => ({ ...result, attributeStatus: 'Rejected' }))
            : results,
      };
    });

    on('SetVariables', (params) => {
      const gate = this.gate('SetVariables', params);
      if (gate === NO_REPLY) return NO_REPLY;
      const data = (params as { setVariableData: Array<VariableRef & { attributeValue: string }> })
        .setVariableData;
      if (gate === 'reject') {
        return {
          setVariableResult: data.map((d) => ({
            attributeStatus: 'Rejected',
            component: d.component,
            variable: d.variable,
          })),
        };
      }
      return { setVariableResult: this.model.set(data) };
    });

    on('GetBaseReport', (params) => {
      this.seen('GetBaseReport', params);
      const { requestId, reportBase } = params as { requestId: number; reportBase: string };
      const data = this.model.report(reportBase);
      const answer = this.answerOr({ status: data.length === 0 ? 'EmptyResultSet' : 'Accepted' });
      if (ChargerCore.accepted(answer)) {
        setTimeout(() => void this.notifyReport(requestId, data).catch(() => undefined), 10);
      }
      return answer;
    });

    on('RequestStartTransaction', (params) => {
      this.seen('RequestStartTransaction', params);
      const { evseId, idToken, remoteStartId } = params as {
        evseId?: number;
        idToken: IdToken;
        remoteStartId: number;
      };
      const free = (n: number) => {
        const s = this.connectorStates[n - 1];
        return (
          s !== undefined &&
          s.transactionId === null &&
          s.status !== 'Unavailable' &&
          (!s.reservation || sameIdTag(s.reservation.idTag, idToken.idToken))
        );
      };
      const n = evseId ?? this.connectorStates.findIndex((_, i) => free(i + 1)) + 1;
      if (n < 1 || !free(n)) return this.answerOr({ status: 'Rejected' });
      const answer = this.answerOr({ status: 'Accepted' });
      if (ChargerCore.accepted(answer)) {
        this.remoteTokens.set(n, idToken);
        const authorized = this.model.value('AuthCtrlr', 'AuthorizeRemoteStart') !== 'true';
        setTimeout(() => {
          const state = this.connectorStates[n - 1]!;
          void (state.status === 'Preparing' ? Promise.resolve() : this.setStatus(n, 'Preparing'))
            .then(() => this.startCharging(n, idToken.idToken, { authorized, remoteStartId }))
            .catch(() => undefined);
        }, 10);
      }
      return answer;
    });

    on('RequestStopTransaction', (params) => {
      this.seen('RequestStopTransaction', params);
      const { transactionId } = params as { transactionId: string };
      const index = this.connectorStates.findIndex((state) => state.transactionId === transactionId);
      if (index < 0) return this.answerOr({ status: 'Rejected' });
      const answer = this.answerOr({ status: 'Accepted' });
      if (ChargerCore.accepted(answer))
        setTimeout(() => void this.stopCharging(index + 1, 'Remote').catch(() => undefined), 10);
      return answer;
    });

    on('SendLocalList', (params) => {
      const {
        versionNumber,
        updateType,
        localAuthorizationList = [],
      } = params as {
        versionNumber: number;
        updateType: 'Full' | 'Differential';
        localAuthorizationList?: Array<{
          idToken: IdToken;
          idTokenInfo?: { status: string; cacheExpiryDateTime?: string; groupIdToken?: IdToken };
        }>;
      };
      const entries: LocalListEntry[] = localAuthorizationList.map(({ idToken, idTokenInfo }) => ({
        idTag: idToken.idToken,
        ...(idTokenInfo
          ? {
              idTagInfo: {
                status: idTokenInfo.status,
                ...(idTokenInfo.cacheExpiryDateTime ? { expiryDate: idTokenInfo.cacheExpiryDateTime } : {}),
                ...(idTokenInfo.groupIdToken ? { parentIdTag: idTokenInfo.groupIdToken.idToken } : {}),
              },
            }
          : {}),
      }));
      kit.seen('SendLocalList', params);
      const answer = applyLocalList(this, kit, {
        version: versionNumber,
        full: updateType === 'Full',
        entries,
      });
      // 2.0.1 has no Rejected here: a refusal is Failed.
      return answer !== NO_REPLY && answer.status === 'Rejected' ? { status: 'Failed' } : answer;
    });

    on('GetLocalListVersion', (params) => {
      const gate = this.gate('GetLocalListVersion', params);
      if (gate === NO_REPLY) return NO_REPLY;
      return { versionNumber: gate === 'reject' ? 0 : this.localListVersion };
    });

    on('ReserveNow', (params) => {
      this.seen('ReserveNow', params);
      const { id, expiryDateTime, idToken, evseId, groupIdToken } = params as {
        id: number;
        expiryDateTime: string;
        idToken: IdToken;
        evseId?: number;
        groupIdToken?: IdToken;
      };
      return reserveNow(this, kit, {
        // No EVSE: a reservation of the station, which this one does not take (NonEvseSpecific false).
        connectorId: evseId ?? 0,
        expiresAt: new Date(expiryDateTime).getTime(),
        idTag: idToken.idToken,
        reservationId: id,
        ...(groupIdToken ? { parentIdTag: groupIdToken.idToken } : {}),
      });
    });

    on('CancelReservation', (params) => {
      this.seen('CancelReservation', params);
      return cancelReservation(this, kit, (params as { reservationId: number }).reservationId);
    });

    on('UpdateFirmware', (params) => {
      if (this.behaviour() === 'reject' && this.spec.firmwareManagement !== false) {
        this.seen('UpdateFirmware', params);
        return { status: 'Rejected' };
      }
      if (this.fileCommand('UpdateFirmware', params) === NO_REPLY) return NO_REPLY;
      const { requestId, retries, retryInterval, firmware } = params as {
        requestId: number;
        retries?: number;
        retryInterval?: number;
        firmware: { location: string; retrieveDateTime: string };
      };
      const how = this.transfer();
      const job = {
        location: firmware.location,
        retrieveDate: firmware.retrieveDateTime,
        requestId,
        ...(retries === undefined ? {} : { retries }),
        ...(retryInterval === undefined ? {} : { retryInterval }),
      };
      setTimeout(() => void this.updateFirmware(job, how).catch(() => undefined), 10);
      return { status: 'Accepted' };
    });

    on('GetLog', (params) => {
      if (this.behaviour() === 'reject' && this.spec.firmwareManagement !== false) {
        this.seen('GetLog', params);
        return { status: 'Rejected' };
      }
      if (this.fileCommand('GetLog', params) === NO_REPLY) return NO_REPLY;
      const { requestId, retries, retryInterval, log } = params as {
        requestId: number;
        retries?: number;
        retryInterval?: number;
        log: { remoteLocation: string; oldestTimestamp?: string; latestTimestamp?: string };
      };
      const how = this.transfer();
      // Nothing to upload: 2.0.1 has no "no file" answer, the request is refused.
      if (how === 'no-diagnostics') return { status: 'Rejected', statusInfo: { reasonCode: 'NoLogs' } };
      const filename = this.diagnosticsFileName();
      const job = {
        location: log.remoteLocation,
        requestId,
        ...(retries === undefined ? {} : { retries }),
        ...(retryInterval === undefined ? {} : { retryInterval }),
        ...(log.oldestTimestamp ? { startTime: log.oldestTimestamp } : {}),
        ...(log.latestTimestamp ? { stopTime: log.latestTimestamp } : {}),
      };
      setTimeout(() => void this.uploadDiagnostics(job, filename, how).catch(() => undefined), 10);
      return { status: 'Accepted', filename };
    });

    on('SetChargingProfile', (params) => {
      this.seen('SetChargingProfile', params);
      const { evseId, chargingProfile } = params as { evseId: number; chargingProfile: ChargingProfile201 };
      return this.setChargingProfile(profileOf201(evseId, chargingProfile, this.clock.now()));
    });

    on('ClearChargingProfile', (params) => {
      this.seen('ClearChargingProfile', params);
      const { chargingProfileId, chargingProfileCriteria: criteria } = params as {
        chargingProfileId?: number;
        chargingProfileCriteria?: { evseId?: number; chargingProfilePurpose?: string; stackLevel?: number };
      };
      const purpose = criteria?.chargingProfilePurpose;
      return this.clearChargingProfile({
        id: chargingProfileId,
        connectorId: criteria?.evseId,
        purpose: purpose === undefined ? undefined : (PURPOSE_16[purpose] ?? purpose),
        stackLevel: criteria?.stackLevel,
      });
    });

    on('DataTransfer', (params) => {
      this.seen('DataTransfer', params);
      const { messageId } = params as { messageId?: string };
      if (messageId !== 'OpenBlocker' && messageId !== 'CloseBlocker')
        return this.answerOr({ status: 'UnknownMessageId' });
      return this.answerOr({ status: 'Accepted' });
    });
  }

  /** GetBaseReport's NotifyReport, in parts of DeviceDataCtrlr.ItemsPerMessage[GetReport], seqNo 0… tbc to the last. */
  private async notifyReport(requestId: number, data: Array<Record<string, unknown>>): Promise<void> {
    const per = Number(this.model.value('DeviceDataCtrlr', 'ItemsPerMessage', 'GetReport') ?? 10);
    const generatedAt = this.timestamp();
    for (let seqNo = 0; seqNo * per < data.length; seqNo++) {
      const reportData = data.slice(seqNo * per, (seqNo + 1) * per);
      await this.call('NotifyReport', {
        requestId,
        generatedAt,
        seqNo,
        tbc: (seqNo + 1) * per < data.length,
        reportData,
      });
    }
  }

  /** The message TriggerMessage asked for. */
  private async sendTriggered(message: string, evses: number[]): Promise<void> {
    const client = this.client;
    if (!client) return;
    switch (message) {
      case 'BootNotification':
        await client.call('BootNotification', { ...this.bootPayload(), reason: 'Triggered' });
        break;
      case 'Heartbeat':
        await client.call('Heartbeat', {});
        break;
      case 'StatusNotification':
        for (const n of evses) await this.reportStatus(n, 'NoError', true);
        break;
      case 'MeterValues':
        // The register as it stands (no energy counted for it).
        for (const n of evses) {
          await client.call('MeterValues', {
            evseId: n,
            meterValue: [
              { timestamp: this.timestamp(), sampledValue: [register(this.meterOf(n), 'Trigger')] },
            ],
          });
        }
        break;
      case 'TransactionEvent':
        for (const n of evses) {
          if (this.connectorStates[n - 1]!.transactionId === null) continue;
          await this.transactionEvent(n, 'Updated', 'Trigger', {
            sampledValue: [register(this.meterOf(n), 'Trigger')],
          });
        }
        break;
      case 'FirmwareStatusNotification':
        await client.call('FirmwareStatusNotification', { status: 'Idle' });
        break;
      case 'LogStatusNotification':
        await client.call('LogStatusNotification', { status: 'Idle' });
        break;
    }
  }
}
