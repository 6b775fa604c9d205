import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { provinces } from '../../db/schema/index.ts';
import { NotFound } from '../../lib/errors.ts';

/**
 * A province a form names must exist: 404 'No such province' otherwise, like any record a body names (the
 * foreign key would refuse it as a 500). Null or left out names none.
 */
export async function requireProvince(db: Db, provinceId: number | null | undefined): Promise<void> {
  if (provinceId == null) return;
  const [found] = await db.select({ id: provinces.id }).from(provinces).where(eq(provinces.id, provinceId));
  if (!found) throw new NotFound('No such province');
}
