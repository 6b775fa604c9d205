import { and, eq } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { users } from '../db/schema/index.ts';
import { hashPassword } from '../lib/password.ts';

/** On a database with no admin, creates one from ADMIN_EMAIL / ADMIN_PASSWORD. Returns whether it did. */
export async function ensureFirstAdmin(db: Db, email: string, password: string): Promise<boolean> {
  const [existing] = await db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.type, 'admin'), eq(users.adminRole, 'admin')))
    .limit(1);
  if (existing) return false;
  const created = await db
    .insert(users)
    .values({
      type: 'admin',
      email,
      passHash: await hashPassword(password),
      firstName: 'System',
      lastName: 'Administrator',
      adminRole: 'admin',
      active: true,
      emailVerified: true,
    })
    .onConflictDoNothing()
    .returning({ id: users.id });
  return created.length > 0;
}
