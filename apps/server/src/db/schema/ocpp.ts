import { sql } from 'drizzle-orm';
import {
  bigint,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { chargers, connectors, prices } from './catalog.ts';
import { users } from './users.ts';

/**
 * Charging sessions: one row per OCPP transaction (its id is the transactionId the charger is given).
 * Bookings build on this table: `userId`, `reservationId` and the price snapshot at start are here for them.
 * History is kept: a charger or connector with sessions cannot be deleted (409).
 */
export const chargingSessions = pgTable(
  'charging_sessions',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    chargerId: text('charger_id')
      .notNull()
      .references(() => chargers.id, { onDelete: 'restrict' }),
    /** Our connector row (null when the charger named a connector number we do not know). */
    connectorId: integer('connector_id').references(() => connectors.id, { onDelete: 'restrict' }),
    ocppConnectorId: integer('ocpp_connector_id').notNull(),
    idTag: text('id_tag').notNull(),
    /** The mobile user behind the id tag, when known (a later issue maps tags to users). */
    userId: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
    reservationId: integer('reservation_id'),
    /** The connector's price plan when the session started. */
    priceId: integer('price_id').references(() => prices.id, { onDelete: 'restrict' }),
    status: text('status', { enum: ['ACTIVE', 'COMPLETED'] })
      .notNull()
      .default('ACTIVE'),
    /** When charging started, bounded by what we know (ocpp/clock.ts): the time the session is billed from. */
    startedAt: timestamp('started_at', { withTimezone: true }).notNull(),
    /**
     * The StartTransaction's timestamp as the charger sent it. With the connector, id tag and meter start it
     * identifies a StartTransaction the charger sent again under a new message id (it never got our answer).
     */
    reportedStartAt: timestamp('reported_start_at', { withTimezone: true }),
    /** What the StartTransaction was answered (idTagInfo.status): Accepted, Blocked, ConcurrentTx, Invalid. */
    idTagStatus: text('id_tag_status').notNull().default('Accepted'),
    meterStartWh: bigint('meter_start_wh', { mode: 'number' }).notNull(),
    lastMeterWh: bigint('last_meter_wh', { mode: 'number' }),
    lastMeterAt: timestamp('last_meter_at', { withTimezone: true }),
    stoppedAt: timestamp('stopped_at', { withTimezone: true }),
    /** The StopTransaction's timestamp as the charger sent it (stoppedAt is bounded). */
    reportedStopAt: timestamp('reported_stop_at', { withTimezone: true }),
    meterStopWh: bigint('meter_stop_wh', { mode: 'number' }),
    stopReason: text('stop_reason'),
    stopIdTag: text('stop_id_tag'),
    /**
     * OCPP 2.0.1 (issue 33): the charger's own transactionId (a string of up to 36 characters; 1.6 chargers are
     * given our `id`, an integer, and leave this null), the EVSE it ran on, the highest TransactionEvent seqNo
     * seen (messages are ordered by it, not by arrival) and the remoteStartId of a RequestStartTransaction.
     */
    transactionRef: text('transaction_ref'),
    evseId: integer('evse_id'),
    seqNo: integer('seq_no'),
    remoteStartId: integer('remote_start_id'),
    /**
     * OCPP 2.0.1: the transaction's charging state as of its newest TransactionEvent (Charging, EVConnected,
     * SuspendedEV, SuspendedEVSE, Idle), so a turn to EVConnected or Idle after charging reads as charging
     * stopped (a charger that ends its transaction only at the cable's removal, TxStopPoint).
     */
    chargingState: text('charging_state'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('charging_sessions_charger_idx').on(t.chargerId, t.startedAt),
    index('charging_sessions_connector_idx').on(t.connectorId, t.status),
    index('charging_sessions_user_idx').on(t.userId),
    uniqueIndex('charging_sessions_transaction_ref_key')
      .on(t.chargerId, t.transactionRef)
      .where(sql`${t.transactionRef} is not null`),
    uniqueIndex('charging_sessions_start_key')
      .on(t.chargerId, t.ocppConnectorId, t.idTag, t.meterStartWh, t.reportedStartAt)
      .where(sql`${t.reportedStartAt} is not null`),
  ],
);

/** Every sampled value a charger reports, as OCPP sends it (MeterValues and StopTransaction's transactionData). */
export const meterValues = pgTable(
  'meter_values',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    sessionId: integer('session_id').references(() => chargingSessions.id, { onDelete: 'cascade' }),
    chargerId: text('charger_id')
      .notNull()
      .references(() => chargers.id, { onDelete: 'cascade' }),
    ocppConnectorId: integer('ocpp_connector_id').notNull(),
    takenAt: timestamp('taken_at', { withTimezone: true }).notNull(),
    sampledValue: jsonb('sampled_value').notNull(),
  },
  (t) => [
    index('meter_values_session_idx').on(t.sessionId, t.takenAt),
    index('meter_values_charger_idx').on(t.chargerId, t.takenAt),
  ],
);

/** Batch commands (Hard Reset All, Config All): they run to the end even when the browser goes away. */
export const batchJobs = pgTable('batch_jobs', {
  id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
  kind: text('kind', { enum: ['hard-reset', 'config', 'firmware', 'local-list'] }).notNull(),
  /** Config All's key/value pairs. */
  configurations: jsonb('configurations'),
  /** A firmware batch: the file (charger_files.id; no reference: the job's record outlives the file). */
  firmwareFileId: integer('firmware_file_id'),
  /** A firmware batch: the brand whose chargers it updates. */
  chargerBrandId: integer('charger_brand_id'),
  createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
  total: integer('total').notNull(),
  done: integer('done').notNull().default(0),
  status: text('status', { enum: ['running', 'finished', 'interrupted'] })
    .notNull()
    .default('running'),
  startedAt: timestamp('started_at', { withTimezone: true }).notNull().defaultNow(),
  /** Bumped as results are written; a running job left without progress was cut off by a stopped server. */
  progressAt: timestamp('progress_at', { withTimezone: true }).notNull().defaultNow(),
  finishedAt: timestamp('finished_at', { withTimezone: true }),
});

/** One result per charger of a batch job (the charger id is kept as text: results outlive chargers). */
export const batchJobResults = pgTable(
  'batch_job_results',
  {
    jobId: integer('job_id')
      .notNull()
      .references(() => batchJobs.id, { onDelete: 'cascade' }),
    chargerId: text('charger_id').notNull(),
    result: text('result').notNull(),
    detail: text('detail'),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.jobId, t.chargerId] })],
);
