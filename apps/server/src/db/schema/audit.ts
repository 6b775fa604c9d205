import { bigint, index, integer, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * The audit log (issue 36, docs/audit.md): one entry per staff action, written in the action's transaction.
 * Append-only: triggers (migration 0021) refuse every UPDATE and TRUNCATE, and a DELETE except the retention
 * pruning's of entries past the minimum age. No foreign keys to the records it names: an entry outlives them.
 */
export const auditLog = pgTable(
  'audit_log',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
    userId: integer('user_id'),
    userEmail: text('user_email'),
    role: text('role'),
    ip: text('ip'),
    entity: text('entity').notNull(),
    entityId: text('entity_id'),
    action: text('action').notNull(),
    details: jsonb('details'),
  },
  (t) => [
    index('audit_log_at_idx').on(t.at),
    index('audit_log_entity_idx').on(t.entity, t.entityId, t.at),
    index('audit_log_user_idx').on(t.userId, t.at),
    index('audit_log_action_idx').on(t.action, t.at),
  ],
);

/**
 * The rows an entry's action changed, written by the `audit_capture` trigger of each audited table while the
 * transaction names its entry (`ev.audit_entry`): `changes` is `{ column: [before, after] }` of the columns
 * that changed (every column of a created or deleted row); secrets' values are replaced by '[redacted]'.
 */
export const auditChanges = pgTable(
  'audit_changes',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    entryId: bigint('entry_id', { mode: 'number' })
      .notNull()
      .references(() => auditLog.id),
    tableName: text('table_name').notNull(),
    rowId: text('row_id'),
    op: text('op', { enum: ['INSERT', 'UPDATE', 'DELETE'] }).notNull(),
    changes: jsonb('changes').notNull(),
  },
  (t) => [index('audit_changes_entry_idx').on(t.entryId)],
);
