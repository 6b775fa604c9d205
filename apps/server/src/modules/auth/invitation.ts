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

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * Records a single-use 'invite' link (table password_resets, spent by POST /api/auth/reset-password like a
 * reset link) and returns it. Any link the user still holds is spent first, so only the newest one works.
 */
export async function createInvitation(db: Db, userId: number, appUrl: string): Promise<string> {
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
  return `${appUrl}/reset-password?token=${encodeURIComponent(token)}`;
}

/** The invitation mail: says it is an invitation, names the role and the username, and carries the link. */
export async function mailInvitation(mailer: Mailer, invitee: Invitee, link: string): Promise<void> {
  const name = [invitee.firstName, invitee.lastName].filter(Boolean).join(' ') || invitee.email;
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
