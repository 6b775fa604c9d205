import { CONTACT_US_MESSAGES, type ContactUs, type ContactUsBody } from '@ev/shared';
import { eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { contactUs } from '../../db/schema/index.ts';
import { Invalid } from '../../lib/errors.ts';
import { type AuditActor, audit } from '../audit/audit.ts';

/** The table holds one row, id 1 (seeded by the migration). */
const ROW_ID = 1;

const contactColumns = {
  email: contactUs.email,
  phone: contactUs.phone,
  facebook: contactUs.facebook,
  instagram: contactUs.instagram,
  line: contactUs.line,
  address: contactUs.address,
  minVersionAndroid: contactUs.minVersionAndroid,
  minVersionIOS: contactUs.minVersionIOS,
};

const EMPTY: ContactUs = {
  email: null,
  phone: null,
  facebook: null,
  instagram: null,
  line: null,
  address: null,
  minVersionAndroid: null,
  minVersionIOS: null,
};

export async function getContactUs(db: Db): Promise<ContactUs> {
  const [row] = await db.select(contactColumns).from(contactUs).where(eq(contactUs.id, ROW_ID));
  return row ?? EMPTY;
}

/** The fields that must hold a value once saved: required while the stored row has none (section 5). */
const REQUIRED = [
  ['email', CONTACT_US_MESSAGES.email],
  ['phone', CONTACT_US_MESSAGES.phone],
  ['line', CONTACT_US_MESSAGES.line],
] as const;

/**
 * Applies the changes (an absent field keeps its value, null clears it). Email Support, Call Center and
 * LINE may be left out while the row has them, but never end up empty (400: the entry goes back with it).
 */
export async function updateContactUs(db: Db, body: ContactUsBody, actor: AuditActor): Promise<void> {
  const changes = Object.fromEntries(
    Object.entries(body).filter(([, value]) => value !== undefined),
  ) as Partial<ContactUs>;
  await db.transaction(async (tx) => {
    await audit(tx, actor, { entity: 'contact-us', entityId: ROW_ID, action: 'update' });
    const [current] = await tx
      .select(contactColumns)
      .from(contactUs)
      .where(eq(contactUs.id, ROW_ID))
      .for('update');
    const next = { ...(current ?? EMPTY), ...changes };
    for (const [field, message] of REQUIRED) {
      if (!next[field]) throw new Invalid(`body.${field}: ${message}`);
    }
    await tx
      .insert(contactUs)
      .values({ id: ROW_ID, ...next })
      .onConflictDoUpdate({ target: contactUs.id, set: { ...next, updatedAt: sql`now()` } });
  });
}
