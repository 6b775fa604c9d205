import type { ListQuery } from '@ev/shared';
import { type AnyColumn, asc, desc, type SQL, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { Conflict, hasSqlState, Invalid } from './errors.ts';

/** LIMIT and OFFSET of a list page (page 1 is the first). */
export function paging(query: Pick<ListQuery, 'page' | 'size'>): { limit: number; offset: number } {
  return { limit: query.size, offset: (query.page - 1) * query.size };
}

/**
 * ORDER BY of a list: `sort` must be one of the list's whitelisted keys (else 400), `order` asc by default.
 * The tie-breakers (usually the id) follow, so pages never overlap or skip rows with equal sort values.
 */
export function ordering<K extends string>(
  query: Pick<ListQuery, 'sort' | 'order'>,
  sorts: Record<K, AnyColumn | SQL>,
  tieBreakers: AnyColumn[],
): SQL[] {
  const tail = tieBreakers.map((column) =>
    query.order === 'desc' && !query.sort ? desc(column) : asc(column),
  );
  if (!query.sort) return tail;
  if (!Object.hasOwn(sorts, query.sort)) {
    throw new Invalid(`query.sort: must be one of ${Object.keys(sorts).join(', ')}`);
  }
  const column = sorts[query.sort as K];
  return [query.order === 'desc' ? desc(column) : asc(column), ...tail];
}

/** `count(*)` as a JS number (PostgreSQL answers bigint as text). */
export const countAll = () => sql<number>`count(*)`.mapWith(Number);

/** A typed filter as an ILIKE pattern: `%` and `_` match themselves, not any text. */
export const contains = (text: string) => `%${text.replace(/[\\%_]/g, '\\$&')}%`;

/**
 * A value placed in a statement: the value itself, or (for a statement prepared once per shape of query and
 * run many times) a named placeholder whose value is given at each run. Builders that take a Bind name every
 * value they place, so the same builder gives both.
 */
export type Bind = <V>(name: string, value: V) => V;
export const bindValue: Bind = (_name, value) => value;

/** SQL that is never true: what a scoped user without its link sees. */
export const nothing = (): SQL => sql`false`;

export const USED_ITEM = "Can't delete already used item";
export const ACTIVE_ITEM = "Can't delete an active item: deactivate it first";

/**
 * True when the database refused a write because another row still refers to this one: 23503
 * (foreign_key_violation, NO ACTION keys) or 23001 (restrict_violation, our ON DELETE RESTRICT keys).
 */
const REFERENCED = new Set(['23503', '23001']);
export const isForeignKeyViolation = (error: unknown) => hasSqlState(error, REFERENCED);

/**
 * Deletes through `remove`, turning a foreign-key refusal into the 409 the UI shows as
 * "Can't delete already used item". Active records are refused first: the UI offers delete only on
 * inactive rows, and the server holds the same rule.
 */
export async function deleteUnlessUsed(active: boolean, remove: () => Promise<unknown>): Promise<void> {
  if (active) throw new Conflict(ACTIVE_ITEM);
  try {
    await remove();
  } catch (error) {
    if (isForeignKeyViolation(error)) throw new Conflict(USED_ITEM);
    throw error;
  }
}

/**
 * Keyset paging by (created_at, id): the rows after (`>`) or before (`<`) the row `lastId`, compared with that
 * row's own key read back by its id, exact to the microsecond. None given: no condition.
 */
export function pastRow(
  createdAt: AnyPgColumn,
  id: AnyPgColumn,
  lastId: number | undefined,
  direction: '>' | '<' = '>',
): SQL | undefined {
  if (lastId === undefined) return undefined;
  const [at, key] = [sql.identifier(createdAt.name), sql.identifier(id.name)];
  return sql`(${createdAt}, ${id}) ${sql.raw(direction)} (select k.${at}, k.${key} from ${id.table} k where k.${key} = ${lastId})`;
}
