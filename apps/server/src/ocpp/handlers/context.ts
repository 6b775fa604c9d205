import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/client.ts';
import type { ChargerEvents, EventGuard } from '../events.ts';
import type { ChargePointStore } from '../store.ts';

/** What a handler of a charger's call has at hand: the charger, where to store, and whom to tell. */
export interface CallContext {
  chargerId: string;
  db: Db;
  store: ChargePointStore;
  /** What the modules do with the charger's reports (events.ts). */
  events: ChargerEvents;
  log: FastifyBaseLogger;
  /** The heartbeat interval given at boot, in seconds. */
  heartbeatIntervalS: number;
  /** Runs one booking step of a report: a failure is logged, and the charger still gets its answer. */
  guard: EventGuard;
  /** Asks the charger to stop a transaction whose id tag was refused (once it has our answer). */
  stopRefused(transactionId: number, idTagStatus: string): void;
}

export type CallParams = Record<string, unknown>;
export type CallAnswer = Record<string, unknown>;

/** One incoming action: the charger's payload (already valid against the action's schema) to our answer. */
export type CallHandler = (context: CallContext, params: CallParams) => CallAnswer | Promise<CallAnswer>;
