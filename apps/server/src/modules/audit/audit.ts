/**
 * Writing the audit log (issue 36, docs/audit.md). A staff change calls `audit(tx, actor, …)` inside its own
 * transaction: the entry's insert names it to the transaction (`ev.audit_entry`), and the `audit_capture`
 * trigger of every audited table then adds the rows the transaction changes, before → after, to that entry.
 * The change and its entry commit or roll back together. An action that changes no row (a charger command,
 * an export, a sign-in) writes its entry alone, with what it needs to say in `details`.
 */
import type { AuditAction, AuditEntity, Permission } from '@ev/shared';
import { AUDIT_ENTITIES } from '@ev/shared';
import { sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Db, Tx } from '../../db/client.ts';

/** Who acts: the signed-in staff user and the address the request came from. */
export interface AuditActor {
  userId: number | null;
  email: string | null;
  role: string | null;
  ip: string | null;
  /** How many entries this request wrote (the completeness check below reads it). */
  written: number;
}

export interface AuditInput {
  entity: AuditEntity;
  entityId?: string | number | null;
  action: AuditAction;
  details?: Record<string, unknown> | null;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * A staff route that changes nothing worth an entry (a preview, a check): `false` opts out of the check
     * that every successful POST, PATCH, PUT or DELETE wrote an audit entry.
     */
    audit?: false;
  }
  interface FastifyRequest {
    auditActor: AuditActor | null;
  }
}

/** The acting staff user of a request (its route named a permission, so `request.auth` is set). */
export function actorOf(request: FastifyRequest): AuditActor {
  if (request.auditActor) return request.auditActor;
  const user = request.auth?.user;
  const actor: AuditActor = {
    userId: user?.id ?? null,
    email: user?.email ?? null,
    role: user?.adminRole ?? null,
    ip: request.ip ?? null,
    written: 0,
  };
  request.auditActor = actor;
  return actor;
}

/** An actor that is not a request's: a sign-in (the user is known only once the password matched). */
export function actorFrom(
  user: { id: number; email: string; adminRole?: string | null } | null,
  ip: string | null,
): AuditActor {
  return {
    userId: user?.id ?? null,
    email: user?.email ?? null,
    role: user?.adminRole ?? null,
    ip,
    written: 0,
  };
}

/** The longest text kept of any one value in `details` (a typed e-mail, a filter). */
const DETAIL_TEXT_MAX = 500;

function boundedDetails(details: Record<string, unknown> | null | undefined): string | null {
  if (!details) return null;
  return JSON.stringify(details, (key, value) => {
    if (/pass|token|secret|hash/i.test(key)) return value == null ? value : '[redacted]';
    if (typeof value === 'string' && value.length > DETAIL_TEXT_MAX)
      return `${value.slice(0, DETAIL_TEXT_MAX)}…`;
    return value;
  });
}

/**
 * `npm run bench:audit` only: its baseline is the same write with no entry, in the same process. Nothing else
 * sets it; a server never turns the audit off.
 */
export const auditBenchBaseline = { on: false };

/**
 * Writes one entry. Inside a transaction (`tx`), the rows it changes after this call are captured into the
 * entry by the tables' triggers: call it before the writes. With `db` (no transaction) it is an entry alone.
 * Answers the entry's id.
 */
export async function audit(tx: Tx | Db, actor: AuditActor, input: AuditInput): Promise<number> {
  if (auditBenchBaseline.on) {
    actor.written++;
    return 0;
  }
  const entityId = input.entityId == null ? null : String(input.entityId).slice(0, 200);
  const result = await tx.execute<{ id: string | number }>(sql`
    insert into audit_log (user_id, user_email, role, ip, entity, entity_id, action, details)
    values (${actor.userId}, ${actor.email}, ${actor.role}, ${actor.ip}, ${input.entity}, ${entityId},
      ${input.action}, ${boundedDetails(input.details)}::jsonb)
    returning id, set_config('ev.audit_entry', id::text, true) as entry`);
  actor.written++;
  return Number((result as { rows?: { id: string | number }[] }).rows?.[0]?.id);
}

/**
 * Gives an entry written before its record existed (a create) the record's id: the one update the audit log
 * allows, in the entry's own transaction, once.
 */
export async function auditedId(tx: Tx, entry: number, entityId: string | number): Promise<void> {
  await tx.execute(sql`update audit_log set entity_id = ${String(entityId)} where id = ${entry}`);
}

/**
 * Stops the capture for the rest of the transaction (writes that are the system's, not the user's).
 */
export async function stopCapture(tx: Tx): Promise<void> {
  await tx.execute(sql`select set_config('ev.audit_entry', '', true)`);
}

/**
 * Captures this transaction's rows into an entry written earlier, in a transaction of its own: the outcome of
 * an action split around a call to an outside provider (a refund: its intent, the provider, then its outcome)
 * goes to the action's one entry.
 */
export async function resumeCapture(tx: Tx, entry: number): Promise<void> {
  await tx.execute(sql`select set_config('ev.audit_entry', ${String(entry)}, true)`);
}

const MUTATING = new Set(['POST', 'PATCH', 'PUT', 'DELETE']);

/** The entity a list's export is about, from the permission its route needs ('user.mobile.read' → member). */
export function exportEntity(permission: Permission): AuditEntity {
  const [area, kind] = permission.split('.');
  if (area === 'user') return kind === 'mobile' ? 'member' : 'user';
  if (area === 'audit') return 'audit-log';
  if (area === 'alert') return 'alert-setting';
  return (AUDIT_ENTITIES as readonly string[]).includes(area ?? '') ? (area as AuditEntity) : 'report';
}

/** A workbook download: a list's `mode=xlsx`, or a route of its own whose path ends in /export. */
function isExport(request: FastifyRequest): boolean {
  if (request.method !== 'GET') return false;
  const mode = (request.query as { mode?: unknown } | undefined)?.mode;
  return mode === 'xlsx' || (request.routeOptions.url ?? '').endsWith('/export');
}

/**
 * The request-level part: every export is an entry (who downloaded which list with which filters), written
 * before the workbook streams; and a successful staff change that wrote no entry is logged as an error
 * (`audit: no entry`), which fails the API suite (test-app.ts): no route can change data unrecorded.
 */
export function registerAudit(app: FastifyInstance, db: Db): void {
  app.decorateRequest('auditActor', null);
  app.addHook('preHandler', async (request) => {
    const permission = request.routeOptions.config.permission;
    if (!permission || !request.auth || !isExport(request)) return;
    const { accessToken: _token, ...query } = (request.query ?? {}) as Record<string, unknown>;
    await audit(db, actorOf(request), {
      entity: exportEntity(permission),
      action: 'export',
      details: { path: request.routeOptions.url, query },
    });
  });
  app.addHook('onResponse', async (request, reply) => {
    const config = request.routeOptions.config;
    if (!config.permission || config.audit === false || !MUTATING.has(request.method)) return;
    if (reply.statusCode >= 300 || !request.auth) return;
    if ((request.auditActor?.written ?? 0) > 0) return;
    request.log.error(
      { route: `${request.method} ${request.routeOptions.url}` },
      `audit: no entry for ${request.method} ${request.routeOptions.url}`,
    );
  });
}
