import {
  AUDIT_RETENTION_MIN_DAYS,
  type AUDIT_SORT_KEYS,
  type AuditChange,
  type AuditEntry,
  type AuditListQuery,
} from '@ev/shared';
import { and, desc, eq, gte, inArray, lt, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { auditChanges, auditLog } from '../../db/schema/index.ts';
import { countAll, ordering, paging } from '../../lib/list-query.ts';

export const AUDIT_SORTS_SQL: Record<(typeof AUDIT_SORT_KEYS)[number], SQL | typeof auditLog.at> = {
  at: auditLog.at,
  id: sql`${auditLog.id}`,
};

export function auditWhere(query: AuditListQuery): SQL | undefined {
  const conditions: SQL[] = [];
  if (query.userId) conditions.push(eq(auditLog.userId, query.userId));
  if (query.entity) conditions.push(eq(auditLog.entity, query.entity));
  if (query.entityId) conditions.push(eq(auditLog.entityId, query.entityId));
  if (query.action) conditions.push(eq(auditLog.action, query.action));
  if (query.from) conditions.push(gte(auditLog.at, query.from));
  if (query.to) conditions.push(lt(auditLog.at, query.to));
  return conditions.length > 0 ? and(...conditions) : undefined;
}

/** snake_case column → the wire's camelCase field. */
const camel = (column: string) => column.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());

/** The entity's own table per entity: its rows' changes read as plain fields, other tables' as `table#id.field`. */
const OWN_TABLE: Record<string, string> = {
  user: 'users',
  member: 'users',
  merchant: 'merchants',
  landlord: 'landlords',
  party: 'parties',
  price: 'prices',
  'charger-brand': 'charger_brands',
  charger: 'chargers',
  connector: 'connectors',
  'id-tag': 'id_tags',
  'charger-file': 'charger_files',
  page: 'pages',
  promotion: 'promotions',
  point: 'point_rates',
  booking: 'bookings',
  payment: 'payments',
  'contact-us': 'contact_us',
  'alert-setting': 'alert_settings',
  'alert-subscription': 'alert_subscriptions',
};

type ChangeRow = { entryId: number; tableName: string; rowId: string | null; changes: unknown };

export function changesOf(entity: string, entityId: string | null, rows: ChangeRow[]): AuditChange[] {
  const own = OWN_TABLE[entity];
  const out: AuditChange[] = [];
  for (const row of rows) {
    const plain =
      row.tableName === own && (entityId === null || row.rowId === null || row.rowId === entityId);
    const prefix = plain ? '' : `${camel(row.tableName)}${row.rowId === null ? '' : `#${row.rowId}`}.`;
    for (const [column, pair] of Object.entries((row.changes ?? {}) as Record<string, unknown>)) {
      const [before, after] = Array.isArray(pair) ? pair : [null, null];
      out.push({ field: `${prefix}${camel(column)}`, before: before ?? null, after: after ?? null });
    }
  }
  return out;
}

const entryColumns = {
  id: auditLog.id,
  at: auditLog.at,
  userId: auditLog.userId,
  userEmail: auditLog.userEmail,
  role: auditLog.role,
  ip: auditLog.ip,
  entity: auditLog.entity,
  entityId: auditLog.entityId,
  action: auditLog.action,
  details: auditLog.details,
};
type EntryRow = {
  id: number;
  at: Date;
  userId: number | null;
  userEmail: string | null;
  role: string | null;
  ip: string | null;
  entity: string;
  entityId: string | null;
  action: string;
  details: unknown;
};

/** Entries with their changes (one query for the changes of the whole page). */
export async function withChanges(db: Db, rows: EntryRow[]): Promise<AuditEntry[]> {
  const ids = rows.map((row) => row.id);
  const changeRows =
    ids.length === 0
      ? []
      : await db
          .select({
            entryId: auditChanges.entryId,
            tableName: auditChanges.tableName,
            rowId: auditChanges.rowId,
            changes: auditChanges.changes,
          })
          .from(auditChanges)
          .where(inArray(auditChanges.entryId, ids))
          .orderBy(auditChanges.id);
  const byEntry = new Map<number, ChangeRow[]>();
  for (const row of changeRows) {
    const list = byEntry.get(row.entryId) ?? [];
    list.push(row);
    byEntry.set(row.entryId, list);
  }
  return rows.map((row) => ({
    ...row,
    at: row.at.toISOString(),
    entity: row.entity as AuditEntry['entity'],
    action: row.action as AuditEntry['action'],
    details: (row.details as Record<string, unknown> | null) ?? null,
    changes: changesOf(row.entity, row.entityId, byEntry.get(row.id) ?? []),
  }));
}

export async function pageOfEntries(db: Db, query: AuditListQuery, offset: number, limit: number) {
  const rows = await db
    .select(entryColumns)
    .from(auditLog)
    .where(auditWhere(query))
    .orderBy(...(query.sort ? ordering(query, AUDIT_SORTS_SQL, [auditLog.id]) : [desc(auditLog.id)]))
    .limit(limit)
    .offset(offset);
  return withChanges(db, rows);
}

export async function listAudit(db: Db, query: AuditListQuery) {
  const { limit, offset } = paging(query);
  const [count] = await db.select({ total: countAll() }).from(auditLog).where(auditWhere(query));
  return { total: count?.total ?? 0, entries: await pageOfEntries(db, query, offset, limit) };
}

/**
 * Deletes the entries older than `retentionDays` (never fewer than the minimum, which the trigger enforces
 * too), a batch at a time, their changes first. Answers how many entries went.
 */
export async function pruneAudit(db: Db, retentionDays: number, now = Date.now()): Promise<number> {
  const days = Math.max(retentionDays, AUDIT_RETENTION_MIN_DAYS);
  const cutoff = new Date(now - days * 86_400_000);
  let pruned = 0;
  for (;;) {
    const deleted = await db.transaction(async (tx) => {
      await tx.execute(sql`select set_config('ev.audit_prune', 'on', true)`);
      const old = await tx
        .select({ id: auditLog.id })
        .from(auditLog)
        .where(lt(auditLog.at, cutoff))
        .orderBy(auditLog.id)
        .limit(5000);
      if (old.length === 0) return 0;
      const ids = old.map((row) => row.id);
      await tx.delete(auditChanges).where(inArray(auditChanges.entryId, ids));
      await tx.delete(auditLog).where(inArray(auditLog.id, ids));
      return ids.length;
    });
    pruned += deleted;
    if (deleted < 5000) return pruned;
  }
}
