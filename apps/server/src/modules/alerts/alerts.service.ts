/**
 * The bell: a staff user's alerts (the incidents in their data scope, of the conditions they have in the app),
 * newest first, with what they have read (docs/alerts.md, Who hears).
 */
import type { AlertCondition, AlertItem, AlertListResponse, AlertSubjectType, ListQuery } from '@ev/shared';
import { and, desc, eq, inArray, isNotNull, isNull, not, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { alertIncidents, alertReads, users } from '../../db/schema/index.ts';
import { ordering, paging } from '../../lib/list-query.ts';
import type { AuthUser } from '../../plugins/auth.ts';
import { scopeOf, siteScopeOn } from '../../plugins/scope.ts';
import { activeStaff, inAppFor, inAppOn, userSees } from './audience.ts';

export type IncidentRow = typeof alertIncidents.$inferSelect;

/** An incident as the wire shows it (`read` is the reader's). */
export function toAlertItem(row: IncidentRow, read: boolean): AlertItem {
  return {
    id: row.id,
    condition: row.condition as AlertCondition,
    subjectType: row.subjectType as AlertSubjectType,
    subjectId: row.subjectId,
    message: row.message,
    link: row.link,
    landlordId: row.landlordId,
    startedAt: row.startedAt.toISOString(),
    firedAt: row.firedAt.toISOString(),
    resolvedAt: row.resolvedAt?.toISOString() ?? null,
    read,
  };
}

/** The incidents a user sees: in their data scope, of a condition they have in the bell. */
function visibleTo(user: AuthUser): SQL | undefined {
  return and(
    siteScopeOn(scopeOf(user), {
      merchantId: alertIncidents.merchantId,
      landlordId: alertIncidents.landlordId,
    }),
    inAppFor(user.id),
  );
}

const readBy = (userId: number) =>
  sql<boolean>`exists (select 1 from ${alertReads} where ${alertReads.userId} = ${userId}
    and ${alertReads.incidentId} = ${alertIncidents.id})`.mapWith(Boolean);

export const ALERT_SORTS_SQL = {
  firedAt: alertIncidents.firedAt,
  startedAt: alertIncidents.startedAt,
  resolvedAt: alertIncidents.resolvedAt,
};

export interface AlertListFilters extends ListQuery {
  open?: boolean;
  unread?: boolean;
  condition?: AlertCondition;
}

/** GET /api/alerts: a page, newest first unless sorted; `unread` counts all the user's unread, unfiltered. */
export async function listAlerts(
  db: Db,
  user: AuthUser,
  query: AlertListFilters,
): Promise<AlertListResponse> {
  const visible = visibleTo(user);
  const read = readBy(user.id);
  const where = and(
    visible,
    query.open === undefined
      ? undefined
      : query.open
        ? isNull(alertIncidents.resolvedAt)
        : isNotNull(alertIncidents.resolvedAt),
    query.unread === undefined ? undefined : query.unread ? not(read) : read,
    query.condition ? eq(alertIncidents.condition, query.condition) : undefined,
  );
  const order = query.sort
    ? ordering(query, ALERT_SORTS_SQL, [alertIncidents.id])
    : [desc(alertIncidents.firedAt), desc(alertIncidents.id)];
  const { limit, offset } = paging(query);
  const [counts] = await db
    .select({
      total: sql<number>`count(*) filter (where ${where ?? sql`true`})`.mapWith(Number),
      unread: sql<number>`count(*) filter (where not ${read})`.mapWith(Number),
    })
    .from(alertIncidents)
    .where(visible);
  const rows = await db
    .select({ incident: alertIncidents, read })
    .from(alertIncidents)
    .where(where)
    .orderBy(...order)
    .limit(limit)
    .offset(offset);
  return {
    total: counts?.total ?? 0,
    unread: counts?.unread ?? 0,
    alerts: rows.map((row) => toAlertItem(row.incident, row.read)),
  };
}

/** POST /api/alerts/read: marks these (or all) of the user's alerts read; ids they do not see are ignored. */
export async function markRead(
  db: Db,
  user: AuthUser,
  body: { ids: number[] } | { all: true },
): Promise<void> {
  const which = 'ids' in body ? inArray(alertIncidents.id, body.ids) : undefined;
  await db.execute(sql`insert into ${alertReads} (user_id, incident_id)
    select ${user.id}::int, ${alertIncidents.id} from ${alertIncidents} where ${and(visibleTo(user), which) ?? sql`true`}
    on conflict do nothing`);
}

/**
 * Which of these users see the incident in their bell now, and whether each has read it (the live stream's
 * filter: the same as GET /api/alerts, for many users at once).
 */
export async function audienceOf(
  db: Db,
  incidentId: number,
  userIds: number[],
): Promise<{ incident: IncidentRow; readers: Map<number, boolean> } | null> {
  const [incident] = await db.select().from(alertIncidents).where(eq(alertIncidents.id, incidentId));
  if (!incident || userIds.length === 0) return incident ? { incident, readers: new Map() } : null;
  const rows = await db
    .select({
      id: users.id,
      read: sql<boolean>`exists (select 1 from ${alertReads} where ${alertReads.userId} = ${users.id}
        and ${alertReads.incidentId} = ${incidentId})`.mapWith(Boolean),
    })
    .from(users)
    .where(
      and(
        inArray(users.id, userIds),
        activeStaff,
        inAppOn(incident.condition as AlertCondition),
        userSees(incident.merchantId, incident.landlordId),
      ),
    );
  return { incident, readers: new Map(rows.map((row) => [row.id, row.read])) };
}
