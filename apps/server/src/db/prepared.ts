import type { Db } from './client.ts';

/**
 * A query run on every request (the session lookup, the profile), prepared once per database instead of
 * rebuilt and re-planned per call. `build` must end in `.prepare(name)` with `sql.placeholder`s.
 */
export function preparedPerDb<Q>(build: (db: Db) => Q): (db: Db) => Q {
  const cache = new WeakMap<Db, Q>();
  return (db) => {
    let query = cache.get(db);
    if (!query) {
      query = build(db);
      cache.set(db, query);
    }
    return query;
  };
}
