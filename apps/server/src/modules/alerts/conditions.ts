/**
 * The alert conditions (docs/alerts.md, Conditions): each is one query listing the subjects for which it holds
 * now, and since when. Times are ours (receipt, connection and creation times), never a charger's clock; a
 * charger's or connector's 'since' is never before this process began watching (after a restart every charger
 * looks long gone until it reconnects: that is no outage of its own).
 */
import type { AlertCondition, AlertSubjectType } from '@ev/shared';
import { and, eq, isNotNull, not, type SQL, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import {
  alertIncidents,
  batchJobResults,
  batchJobs,
  bookings,
  chargerConnections,
  chargers,
  connectors,
  landlords,
  paymentOperations,
  payments,
} from '../../db/schema/index.ts';
import { chargerOnline } from '../charger/charger.service.ts';
import { sitePower } from '../power-load/site-power.ts';
import { sinceText } from './alert-text.ts';

/** A subject for which a condition holds now. */
export interface Holding {
  subjectType: AlertSubjectType;
  subjectId: string;
  /** Since when it has held without a break (as far as we know). */
  startedAt: Date;
  merchantId: number | null;
  landlordId: number | null;
  /** Short, for a mail's subject: 'Charger CP-1 offline'. */
  title: string;
  /** One line for people, with the site and the time it began (Bangkok time). */
  message: string;
  link: string | null;
  details?: Record<string, unknown>;
}

export interface ConditionContext {
  now: Date;
  /** When this process began watching (its alerts started): no charger 'since' is earlier. */
  watchingSince: Date;
  /** Several processes: since when this one has not reached NATS (null: it does); undefined: one process. */
  natsUnreachableSince?: number | null;
}

type Executor = Db | Tx;
export type ConditionQuery = (db: Executor, ctx: ConditionContext) => Promise<Holding[]>;

const DAY_MS = 86_400_000;
/** A batch job that ended longer ago than this is history: no alert for it (a first start on old data). */
export const BATCH_WINDOW_MS = DAY_MS;

/** An instant of the query as epoch milliseconds (a number whatever the driver makes of timestamps). */
const epochMs = (expression: SQL) =>
  sql<number | null>`(extract(epoch from ${expression}) * 1000)::float8`.mapWith((value) =>
    value === null ? null : Number(value),
  );

/** When the charger's last connection (ours, admitted) began, and when its last one ended. */
const lastConnected = sql`(select max(${chargerConnections.connectedAt}) from ${chargerConnections}
  where ${chargerConnections.chargerId} = ${chargers.id} and ${chargerConnections.refusedStatus} is null)`;
const lastDisconnected = sql`(select max(${chargerConnections.disconnectedAt}) from ${chargerConnections}
  where ${chargerConnections.chargerId} = ${chargers.id} and ${chargerConnections.refusedStatus} is null)`;

const bounded = (sinceMs: number | null, ctx: ConditionContext) =>
  new Date(Math.max(sinceMs ?? ctx.watchingSince.getTime(), ctx.watchingSince.getTime()));

export const chargerLink = (chargerId: string) => `/charger/${encodeURIComponent(chargerId)}`;
const at = (site: string) => ` at ${site}`;

/**
 * A charger offline: seen once, active, and not online now (no process holds its socket, or it has been
 * silent past its heartbeat deadline). Since: the end of its last connection, else the last frame we heard.
 */
const chargerOffline: ConditionQuery = async (db, ctx) => {
  const rows = await db
    .select({
      id: chargers.id,
      merchantId: chargers.merchantId,
      landlordId: chargers.landlordId,
      site: landlords.nameEn,
      sinceMs: epochMs(sql`greatest(${chargers.lastSeenAt}, ${lastDisconnected})`),
    })
    .from(chargers)
    .innerJoin(landlords, eq(landlords.id, chargers.landlordId))
    .where(and(eq(chargers.active, true), isNotNull(chargers.lastSeenAt), not(chargerOnline)));
  return rows.map((row) => {
    const startedAt = bounded(row.sinceMs, ctx);
    return {
      subjectType: 'charger',
      subjectId: row.id,
      startedAt,
      merchantId: row.merchantId,
      landlordId: row.landlordId,
      title: `Charger ${row.id} offline`,
      message: `Charger ${row.id}${at(row.site)} offline since ${sinceText(startedAt, ctx.now)}`,
      link: chargerLink(row.id),
    };
  });
};

/**
 * A charger faulted: online, with a connector whose last status is Faulted. Since: when we received that
 * status, or the charger's connection began if later (the status before it is no longer news); the earliest
 * of its faulted connectors.
 */
const chargerFaulted: ConditionQuery = async (db, ctx) => {
  const rows = await db
    .select({
      id: chargers.id,
      merchantId: chargers.merchantId,
      landlordId: chargers.landlordId,
      site: landlords.nameEn,
      sinceMs: epochMs(sql`min(greatest(${connectors.statusSince}, ${lastConnected}))`),
      faults: sql<string>`string_agg(${connectors.ocppConnectorId}::text || ': ' || coalesce(${connectors.errorCode}, 'Faulted'), ', ' order by ${connectors.ocppConnectorId})`,
    })
    .from(connectors)
    .innerJoin(chargers, eq(chargers.id, connectors.chargerId))
    .innerJoin(landlords, eq(landlords.id, chargers.landlordId))
    .where(and(eq(connectors.status, 'FAULTED'), eq(chargers.active, true), chargerOnline))
    .groupBy(chargers.id, landlords.id);
  return rows.map((row) => {
    const startedAt = bounded(row.sinceMs, ctx);
    return {
      subjectType: 'charger',
      subjectId: row.id,
      startedAt,
      merchantId: row.merchantId,
      landlordId: row.landlordId,
      title: `Charger ${row.id} faulted`,
      message: `Charger ${row.id}${at(row.site)} faulted (connector ${row.faults}) since ${sinceText(startedAt, ctx.now)}`,
      link: chargerLink(row.id),
      details: { faults: row.faults },
    };
  });
};

/**
 * A connector Unavailable while its charger is online (an offline charger's connectors all read Unavailable:
 * the charger's own alert says it once). Since: as for a fault.
 */
const connectorUnavailable: ConditionQuery = async (db, ctx) => {
  const rows = await db
    .select({
      chargerId: chargers.id,
      number: connectors.ocppConnectorId,
      merchantId: chargers.merchantId,
      landlordId: chargers.landlordId,
      site: landlords.nameEn,
      sinceMs: epochMs(sql`greatest(${connectors.statusSince}, ${lastConnected})`),
    })
    .from(connectors)
    .innerJoin(chargers, eq(chargers.id, connectors.chargerId))
    .innerJoin(landlords, eq(landlords.id, chargers.landlordId))
    .where(and(eq(connectors.status, 'UNAVAILABLE'), eq(chargers.active, true), chargerOnline));
  return rows.map((row) => {
    const startedAt = bounded(row.sinceMs, ctx);
    return {
      subjectType: 'connector',
      subjectId: `${row.chargerId}/${row.number}`,
      startedAt,
      merchantId: row.merchantId,
      landlordId: row.landlordId,
      title: `Connector ${row.number} of charger ${row.chargerId} unavailable`,
      message: `Connector ${row.number} of charger ${row.chargerId}${at(row.site)} unavailable since ${sinceText(startedAt, ctx.now)}`,
      link: chargerLink(row.chargerId),
    };
  });
};

/**
 * A charge pending at the payment provider (asked, no answer: settlement.ts asks again every minute). Its
 * booking has no payment row yet, so the link is the booking's (Booking Management, filtered to it).
 */
const paymentPending: ConditionQuery = async (db, ctx) => {
  const rows = await db
    .select({
      id: paymentOperations.id,
      bookingId: paymentOperations.bookingId,
      amount: paymentOperations.amount,
      createdAt: paymentOperations.createdAt,
      merchantId: bookings.merchantId,
      landlordId: bookings.landlordId,
      site: landlords.nameEn,
    })
    .from(paymentOperations)
    .innerJoin(bookings, eq(bookings.id, paymentOperations.bookingId))
    .innerJoin(landlords, eq(landlords.id, bookings.landlordId))
    .where(and(eq(paymentOperations.kind, 'charge'), eq(paymentOperations.status, 'pending')));
  return rows.map((row) => ({
    subjectType: 'payment',
    subjectId: String(row.id),
    startedAt: row.createdAt,
    merchantId: row.merchantId,
    landlordId: row.landlordId,
    title: `Payment of booking ${row.bookingId} pending`,
    message: `Payment of booking ${row.bookingId} (${row.amount} THB)${at(row.site)} pending at the payment provider since ${sinceText(row.createdAt, ctx.now)}`,
    link: `/booking-management?bookingId=${row.bookingId}`,
    details: { bookingId: row.bookingId, amount: row.amount },
  }));
};

/** A refund pending at the payment provider; the link is its payment in Transaction Management. */
const refundPending: ConditionQuery = async (db, ctx) => {
  const rows = await db
    .select({
      id: paymentOperations.id,
      bookingId: paymentOperations.bookingId,
      amount: paymentOperations.amount,
      createdAt: paymentOperations.createdAt,
      invoiceNo: payments.invoiceNo,
      merchantId: payments.merchantId,
      landlordId: payments.landlordId,
      site: landlords.nameEn,
    })
    .from(paymentOperations)
    .innerJoin(payments, eq(payments.id, paymentOperations.paymentId))
    .innerJoin(landlords, eq(landlords.id, payments.landlordId))
    .where(and(eq(paymentOperations.kind, 'refund'), eq(paymentOperations.status, 'pending')));
  return rows.map((row) => ({
    subjectType: 'refund',
    subjectId: String(row.id),
    startedAt: row.createdAt,
    merchantId: row.merchantId,
    landlordId: row.landlordId,
    title: `Refund of ${row.invoiceNo} pending`,
    message: `Refund of ${row.invoiceNo} (${row.amount} THB)${at(row.site)} pending at the payment provider since ${sinceText(row.createdAt, ctx.now)}`,
    link: `/charging-payment?bookingId=${row.bookingId}`,
    details: { bookingId: row.bookingId, invoiceNo: row.invoiceNo, amount: row.amount },
  }));
};

const BATCH_LABELS: Record<string, string> = {
  'hard-reset': 'Hard Reset All',
  config: 'Config All',
  firmware: 'Firmware update',
  'local-list': 'Send Local List All',
};

/**
 * A batch command that ended (or was cut off) with chargers it did not reach or that refused it: any result
 * but Accepted (Offline, Timeout, Rejected, NotSupported), or chargers left without a result. An event, not a
 * state: it fires once per job (docs/alerts.md). Jobs that ended more than BATCH_WINDOW_MS ago are history.
 */
const batchFailed: ConditionQuery = async (db, ctx) => {
  const cutOff = sql`(${batchJobs.status} = 'running' and ${batchJobs.progressAt} < now() - interval '1 minute')`;
  const ended = sql`coalesce(${batchJobs.finishedAt}, ${batchJobs.progressAt})`;
  const since = new Date(ctx.now.getTime() - BATCH_WINDOW_MS).toISOString();
  const rows = await db
    .select({
      id: batchJobs.id,
      kind: batchJobs.kind,
      total: batchJobs.total,
      interrupted: sql<boolean>`(${batchJobs.status} = 'interrupted' or ${cutOff})`.mapWith(Boolean),
      endedMs: epochMs(ended),
      reported:
        sql<number>`(select count(*) from ${batchJobResults} where ${batchJobResults.jobId} = ${batchJobs.id})`.mapWith(
          Number,
        ),
      failures: sql<Record<string, number> | null>`(select json_object_agg(f.result, f.n) from (
        select ${batchJobResults.result} as result, count(*)::int as n from ${batchJobResults}
        where ${batchJobResults.jobId} = ${batchJobs.id} and ${batchJobResults.result} <> 'Accepted'
        group by ${batchJobResults.result} order by ${batchJobResults.result}) f)`,
    })
    .from(batchJobs)
    .where(
      and(
        sql`(${batchJobs.status} in ('finished', 'interrupted') or ${cutOff})`,
        sql`${ended} > ${since}::timestamptz`,
        sql`not exists (select 1 from ${alertIncidents} where ${alertIncidents.condition} = 'batch-failed'
          and ${alertIncidents.subjectType} = 'batch' and ${alertIncidents.subjectId} = ${batchJobs.id}::text)`,
      ),
    );
  const holding: Holding[] = [];
  for (const row of rows) {
    const failures = typeof row.failures === 'string' ? JSON.parse(row.failures) : (row.failures ?? {});
    const unreported = row.interrupted ? Math.max(0, row.total - row.reported) : 0;
    const failed = Object.values(failures as Record<string, number>).reduce((sum, n) => sum + n, 0);
    if (failed + unreported === 0) continue;
    const parts = Object.entries(failures as Record<string, number>).map(([result, n]) => `${result} ${n}`);
    if (unreported > 0) parts.push(`no result ${unreported}`);
    const label = BATCH_LABELS[row.kind] ?? row.kind;
    const startedAt = new Date(row.endedMs ?? ctx.now.getTime());
    holding.push({
      subjectType: 'batch',
      subjectId: String(row.id),
      startedAt,
      merchantId: null,
      landlordId: null,
      title: `${label} #${row.id} failed on ${failed + unreported} of ${row.total} chargers`,
      message: `${label} #${row.id}${row.interrupted ? ' was cut off' : ' ended'} at ${sinceText(startedAt, ctx.now)}: ${failed + unreported} of ${row.total} chargers failed (${parts.join(', ')})`,
      link: '/charger',
      details: { kind: row.kind, total: row.total, failures, unreported },
    });
  }
  return holding;
};

/**
 * A site over its power limit: the site's live load (the chart of GET /api/landlord/:id/power, from its
 * connectors' power samples) above its limit in the current minute. Since: the first minute of that run.
 */
const siteOverLimit: ConditionQuery = async (db, ctx) => {
  const sites = await db
    .select({
      id: landlords.id,
      merchantId: landlords.merchantId,
      name: landlords.nameEn,
      maxPowerKw: landlords.maxPowerKw,
    })
    .from(landlords)
    .where(isNotNull(landlords.maxPowerKw));
  const holding: Holding[] = [];
  for (const site of sites) {
    const limit = Number(site.maxPowerKw);
    const { points } = await sitePower(db as Db, { kind: 'all' }, site.id, ctx.now);
    let first = points.length - 1;
    const last = points[first];
    if (!last || !(last.kw > limit)) continue;
    while (first > 0 && points[first - 1]!.kw > limit) first--;
    const startedAt = new Date(points[first]!.at);
    holding.push({
      subjectType: 'site',
      subjectId: String(site.id),
      startedAt,
      merchantId: site.merchantId,
      landlordId: site.id,
      title: `${site.name} over its power limit`,
      message: `${site.name} over its power limit (${last.kw} kW of ${limit} kW) since ${sinceText(startedAt, ctx.now)}`,
      link: `/landlord/${site.id}`,
      details: { kw: last.kw, limitKw: limit },
    });
  }
  return holding;
};

/** NATS out of reach of this process (several processes only): one subject for the whole cluster. */
const natsUnreachable: ConditionQuery = async (_db, ctx) => {
  if (ctx.natsUnreachableSince == null) return [];
  const startedAt = new Date(ctx.natsUnreachableSince);
  return [
    {
      subjectType: 'system',
      subjectId: 'nats',
      startedAt,
      merchantId: null,
      landlordId: null,
      title: 'NATS unreachable',
      message: `The cluster's NATS server unreachable since ${sinceText(startedAt, ctx.now)}: commands to chargers held by other server processes fail meanwhile`,
      link: null,
    },
  ];
};

/** The conditions the evaluation pass measures (the database's own is watched apart: database-watch.ts). */
export const CONDITION_QUERIES: Partial<Record<AlertCondition, ConditionQuery>> = {
  'charger-offline': chargerOffline,
  'charger-faulted': chargerFaulted,
  'connector-unavailable': connectorUnavailable,
  'payment-pending': paymentPending,
  'refund-pending': refundPending,
  'batch-failed': batchFailed,
  'site-over-limit': siteOverLimit,
  'nats-unreachable': natsUnreachable,
};

/** Conditions that are events, not states: an incident per subject ever, resolved as it fires. */
export const EVENT_CONDITIONS = new Set<AlertCondition>(['batch-failed']);
