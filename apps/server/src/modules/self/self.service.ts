import type { SelfUser, TermAcceptBody, UpdateSelfBody } from '@ev/shared';
import { and, eq, ne, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { preparedPerDb } from '../../db/prepared.ts';
import { sessions, termAcceptances, users } from '../../db/schema/index.ts';
import { Conflict, Invalid, NotFound } from '../../lib/errors.ts';
import { hashPassword, verifyPassword } from '../../lib/password.ts';
import { type Auth, forgetSessions } from '../../plugins/auth.ts';
import { type AuditActor, audit } from '../audit/audit.ts';
import { clearAttempts, takeAttempt } from '../auth/throttle.ts';
import {
  activeLegalPage,
  hasAcceptedTerms,
  LEGAL_TYPES,
  type LegalType,
  termAcceptSql,
} from '../legal/legal.service.ts';

export const CURRENT_PASS_LIMIT = { max: 5, windowMs: 15 * 60_000 };

/** Every screen loads the profile: prepared once per database. */
const selfQuery = preparedPerDb((db) =>
  db
    .select({ user: users, termAccept: termAcceptSql(users.id) })
    .from(users)
    .where(eq(users.id, sql.placeholder('userId')))
    .limit(1)
    .prepare('self_profile'),
);

export async function getSelf(db: Db, userId: number): Promise<SelfUser> {
  const [row] = await selfQuery(db).execute({ userId });
  const user = row?.user;
  if (!user?.adminRole) throw new NotFound('User not found');
  return {
    id: user.id,
    avatar: user.avatar,
    firstName: user.firstName,
    lastName: user.lastName,
    email: user.email,
    tel: user.tel,
    point: user.point,
    adminRole: user.adminRole,
    termAccept: row?.termAccept === true,
  };
}

/**
 * The name change, or the password change. A wrong current password answers 400 `{message:'currentPass'}`
 * (the screen's cue), is throttled, and a new password signs out the user's other sessions. Each is an audit
 * entry of the user ('update', or 'password-change' whose hash the trigger writes as redacted).
 */
export async function updateSelf(db: Db, auth: Auth, body: UpdateSelfBody, actor: AuditActor): Promise<void> {
  const now = new Date();
  if ('currentPass' in body) {
    const key = `self-pass:${auth.user.id}`;
    await takeAttempt(db, [{ key, ...CURRENT_PASS_LIMIT }], 'Too many wrong current passwords.');
    const [user] = await db
      .select({ passHash: users.passHash })
      .from(users)
      .where(eq(users.id, auth.user.id));
    // A wrong current password keeps the attempt recorded; the right one clears the count.
    if (!user || !(await verifyPassword(body.currentPass, user.passHash))) throw new Invalid('currentPass');
    await clearAttempts(db, [key]);
    const passHash = await hashPassword(body.pass);
    await db.transaction(async (tx) => {
      await audit(tx, actor, { entity: 'user', entityId: auth.user.id, action: 'password-change' });
      await tx.update(users).set({ passHash, updatedAt: now }).where(eq(users.id, auth.user.id));
      await tx
        .delete(sessions)
        .where(and(eq(sessions.userId, auth.user.id), ne(sessions.id, auth.sessionId)));
    });
    forgetSessions();
    return;
  }
  await db.transaction(async (tx) => {
    await audit(tx, actor, { entity: 'user', entityId: auth.user.id, action: 'update' });
    await tx
      .update(users)
      .set({ firstName: body.firstName, lastName: body.lastName, updatedAt: now })
      .where(eq(users.id, auth.user.id));
  });
  forgetSessions();
}

/**
 * Records that the user accepted the given terms and privacy pages. The ids must be the pages in force
 * now (null where none is): if a new page was published since the user loaded them, 409 asks to re-read.
 * The acceptance is evidence of consent (who, when, from which address): one audit entry per page accepted,
 * entity 'page' with the page's id, action 'update', `details.accepted` its type (the table of acceptances is
 * not captured by a trigger). With no page in force nothing is accepted; the entry then says so.
 */
export async function acceptTerms(
  db: Db,
  userId: number,
  body: TermAcceptBody,
  actor: AuditActor,
): Promise<boolean> {
  const accepted: Array<{ id: number; type: LegalType }> = [];
  for (const type of LEGAL_TYPES) {
    const page = await activeLegalPage(db, type);
    const given = type === 'terms' ? body.termsId : body.privacyId;
    if ((page?.id ?? null) !== given) {
      throw new Conflict('The terms or privacy policy changed. Please read them again.');
    }
    if (page) accepted.push({ id: page.id, type });
  }
  await db.transaction(async (tx) => {
    if (accepted.length === 0) {
      await audit(tx, actor, { entity: 'page', action: 'update', details: { accepted: null } });
      return;
    }
    for (const page of accepted)
      await audit(tx, actor, {
        entity: 'page',
        entityId: page.id,
        action: 'update',
        details: { accepted: page.type },
      });
    await tx.insert(termAcceptances).values(accepted.map((page) => ({ userId, pageId: page.id })));
  });
  return hasAcceptedTerms(db, userId);
}
