/**
 * The one way the back-office sends commands to chargers. Callers name a charger id and never learn where its
 * WebSocket lives: today the connection is in this process (LocalCommands); a later issue routes calls
 * between server processes behind the same interface.
 */

/** What became of one call. */
export type CommandOutcome =
  /** The charger answered with a CALLRESULT. */
  | { status: 'answered'; response: Record<string, unknown> }
  /** Not connected: nothing was sent. */
  | { status: 'offline' }
  /** Sent, no answer within the timeout. */
  | { status: 'timeout' }
  /**
   * The charger answered with a CALLERROR (e.g. NotImplemented, NotSupported) or the call failed. `local`: not
   * sent at all, the charger's protocol has no counterpart of the intent (an OCPP 1.6 key unknown to 2.0.1's
   * device model): `message` says which, for the caller to show.
   */
  | { status: 'error'; code: string; message: string; local?: true };

/** The OCPP 1.6 calls the back-office makes. */
export const COMMAND_ACTIONS = [
  'Reset',
  'ChangeConfiguration',
  'DataTransfer',
  'RemoteStartTransaction',
  'RemoteStopTransaction',
  'UnlockConnector',
  'ChangeAvailability',
  'TriggerMessage',
  'GetConfiguration',
  'ClearCache',
  'UpdateFirmware',
  'GetDiagnostics',
  'SendLocalList',
  'GetLocalListVersion',
  'ReserveNow',
  'CancelReservation',
  'SetChargingProfile',
  'ClearChargingProfile',
  /** OCPP 2.0.1 only (the device model); a 1.6 charger is answered NotSupported without a frame. */
  'GetBaseReport',
] as const;
export type CommandAction = (typeof COMMAND_ACTIONS)[number];

/** Intents a 1.6 charger has no action for: answered NotSupported (local) on a 1.6 connection. */
export const OCPP201_ONLY_ACTIONS: ReadonlySet<CommandAction> = new Set(['GetBaseReport']);

/**
 * What a 2.0.1 frame needs beyond the 1.6 shape (the requestId of UpdateFirmware and GetLog, which the
 * charger's status notifications name): travels in params under this name, and is taken out before a 1.6
 * frame is sent (the 1.6 schemas allow no extra property).
 */
export const OCPP201_HINTS = 'ocpp201';
export interface Ocpp201Hints {
  /** Our request's id (charger_file_requests.id), which the charger's notifications repeat. */
  requestId?: number;
}

export interface CallOptions {
  /** Milliseconds to wait for the answer (OCPP_COMMAND_TIMEOUT_MS, 30 s, by default). */
  timeoutMs?: number;
}

export interface ChargerCommands {
  /** The chargers among these that are connected now (so a batch reports the others Offline at once). */
  connected(chargerIds: readonly string[]): Promise<Set<string>>;
  call(
    chargerId: string,
    action: CommandAction,
    params: Record<string, unknown>,
    options?: CallOptions,
  ): Promise<CommandOutcome>;
  /**
   * Closes the charger's connection, if it is held (false when it was not). Used when a charger is
   * deactivated: admission refuses it from then on, so it must not keep a socket it had before.
   */
  disconnect(chargerId: string, reason: string): Promise<boolean>;
}

const withHints = (request: object, hints: Ocpp201Hints | undefined): Record<string, unknown> =>
  hints ? { ...request, [OCPP201_HINTS]: hints } : { ...request };

/** The params without the 2.0.1 hints, as a 1.6 frame carries them. */
export function withoutHints(params: Record<string, unknown>): Record<string, unknown> {
  if (!(OCPP201_HINTS in params)) return params;
  const { [OCPP201_HINTS]: _hints, ...rest } = params;
  return rest;
}

export const reset = (
  commands: ChargerCommands,
  chargerId: string,
  type: 'Hard' | 'Soft',
  options?: CallOptions,
) => commands.call(chargerId, 'Reset', { type }, options);

export const changeConfiguration = (
  commands: ChargerCommands,
  chargerId: string,
  key: string,
  value: string,
  options?: CallOptions,
) => commands.call(chargerId, 'ChangeConfiguration', { key, value }, options);

export const dataTransfer = (
  commands: ChargerCommands,
  chargerId: string,
  request: { vendorId: string; messageId?: string; data?: string },
  options?: CallOptions,
) => commands.call(chargerId, 'DataTransfer', request, options);

export const remoteStopTransaction = (
  commands: ChargerCommands,
  chargerId: string,
  transactionId: number,
  options?: CallOptions,
) => commands.call(chargerId, 'RemoteStopTransaction', { transactionId }, options);

export const unlockConnector = (
  commands: ChargerCommands,
  chargerId: string,
  connectorId: number,
  options?: CallOptions,
) => commands.call(chargerId, 'UnlockConnector', { connectorId }, options);

export const changeAvailability = (
  commands: ChargerCommands,
  chargerId: string,
  request: { connectorId: number; type: 'Operative' | 'Inoperative' },
  options?: CallOptions,
) => commands.call(chargerId, 'ChangeAvailability', request, options);

export const triggerMessage = (
  commands: ChargerCommands,
  chargerId: string,
  request: { requestedMessage: string; connectorId?: number },
  options?: CallOptions,
) => commands.call(chargerId, 'TriggerMessage', request, options);

export const getConfiguration = (
  commands: ChargerCommands,
  chargerId: string,
  keys?: string[],
  options?: CallOptions,
) => commands.call(chargerId, 'GetConfiguration', keys ? { key: keys } : {}, options);

export const clearCache = (commands: ChargerCommands, chargerId: string, options?: CallOptions) =>
  commands.call(chargerId, 'ClearCache', {}, options);

/**
 * RemoteStartTransaction. `remoteStartId` (the booking's id) is for a 2.0.1 charger, whose TransactionEvent
 * names it (RequestStartTransaction); a 1.6 charger is not sent it (1.6 has no such field).
 */
export const remoteStartTransaction = (
  commands: ChargerCommands,
  chargerId: string,
  request: { connectorId: number; idTag: string; remoteStartId?: number },
  options?: CallOptions,
) => commands.call(chargerId, 'RemoteStartTransaction', request, options);

/** An intent's parameters as a 1.6 frame carries them: what only 2.0.1 has is left out. */
export function ocpp16Params(
  action: CommandAction,
  params: Record<string, unknown>,
): Record<string, unknown> {
  if (action !== 'RemoteStartTransaction' || !('remoteStartId' in params)) return params;
  const { remoteStartId: _only201, ...rest } = params;
  return rest;
}

/** UpdateFirmware: the charger fetches `location` from `retrieveDate` on (its answer is an empty payload). */
export const updateFirmware = (
  commands: ChargerCommands,
  chargerId: string,
  request: { location: string; retrieveDate: string; retries?: number; retryInterval?: number },
  options?: CallOptions & { hints?: Ocpp201Hints },
) => commands.call(chargerId, 'UpdateFirmware', withHints(request, options?.hints), options);

/** GetDiagnostics: the charger uploads its diagnostics to `location`; it answers the file name, if it has one. */
export const getDiagnostics = (
  commands: ChargerCommands,
  chargerId: string,
  request: {
    location: string;
    retries?: number;
    retryInterval?: number;
    startTime?: string;
    stopTime?: string;
  },
  options?: CallOptions & { hints?: Ocpp201Hints },
) => commands.call(chargerId, 'GetDiagnostics', withHints(request, options?.hints), options);
/** One entry of a local authorization list: the tag, and its IdTagInfo (left out: remove it, Differential). */
export interface LocalListEntry {
  idTag: string;
  idTagInfo?: { status: string; expiryDate?: string; parentIdTag?: string };
}

export const sendLocalList = (
  commands: ChargerCommands,
  chargerId: string,
  request: {
    listVersion: number;
    updateType: 'Full' | 'Differential';
    localAuthorizationList?: LocalListEntry[];
  },
  options?: CallOptions,
) => commands.call(chargerId, 'SendLocalList', { ...request }, options);

export const getLocalListVersion = (commands: ChargerCommands, chargerId: string, options?: CallOptions) =>
  commands.call(chargerId, 'GetLocalListVersion', {}, options);

export const reserveNow = (
  commands: ChargerCommands,
  chargerId: string,
  request: {
    connectorId: number;
    expiryDate: string;
    idTag: string;
    parentIdTag?: string;
    reservationId: number;
  },
  options?: CallOptions,
) => commands.call(chargerId, 'ReserveNow', { ...request }, options);

export const cancelReservation = (
  commands: ChargerCommands,
  chargerId: string,
  reservationId: number,
  options?: CallOptions,
) => commands.call(chargerId, 'CancelReservation', { reservationId }, options);

/** OCPP 1.6 ChargingProfile (csChargingProfiles): what the power-limits issue asks a charger to apply. */
export interface ChargingProfile16 {
  chargingProfileId: number;
  transactionId?: number;
  stackLevel: number;
  chargingProfilePurpose: 'ChargePointMaxProfile' | 'TxDefaultProfile' | 'TxProfile';
  chargingProfileKind: 'Absolute' | 'Recurring' | 'Relative';
  recurrencyKind?: 'Daily' | 'Weekly';
  validFrom?: string;
  validTo?: string;
  chargingSchedule: {
    duration?: number;
    startSchedule?: string;
    chargingRateUnit: 'A' | 'W';
    chargingSchedulePeriod: Array<{ startPeriod: number; limit: number; numberPhases?: number }>;
    minChargingRate?: number;
  };
}

/** SetChargingProfile on a connector (0: the charger as a whole); a 2.0.1 charger gets it on EVSE n. */
export const setChargingProfile = (
  commands: ChargerCommands,
  chargerId: string,
  connectorId: number,
  profile: ChargingProfile16,
  options?: CallOptions,
) =>
  commands.call(
    chargerId,
    'SetChargingProfile',
    { connectorId, csChargingProfiles: { ...profile } },
    options,
  );

/** ClearChargingProfile by id, or by connector, purpose and stack level (none: every profile). */
export const clearChargingProfile = (
  commands: ChargerCommands,
  chargerId: string,
  request: {
    id?: number;
    connectorId?: number;
    chargingProfilePurpose?: ChargingProfile16['chargingProfilePurpose'];
    stackLevel?: number;
  },
  options?: CallOptions,
) => commands.call(chargerId, 'ClearChargingProfile', { ...request }, options);

/** GetBaseReport (2.0.1): the charger sends its device model in NotifyReport messages tagged `requestId`. */
export const getBaseReport = (
  commands: ChargerCommands,
  chargerId: string,
  request: { requestId: number; reportBase: 'ConfigurationInventory' | 'FullInventory' | 'SummaryInventory' },
  options?: CallOptions,
) => commands.call(chargerId, 'GetBaseReport', { ...request }, options);
