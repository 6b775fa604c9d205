/**
 * Who hears of an incident (docs/alerts.md, Who hears): staff users whose data scope holds the incident's site
 * (a system incident, without a site, only users who see everything), with the condition on for the channel.
 * The roles' kinds come from `scopeOf`, the one definition of the data scope; this is its form for many users
 * at once (recipients, live streams), beside `siteScopeOn`, its form for one user's list.
 */
import { ADMIN_ROLES, type AdminRole, type AlertCondition } from '@ev/shared';
import { type SQL, sql } from 'drizzle-orm';
import { alertIncidents, alertSubscriptions, partyLandlords, users } from '../../db/schema/index.ts';
import { type DataScope, scopeOf } from '../../plugins/scope.ts';

const rolesOf = (kind: DataScope['kind']): AdminRole[] =>
  ADMIN_ROLES.filter(
    (role) => scopeOf({ adminRole: role, merchantId: null, landlordId: null, partyId: null }).kind === kind,
  );

const inList = (roles: AdminRole[]) =>
  roles.length === 0
    ? sql`false`
    : sql`${users.adminRole} in (${sql.join(
        roles.map((role) => sql`${role}`),
        sql`, `,
      )})`;

/** Whether the row of `users` in the query sees an incident of this cluster and site (both null: the system). */
export function userSees(merchantId: SQL | number | null, landlordId: SQL | number | null): SQL {
  return sql`(${inList(rolesOf('all'))} or (${landlordId}::int is not null and (
    (${inList(rolesOf('merchant'))} and ${users.merchantId} = ${merchantId}::int)
    or (${inList(rolesOf('landlord'))} and ${users.landlordId} = ${landlordId}::int)
    or (${inList(rolesOf('party'))} and exists (select 1 from ${partyLandlords}
      where ${partyLandlords.partyId} = ${users.partyId} and ${partyLandlords.landlordId} = ${landlordId}::int)))))`;
}

/** Active staff users (not members). */
export const activeStaff = sql`${users.type} = 'admin' and ${users.active} and ${users.adminRole} is not null`;

/** Whether the row of `users` has this condition in the bell (no row: yes). */
export const inAppOn = (condition: SQL | AlertCondition) =>
  sql`coalesce((select ${alertSubscriptions.inApp} from ${alertSubscriptions}
    where ${alertSubscriptions.userId} = ${users.id} and ${alertSubscriptions.condition} = ${condition}), true)`;

/** Whether the row of `users` has this condition by mail (no row: no). */
export const mailOn = (condition: SQL | AlertCondition) =>
  sql`coalesce((select ${alertSubscriptions.mail} from ${alertSubscriptions}
    where ${alertSubscriptions.userId} = ${users.id} and ${alertSubscriptions.condition} = ${condition}), false)`;

/** For one user's queries over alert_incidents: whether that user has the incident's condition in the bell. */
export const inAppFor = (userId: number) =>
  sql`coalesce((select ${alertSubscriptions.inApp} from ${alertSubscriptions}
    where ${alertSubscriptions.userId} = ${userId} and ${alertSubscriptions.condition} = ${alertIncidents.condition}), true)`;
