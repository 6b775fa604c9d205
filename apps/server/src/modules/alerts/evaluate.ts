/**
 * One evaluation pass (docs/alerts.md, How an alert fires and resolves). For each condition: the subjects for
 * which it holds now and since when (conditions.ts), against its open incidents:
 * - held for its threshold and no open incident: one is opened (INSERT … ON CONFLICT DO NOTHING on the
 *   one-open-incident-per-subject index) and its deliveries queued in the same transaction (the deliveries'
 *   unique index queues each once): however many processes evaluate, one incident, one mail per subscriber;
 * - an open incident whose condition no longer holds is marked clear (clear_since); once clear for the resolve
 *   delay it resolves (resolved deliveries to whoever heard of its firing). Holding again before that, it is
 *   the same incident: no second alert for a flapping subject;
 * - a reboot (offline shorter than the threshold) never opens anything.
 * The pass runs in one transaction under a try-advisory lock, so two processes do not do the same work at
 * once; correctness does not rest on the lock but on the unique indexes and conditional updates.
 */
import type { AlertCondition } from '@ev/shared';
import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import { alertDeliveries, alertIncidents, users } from '../../db/schema/index.ts';
import { type ConditionSetting, loadSettings } from './alert-settings.service.ts';
import { activeStaff, mailOn, userSees } from './audience.ts';
import { CONDITION_QUERIES, type ConditionContext, EVENT_CONDITIONS, type Holding } from './conditions.ts';

/** How long a fired incident's condition must stay clear before it resolves (or its threshold, if shorter). */
export const RESOLVE_AFTER_MS = 2 * 60_000;
export const resolveDelayMs = (thresholdMin: number) => Math.min(RESOLVE_AFTER_MS, thresholdMin * 60_000);

/**
 * Conditions each process sees for itself (its own connection to NATS): every process applies its view on
 * every pass. One that sees it holding keeps the incident open (clear_since back to null); it resolves once no
 * process has seen it for the resolve delay (so ALERTS_EVERY_MS must stay well under that delay).
 */
const PER_PROCESS = new Set<AlertCondition>(['nats-unreachable']);

/** The advisory lock of the pass (this job's namespace and key). */
const LOCK = { namespace: 36_002, key: 1 };

export interface PassResult {
  /** Another process was evaluating: this pass measured only what this process alone can see. */
  skipped: boolean;
  /** Incidents this pass opened, and resolved. */
  fired: number[];
  resolved: number[];
}

const rowsOf = <T>(result: unknown) => ((result as { rows?: T[] }).rows ?? []) as T[];
const iso = (at: Date) => sql`${at.toISOString()}::timestamptz`;
const key = (subjectType: string, subjectId: string) => `${subjectType}\u0000${subjectId}`;

/** Queues the mail of every subscriber who sees it, and the condition's webhook, for a fired incident. */
export async function queueFired(
  tx: Tx,
  incidentId: number,
  setting: ConditionSetting,
  scope: { merchantId: number | null; landlordId: number | null },
  now: Date,
): Promise<void> {
  await tx.execute(sql`insert into ${alertDeliveries} (incident_id, event, channel, target, next_attempt_at)
    select ${incidentId}::bigint, 'fired', 'mail', ${users.id}::text, ${iso(now)} from ${users}
    where ${activeStaff} and ${mailOn(setting.condition)} and ${userSees(scope.merchantId, scope.landlordId)}
    on conflict do nothing`);
  if (setting.webhookUrl) {
    await tx
      .insert(alertDeliveries)
      .values({
        incidentId,
        event: 'fired',
        channel: 'webhook',
        target: setting.webhookUrl,
        nextAttemptAt: now,
      })
      .onConflictDoNothing();
  }
}

/** A resolved incident is told to whoever its firing was sent to (mail and webhook alike). */
async function queueResolved(tx: Tx, incidentId: number, now: Date): Promise<void> {
  await tx.execute(sql`insert into ${alertDeliveries} (incident_id, event, channel, target, next_attempt_at)
    select incident_id, 'resolved', channel, target, ${iso(now)} from ${alertDeliveries}
    where incident_id = ${incidentId}::bigint and event = 'fired'
    on conflict do nothing`);
}

async function openIncident(
  tx: Tx,
  condition: AlertCondition,
  holding: Holding,
  now: Date,
  resolvedAt: Date | null,
): Promise<number | null> {
  const [row] = await tx
    .insert(alertIncidents)
    .values({
      condition,
      subjectType: holding.subjectType,
      subjectId: holding.subjectId,
      merchantId: holding.merchantId,
      landlordId: holding.landlordId,
      message: holding.message,
      link: holding.link,
      details: { title: holding.title, ...holding.details },
      startedAt: holding.startedAt,
      firedAt: now,
      resolvedAt,
    })
    .onConflictDoNothing()
    .returning({ id: alertIncidents.id });
  return row?.id ?? null;
}

/** One condition's subjects against its open incidents. */
async function applyCondition(
  tx: Tx,
  setting: ConditionSetting,
  holding: Holding[],
  now: Date,
  result: PassResult,
): Promise<void> {
  const { condition } = setting;
  const thresholdMs = setting.thresholdMin * 60_000;
  const event = EVENT_CONDITIONS.has(condition);
  const open = event
    ? []
    : await tx
        .select({
          id: alertIncidents.id,
          subjectType: alertIncidents.subjectType,
          subjectId: alertIncidents.subjectId,
          clearSince: alertIncidents.clearSince,
        })
        .from(alertIncidents)
        .where(and(eq(alertIncidents.condition, condition), isNull(alertIncidents.resolvedAt)));
  const openByKey = new Map(
    open.map((incident) => [key(incident.subjectType, incident.subjectId), incident]),
  );
  const holds = new Set<string>();
  for (const subject of holding) {
    const subjectKey = key(subject.subjectType, subject.subjectId);
    holds.add(subjectKey);
    const incident = openByKey.get(subjectKey);
    if (incident) {
      // It holds again before it resolved: the same incident goes on (no second alert).
      if (incident.clearSince) {
        await tx
          .update(alertIncidents)
          .set({ clearSince: null })
          .where(and(eq(alertIncidents.id, incident.id), isNull(alertIncidents.resolvedAt)));
      }
      continue;
    }
    if (now.getTime() - subject.startedAt.getTime() < thresholdMs) continue;
    const id = await openIncident(tx, condition, subject, now, event ? now : null);
    if (id === null) continue; // another process opened it
    await queueFired(tx, id, setting, subject, now);
    result.fired.push(id);
  }
  const resolveMs = resolveDelayMs(setting.thresholdMin);
  for (const incident of open) {
    if (holds.has(key(incident.subjectType, incident.subjectId))) continue;
    const clearSince = incident.clearSince ?? now;
    if (now.getTime() - clearSince.getTime() >= resolveMs) {
      // Only as it was read: a process that saw it hold again meanwhile (NATS, seen per process) keeps it open.
      const [done] = await tx
        .update(alertIncidents)
        .set({ clearSince, resolvedAt: now })
        .where(
          and(
            eq(alertIncidents.id, incident.id),
            isNull(alertIncidents.resolvedAt),
            incident.clearSince
              ? eq(alertIncidents.clearSince, incident.clearSince)
              : isNull(alertIncidents.clearSince),
          ),
        )
        .returning({ id: alertIncidents.id });
      if (!done) continue;
      await queueResolved(tx, done.id, now);
      result.resolved.push(done.id);
    } else if (!incident.clearSince) {
      await tx
        .update(alertIncidents)
        .set({ clearSince: now })
        .where(
          and(
            eq(alertIncidents.id, incident.id),
            isNull(alertIncidents.resolvedAt),
            isNull(alertIncidents.clearSince),
          ),
        );
    }
  }
}

/**
 * Evaluates every condition once at `ctx.now`. `lock: false` skips the advisory lock (the cluster test proves
 * the indexes alone keep one incident per subject).
 */
export async function evaluatePass(
  db: Db,
  ctx: ConditionContext,
  {
    lock = true,
    onError,
  }: {
    lock?: boolean;
    /** A condition whose query or writes failed: the others still run (its writes are rolled back alone). */
    onError?: (condition: AlertCondition, error: unknown) => void;
  } = {},
): Promise<PassResult> {
  return db.transaction(async (tx) => {
    let locked = true;
    if (lock) {
      const [got] = rowsOf<{ ok: boolean }>(
        await tx.execute(
          sql`select pg_try_advisory_xact_lock(${LOCK.namespace}::int, ${LOCK.key}::int) as ok`,
        ),
      );
      locked = got?.ok === true;
    }
    const result: PassResult = { skipped: !locked, fired: [], resolved: [] };
    if (!locked && ctx.natsUnreachableSince === undefined) return result;
    const settings = await loadSettings(tx);
    for (const [condition, query] of Object.entries(CONDITION_QUERIES) as Array<
      [AlertCondition, NonNullable<(typeof CONDITION_QUERIES)[AlertCondition]>]
    >) {
      // Only a process of a cluster can tell whether NATS is reachable; a lone one leaves the condition alone.
      if (condition === 'nats-unreachable' && ctx.natsUnreachableSince === undefined) continue;
      // What only this process can see is measured by every process, lock or not (else the one that keeps
      // winning the lock would resolve what another still sees); the shared facts by the lock's holder.
      if (!locked && !PER_PROCESS.has(condition)) continue;
      const setting = settings.get(condition)!;
      const mine: PassResult = { skipped: false, fired: [], resolved: [] };
      try {
        // A savepoint per condition: one that fails (a bad row, a bug) costs only its own alerts this pass.
        await tx.transaction(async (savepoint) => {
          const holding = setting.enabled ? await query(savepoint, ctx) : [];
          await applyCondition(savepoint, setting, holding, ctx.now, mine);
        });
      } catch (error) {
        if (!onError) throw error;
        onError(condition, error);
        continue;
      }
      result.fired.push(...mine.fired);
      result.resolved.push(...mine.resolved);
    }
    return result;
  });
}
