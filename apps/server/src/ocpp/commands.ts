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
  /** The charger answered with a CALLERROR (e.g. NotImplemented, NotSupported) or the call failed. */
  | { status: 'error'; code: string; message: string };

/** The OCPP 1.6 calls the back-office makes. */
export type CommandAction =
  | 'Reset'
  | 'ChangeConfiguration'
  | 'DataTransfer'
  | 'RemoteStartTransaction'
  | 'RemoteStopTransaction';

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

export const remoteStartTransaction = (
  commands: ChargerCommands,
  chargerId: string,
  request: { connectorId: number; idTag: string },
  options?: CallOptions,
) => commands.call(chargerId, 'RemoteStartTransaction', request, options);
