/**
 * An OCPP 2.0.1 charger's configuration is its device model: variables of components (issue 33). Callers
 * ask in 1.6's words, ChangeConfiguration and GetConfiguration of a key; here a standard 1.6 key becomes its
 * component and variable (docs/ocpp.md, the mapping table), a key written `Component.Variable` names one
 * directly, and a 1.6 key 2.0.1 has no counterpart of is answered NotSupported naming it, never sent.
 */
import { and, eq, inArray } from 'drizzle-orm';
import type { Db } from '../../../db/client.ts';
import { chargerVariables } from '../../../db/schema/index.ts';
import type { Translations } from './types.ts';
import { same } from './types.ts';

export const ATTRIBUTE_TYPES = ['Actual', 'Target', 'MinSet', 'MaxSet'] as const;
export type AttributeType = (typeof ATTRIBUTE_TYPES)[number];

/** One variable attribute of the device model. */
export interface VariableRef {
  component: string;
  componentInstance?: string;
  evseId?: number;
  evseConnectorId?: number;
  variable: string;
  variableInstance?: string;
  attributeType?: AttributeType;
}

/** The standard OCPP 1.6 keys and their 2.0.1 variables (OCPP 2.0.1 part 2, appendix 3). */
export const KEY_MAP: Readonly<Record<string, VariableRef>> = {
  HeartbeatInterval: { component: 'OCPPCommCtrlr', variable: 'HeartbeatInterval' },
  MeterValueSampleInterval: { component: 'SampledDataCtrlr', variable: 'TxUpdatedInterval' },
  ClockAlignedDataInterval: { component: 'AlignedDataCtrlr', variable: 'Interval' },
  ConnectionTimeOut: { component: 'TxCtrlr', variable: 'EVConnectionTimeOut' },
  LocalAuthorizeOffline: { component: 'AuthCtrlr', variable: 'LocalAuthorizeOffline' },
  LocalPreAuthorize: { component: 'AuthCtrlr', variable: 'LocalPreAuthorize' },
  AuthorizeRemoteTxRequests: { component: 'AuthCtrlr', variable: 'AuthorizeRemoteStart' },
  AllowOfflineTxForUnknownId: { component: 'AuthCtrlr', variable: 'OfflineTxForUnknownIdEnabled' },
  AuthorizationCacheEnabled: { component: 'AuthCacheCtrlr', variable: 'Enabled' },
  StopTransactionOnEVSideDisconnect: { component: 'TxCtrlr', variable: 'StopTxOnEVSideDisconnect' },
  StopTransactionOnInvalidId: { component: 'TxCtrlr', variable: 'StopTxOnInvalidId' },
  MaxEnergyOnInvalidId: { component: 'TxCtrlr', variable: 'MaxEnergyOnInvalidId' },
  MeterValuesSampledData: { component: 'SampledDataCtrlr', variable: 'TxUpdatedMeasurands' },
  StopTxnSampledData: { component: 'SampledDataCtrlr', variable: 'TxEndedMeasurands' },
  MeterValuesAlignedData: { component: 'AlignedDataCtrlr', variable: 'Measurands' },
  StopTxnAlignedData: { component: 'AlignedDataCtrlr', variable: 'TxEndedMeasurands' },
  LocalAuthListEnabled: { component: 'LocalAuthListCtrlr', variable: 'Enabled' },
  SendLocalListMaxLength: { component: 'LocalAuthListCtrlr', variable: 'ItemsPerMessage' },
  TransactionMessageAttempts: {
    component: 'OCPPCommCtrlr',
    variable: 'MessageAttempts',
    variableInstance: 'TransactionEvent',
  },
  TransactionMessageRetryInterval: {
    component: 'OCPPCommCtrlr',
    variable: 'MessageAttemptInterval',
    variableInstance: 'TransactionEvent',
  },
  WebSocketPingInterval: { component: 'OCPPCommCtrlr', variable: 'WebSocketPingInterval' },
  ResetRetries: { component: 'OCPPCommCtrlr', variable: 'ResetRetries' },
  UnlockConnectorOnEVSideDisconnect: { component: 'OCPPCommCtrlr', variable: 'UnlockOnEVSideDisconnect' },
  ChargeProfileMaxStackLevel: { component: 'SmartChargingCtrlr', variable: 'ProfileStackLevel' },
};

/**
 * Standard 1.6 keys with no 2.0.1 counterpart (named in docs/ocpp.md): BlinkRepeat, LightIntensity and
 * MinimumStatusDuration were dropped; NumberOfConnectors and SupportedFeatureProfiles are the device model
 * itself; LocalAuthListMaxLength is LocalAuthListCtrlr.Entries' maxLimit, a characteristic GetVariables does
 * not give; AuthorizationKey is a security profile's password, never sent from here.
 */
/** A component's or variable's name (identifierString, at most 50 characters). */
const NAME = '([A-Za-z0-9_*+|=-]{1,50})';
const INSTANCE = '\\[([^\\]]{1,50})\\]';
/** `Component[instance]@evse:connector.Variable[instance]#AttributeType`, everything but the names optional. */
const REF = new RegExp(
  `^${NAME}(?:${INSTANCE})?(?:@(\\d{1,9})(?::(\\d{1,9}))?)?\\.${NAME}(?:${INSTANCE})?(?:#(${ATTRIBUTE_TYPES.join('|')}))?$`,
);

/** The variable a key names: a standard 1.6 key, or `Component.Variable` written out; null for neither. */
export function variableOf(key: string): VariableRef | null {
  const mapped = KEY_MAP[key];
  if (mapped) return mapped;
  const match = REF.exec(key);
  if (!match) return null;
  const [, component, componentInstance, evse, connector, variable, variableInstance, attributeType] = match;
  return {
    component: component!,
    ...(componentInstance ? { componentInstance } : {}),
    ...(evse ? { evseId: Number(evse) } : {}),
    ...(connector ? { evseConnectorId: Number(connector) } : {}),
    variable: variable!,
    ...(variableInstance ? { variableInstance } : {}),
    ...(attributeType ? { attributeType: attributeType as AttributeType } : {}),
  };
}

/** The key a variable attribute is stored and named under (charger_variables.key); the inverse of variableOf. */
export function variableKey(ref: VariableRef): string {
  let key = ref.component;
  if (ref.componentInstance) key += `[${ref.componentInstance}]`;
  if (ref.evseId !== undefined) key += `@${ref.evseId}`;
  if (ref.evseId !== undefined && ref.evseConnectorId !== undefined) key += `:${ref.evseConnectorId}`;
  key += `.${ref.variable}`;
  if (ref.variableInstance) key += `[${ref.variableInstance}]`;
  if (ref.attributeType && ref.attributeType !== 'Actual') key += `#${ref.attributeType}`;
  return key;
}

/** ComponentType and VariableType of a frame. */
export const componentOf = (ref: VariableRef) => ({
  name: ref.component,
  ...(ref.componentInstance ? { instance: ref.componentInstance } : {}),
  ...(ref.evseId !== undefined
    ? {
        evse: {
          id: ref.evseId,
          ...(ref.evseConnectorId !== undefined ? { connectorId: ref.evseConnectorId } : {}),
        },
      }
    : {}),
});
export const variableTypeOf = (ref: VariableRef) => ({
  name: ref.variable,
  ...(ref.variableInstance ? { instance: ref.variableInstance } : {}),
});

interface ResultIdentity {
  component: { name: string; instance?: string; evse?: { id: number; connectorId?: number } };
  variable: { name: string; instance?: string };
  attributeType?: string;
}

/** The key of a frame's component and variable (a result, a report entry). */
export const keyOfFrame = (entry: ResultIdentity, attributeType = entry.attributeType) =>
  variableKey({
    component: entry.component.name,
    componentInstance: entry.component.instance,
    evseId: entry.component.evse?.id,
    evseConnectorId: entry.component.evse?.connectorId,
    variable: entry.variable.name,
    variableInstance: entry.variable.instance,
    attributeType: (attributeType ?? 'Actual') as AttributeType,
  });

/** SetVariables' attributeStatus in ChangeConfiguration's words (Accepted, Rejected, RebootRequired, NotSupported). */
const CHANGE_STATUS: Record<string, string> = {
  Accepted: 'Accepted',
  Rejected: 'Rejected',
  RebootRequired: 'RebootRequired',
  UnknownComponent: 'NotSupported',
  UnknownVariable: 'NotSupported',
  NotSupportedAttributeType: 'NotSupported',
};

/** The reason a 1.6 key is not sent to a 2.0.1 charger. */
export const unmappedKey = (key: string) =>
  `NotSupported: OCPP 2.0.1 has no counterpart of the key ${key} (name a variable as Component.Variable)`;

async function storedMutability(db: Db, chargerId: string, keys: string[]): Promise<Map<string, string>> {
  if (keys.length === 0) return new Map();
  const rows = await db
    .select({ key: chargerVariables.key, mutability: chargerVariables.mutability })
    .from(chargerVariables)
    .where(and(eq(chargerVariables.chargerId, chargerId), inArray(chargerVariables.key, keys)));
  return new Map(rows.map((row) => [row.key, row.mutability ?? '']));
}

export const DEVICE_MODEL_TRANSLATIONS: Translations = {
  ChangeConfiguration: (db, chargerId, { key, value }) => {
    const ref = variableOf(String(key));
    if (!ref) return { unsupported: unmappedKey(String(key)) };
    return {
      action: 'SetVariables',
      params: {
        setVariableData: [
          {
            ...(ref.attributeType ? { attributeType: ref.attributeType } : {}),
            attributeValue: String(value),
            component: componentOf(ref),
            variable: variableTypeOf(ref),
          },
        ],
      },
      answer: async (response) => {
        const [result] = (response.setVariableResult ?? []) as Array<{ attributeStatus: string }>;
        const word = String(result?.attributeStatus ?? 'Rejected');
        const status = CHANGE_STATUS[word] ?? 'Rejected';
        if (word === 'Accepted') {
          // The stored device model follows a change the charger took (RebootRequired: not yet in force).
          await db
            .update(chargerVariables)
            .set({ value: String(value) })
            .where(
              and(eq(chargerVariables.chargerId, chargerId), eq(chargerVariables.key, variableKey(ref))),
            );
        }
        return word === status ? { status } : { status, detail: word };
      },
    };
  },
  GetConfiguration: (db, chargerId, params) => {
    const keys = Array.isArray(params.key) ? (params.key as string[]) : Object.keys(KEY_MAP);
    const asked = keys.flatMap((key) => {
      const ref = variableOf(key);
      return ref ? [{ key, ref, frameKey: variableKey(ref) }] : [];
    });
    const unknown = keys.filter((key) => !variableOf(key));
    if (asked.length === 0) return { local: { configurationKey: [], unknownKey: unknown } };
    return {
      action: 'GetVariables',
      params: {
        getVariableData: asked.map(({ ref }) => ({
          ...(ref.attributeType ? { attributeType: ref.attributeType } : {}),
          component: componentOf(ref),
          variable: variableTypeOf(ref),
        })),
      },
      answer: async (response) => {
        const results = new Map(
          ((response.getVariableResult ?? []) as Array<ResultIdentity & Record<string, unknown>>).map(
            (result) => [keyOfFrame(result), result],
          ),
        );
        const mutability = await storedMutability(
          db,
          chargerId,
          asked.map((entry) => entry.frameKey),
        );
        const configurationKey: Array<{ key: string; readonly: boolean; value?: string }> = [];
        const unknownKey = [...unknown];
        for (const { key, frameKey } of asked) {
          const result = results.get(frameKey);
          if (result?.attributeStatus !== 'Accepted') {
            unknownKey.push(key);
            continue;
          }
          configurationKey.push({
            key,
            readonly: mutability.get(frameKey) === 'ReadOnly',
            ...(typeof result.attributeValue === 'string' ? { value: result.attributeValue } : {}),
          });
        }
        return { configurationKey, unknownKey };
      },
    };
  },
  GetBaseReport: (_db, _id, { requestId, reportBase }) => ({
    action: 'GetBaseReport',
    params: { requestId, reportBase },
    answer: same,
  }),
};
