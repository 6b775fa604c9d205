/**
 * The audit log (issue 36 §1): who changed what, when, from where. Our own API (the spec has no such screen):
 * camelCase, instants as ISO strings. Entries are append-only: there is no route that changes or deletes one.
 */
import { z } from 'zod';
import { isoInstantParam } from './booking.ts';
import { idQuery } from './common.ts';
import { listQuery } from './list.ts';

/** What an entry is about: the API's area names (the wire names, not the screen names). */
export const AUDIT_ENTITIES = [
  'user',
  'member',
  'merchant',
  'landlord',
  'party',
  'price',
  'charger-brand',
  'charger',
  'connector',
  'id-tag',
  'charger-file',
  'page',
  'promotion',
  'point',
  'user-promotion',
  'booking',
  'payment',
  'contact-us',
  'report',
  'statistics',
  'alert-setting',
  'alert-subscription',
  'audit-log',
  'session',
] as const;
export type AuditEntity = (typeof AUDIT_ENTITIES)[number];

/**
 * What was done. `avaliable` keeps the spec's spelling of the booking action it records; `command` is one
 * charger command (its name in `details.command`), `batch` a command sent to many chargers.
 */
export const AUDIT_ACTIONS = [
  'create',
  'update',
  'delete',
  'toggle',
  'refund',
  'set-amount',
  'pay',
  'cancel-payment',
  'stop',
  'force-stop',
  'avaliable',
  'command',
  'batch',
  'export',
  'upload',
  'sign-in',
  'sign-in-failed',
  'sign-out',
  'password-reset-request',
  'password-reset',
  'password-change',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

/** The value written in place of a secret's before and after (a password hash, a token, a webhook secret). */
export const AUDIT_REDACTED = '[redacted]';

/**
 * One field that changed. `field` is the entity's own field (camelCase), or `<table>#<rowId>.<field>` for a
 * row of another table the same action changed (a price plan's override rows). A created row has `before`
 * null; a deleted one `after` null.
 */
export const auditChange = z.object({
  field: z.string(),
  before: z.unknown(),
  after: z.unknown(),
});
export type AuditChange = z.infer<typeof auditChange>;

export const auditEntry = z.object({
  id: z.number().int(),
  at: z.string(),
  /** Null for a failed sign-in of an unknown address (`details.email` says what was typed). */
  userId: z.number().int().nullable(),
  userEmail: z.string().nullable(),
  role: z.string().nullable(),
  ip: z.string().nullable(),
  entity: z.enum(AUDIT_ENTITIES),
  /** The record's id, as text (a charger's id is its OCPP identity); null for a list export. */
  entityId: z.string().nullable(),
  action: z.enum(AUDIT_ACTIONS),
  changes: z.array(auditChange),
  /** What a change of no fields still needs to say: a command's name and answer, an export's filters. */
  details: z.record(z.string(), z.unknown()).nullable(),
});
export type AuditEntry = z.infer<typeof auditEntry>;

/** GET /api/audit-log: newest first by default; `mode=xlsx` exports the same filters. */
export const auditListQuery = listQuery.extend({
  userId: idQuery.optional(),
  entity: z.enum(AUDIT_ENTITIES).optional(),
  entityId: z.string().trim().min(1).max(100).optional(),
  action: z.enum(AUDIT_ACTIONS).optional(),
  from: isoInstantParam,
  to: isoInstantParam,
  mode: z.enum(['xlsx']).optional(),
});
export type AuditListQuery = z.infer<typeof auditListQuery>;
export const AUDIT_SORT_KEYS = ['at', 'id'] as const;

export const auditListResponse = z.object({ total: z.number().int(), entries: z.array(auditEntry) });
export type AuditListResponse = z.infer<typeof auditListResponse>;

/** Audit entries older than this are pruned (AUDIT_RETENTION_DAYS sets another; never below the minimum). */
export const AUDIT_RETENTION_DEFAULT_DAYS = 730;
export const AUDIT_RETENTION_MIN_DAYS = 90;
