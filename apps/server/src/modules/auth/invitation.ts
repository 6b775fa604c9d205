import { ADMIN_ROLE_LABELS, type AdminRole } from '@ev/shared';
import { and, eq, isNull } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { passwordResets } from '../../db/schema/index.ts';
import type { Mailer } from '../../lib/mail.ts';
import { hashToken, newToken } from '../../lib/tokens.ts';

/** An invitation link works once, within 72 hours; then the invitee asks for a reset link ('Forgot Password?'). */
export const INVITE_LINK_TTL_MS = 72 * 3600_000;

export interface Invitee {
  id: number;
  email: string;
  firstName: string;
  lastName: string;
  adminRole: AdminRole;
}

/** A member (mobile user) made by staff: no role, and possibly still locked (Active off). */
export type MemberInvitee = Omit<Invitee, 'adminRole'> & { active: boolean };

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** Who a link is for: the back office's users ('admin') or the charging app's members ('mobile'). */
export type LinkAudience = 'admin' | 'mobile';

/**
 * The web app's set-password page for a token. A member's link adds `app=member`, so the page, once the
 * password is set, sends the member back to the charging app instead of to the back office's sign-in.
 */
export function resetPageLink(appUrl: string, token: string, audience: LinkAudience): string {
  const link = `${appUrl}/reset-password?token=${encodeURIComponent(token)}`;
  return audience === 'mobile' ? `${link}&app=member` : link;
}

/**
 * Records a single-use 'invite' link (table password_resets, spent by POST /api/auth/reset-password like a
 * reset link) and returns it. Any link the user still holds is spent first, so only the newest one works.
 */
export async function createInvitation(
  db: Db,
  userId: number,
  appUrl: string,
  audience: LinkAudience = 'admin',
): Promise<string> {
  const token = newToken();
  const now = new Date();
  await db.transaction(async (tx) => {
    await tx
      .update(passwordResets)
      .set({ usedAt: now })
      .where(and(eq(passwordResets.userId, userId), isNull(passwordResets.usedAt)));
    await tx.insert(passwordResets).values({
      tokenHash: hashToken(token),
      userId,
      kind: 'invite',
      createdAt: now,
      expiresAt: new Date(now.getTime() + INVITE_LINK_TTL_MS),
    });
  });
  return resetPageLink(appUrl, token, audience);
}

const fullName = (person: { firstName: string; lastName: string; email: string }) =>
  [person.firstName, person.lastName].filter(Boolean).join(' ') || person.email;

/** The invitation mail: says it is an invitation, names the role and the username, and carries the link. */
export async function mailInvitation(mailer: Mailer, invitee: Invitee, link: string): Promise<void> {
  const name = fullName(invitee);
  const role = ADMIN_ROLE_LABELS[invitee.adminRole];
  await mailer.send({
    to: invitee.email,
    subject: 'Invitation to the EV Charging Back Office',
    text:
      `Hello ${name},\n\nYou have been invited to the EV Charging back-office as ${role}.\n` +
      `Your username is ${invitee.email}. Open this link within 72 hours to set your password:\n\n${link}\n\n` +
      'The link works once. If it has expired, choose "Forgot Password?" on the sign-in page to get a new one.\n',
    html:
      `<p>Hello ${escapeHtml(name)},</p><p>You have been invited to the EV Charging back-office as ${escapeHtml(role)}.</p>` +
      `<p>Your username is <b>${escapeHtml(invitee.email)}</b>.</p>` +
      `<p><a href="${escapeHtml(link)}">Accept the invitation and set your password</a> (the link works once, within 72 hours).</p>` +
      '<p>If it has expired, choose "Forgot Password?" on the sign-in page to get a new one.</p>',
    link,
  });
}

/**
 * The invitation of a member made by staff: the account is for the EV charging app (no back office, no role).
 * A locked member may set the password now and is told sign-in opens once the account is switched on.
 */
export async function mailMemberInvitation(
  mailer: Mailer,
  member: MemberInvitee,
  link: string,
): Promise<void> {
  const name = fullName(member);
  const locked = member.active
    ? ''
    : 'You can set your password now; you can sign in once your account has been activated.';
  await mailer.send({
    to: member.email,
    subject: 'Your EV Charging app account',
    text:
      `Hello ${name},\n\nAn account of the EV Charging app has been made for you.\n` +
      `Your username is ${member.email}. Open this link within 72 hours to set your password:\n\n${link}\n\n` +
      `Then sign in to the EV Charging app with your email and that password.${locked ? ` ${locked}` : ''}\n` +
      'The link works once. If it has expired, choose "Forgot Password?" in the app to get a new one.\n',
    html:
      `<p>Hello ${escapeHtml(name)},</p><p>An account of the EV Charging app has been made for you.</p>` +
      `<p>Your username is <b>${escapeHtml(member.email)}</b>.</p>` +
      `<p><a href="${escapeHtml(link)}">Set your password</a> (the link works once, within 72 hours), then sign in to the EV Charging app with your email and that password.</p>` +
      (locked ? `<p>${locked}</p>` : '') +
      '<p>If the link has expired, choose "Forgot Password?" in the app to get a new one.</p>',
    link,
  });
}
