import { z } from 'zod';
import { isoInstantParam } from './booking.ts';
import { listQuery } from './list.ts';

/**
 * What a charger said (issue 32, section 3): its message log and its connections. Our own API, the spec is
 * silent (docs/decisions.md, Message log).
 */

/** 'in': from the charger; 'out': to it. */
export const MESSAGE_DIRECTIONS = ['in', 'out'] as const;
export type MessageDirection = (typeof MESSAGE_DIRECTIONS)[number];
/** OCPP-J's CALL, CALLRESULT and CALLERROR, and a frame that is none of them. */
export const MESSAGE_KINDS = ['call', 'result', 'error', 'malformed'] as const;
export type MessageKind = (typeof MESSAGE_KINDS)[number];
export const MESSAGE_DOWNLOADS = ['csv', 'jsonl'] as const;
export type MessageDownload = (typeof MESSAGE_DOWNLOADS)[number];

/** The OCPP 1.6 actions, both ways: what the action filter offers (the log may hold others a charger sent). */
export const OCPP16_ACTIONS = [
  'Authorize',
  'BootNotification',
  'CancelReservation',
  'ChangeAvailability',
  'ChangeConfiguration',
  'ClearCache',
  'ClearChargingProfile',
  'DataTransfer',
  'DiagnosticsStatusNotification',
  'FirmwareStatusNotification',
  'GetCompositeSchedule',
  'GetConfiguration',
  'GetDiagnostics',
  'GetLocalListVersion',
  'Heartbeat',
  'MeterValues',
  'RemoteStartTransaction',
  'RemoteStopTransaction',
  'ReserveNow',
  'Reset',
  'SendLocalList',
  'SetChargingProfile',
  'StartTransaction',
  'StatusNotification',
  'StopTransaction',
  'TriggerMessage',
  'UnlockConnector',
  'UpdateFirmware',
] as const;

/** The OCPP 2.0.1 actions we send or handle (docs/ocpp.md), both ways. */
export const OCPP201_ACTIONS = [
  'Authorize',
  'BootNotification',
  'CancelReservation',
  'ChangeAvailability',
  'ClearCache',
  'ClearChargingProfile',
  'DataTransfer',
  'FirmwareStatusNotification',
  'GetBaseReport',
  'GetLocalListVersion',
  'GetLog',
  'GetVariables',
  'Heartbeat',
  'LogStatusNotification',
  'MeterValues',
  'NotifyEvent',
  'NotifyReport',
  'RequestStartTransaction',
  'RequestStopTransaction',
  'ReservationStatusUpdate',
  'ReserveNow',
  'Reset',
  'SecurityEventNotification',
  'SendLocalList',
  'SetChargingProfile',
  'SetVariables',
  'StatusNotification',
  'TransactionEvent',
  'TriggerMessage',
  'UnlockConnector',
  'UpdateFirmware',
] as const;

/** What the message log's action filter offers: the actions of both versions, once each, in order. */
export const OCPP_ACTIONS: readonly string[] = [...new Set([...OCPP16_ACTIONS, ...OCPP201_ACTIONS])].sort();

export const CHARGER_MESSAGE_TEXT = {
  notFound: 'No matched message found',
} as const;

/** An optional exact-match text filter: empty is no filter. */
const optionalWord = z
  .string()
  .trim()
  .max(100)
  .optional()
  .transform((value) => value || undefined);

/**
 * `GET /api/charger/{id}/message`: newest first. `afterId`: only messages newer than that id (the live tail);
 * `mode=csv|jsonl`: the whole matching log as a file, oldest first.
 */
export const chargerMessageQuery = z.strictObject({
  page: listQuery.shape.page,
  size: listQuery.shape.size,
  action: optionalWord,
  direction: z.enum(MESSAGE_DIRECTIONS).optional(),
  kind: z.enum(MESSAGE_KINDS).optional(),
  createdAfter: isoInstantParam,
  createdBefore: isoInstantParam,
  afterId: z.coerce.number().int().min(0).max(Number.MAX_SAFE_INTEGER).optional(),
  mode: z.enum(MESSAGE_DOWNLOADS).optional(),
});
export type ChargerMessageQuery = z.infer<typeof chargerMessageQuery>;

export const chargerMessage = z
  .object({
    id: z.number().int(),
    /** When the server sent or received it (ISO 8601). */
    at: z.string(),
    direction: z.enum(MESSAGE_DIRECTIONS),
    kind: z.enum(MESSAGE_KINDS),
    /** A call's action; a result's or error's is the action of the call it answers (null when unknown). */
    action: z.string().nullable(),
    messageId: z.string(),
    protocol: z.string(),
    /** Credentials redacted. A CALLERROR: `{ code, description, details }`; malformed: `{ reason, text }`. */
    payload: z.unknown(),
  })
  .meta({ id: 'ChargerMessage' });
export type ChargerMessage = z.infer<typeof chargerMessage>;

export const chargerMessageListResponse = z.object({
  total: z.number().int(),
  messages: z.array(chargerMessage),
});
export type ChargerMessageListResponse = z.infer<typeof chargerMessageListResponse>;

/** `GET /api/charger/{id}/connection`: newest first. */
export const chargerConnectionQuery = z.strictObject({
  page: listQuery.shape.page,
  size: listQuery.shape.size,
});
export type ChargerConnectionQuery = z.infer<typeof chargerConnectionQuery>;

export const chargerConnection = z
  .object({
    id: z.number().int(),
    /** The server process that held it. */
    node: z.string().nullable(),
    remoteAddress: z.string().nullable(),
    protocol: z.string().nullable(),
    connectedAt: z.string(),
    /** Null while it is open. */
    disconnectedAt: z.string().nullable(),
    /** The WebSocket close code; for a refused attempt, its HTTP status. */
    closeCode: z.number().int().nullable(),
    closeReason: z.string().nullable(),
    /** A refused upgrade: the HTTP status it was answered (400, 401, 403); null for a connection. */
    refusedStatus: z.number().int().nullable(),
  })
  .meta({ id: 'ChargerConnection' });
export type ChargerConnection = z.infer<typeof chargerConnection>;

export const chargerConnectionListResponse = z.object({
  total: z.number().int(),
  connections: z.array(chargerConnection),
});
export type ChargerConnectionListResponse = z.infer<typeof chargerConnectionListResponse>;

/** The CSV download's columns. */
export const MESSAGE_CSV_HEADER = [
  'Id',
  'Time',
  'Charger Id',
  'Direction',
  'Kind',
  'Action',
  'Message Id',
  'Protocol',
  'Payload',
] as const;

/** The download's file name: `messages_{chargerId}_{yyyyMMddHHmmss}.{csv|jsonl}` (a charger id needs no quoting). */
export const messageFileName = (chargerId: string, stamp: string, mode: MessageDownload) =>
  `messages_${chargerId}_${stamp}.${mode}`;
