import {
  type AdminUserBody,
  can,
  type MobileUserBody,
  type Permission,
  ROLE_LINKS,
  type USER_ADMIN_SORTS,
  USER_MESSAGES,
  type USER_MOBILE_SORTS,
  type UserBody,
  type UserListItem,
  type UserListQuery,
  type UserType,
} from '@ev/shared';
import { type AnyColumn, and, eq, inArray, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { landlords, merchants, parties, sessions, users } from '../../db/schema/index.ts';
import { AppError, Conflict, Forbidden, Invalid, isUniqueViolation, NotFound } from '../../lib/errors.ts';
import { countAll, deleteUnlessUsed, ordering, paging } from '../../lib/list-query.ts';
import type { Mailer } from '../../lib/mail.ts';
import { type AuthUser, forgetSessions } from '../../plugins/auth.ts';
import { type AuditActor, audit, auditedId } from '../audit/audit.ts';
import { createInvitation, mailInvitation, mailMemberInvitation } from '../auth/invitation.ts';

/** The answer for an id that is not there, or outside the caller's scope (also a path id beyond ID_MAX). */
export const USER_NOT_FOUND = 'User not found';

/** What the write calls need besides the database: the mailer for invitations and the app's address. */
export interface UserContext {
  db: Db;
  mailer: Mailer;
  appUrl: string;
  log: { error(obj: object, msg: string): void };
}

/** The permission of each list and of its records, by the user type they hold. */
const KIND_PERMISSIONS: Record<UserType, { read: Permission; write: Permission }> = {
  admin: { read: 'user.admin.read', write: 'user.admin.write' },
  mobile: { read: 'user.mobile.read', write: 'user.mobile.write' },
};

/** The audit log's name for each kind: staff are users, mobile users are members. */
const auditEntity = (kind: UserType) => (kind === 'admin' ? 'user' : 'member');

/** 403 unless the caller's role holds the permission of this kind of user (e.g. callcenter and admin=true). */
export function requireKind(user: AuthUser, kind: UserType, access: 'read' | 'write'): void {
  if (!can(user.adminRole, KIND_PERMISSIONS[kind][access])) throw new Forbidden();
}

/** The kinds of user a caller may change: callcenter only mobile users, so admin users are 404 to it. */
const writableKinds = (user: AuthUser): UserType[] =>
  (['admin', 'mobile'] as const).filter((kind) => can(user.adminRole, KIND_PERMISSIONS[kind].write));

/** A site user's cluster is its site's: older rows hold only the site. */
const clusterId = sql<number | null>`coalesce(${users.merchantId}, ${landlords.merchantId})`;
const fullName = sql`${users.firstName} || ' ' || ${users.lastName}`;
const partnerType = sql<'mobile' | 'ruejai'>`coalesce(${users.partnerUserType}, 'mobile')`;

const MOBILE_SORTS = {
  partnerUserType: partnerType,
  name: fullName,
  email: users.email,
  emailVerified: users.emailVerified,
  tel: users.tel,
  telVerified: users.telVerified,
  active: users.active,
} satisfies Record<(typeof USER_MOBILE_SORTS)[number], AnyColumn | SQL>;

const ADMIN_SORTS = {
  email: users.email,
  name: fullName,
  adminRole: users.adminRole,
  merchantNameEn: merchants.nameEn,
  partyNameEn: parties.nameEn,
  landlordNameEn: landlords.nameEn,
  active: users.active,
} satisfies Record<(typeof USER_ADMIN_SORTS)[number], AnyColumn | SQL>;

export const sortsOf = (kind: UserType): Record<string, AnyColumn | SQL> =>
  kind === 'admin' ? ADMIN_SORTS : MOBILE_SORTS;

/** `column ILIKE '%text%'`, the text's own % and _ taken literally. */
function contains(column: AnyColumn | SQL, text: string | undefined): SQL | undefined {
  if (!text) return undefined;
  const escaped = text.replace(/[\\%_]/g, (c) => `\\${c}`);
  return sql`${column} ilike ${`%${escaped}%`}`;
}

/** The filters of one list as one WHERE over users joined to their site, cluster and group. */
export function userWhere(kind: UserType, query: Partial<UserListQuery>): SQL | undefined {
  const conditions: Array<SQL | undefined> = [eq(users.type, kind), contains(users.email, query.email)];
  if (query.active !== undefined) conditions.push(eq(users.active, query.active));
  if (kind === 'mobile') {
    conditions.push(contains(fullName, query.name), contains(users.tel, query.tel));
    if (query.emailVerified !== undefined) conditions.push(eq(users.emailVerified, query.emailVerified));
    if (query.telVerified !== undefined) conditions.push(eq(users.telVerified, query.telVerified));
    if (query.type) conditions.push(sql`${partnerType} = ${query.type}`);
  } else {
    if (query.merchantId?.length) conditions.push(inArray(clusterId, query.merchantId));
    if (query.partyId?.length) conditions.push(inArray(users.partyId, query.partyId));
    if (query.landlordId?.length) conditions.push(inArray(users.landlordId, query.landlordId));
    if (query.adminRole) conditions.push(eq(users.adminRole, query.adminRole));
  }
  return and(...conditions);
}

export const userRow = {
  id: users.id,
  type: users.type,
  email: users.email,
  firstName: users.firstName,
  lastName: users.lastName,
  tel: users.tel,
  emailVerified: users.emailVerified,
  telVerified: users.telVerified,
  active: users.active,
  partnerUserType: sql<
    'mobile' | 'ruejai' | null
  >`case when ${users.type} = 'mobile' then ${partnerType} end`,
  adminRole: users.adminRole,
  merchantId: clusterId,
  partyId: users.partyId,
  landlordId: users.landlordId,
  merchantNameEn: merchants.nameEn,
  partyNameEn: parties.nameEn,
  landlordNameEn: landlords.nameEn,
};

/** Users with their site, cluster (their own or their site's) and group: the rows of the lists. */
export const userRows = (db: Db) =>
  db
    .select(userRow)
    .from(users)
    .leftJoin(landlords, eq(landlords.id, users.landlordId))
    .leftJoin(merchants, eq(merchants.id, clusterId))
    .leftJoin(parties, eq(parties.id, users.partyId));

/** The same join, counted (the cluster filter needs the site). */
const userCount = (db: Db) =>
  db.select({ total: countAll() }).from(users).leftJoin(landlords, eq(landlords.id, users.landlordId));

export async function listUsers(
  db: Db,
  kind: UserType,
  query: UserListQuery,
): Promise<{ total: number; users: UserListItem[] }> {
  const where = userWhere(kind, query);
  const [{ total } = { total: 0 }] = await userCount(db).where(where);
  const { limit, offset } = paging(query);
  const rows = await userRows(db)
    .where(where)
    .orderBy(...ordering(query, sortsOf(kind), [users.id]))
    .limit(limit)
    .offset(offset);
  return { total, users: rows };
}

/** Runs a write, turning a duplicate email into a 409 with a message the screen can show. */
async function uniqueEmail<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (isUniqueViolation(error)) throw new Conflict(USER_MESSAGES.emailTaken);
    throw error;
  }
}

interface Links {
  merchantId: number | null;
  partyId: number | null;
  landlordId: number | null;
}

/**
 * The links the role needs, checked against the database: the cluster, group and site must exist (404 'No
 * such …' otherwise) and the site must be in the cluster (400). Links the role does not need are dropped.
 */
async function linksFor(db: Db, body: AdminUserBody): Promise<Links> {
  const needs = ROLE_LINKS[body.adminRole];
  const links: Links = {
    merchantId: needs.includes('merchantId') ? (body.merchantId ?? null) : null,
    partyId: needs.includes('partyId') ? (body.partyId ?? null) : null,
    landlordId: needs.includes('landlordId') ? (body.landlordId ?? null) : null,
  };
  if (links.merchantId !== null) {
    const [found] = await db
      .select({ id: merchants.id })
      .from(merchants)
      .where(eq(merchants.id, links.merchantId));
    if (!found) throw new NotFound('No such cluster');
  }
  if (links.partyId !== null) {
    const [found] = await db.select({ id: parties.id }).from(parties).where(eq(parties.id, links.partyId));
    if (!found) throw new NotFound('No such group');
  }
  if (links.landlordId !== null) {
    const [site] = await db
      .select({ merchantId: landlords.merchantId })
      .from(landlords)
      .where(eq(landlords.id, links.landlordId));
    if (!site) throw new NotFound('No such site');
    if (site.merchantId !== links.merchantId) {
      throw new Invalid(`body.landlordId: ${USER_MESSAGES.siteOutsideCluster}`);
    }
  }
  return links;
}

/** A mobile user's columns; `keep` (PATCH) leaves out what the body leaves out. */
function mobileColumns(body: MobileUserBody, keep: boolean) {
  const or = <T>(value: T | undefined, fallback: T) =>
    value === undefined && keep ? undefined : (value ?? fallback);
  return {
    email: body.email,
    partnerUserType: or(body.partnerUserType, 'mobile' as const),
    emailVerified: or(body.emailVerified, false),
    telVerified: or(body.telVerified, false),
    // A new mobile user starts locked (document 2, section 4).
    active: or(body.active, false),
    firstName: body.firstName === undefined && keep ? undefined : (body.firstName ?? ''),
    lastName: body.lastName === undefined && keep ? undefined : (body.lastName ?? ''),
    tel: body.tel === undefined && keep ? undefined : body.tel || null,
  };
}

/**
 * Mails a new user (or one whose address changed before a password was set) an invitation: an admin user to
 * the back office, a member (mobile user) to the charging app, locked or not (a locked member sets the password
 * now and is answered 'locked' at sign-in until switched on). The user is saved by then: a mail that cannot be
 * sent is a 502 saying so, and 'Forgot Password?' still works.
 */
async function invite(ctx: UserContext, userId: number): Promise<void> {
  const [user] = await ctx.db.select().from(users).where(eq(users.id, userId));
  if (!user || (user.type === 'admin' && !user.adminRole)) return;
  const link = await createInvitation(ctx.db, user.id, ctx.appUrl, user.type);
  try {
    if (user.type === 'mobile') await mailMemberInvitation(ctx.mailer, user, link);
    else await mailInvitation(ctx.mailer, { ...user, adminRole: user.adminRole! }, link);
  } catch (error) {
    ctx.log.error({ err: error, userId }, 'invitation mail failed');
    throw new AppError(
      502,
      user.type === 'mobile'
        ? 'The user was saved, but the invitation mail could not be sent. The member can choose "Forgot Password?" in the app to set a password.'
        : 'The user was saved, but the invitation mail could not be sent. The user can choose "Forgot Password?" to set a password.',
    );
  }
}

/**
 * POST /api/user: a mobile user (locked unless told otherwise) or an admin user; either is mailed an invitation.
 * The row and its audit entry commit together; the invitation (a link, a mail) follows.
 */
export async function createUser(
  ctx: UserContext,
  caller: AuthUser,
  body: UserBody,
  actor: AuditActor,
): Promise<number> {
  requireKind(caller, body.type, 'write');
  const values: typeof users.$inferInsert =
    body.type === 'mobile'
      ? { type: 'mobile', ...mobileColumns(body, false) }
      : {
          type: 'admin',
          email: body.email,
          firstName: body.firstName,
          lastName: body.lastName,
          adminRole: body.adminRole,
          ...(await linksFor(ctx.db, body)),
          active: body.active ?? true,
        };
  const id = await uniqueEmail(() =>
    ctx.db.transaction(async (tx) => {
      const entry = await audit(tx, actor, { entity: auditEntity(body.type), action: 'create' });
      const [row] = await tx.insert(users).values(values).returning({ id: users.id });
      await auditedId(tx, entry, row!.id);
      return row!.id;
    }),
  );
  await invite(ctx, id);
  return id;
}

/**
 * PATCH /api/user/{id}: saves the modal. The id must be a user of the body's type (else 404). A new role,
 * link or lock applies from the user's next request (the auth hook reads them on every request); a lock
 * also ends the user's sessions. Nobody changes their own role or locks themselves out.
 */
export async function updateUser(
  ctx: UserContext,
  caller: AuthUser,
  id: number,
  body: UserBody,
  actor: AuditActor,
): Promise<void> {
  requireKind(caller, body.type, 'write');
  const [current] = await ctx.db
    .select({
      email: users.email,
      passHash: users.passHash,
      adminRole: users.adminRole,
      active: users.active,
    })
    .from(users)
    .where(and(eq(users.id, id), eq(users.type, body.type)));
  if (!current) throw new NotFound(USER_NOT_FOUND);
  const locking = body.active === false && current.active;
  if (id === caller.id) {
    if (body.type === 'admin' && body.adminRole !== current.adminRole)
      throw new Invalid(USER_MESSAGES.ownRole);
    if (body.active === false) throw new Invalid(USER_MESSAGES.ownLock);
  }
  const columns =
    body.type === 'mobile'
      ? mobileColumns(body, true)
      : {
          email: body.email,
          firstName: body.firstName,
          lastName: body.lastName,
          adminRole: body.adminRole,
          ...(await linksFor(ctx.db, body)),
          active: body.active,
        };
  await uniqueEmail(() =>
    ctx.db.transaction(async (tx) => {
      await audit(tx, actor, { entity: auditEntity(body.type), entityId: id, action: 'update' });
      await tx
        .update(users)
        .set({ ...columns, updatedAt: sql`now()` })
        .where(eq(users.id, id));
      if (locking) await tx.delete(sessions).where(eq(sessions.userId, id));
    }),
  );
  forgetSessions();
  // The invitation went to the old address and was never used: the new address gets a fresh one.
  const readdressed = current.email.toLowerCase() !== body.email.toLowerCase();
  if (readdressed && current.passHash === null) await invite(ctx, id);
}

/** DELETE /api/user/{id}: an inactive user the caller may change (else 404); active → 409, used → 409. */
export async function deleteUser(db: Db, caller: AuthUser, id: number, actor: AuditActor): Promise<void> {
  const [row] = await db
    .select({ active: users.active, type: users.type })
    .from(users)
    .where(and(eq(users.id, id), inArray(users.type, writableKinds(caller))));
  if (!row) throw new NotFound(USER_NOT_FOUND);
  await deleteUnlessUsed(row.active, () =>
    db.transaction(async (tx) => {
      await audit(tx, actor, { entity: auditEntity(row.type), entityId: id, action: 'delete' });
      await tx.delete(users).where(eq(users.id, id));
    }),
  );
  forgetSessions();
}
