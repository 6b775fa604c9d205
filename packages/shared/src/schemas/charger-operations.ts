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
  key: 'key is required, at most 50 characters.',
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

export const configurationChangeBody = z.strictObject({
  key: z
    .string({ error: OPERATION_MESSAGES.key })
    .trim()
    .min(1, { error: OPERATION_MESSAGES.key })
    .max(50, { error: OPERATION_MESSAGES.key }),
  value: z.string({ error: OPERATION_MESSAGES.value }).max(500, { error: OPERATION_MESSAGES.value }),
});
export type ConfigurationChangeBody = z.infer<typeof configurationChangeBody>;

/** A command's answer: the charger's own status word (Accepted, Rejected, Unlocked, Scheduled, NotSupported, …). */
export const operationResponse = z.object({ status: z.string() });
export type OperationResponse = z.infer<typeof operationResponse>;

/** GetConfiguration as the charger answered it: its keys (read-only or not, value if it gave one) and the unknown. */
export const configurationResponse = z.object({
  configurationKey: z.array(
    z.object({ key: z.string(), readonly: z.boolean(), value: z.string().nullable() }),
  ),
  unknownKey: z.array(z.string()),
});
export type ConfigurationResponse = z.infer<typeof configurationResponse>;
