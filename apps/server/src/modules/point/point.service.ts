import {
  fromSatang,
  POINT_MESSAGES,
  type PointBody,
  type PointRate,
  type PointStatus,
  toSatang,
} from '@ev/shared';
import { and, asc, desc, eq, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import { pointRates } from '../../db/schema/index.ts';
import { Conflict, Invalid, isUniqueViolation, NotFound } from '../../lib/errors.ts';
import { type AuditActor, audit, auditedId } from '../audit/audit.ts';

/**
 * A validFrom this far before the database's clock is still taken: a form set to "now" reaches us a few
 * seconds later (docs/decisions.md). Earlier is a 400.
 */
const PAST_TOLERANCE = sql`interval '1 minute'`;

/**
 * The card in force by the database's clock: the latest start at or before now(). Spelled out with its own
 * alias: drizzle leaves the table off the columns of a one-table select.
 */
const activeId = sql`(select p.id from point_rates p where p.valid_from <= now() order by p.valid_from desc limit 1)`;
const status = sql<PointStatus>`case when ${pointRates.id} = ${activeId} then 'active' when ${pointRates.validFrom} > now() then 'pending' else 'past' end`;
const isPending = sql`${pointRates.validFrom} > now()`;

const pointColumns = {
  id: pointRates.id,
  fromBaht: pointRates.fromBaht,
  toPoint: pointRates.toPoint,
  fromPoint: pointRates.fromPoint,
  toBaht: pointRates.toBaht,
  validFrom: pointRates.validFrom,
  status,
};

const selectPoints = (db: Db) => db.select(pointColumns).from(pointRates);
type Row = Awaited<ReturnType<typeof selectPoints>>[number];

const toPointRate = (row: Row): PointRate => ({
  id: row.id,
  fromBaht: Number(row.fromBaht),
  toPoint: Number(row.toPoint),
  fromPoint: Number(row.fromPoint),
  toBaht: Number(row.toBaht),
  validFrom: row.validFrom.toISOString(),
  status: row.status,
});

/** Every card: the active one, the pending ones by start, then the past ones latest first. */
export async function listPoints(db: Db): Promise<{ points: PointRate[] }> {
  const rows = await selectPoints(db).orderBy(
    sql`case when ${pointRates.id} = ${activeId} then 0 when ${isPending} then 1 else 2 end`,
    // Pending ones by start; the key is null (the same) for the others, which the next key orders.
    asc(sql`case when ${isPending} then ${pointRates.validFrom} end`),
    desc(pointRates.validFrom),
  );
  return { points: rows.map(toPointRate) };
}

/** The card's status now, or 404. */
async function statusOf(db: Db | Tx, id: number): Promise<PointStatus> {
  const [row] = await db.select({ status }).from(pointRates).where(eq(pointRates.id, id));
  if (!row) throw new NotFound(POINT_MESSAGES.notFound);
  return row.status;
}

/** A validFrom more than PAST_TOLERANCE before the database's now() is a 400. */
async function refusePast(db: Db, validFrom: Date): Promise<void> {
  const [row] = await db
    .select({ past: sql<boolean>`${validFrom.toISOString()}::timestamptz < now() - ${PAST_TOLERANCE}` })
    .from(sql`(select 1) as one`);
  if (row?.past) throw new Invalid(`body.validFrom: ${POINT_MESSAGES.validFromPast}`);
}

const numbers = (body: PointBody) => ({
  fromBaht: fromSatang(toSatang(body.fromBaht)),
  toPoint: fromSatang(toSatang(body.toPoint)),
  fromPoint: fromSatang(toSatang(body.fromPoint)),
  toBaht: fromSatang(toSatang(body.toBaht)),
  validFrom: new Date(body.validFrom),
});

/** Two cards never start at the same instant: the unique index's refusal is a 409. */
async function uniqueInstant<T>(save: () => Promise<T>): Promise<T> {
  try {
    return await save();
  } catch (error) {
    if (isUniqueViolation(error)) throw new Conflict(POINT_MESSAGES.sameInstant);
    throw error;
  }
}

export async function createPoint(db: Db, body: PointBody, actor: AuditActor): Promise<number> {
  const values = numbers(body);
  await refusePast(db, values.validFrom);
  return uniqueInstant(() =>
    db.transaction(async (tx) => {
      const entry = await audit(tx, actor, { entity: 'point', action: 'create' });
      const [row] = await tx.insert(pointRates).values(values).returning({ id: pointRates.id });
      await auditedId(tx, entry, row!.id);
      return row!.id;
    }),
  );
}

const refusal = (current: PointStatus, active: string, past: string) =>
  new Conflict(current === 'active' ? active : past);

/**
 * Saves a pending card (the active and past ones are read-only: 409). The update is conditional on the card
 * still pending, so one that came into force meanwhile is refused too.
 */
export async function updatePoint(db: Db, id: number, body: PointBody, actor: AuditActor): Promise<void> {
  const current = await statusOf(db, id);
  if (current !== 'pending') throw refusal(current, POINT_MESSAGES.activeChange, POINT_MESSAGES.pastChange);
  const values = numbers(body);
  await refusePast(db, values.validFrom);
  await uniqueInstant(() =>
    db.transaction(async (tx) => {
      await audit(tx, actor, { entity: 'point', entityId: id, action: 'update' });
      const [row] = await tx
        .update(pointRates)
        .set({ ...values, updatedAt: sql`now()` })
        .where(and(eq(pointRates.id, id), isPending))
        .returning({ id: pointRates.id });
      if (!row) {
        const now = await statusOf(tx, id);
        throw refusal(now, POINT_MESSAGES.activeChange, POINT_MESSAGES.pastChange);
      }
    }),
  );
}

/** Deletes a pending card; the active and past ones stay (409): they are what earned points were counted by. */
export async function deletePoint(db: Db, id: number, actor: AuditActor): Promise<void> {
  await db.transaction(async (tx) => {
    await audit(tx, actor, { entity: 'point', entityId: id, action: 'delete' });
    const [row] = await tx
      .delete(pointRates)
      .where(and(eq(pointRates.id, id), isPending))
      .returning({ id: pointRates.id });
    if (row) return;
    // The entry rolls back with the refusal.
    const current = await statusOf(tx, id);
    throw refusal(current, POINT_MESSAGES.activeDelete, POINT_MESSAGES.pastDelete);
  });
}
