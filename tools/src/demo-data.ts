import type { Db } from '@ev/server/db/client';
import { pages, users } from '@ev/server/db/schema/index';
import { hashPassword } from '@ev/server/lib/password';
import { count } from 'drizzle-orm';
import { DEMO_PASSWORD, DEMO_USERS } from './demo-users.ts';
import { PRIVACY, TERMS } from './legal-content.ts';

export { DEMO_PASSWORD, DEMO_USERS };

/**
 * Loads the demo records on an empty database (no content pages and at most the first admin).
 * Returns a summary of what was loaded, or null when the database already held data.
 */
export async function loadDemoData(db: Db): Promise<{ summary: string } | null> {
  const [userCount] = await db.select({ n: count() }).from(users);
  const [pageCount] = await db.select({ n: count() }).from(pages);
  if ((userCount?.n ?? 0) > 1 || (pageCount?.n ?? 0) > 0) return null;

  const passHash = await hashPassword(DEMO_PASSWORD);
  await db.transaction(async (tx) => {
    await tx.insert(users).values(
      DEMO_USERS.map((user) => ({
        type: 'admin' as const,
        email: user.email,
        passHash,
        firstName: user.firstName,
        lastName: user.lastName,
        tel: user.tel,
        adminRole: user.role,
        active: true,
        emailVerified: true,
      })),
    );
    const publishedAt = new Date();
    await tx.insert(pages).values([
      { type: 'terms', ...TERMS, active: true, publishedAt },
      { type: 'privacy', ...PRIVACY, active: true, publishedAt },
    ]);
  });
  return { summary: `${DEMO_USERS.length} users (password ${DEMO_PASSWORD}), terms and privacy pages` };
}
