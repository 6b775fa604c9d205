import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { chargerBrands } from './catalog.ts';
import { batchJobs } from './ocpp.ts';
import { bytea } from './uploads.ts';
import { users } from './users.ts';

const at = (name: string) => timestamp(name, { withTimezone: true });

/**
 * Files for and from chargers (issue 32, section 2): firmware an admin uploaded, and diagnostics a charger
 * uploaded. In the database (as uploaded images are), so every process serves them and backups and
 * `db:move` carry them; the bytes are in chunks (charger_file_chunks) so no file is ever one huge value in
 * memory.
 */
export const chargerFiles = pgTable(
  'charger_files',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    kind: text('kind', { enum: ['firmware', 'diagnostics'] }).notNull(),
    /** Diagnostics: the charger that uploaded it (text: files outlive chargers). Firmware: null. */
    chargerId: text('charger_id'),
    /** Firmware: the brand it is meant for, if the admin said (a brand batch offers it first). */
    chargerBrandId: integer('charger_brand_id').references(() => chargerBrands.id, { onDelete: 'set null' }),
    /** The file name as uploaded (shown and used to download; never a path on disk). */
    name: text('name').notNull(),
    /** Firmware: the version it installs, as the admin typed it. */
    version: text('version'),
    contentType: text('content_type').notNull(),
    size: bigint('size', { mode: 'number' }).notNull(),
    sha256: text('sha256').notNull(),
    /** False while its chunks are being written: an incomplete file is never offered or served. */
    complete: boolean('complete').notNull().default(false),
    createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: at('created_at').notNull().defaultNow(),
  },
  (t) => [
    index('charger_files_charger_idx').on(t.chargerId, t.createdAt),
    index('charger_files_kind_idx').on(t.kind, t.createdAt),
  ],
);

/** A file's bytes, in order. */
export const chargerFileChunks = pgTable(
  'charger_file_chunks',
  {
    fileId: integer('file_id')
      .notNull()
      .references(() => chargerFiles.id, { onDelete: 'cascade' }),
    seq: integer('seq').notNull(),
    bytes: bytea('bytes').notNull(),
  },
  (t) => [primaryKey({ columns: [t.fileId, t.seq] })],
);

/**
 * One-time URLs a charger uses without a session: a firmware download (UpdateFirmware's location) or a
 * diagnostics upload (GetDiagnostics' location). Only the token's hash is stored.
 */
export const chargerFileTokens = pgTable(
  'charger_file_tokens',
  {
    tokenHash: text('token_hash').primaryKey(),
    purpose: text('purpose', { enum: ['firmware-download', 'diagnostics-upload'] }).notNull(),
    chargerId: text('charger_id').notNull(),
    /** Firmware: the file to serve. Diagnostics: the file once uploaded. */
    fileId: integer('file_id').references(() => chargerFiles.id, { onDelete: 'cascade' }),
    expiresAt: at('expires_at').notNull(),
    usedAt: at('used_at'),
    createdAt: at('created_at').notNull().defaultNow(),
  },
  (t) => [index('charger_file_tokens_expiry_idx').on(t.expiresAt)],
);

/**
 * A firmware update or diagnostics request to one charger, and what the charger reported of it since
 * (FirmwareStatusNotification / DiagnosticsStatusNotification steps, in order, each with its time).
 */
export const chargerFileRequests = pgTable(
  'charger_file_requests',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    kind: text('kind', { enum: ['firmware', 'diagnostics'] }).notNull(),
    chargerId: text('charger_id').notNull(),
    /** Firmware: the file sent. Diagnostics: the file received, once uploaded. */
    fileId: integer('file_id').references(() => chargerFiles.id, { onDelete: 'set null' }),
    /** A brand batch's job (firmware to every charger of a brand). */
    jobId: integer('job_id').references(() => batchJobs.id, { onDelete: 'set null' }),
    requestedBy: integer('requested_by').references(() => users.id, { onDelete: 'set null' }),
    requestedAt: at('requested_at').notNull().defaultNow(),
    /** UpdateFirmware's retrieveDate. */
    retrieveAt: at('retrieve_at'),
    /** How the command went: Accepted (the charger's answer), NotSupported, Offline, Timeout, Error. */
    answer: text('answer'),
    /** GetDiagnostics' answer: the file name the charger will upload. */
    answerFileName: text('answer_file_name'),
    /** The last status the charger reported, and when (null until it reports). */
    status: text('status'),
    statusAt: at('status_at'),
    /** Every status it reported: [{ status, at }]. */
    steps: jsonb('steps').notNull().default(sql`'[]'::jsonb`),
  },
  (t) => [
    index('charger_file_requests_charger_idx').on(t.chargerId, t.kind, t.requestedAt),
    index('charger_file_requests_job_idx').on(t.jobId),
    uniqueIndex('charger_file_requests_job_charger_key')
      .on(t.jobId, t.chargerId)
      .where(sql`${t.jobId} is not null`),
  ],
);
