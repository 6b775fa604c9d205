import type { PGlite } from '@electric-sql/pglite';
import type { Query } from 'drizzle-orm';
import pg from 'pg';
import type { Db } from './client.ts';

/**
 * Rows as arrays in the statement's column order, straight from the driver: no per-field mapping (drizzle's
 * mapResultRow, with an `is()` check per field, was the report's largest cost after the sheet itself). For
 * exports of millions of rows whose columns are plain values (cast numbers, text, epoch milliseconds).
 *
 * On a PostgreSQL server the statement runs without parallel workers: for a batch of a few thousand rows
 * in index order, the planner's Gather Merge of two workers cost more to start than it saved (5,000 rows:
 * 78 ms with workers, ~40 ms without). PGlite is one process: it never plans workers.
 */
export async function arrayRows(db: Db, query: Query): Promise<unknown[][]> {
  const client = (db as unknown as { $client: pg.Pool | PGlite }).$client;
  if (!(client instanceof pg.Pool)) {
    return (await client.query<unknown[]>(query.sql, query.params, { rowMode: 'array' })).rows;
  }
  const connection = await client.connect();
  let broken: Error | undefined;
  try {
    await connection.query('begin');
    await connection.query('set local max_parallel_workers_per_gather = 0');
    const { rows } = await connection.query<unknown[]>({
      text: query.sql,
      values: query.params,
      rowMode: 'array',
    });
    await connection.query('commit');
    return rows;
  } catch (error) {
    // A statement that failed leaves the transaction aborted: roll it back, or drop the connection.
    await connection.query('rollback').catch((rollbackError: Error) => {
      broken = rollbackError;
    });
    throw error;
  } finally {
    connection.release(broken);
  }
}
