/**
 * Charger events: what the back-office does with a charger's reports beyond storing them, the contract
 * between the charger side (this folder) and the modules (ARCHITECTURE.md). `ocpp` stores sessions, meter
 * readings and statuses itself, whatever the protocol version; what they mean to bookings, members and money
 * belongs to `modules`, which implement this interface (modules/booking/booking-charger-events.ts), handed to
 * OcppCentral by app.ts. Imports run one way: modules may use ocpp, never the reverse (tools/check-imports.mjs).
 */
import type { MeterReading, StartRequest, StoppedSession } from './transactions.ts';

/** OCPP 1.6 IdTagInfo.status values we answer. */
export type IdTagStatus = 'Accepted' | 'Blocked' | 'ConcurrentTx' | 'Expired' | 'Invalid';

/** OCPP 1.6 IdTagInfo: the status, and a card's expiry and parent (the member's app tag) where it has them. */
export interface IdTagInfo {
  status: IdTagStatus;
  expiryDate?: string;
  parentIdTag?: string;
}

export interface StartAnswer {
  transactionId: number;
  idTagStatus: string;
  /** A card's expiry and parent, given with the status (IdTagInfo). */
  expiryDate?: string;
  parentIdTag?: string;
  /** The charger was told its tag is refused: it should stop the transaction (and is asked to). */
  refused: boolean;
}

/** Runs one step of applying an event to bookings, logging its failure instead of failing the charger's call. */
export type EventGuard = (step: string, run: () => Promise<void>) => Promise<void>;

/** A connector's status, as the bookings need it (connector 0, the charger as a whole, never comes here). */
export interface ConnectorStatusReport {
  ocppConnectorId: number;
  status: string;
  at: Date;
}

/**
 * What a charger reports of a firmware update or a diagnostics upload (FirmwareStatusNotification,
 * DiagnosticsStatusNotification; 2.0.1's LogStatusNotification): the status, and when we received it (1.6
 * gives no time of its own).
 */
export interface ChargerFileEvents {
  /** `requestId`: the request the step belongs to, where the charger names it (2.0.1). */
  firmwareStatus(chargerId: string, status: string, receivedAt: Date, requestId?: number): Promise<void>;
  diagnosticsStatus(chargerId: string, status: string, receivedAt: Date, requestId?: number): Promise<void>;
}

/**
 * What the power sharing (modules/power) hears of a charger's connection, beyond its sessions and statuses:
 * it counts an offline charger at full power, and gives one that comes back its safe default profile. Each
 * call returns at once (the work is the module's, logged there, never the charger's call's).
 */
export interface ChargerPowerEvents {
  /** The charger connected here; `stored()` resolves once the database shows it connected (write-behind). */
  connected(chargerId: string, stored: () => Promise<void>): void;
  /** Its connection here closed; `stored()` resolves once the database shows it gone. */
  disconnected(chargerId: string, stored: () => Promise<void>): void;
  /** Its BootNotification was answered Accepted. */
  booted(chargerId: string): void;
}

export interface ChargerEvents {
  /** Authorize: may this tag charge here? */
  authorize(chargerId: string, idTag: string): Promise<IdTagInfo>;
  /** StartTransaction: stores the session and links it to a booking; `guard` runs each booking step. */
  start(chargerId: string, request: StartRequest, guard: EventGuard): Promise<StartAnswer>;
  /** Available, SuspendedEV or Charging on a connector (the cable out, the EV paused, charging again). */
  connectorStatus(chargerId: string, report: ConnectorStatusReport): Promise<void>;
  /** A session's energy and state of charge so far (already stored). */
  meterValues(chargerId: string, reading: MeterReading): Promise<void>;
  /** A session the charger stopped (already closed). */
  stopped(chargerId: string, stopped: StoppedSession): Promise<void>;
  /** Firmware and diagnostics steps (modules/charger-file); unset, they are accepted and dropped. */
  files?: ChargerFileEvents;
  /** Connections and boots, for the power sharing (modules/power); unset, nobody hears them. */
  power?: ChargerPowerEvents;
}
