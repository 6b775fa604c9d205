import pg from 'pg';

export interface ScratchDatabase {
  /** The URL of the new, empty database. */
  url: string;
  /** Drops it (closing any connection still open to it). */
  drop: () => Promise<void>;
}

async function run(serverUrl: string, statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

/**
 * Creates an empty database of its own on the PostgreSQL server of `serverUrl`, so test files, the e2e
 * server and benchmarks never share state and can run in parallel.
 */
export async function createScratchDatabase(serverUrl: string, prefix: string): Promise<ScratchDatabase> {
  const name = `${prefix}_${process.pid}_${Date.now()}_${Math.floor(Math.random() * 1e6)}`;
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`bad database name ${name}`);
  await run(serverUrl, `CREATE DATABASE ${name}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => run(serverUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) };
}
