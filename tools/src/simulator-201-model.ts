/**
 * The OCPP 2.0.1 device model of a simulated charger: a small set of the standard components and variables
 * (OCPP 2.0.1 part 2, appendix 3), enough for GetVariables / SetVariables and GetBaseReport's NotifyReport, and
 * for the back office's 1.6 keys that have a 2.0.1 counterpart (HeartbeatInterval is OCPPCommCtrlr's,
 * MeterValueSampleInterval is SampledDataCtrlr.TxUpdatedInterval, StopTransactionOnInvalidId is
 * TxCtrlr.StopTxOnInvalidId …). Only the Actual attribute is kept; any other is NotSupportedAttributeType.
 */

import { MAX_PERIODS, MAX_STACK_LEVEL } from './simulator-profiles.ts';

type Mutability = 'ReadOnly' | 'ReadWrite' | 'WriteOnly';
type DataType = 'string' | 'integer' | 'decimal' | 'boolean' | 'OptionList' | 'MemberList' | 'SequenceList';

export interface ModelVariable {
  component: string;
  /** The EVSE of an EVSE's or connector's component. */
  evse?: { id: number; connectorId?: number };
  variable: string;
  /** The variable's instance (OCPPCommCtrlr.MessageAttempts has one per message kind). */
  instance?: string;
  mutability: Mutability;
  dataType: DataType;
  /** Its value now (a function: read from the charger's state each time). */
  value: string | (() => string);
  unit?: string;
  valuesList?: string;
  maxLimit?: number;
  /** SetVariables answers RebootRequired: the new value counts from the next boot. */
  rebootRequired?: boolean;
}

interface Named {
  name: string;
  instance?: string;
  evse?: { id: number; connectorId?: number };
}

export interface VariableRef {
  component: Named;
  variable: { name: string; instance?: string };
  attributeType?: string;
}

const MEASURANDS = 'Energy.Active.Import.Register,SoC,Power.Active.Import,Current.Import,Voltage';

/** The variables a charger of these EVSEs has, with the live values `live` reads. */
export function standardVariables(
  evses: number,
  live: {
    identity: string;
    availability(evseId?: number): string;
    powerW(evseId: number): number;
    maxPowerW(evseId: number): number;
    localListEntries(): number;
    /** Charging profiles installed now. */
    chargingProfiles(): number;
    connectorType: string;
  },
): ModelVariable[] {
  const rw = (
    component: string,
    variable: string,
    value: string,
    dataType: DataType,
    more: Partial<ModelVariable> = {},
  ): ModelVariable => ({ component, variable, value, dataType, mutability: 'ReadWrite', ...more });
  const ro = (
    component: string,
    variable: string,
    value: ModelVariable['value'],
    dataType: DataType,
    more: Partial<ModelVariable> = {},
  ): ModelVariable => ({ component, variable, value, dataType, mutability: 'ReadOnly', ...more });
  const seconds = { unit: 's' };
  const variables: ModelVariable[] = [
    ro('ChargingStation', 'AvailabilityState', () => live.availability(), 'OptionList', {
      valuesList: 'Available,Occupied,Reserved,Unavailable,Faulted',
    }),
    rw('OCPPCommCtrlr', 'HeartbeatInterval', '60', 'integer', seconds),
    rw('OCPPCommCtrlr', 'WebSocketPingInterval', '30', 'integer', seconds),
    rw('OCPPCommCtrlr', 'ResetRetries', '1', 'integer'),
    rw('OCPPCommCtrlr', 'MessageAttempts', '3', 'integer', { instance: 'TransactionEvent' }),
    rw('OCPPCommCtrlr', 'MessageAttemptInterval', '60', 'integer', {
      instance: 'TransactionEvent',
      ...seconds,
    }),
    ro('OCPPCommCtrlr', 'MessageTimeout', '30', 'integer', { instance: 'Default', ...seconds }),
    rw('OCPPCommCtrlr', 'OfflineThreshold', '60', 'integer', seconds),
    rw('OCPPCommCtrlr', 'UnlockOnEVSideDisconnect', 'true', 'boolean'),
    rw('SampledDataCtrlr', 'Enabled', 'true', 'boolean'),
    rw('SampledDataCtrlr', 'TxUpdatedInterval', '20', 'integer', seconds),
    rw(
      'SampledDataCtrlr',
      'TxUpdatedMeasurands',
      'Energy.Active.Import.Register,SoC,Power.Active.Import',
      'MemberList',
      {
        valuesList: MEASURANDS,
      },
    ),
    rw('SampledDataCtrlr', 'TxStartedMeasurands', 'Energy.Active.Import.Register', 'MemberList', {
      valuesList: MEASURANDS,
    }),
    rw('SampledDataCtrlr', 'TxEndedMeasurands', 'Energy.Active.Import.Register', 'MemberList', {
      valuesList: MEASURANDS,
    }),
    rw('SampledDataCtrlr', 'TxEndedInterval', '0', 'integer', seconds),
    rw('AlignedDataCtrlr', 'Enabled', 'false', 'boolean'),
    rw('AlignedDataCtrlr', 'Interval', '0', 'integer', seconds),
    rw('AlignedDataCtrlr', 'Measurands', '', 'MemberList', { valuesList: MEASURANDS }),
    rw('AlignedDataCtrlr', 'TxEndedMeasurands', '', 'MemberList', { valuesList: MEASURANDS }),
    rw('AuthCtrlr', 'Enabled', 'true', 'boolean'),
    rw('AuthCtrlr', 'AuthorizeRemoteStart', 'false', 'boolean'),
    rw('AuthCtrlr', 'LocalAuthorizeOffline', 'true', 'boolean'),
    rw('AuthCtrlr', 'LocalPreAuthorize', 'false', 'boolean'),
    rw('AuthCtrlr', 'OfflineTxForUnknownIdEnabled', 'false', 'boolean'),
    rw('AuthCacheCtrlr', 'Enabled', 'true', 'boolean'),
    rw('LocalAuthListCtrlr', 'Enabled', 'true', 'boolean'),
    ro('LocalAuthListCtrlr', 'Entries', () => String(live.localListEntries()), 'integer'),
    ro('LocalAuthListCtrlr', 'ItemsPerMessage', '100', 'integer'),
    ro('LocalAuthListCtrlr', 'BytesPerMessage', '65536', 'integer'),
    rw('TxCtrlr', 'EVConnectionTimeOut', '60', 'integer', seconds),
    rw('TxCtrlr', 'StopTxOnInvalidId', 'true', 'boolean'),
    rw('TxCtrlr', 'StopTxOnEVSideDisconnect', 'true', 'boolean'),
    rw('TxCtrlr', 'MaxEnergyOnInvalidId', '0', 'integer', { unit: 'Wh' }),
    // When a transaction starts and ends: here at the power path (as 1.6's StartTransaction / StopTransaction).
    ro('TxCtrlr', 'TxStartPoint', 'PowerPathClosed', 'MemberList', {
      valuesList: 'ParkingBayOccupancy,EVConnected,Authorized,DataSigned,PowerPathClosed,EnergyTransfer',
    }),
    ro('TxCtrlr', 'TxStopPoint', 'PowerPathClosed', 'MemberList', {
      valuesList: 'ParkingBayOccupancy,EVConnected,Authorized,DataSigned,PowerPathClosed,EnergyTransfer',
    }),
    ro('ReservationCtrlr', 'Enabled', 'true', 'boolean'),
    ro('ReservationCtrlr', 'NonEvseSpecific', 'false', 'boolean'),
    rw('SmartChargingCtrlr', 'Enabled', 'true', 'boolean'),
    ro('SmartChargingCtrlr', 'ProfileStackLevel', String(MAX_STACK_LEVEL), 'integer'),
    ro('SmartChargingCtrlr', 'RateUnit', 'A,W', 'MemberList', { valuesList: 'A,W' }),
    ro('SmartChargingCtrlr', 'PeriodsPerSchedule', String(MAX_PERIODS), 'integer'),
    ro('SmartChargingCtrlr', 'Entries', () => String(live.chargingProfiles()), 'integer', {
      instance: 'ChargingProfiles',
    }),
    ro('SecurityCtrlr', 'Identity', live.identity, 'string'),
    ro('SecurityCtrlr', 'SecurityProfile', '1', 'integer'),
    {
      ...rw('SecurityCtrlr', 'BasicAuthPassword', '', 'string'),
      mutability: 'WriteOnly',
      rebootRequired: true,
    },
    ro('DeviceDataCtrlr', 'ItemsPerMessage', '10', 'integer', { instance: 'GetReport' }),
    ro('DeviceDataCtrlr', 'ItemsPerMessage', '20', 'integer', { instance: 'GetVariables' }),
    ro('DeviceDataCtrlr', 'ItemsPerMessage', '20', 'integer', { instance: 'SetVariables' }),
  ];
  for (let id = 1; id <= evses; id++) {
    variables.push(
      ro('EVSE', 'AvailabilityState', () => live.availability(id), 'OptionList', {
        evse: { id },
        valuesList: 'Available,Occupied,Reserved,Unavailable,Faulted',
      }),
      ro('EVSE', 'Power', () => String(Math.round(live.powerW(id))), 'decimal', {
        evse: { id },
        unit: 'W',
        maxLimit: live.maxPowerW(id),
      }),
      ro('Connector', 'ConnectorType', live.connectorType, 'string', { evse: { id, connectorId: 1 } }),
    );
  }
  return variables;
}

const sameEvse = (a?: { id: number; connectorId?: number }, b?: { id: number; connectorId?: number }) =>
  (a?.id ?? 0) === (b?.id ?? 0) && (a?.connectorId ?? 0) === (b?.connectorId ?? 0);

/** A charger's variables, read, written and reported as OCPP 2.0.1 asks. */
export class DeviceModel {
  constructor(readonly variables: ModelVariable[]) {}

  private find(ref: VariableRef): ModelVariable | 'UnknownComponent' | 'UnknownVariable' {
    const ofComponent = this.variables.filter(
      (v) =>
        v.component === ref.component.name && !ref.component.instance && sameEvse(v.evse, ref.component.evse),
    );
    if (ofComponent.length === 0) return 'UnknownComponent';
    return (
      ofComponent.find(
        (v) => v.variable === ref.variable.name && (v.instance ?? '') === (ref.variable.instance ?? ''),
      ) ?? 'UnknownVariable'
    );
  }

  /** A variable's value by name (the charger's own reads), or undefined. */
  value(component: string, variable: string, instance?: string): string | undefined {
    const found = this.find({ component: { name: component }, variable: { name: variable, instance } });
    if (typeof found === 'string') return undefined;
    return typeof found.value === 'function' ? found.value() : found.value;
  }

  /** Sets a variable the charger itself changes (the boot's heartbeat interval). */
  put(component: string, variable: string, value: string): void {
    const found = this.find({ component: { name: component }, variable: { name: variable } });
    if (typeof found !== 'string') found.value = value;
  }

  /** GetVariables' results, in the order asked. */
  get(data: VariableRef[]): Array<Record<string, unknown>> {
    return data.map((ref) => {
      const echo = { component: ref.component, variable: ref.variable };
      const type = ref.attributeType ?? 'Actual';
      const found = this.find(ref);
      if (typeof found === 'string') return { attributeStatus: found, ...echo };
      if (type !== 'Actual')
        return { attributeStatus: 'NotSupportedAttributeType', attributeType: type, ...echo };
      if (found.mutability === 'WriteOnly')
        return { attributeStatus: 'Rejected', attributeType: type, ...echo };
      const value = typeof found.value === 'function' ? found.value() : found.value;
      return { attributeStatus: 'Accepted', attributeType: type, attributeValue: value, ...echo };
    });
  }

  /** SetVariables' results: a read-only variable or a value of the wrong type is Rejected. */
  set(data: Array<VariableRef & { attributeValue: string }>): Array<Record<string, unknown>> {
    return data.map((ref) => {
      const echo = { component: ref.component, variable: ref.variable };
      const type = ref.attributeType ?? 'Actual';
      const found = this.find(ref);
      if (typeof found === 'string') return { attributeStatus: found, attributeType: type, ...echo };
      if (type !== 'Actual')
        return { attributeStatus: 'NotSupportedAttributeType', attributeType: type, ...echo };
      if (found.mutability === 'ReadOnly' || !fits(found, ref.attributeValue)) {
        return { attributeStatus: 'Rejected', attributeType: type, ...echo };
      }
      found.value = ref.attributeValue;
      return {
        attributeStatus: found.rebootRequired ? 'RebootRequired' : 'Accepted',
        attributeType: type,
        ...echo,
      };
    });
  }

  /** NotifyReport's reportData for GetBaseReport's base (empty: EmptyResultSet). */
  report(base: string): Array<Record<string, unknown>> {
    const chosen = this.variables.filter((v) =>
      base === 'FullInventory'
        ? true
        : base === 'ConfigurationInventory'
          ? v.mutability !== 'ReadOnly'
          : v.variable === 'AvailabilityState',
    );
    return chosen.map((v) => {
      const value = typeof v.value === 'function' ? v.value() : v.value;
      return {
        component: { name: v.component, ...(v.evse ? { evse: v.evse } : {}) },
        variable: { name: v.variable, ...(v.instance ? { instance: v.instance } : {}) },
        variableAttribute: [
          { type: 'Actual', mutability: v.mutability, ...(v.mutability === 'WriteOnly' ? {} : { value }) },
        ],
        variableCharacteristics: {
          dataType: v.dataType,
          supportsMonitoring: false,
          ...(v.unit ? { unit: v.unit } : {}),
          ...(v.valuesList ? { valuesList: v.valuesList } : {}),
          ...(v.maxLimit !== undefined ? { maxLimit: v.maxLimit } : {}),
        },
      };
    });
  }

  /** Every readable variable as `Component[.evse].Variable[.instance]=value` (the diagnostics log). */
  entries(): Array<[string, string]> {
    return this.variables
      .filter((v) => v.mutability !== 'WriteOnly')
      .map((v) => [
        `${v.component}${v.evse ? `.${v.evse.id}` : ''}.${v.variable}${v.instance ? `.${v.instance}` : ''}`,
        typeof v.value === 'function' ? v.value() : v.value,
      ]);
  }
}

/** Whether a value suits the variable's data type (and its list, for an option or member list). */
function fits(variable: ModelVariable, value: string): boolean {
  switch (variable.dataType) {
    case 'integer':
      return /^-?\d{1,9}$/.test(value) && Number(value) >= 0;
    case 'decimal':
      return value.trim() !== '' && Number.isFinite(Number(value));
    case 'boolean':
      return value === 'true' || value === 'false';
    case 'OptionList':
      return (variable.valuesList ?? '').split(',').includes(value);
    case 'MemberList':
    case 'SequenceList': {
      const allowed = new Set((variable.valuesList ?? '').split(','));
      return value === '' || value.split(',').every((member) => allowed.has(member));
    }
    default:
      return value.length <= 2500;
  }
}
