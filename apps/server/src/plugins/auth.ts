import { type AdminRole, can, type Permission } from '@ev/shared';
import { and, eq, gt, sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Db } from '../db/client.ts';
import { preparedPerDb } from '../db/prepared.ts';
import { sessions, users } from '../db/schema/index.ts';
import { Forbidden, Unauthorized } from '../lib/errors.ts';
import { hashToken } from '../lib/tokens.ts';

export interface AuthUser {
  id: number;
  email: string;
  adminRole: AdminRole;
  merchantId: number | null;
  partyId: number | null;
  landlordId: number | null;
}

/** A signed-in member of the companion app (a mobile user). */
export interface Member {
  id: number;
  email: string;
  sessionId: number;
}

export interface Auth {
  user: AuthUser;
  sessionId: number;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The permission this route needs (from PERMISSIONS); every /api route names one or is public. */
    permission?: Permission;
    /**
     * A lighter permission for some `?mode=` of the route, e.g. a list's `mode=dropdown`, open to every role
     * and narrowed by the data scope, while the list itself needs `permission`.
     */
    modePermissions?: Partial<Record<string, Permission>>;
    public?: boolean;
    /** The companion app's calls: a signed-in member (mobile user), not staff. */
    member?: boolean;
    /** Accept the token as `?accessToken=` too (server-sent events cannot set headers). */
    queryToken?: boolean;
  }
  interface FastifyRequest {
    auth: Auth | null;
    member: Member | null;
  }
}

function tokenOf(request: FastifyRequest): string | undefined {
  const header = request.headers['x-access-token'];
  if (typeof header === 'string' && header.length > 0) return header;
  if (request.routeOptions.config.queryToken) {
    const query = request.query as { accessToken?: unknown } | undefined;
    if (typeof query?.accessToken === 'string') return query.accessToken;
  }
  return undefined;
}

/** Every request runs this query. */
const sessionQuery = preparedPerDb((db) =>
  db
    .select({
      sessionId: sessions.id,
      id: users.id,
      email: users.email,
      adminRole: users.adminRole,
      merchantId: users.merchantId,
      partyId: users.partyId,
      landlordId: users.landlordId,
      active: users.active,
      type: users.type,
    })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(and(eq(sessions.tokenHash, sql.placeholder('tokenHash')), gt(sessions.expiresAt, sql`now()`)))
    .limit(1)
    .prepare('auth_session'),
);

type SessionRow = Awaited<ReturnType<ReturnType<typeof sessionQuery>['execute']>>[number];

/**
 * Sessions found in the last SESSION_CACHE_MS, per database: a list call's sign-in check was a third round
 * trip beside its count and page (measured on the booking list: the writes to the database's socket were the
 * server's largest cost). Any change to users or sessions in this process (sign-out, lock, role, password,
 * delete) calls forgetSessions(), which drops them all at once; a change made by another process shows within
 * SESSION_CACHE_MS. Only sessions found are kept, never a miss.
 */
const SESSION_CACHE_MS = 2000;
const SESSION_CACHE_MAX = 10_000;
const sessionCaches = new WeakMap<Db, Map<string, { row: SessionRow; until: number; generation: number }>>();
let generation = 0;

const forgetListeners = new Set<() => void>();

/** Forgets every session checked recently: call it after a change to users or sessions has committed. */
export function forgetSessions(): void {
  generation++;
  for (const listener of forgetListeners) listener();
}

/** Forgets this process's sessions only: another process made the change (cluster/bus.ts). */
export function forgetSessionsHere(): void {
  generation++;
}

/** Hears every forgetSessions() of this process (the cluster tells the other processes); returns the undo. */
export function onForgetSessions(listener: () => void): () => void {
  forgetListeners.add(listener);
  return () => forgetListeners.delete(listener);
}

async function sessionOf(db: Db, token: string): Promise<SessionRow | undefined> {
  const tokenHash = hashToken(token);
  let cache = sessionCaches.get(db);
  if (!cache) {
    cache = new Map();
    sessionCaches.set(db, cache);
  }
  const now = Date.now();
  const hit = cache.get(tokenHash);
  if (hit && hit.until > now && hit.generation === generation) return hit.row;
  const asked = generation;
  const [row] = await sessionQuery(db).execute({ tokenHash });
  // A change that committed while the query ran may not be in its answer: keep nothing then.
  if (row && asked === generation) {
    cache.delete(tokenHash);
    if (cache.size >= SESSION_CACHE_MAX) cache.delete(cache.keys().next().value as string);
    cache.set(tokenHash, { row, until: now + SESSION_CACHE_MS, generation });
  }
  return row;
}

/** Finds the signed-in user of a token; null when the token is unknown, expired or its user locked. */
export async function authenticate(db: Db, token: string): Promise<Auth | null> {
  if (token.length > 200) return null;
  const row = await sessionOf(db, token);
  if (!row?.active || row.type !== 'admin' || !row.adminRole) return null;
  const { sessionId, active: _active, type: _type, adminRole, ...user } = row;
  return { sessionId, user: { ...user, adminRole } };
}

/** The member of a token; null when the token is unknown, expired, staff's, or its member locked. */
export async function authenticateMember(db: Db, token: string): Promise<Member | null> {
  if (token.length > 200) return null;
  const row = await sessionOf(db, token);
  if (!row?.active || row.type !== 'mobile') return null;
  return { id: row.id, email: row.email, sessionId: row.sessionId };
}

/** The permission a request needs: the route's, or the one it names for the request's `?mode=`. */
function permissionOf(request: FastifyRequest, permission: Permission): Permission {
  const modes = request.routeOptions.config.modePermissions;
  if (!modes) return permission;
  const mode = (request.query as { mode?: unknown } | undefined)?.mode;
  return (typeof mode === 'string' && Object.hasOwn(modes, mode) && modes[mode]) || permission;
}

/**
 * Every /api route either says `public: true` or names a permission. Signed-out callers get 401, a role
 * the permission table does not list gets 403. Routes without either fail at start-up, not in production.
 */
export function registerAuth(app: FastifyInstance, db: Db) {
  app.decorateRequest('auth', null);
  app.decorateRequest('member', null);
  app.addHook('onRoute', (route) => {
    if (!route.url.startsWith('/api/') || route.url.startsWith('/api/docs')) return;
    const config = (route.config ?? {}) as { permission?: Permission; public?: boolean; member?: boolean };
    if (!config.public && !config.permission && !config.member) {
      throw new Error(
        `Route ${route.method} ${route.url} must declare config.permission, config.member or config.public`,
      );
    }
  });
  app.addHook('onRequest', async (request) => {
    const config = request.routeOptions.config;
    if (config.member) {
      const token = tokenOf(request);
      const member = token ? await authenticateMember(db, token) : null;
      if (!member) throw new Unauthorized(token ? 'Session expired' : 'Unauthorized');
      request.member = member;
      return;
    }
    if (config.public || !config.permission) return;
    const token = tokenOf(request);
    const auth = token ? await authenticate(db, token) : null;
    if (!auth) throw new Unauthorized(token ? 'Session expired' : 'Unauthorized');
    if (!can(auth.user.adminRole, permissionOf(request, config.permission))) throw new Forbidden();
    request.auth = auth;
  });
}

/** The signed-in user of a route that declared a permission. */
export function authOf(request: FastifyRequest): Auth {
  if (!request.auth) throw new Unauthorized();
  return request.auth;
}

/** The signed-in member of a member route. */
export function memberOf(request: FastifyRequest): Member {
  if (!request.member) throw new Unauthorized();
  return request.member;
}
