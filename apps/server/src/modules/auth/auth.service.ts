import type { ForgotPasswordBody, LoginBody, LoginResponse, ResetPasswordBody } from '@ev/shared';
import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import { passwordResets, sessions, users } from '../../db/schema/index.ts';
import { AppError, Forbidden, Invalid, Unauthorized } from '../../lib/errors.ts';
import type { Mailer } from '../../lib/mail.ts';
import { hashPassword, verifyPassword } from '../../lib/password.ts';
import { hashToken, newToken } from '../../lib/tokens.ts';
import { forgetSessions } from '../../plugins/auth.ts';
import { type AuditActor, actorFrom, audit } from '../audit/audit.ts';
import { resetPageLink } from './invitation.ts';
import {
  checkDelay,
  clearAttempts,
  clearAttemptsStartingWith,
  recordFailure,
  Turns,
  takeAttempt,
} from './throttle.ts';

const MINUTE = 60_000;
/**
 * Sign-in: 3 free failures per account and address, then a wait of 1 s doubling per failure up to 15 minutes;
 * 30 failures per address within 15 minutes, across accounts, stop that address (docs/decisions.md).
 */
export const LOGIN_LIMITS = {
  freeFailures: 3,
  baseDelayMs: 1000,
  maxDelayMs: 15 * MINUTE,
  windowMs: 60 * MINUTE,
  perAddress: 30,
  addressWindowMs: 15 * MINUTE,
  /** Sign-ins of one address evaluated at once (scrypt is CPU-bound: more would only queue in libuv). */
  addressConcurrency: 4,
};
export const RESET_LIMITS = { perAccount: 3, perAddress: 10, windowMs: 60 * MINUTE };
export const RESET_LINK_TTL_MS = 60 * MINUTE;

export interface AuthContext {
  db: Db;
  ip: string;
  sessionTtlMs: number;
}

const emailKey = (email: string) => email.trim().toLowerCase();
/**
 * The failures of one account are kept per address: `login:"<email>"@<address>` (the quotes delimit the email);
 * members (the companion app's users) count apart: `member-login:…`.
 */
const accountPrefix = (email: string, type: UserType = 'admin') =>
  `${type === 'admin' ? 'login' : 'member-login'}:${JSON.stringify(emailKey(email))}@`;
const signInTurns = new Turns();

type UserType = 'admin' | 'mobile';

function findUserByEmail(db: Db, type: UserType, email: string) {
  return db
    .select()
    .from(users)
    .where(and(eq(users.type, type), sql`lower(${users.email}) = ${emailKey(email)}`))
    .limit(1)
    .then((rows) => rows[0]);
}

export async function createSession(db: Db | Tx, userId: number, ttlMs: number): Promise<string> {
  const token = newToken();
  await db
    .insert(sessions)
    .values({ tokenHash: hashToken(token), userId, expiresAt: new Date(Date.now() + ttlMs) });
  return token;
}

/**
 * Unknown account and wrong password give the same 401 `{message:'pass'}`, after the same scrypt work.
 * A locked account is told so only once its password was right. Only failures are counted (LOGIN_LIMITS):
 * the same account signing in from many tabs at once is never refused.
 */
export async function login(ctx: AuthContext, body: LoginBody): Promise<LoginResponse> {
  const user = await checkedSignIn(ctx, body, 'admin');
  const accessToken = await ctx.db.transaction(async (tx) => {
    await audit(tx, actorFrom(user, ctx.ip), { entity: 'session', entityId: user.id, action: 'sign-in' });
    return createSession(tx, user.id, ctx.sessionTtlMs);
  });
  return { message: 'Success' as const, accessToken, adminRole: user.adminRole! };
}

/**
 * A staff sign-in refused after its password was checked (a member's is not audited): the actor is the staff
 * user the address belongs to, if any; `details.email` is the address as typed, never the password. A sign-in
 * refused by the limits before any check (429) writes nothing, so the log cannot be flooded past them.
 */
async function auditFailedSignIn(
  ctx: AuthContext,
  user: { id: number; email: string; adminRole: string | null } | undefined,
  email: string,
  reason: 'pass' | 'locked',
): Promise<void> {
  await audit(ctx.db, actorFrom(user ?? null, ctx.ip), {
    entity: 'session',
    entityId: user?.id ?? null,
    action: 'sign-in-failed',
    details: { email, reason },
  });
}

/** The user whose email and password these are, under the sign-in limits; 401 'pass' or 403 'locked' otherwise. */
export function checkedSignIn(ctx: AuthContext, body: Pick<LoginBody, 'email' | 'pass'>, type: UserType) {
  const pairKey = `${accountPrefix(body.email, type)}${ctx.ip}`;
  const addressKey = `login-ip:${ctx.ip}`;
  // One attempt per account and address at a time, so each sees the failures before it (see Turns).
  return signInTurns.run(addressKey, LOGIN_LIMITS.addressConcurrency, () =>
    signInTurns.run(pairKey, 1, async () => {
      await checkDelay(
        ctx.db,
        pairKey,
        LOGIN_LIMITS,
        { key: addressKey, max: LOGIN_LIMITS.perAddress, windowMs: LOGIN_LIMITS.addressWindowMs },
        'Too many failed sign-in attempts.',
      );
      const user = await findUserByEmail(ctx.db, type, body.email);
      const ok = await verifyPassword(body.pass, user?.passHash ?? null);
      if (!user || !ok || (type === 'admin' && !user.adminRole)) {
        await recordFailure(ctx.db, [pairKey, addressKey]);
        if (type === 'admin') await auditFailedSignIn(ctx, user, body.email, 'pass');
        throw new Unauthorized('pass');
      }
      if (!user.active) {
        if (type === 'admin') await auditFailedSignIn(ctx, user, body.email, 'locked');
        throw new Forbidden('locked');
      }
      await clearAttempts(ctx.db, [pairKey]);
      return user;
    }),
  );
}

export async function logout(db: Db, sessionId: number, actor: AuditActor): Promise<void> {
  await db.transaction(async (tx) => {
    await audit(tx, actor, { entity: 'session', entityId: actor.userId, action: 'sign-out' });
    await tx.delete(sessions).where(eq(sessions.id, sessionId));
  });
  forgetSessions();
}

/** Reset requests count per API: a member and a staff user may share an address (users are unique per type). */
const RESET_KEYS: Record<UserType, { account: string; address: string }> = {
  admin: { account: 'reset:', address: 'reset-ip:' },
  mobile: { account: 'member-reset:', address: 'member-reset-ip:' },
};

/** What each reset mail says: staff reset the back office's password, members the charging app's. */
const RESET_MAILS: Record<UserType, { subject: string; account: string }> = {
  admin: {
    subject: 'Reset your password - EV Charging Back Office',
    account: 'your EV Charging back-office account',
  },
  mobile: { subject: 'Reset your password - EV Charging app', account: 'your EV Charging app account' },
};

/**
 * Mails a single-use link valid for one hour to the account of that type (staff: POST
 * /api/auth/forgot-password; members: POST /api/member/forgot-password). The answer is the same whether or not
 * the account exists, so the form cannot be used to discover accounts; attempts are throttled per address and
 * per account, apart for each type.
 */
export async function forgotPassword(
  ctx: AuthContext & { mailer: Mailer; appUrl: string },
  body: Pick<ForgotPasswordBody, 'email'>,
  type: UserType = 'admin',
): Promise<void> {
  const keys = RESET_KEYS[type];
  // Every request counts, whether or not the account exists.
  await takeAttempt(
    ctx.db,
    [
      {
        key: `${keys.account}${emailKey(body.email)}`,
        max: RESET_LIMITS.perAccount,
        windowMs: RESET_LIMITS.windowMs,
      },
      { key: `${keys.address}${ctx.ip}`, max: RESET_LIMITS.perAddress, windowMs: RESET_LIMITS.windowMs },
    ],
    'Too many password reset requests.',
  );
  const user = await findUserByEmail(ctx.db, type, body.email);
  const linkIssued = user?.active === true;
  const token = newToken();
  await ctx.db.transaction(async (tx) => {
    // A staff request is an entry whether or not the account exists (the throttle above bounds them); the
    // actor is the account's user if there is one. The link's token is never written there.
    if (type === 'admin') {
      await audit(tx, actorFrom(user ?? null, ctx.ip), {
        entity: 'user',
        entityId: user?.id ?? null,
        action: 'password-reset-request',
        details: { email: body.email, linkIssued },
      });
    }
    if (!user || !linkIssued) return;
    await tx.insert(passwordResets).values({
      tokenHash: hashToken(token),
      userId: user.id,
      expiresAt: new Date(Date.now() + RESET_LINK_TTL_MS),
    });
  });
  if (!user || !linkIssued) return;
  const link = resetPageLink(ctx.appUrl, token, type);
  const name = [user.firstName, user.lastName].filter(Boolean).join(' ') || user.email;
  const mail = RESET_MAILS[type];
  await ctx.mailer.send({
    to: user.email,
    subject: mail.subject,
    text:
      `Hello ${name},\n\nSomeone asked to reset the password of ${mail.account}.\n` +
      `Open this link within one hour to choose a new password:\n\n${link}\n\n` +
      'The link works once. If you did not ask for it, ignore this mail: your password stays as it is.\n',
    html:
      `<p>Hello ${escapeHtml(name)},</p><p>Someone asked to reset the password of ${mail.account}.</p>` +
      `<p><a href="${escapeHtml(link)}">Choose a new password</a> (the link works once, within one hour).</p>` +
      '<p>If you did not ask for it, ignore this mail: your password stays as it is.</p>',
    link,
  });
}

/**
 * Sets the new password, spends the link (and any other open link), and signs the user out everywhere. `only`
 * narrows the links taken to one type of user (the member API takes members' links only; a staff link is the
 * same 400 as an unknown one). The failed sign-ins cleared are those of the user's own type. A staff user's
 * reset is an audit entry of that user from `ip` (the new hash is redacted, the link's token never written).
 */
export async function resetPassword(
  db: Db,
  body: ResetPasswordBody,
  only?: UserType,
  ip: string | null = null,
): Promise<void> {
  const now = new Date();
  const [reset] = await db
    .select({
      id: passwordResets.id,
      userId: passwordResets.userId,
      type: users.type,
      email: users.email,
      adminRole: users.adminRole,
    })
    .from(passwordResets)
    .innerJoin(users, eq(users.id, passwordResets.userId))
    .where(
      and(
        eq(passwordResets.tokenHash, hashToken(body.emailToken)),
        isNull(passwordResets.usedAt),
        gt(passwordResets.expiresAt, now),
        only ? eq(users.type, only) : undefined,
      ),
    )
    .limit(1);
  if (!reset) throw new Invalid('The reset link is invalid or has expired.');
  const passHash = await hashPassword(body.pass);
  await db.transaction(async (tx) => {
    if (reset.type === 'admin') {
      const actor = actorFrom({ id: reset.userId, email: reset.email, adminRole: reset.adminRole }, ip);
      await audit(tx, actor, { entity: 'user', entityId: reset.userId, action: 'password-reset' });
    }
    const spent = await tx
      .update(passwordResets)
      .set({ usedAt: now })
      .where(and(eq(passwordResets.userId, reset.userId), isNull(passwordResets.usedAt)))
      .returning({ id: passwordResets.id });
    if (!spent.some((row) => row.id === reset.id))
      throw new AppError(400, 'The reset link is invalid or has expired.');
    const [user] = await tx
      .update(users)
      .set({ passHash, updatedAt: now })
      .where(eq(users.id, reset.userId))
      .returning({ email: users.email, type: users.type });
    await tx.delete(sessions).where(eq(sessions.userId, reset.userId));
    // Whoever holds the mailbox proved it: the failures that locked the account out no longer count.
    if (user) await clearAttemptsStartingWith(tx, accountPrefix(user.email, user.type));
  });
  forgetSessions();
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
