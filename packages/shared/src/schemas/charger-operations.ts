import { z } from 'zod';

/**
 * Operations on one charger (issue 32): our own API, the spec is silent. `connectorId` is the OCPP connector
 * number (1, 2, …; 0 = the charger as a whole where OCPP allows it). A command answers `{ status }` with the
 * charger's own status word (docs/decisions.md, Charger operations).
 */

const OCPP_CONNECTOR_MAX = 2_147_483_647;

export const OPERATION_MESSAGES = {
  connectorId: 'connectorId must be a whole number of 1 or more.',
  connectorIdOrZero: 'connectorId must be a whole number: 0 for the whole charger, or a connector number.',
  resetType: "type must be 'Soft' or 'Hard'.",
  availabilityType: "type must be 'Operative' or 'Inoperative'.",
  requestedMessage: 'requestedMessage must be one of the OCPP 1.6 trigger messages.',
  key: 'key is required, at most 120 characters (50 for an OCPP 1.6 charger).',
  value: 'value must be at most 500 characters.',
} as const;

const connectorNumber = z
  .number({ error: OPERATION_MESSAGES.connectorId })
  .int({ error: OPERATION_MESSAGES.connectorId })
  .min(1, { error: OPERATION_MESSAGES.connectorId })
  .max(OCPP_CONNECTOR_MAX, { error: OPERATION_MESSAGES.connectorId });

export const RESET_TYPES = ['Soft', 'Hard'] as const;
export type ResetType = (typeof RESET_TYPES)[number];
export const AVAILABILITY_TYPES = ['Operative', 'Inoperative'] as const;
export type AvailabilityType = (typeof AVAILABILITY_TYPES)[number];
/** OCPP 1.6 TriggerMessage's requestedMessage values. */
export const TRIGGER_MESSAGES = [
  'BootNotification',
  'DiagnosticsStatusNotification',
  'FirmwareStatusNotification',
  'Heartbeat',
  'MeterValues',
  'StatusNotification',
] as const;
export type TriggerMessage = (typeof TRIGGER_MESSAGES)[number];

export const unlockBody = z.strictObject({ connectorId: connectorNumber });
export type UnlockBody = z.infer<typeof unlockBody>;

export const resetBody = z.strictObject({
  type: z.enum(RESET_TYPES, { error: OPERATION_MESSAGES.resetType }),
});
export type ResetBody = z.infer<typeof resetBody>;

export const availabilityBody = z.strictObject({
  connectorId: z
    .number({ error: OPERATION_MESSAGES.connectorIdOrZero })
    .int({ error: OPERATION_MESSAGES.connectorIdOrZero })
    .min(0, { error: OPERATION_MESSAGES.connectorIdOrZero })
    .max(OCPP_CONNECTOR_MAX, { error: OPERATION_MESSAGES.connectorIdOrZero }),
  type: z.enum(AVAILABILITY_TYPES, { error: OPERATION_MESSAGES.availabilityType }),
});
export type AvailabilityBody = z.infer<typeof availabilityBody>;

export const triggerBody = z.strictObject({
  requestedMessage: z.enum(TRIGGER_MESSAGES, { error: OPERATION_MESSAGES.requestedMessage }),
  connectorId: connectorNumber.optional(),
});
export type TriggerBody = z.infer<typeof triggerBody>;

/** The longest key: a 2.0.1 variable written out; a 1.6 key (CiString50) at most OCPP16_KEY_MAX. */
export const CONFIGURATION_KEY_MAX = 120;
export const OCPP16_KEY_MAX = 50;

/**
 * ChangeConfiguration of one key. On an OCPP 2.0.1 charger (SetVariables) the key is a standard 1.6 key
 * (mapped onto its component and variable, docs/ocpp.md) or a variable written
 * `Component[instance]@evse:connector.Variable[instance]#AttributeType` (all but the two names optional).
 */
export const configurationChangeBody = z.strictObject({
  key: z
    .string({ error: OPERATION_MESSAGES.key })
    .trim()
    .min(1, { error: OPERATION_MESSAGES.key })
    // A 2.0.1 variable written out (Component[instance]@evse.Variable[instance]) is longer than 1.6's keys.
    .max(CONFIGURATION_KEY_MAX, { error: OPERATION_MESSAGES.key }),
  value: z.string({ error: OPERATION_MESSAGES.value }).max(500, { error: OPERATION_MESSAGES.value }),
});
export type ConfigurationChangeBody = z.infer<typeof configurationChangeBody>;

/**
 * A command's answer: the charger's own status word (Accepted, Rejected, Unlocked, Scheduled, NotSupported, …);
 * `detail` where there is more to say: the 2.0.1 charger's own word behind a 1.6 one (UnknownVariable behind
 * NotSupported), or why a command was not sent (a 1.6 key with no 2.0.1 counterpart).
 */
export const operationResponse = z.object({ status: z.string(), detail: z.string().optional() });
export type OperationResponse = z.infer<typeof operationResponse>;

/** One variable attribute of an OCPP 2.0.1 charger's device model, as its last report gave it. */
export const deviceVariable = z.object({
  /** How to name it in a change: `Component[instance]@evse:connector.Variable[instance]#AttributeType`. */
  key: z.string(),
  component: z.string(),
  componentInstance: z.string().nullable(),
  evseId: z.number().int().nullable(),
  evseConnectorId: z.number().int().nullable(),
  variable: z.string(),
  variableInstance: z.string().nullable(),
  attributeType: z.string(),
  value: z.string().nullable(),
  /** ReadOnly, WriteOnly, ReadWrite. */
  mutability: z.string().nullable(),
  dataType: z.string().nullable(),
  unit: z.string().nullable(),
});
export type DeviceVariable = z.infer<typeof deviceVariable>;

/**
 * A charger's configuration. OCPP 1.6: GetConfiguration as the charger answered it, its keys (read-only or
 * not, value if it gave one) and the unknown. OCPP 2.0.1: the device model of its last report (`variables`,
 * received at `reportedAt`, null before any: ask for one with POST configuration/report).
 */
export const configurationResponse = z.object({
  protocol: z.enum(['ocpp1.6', 'ocpp2.0.1']),
  configurationKey: z.array(
    z.object({ key: z.string(), readonly: z.boolean(), value: z.string().nullable() }),
  ),
  unknownKey: z.array(z.string()),
  variables: z.array(deviceVariable).optional(),
  reportedAt: z.string().nullable().optional(),
});
export type ConfigurationResponse = z.infer<typeof configurationResponse>;
