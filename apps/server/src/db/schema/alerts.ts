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
import { users } from './users.ts';

/** An admin's settings of one alert condition (issue 36 §2); a condition without a row has the defaults. */
export const alertSettings = pgTable('alert_settings', {
  condition: text('condition').primaryKey(),
  thresholdMin: integer('threshold_min').notNull(),
  enabled: boolean('enabled').notNull().default(true),
  webhookUrl: text('webhook_url'),
  webhookSecret: text('webhook_secret'),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/** One staff user's choice for one condition; without a row: in the app yes, by mail no. */
export const alertSubscriptions = pgTable(
  'alert_subscriptions',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    condition: text('condition').notNull(),
    inApp: boolean('in_app').notNull(),
    mail: boolean('mail').notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.condition] })],
);

/**
 * One incident: a condition that held for a subject past its threshold. At most one open incident per
 * condition and subject (the partial unique index): every process may evaluate, only one opens it.
 */
export const alertIncidents = pgTable(
  'alert_incidents',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    condition: text('condition').notNull(),
    subjectType: text('subject_type').notNull(),
    subjectId: text('subject_id').notNull(),
    merchantId: integer('merchant_id'),
    landlordId: integer('landlord_id'),
    message: text('message').notNull(),
    link: text('link'),
    details: jsonb('details'),
    startedAt: timestamp('started_at', { withTimezone: true }).notNull(),
    firedAt: timestamp('fired_at', { withTimezone: true }).notNull().defaultNow(),
    /** When the condition was first seen clear again; it resolves once clear long enough (no flapping). */
    clearSince: timestamp('clear_since', { withTimezone: true }),
    resolvedAt: timestamp('resolved_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('alert_incidents_open_key')
      .on(t.condition, t.subjectType, t.subjectId)
      .where(sql`${t.resolvedAt} is null`),
    // An event rather than a state (a batch job that ended with failures): one incident per subject, ever.
    uniqueIndex('alert_incidents_event_key')
      .on(t.condition, t.subjectType, t.subjectId)
      .where(sql`${t.condition} = 'batch-failed'`),
    index('alert_incidents_fired_idx').on(t.firedAt),
    index('alert_incidents_landlord_idx').on(t.landlordId, t.firedAt),
  ],
);

/** What a user has read of the bell. */
export const alertReads = pgTable(
  'alert_reads',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    incidentId: bigint('incident_id', { mode: 'number' })
      .notNull()
      .references(() => alertIncidents.id, { onDelete: 'cascade' }),
    readAt: timestamp('read_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.incidentId] })],
);

/**
 * Mail and webhook deliveries of an incident's firing and resolving: written pending in the transaction that
 * fires or resolves it, sent after the commit with no transaction held, retried with backoff. Unique per
 * incident, event, channel and target: a delivery is queued once however many processes evaluate.
 */
export const alertDeliveries = pgTable(
  'alert_deliveries',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    incidentId: bigint('incident_id', { mode: 'number' })
      .notNull()
      .references(() => alertIncidents.id, { onDelete: 'cascade' }),
    event: text('event', { enum: ['fired', 'resolved'] }).notNull(),
    channel: text('channel', { enum: ['mail', 'webhook'] }).notNull(),
    target: text('target').notNull(),
    status: text('status', { enum: ['pending', 'sent', 'failed'] })
      .notNull()
      .default('pending'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull().defaultNow(),
    lastError: text('last_error'),
    sentAt: timestamp('sent_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('alert_deliveries_once_key').on(t.incidentId, t.event, t.channel, t.target),
    index('alert_deliveries_due_idx').on(t.nextAttemptAt).where(sql`${t.status} = 'pending'`),
  ],
);
