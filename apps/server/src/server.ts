import os from 'node:os';
import { performance } from 'node:perf_hooks';
import type { NatsConnection } from '@nats-io/transport-node';
import type { FastifyInstance } from 'fastify';
import { buildApp } from './app.ts';
import { closeBus, connectBus, shownNatsUrl } from './cluster/bus.ts';
import { type Config, DEFAULT_ADMIN_PASSWORD, LISTEN_BACKLOG, loadConfig } from './config.ts';
import { type Database, openDatabase } from './db/client.ts';
import { tuneHeap } from './lib/heap.ts';
import { ensureFirstAdmin } from './seed/first-admin.ts';

/** When the code had loaded: the first phase of the start (node, the bundle, the packages it imports). */
const loadedAt = performance.now();

/** How long a stop may take before the process exits anyway (a supervisor's stop timeout is longer). */
export const SHUTDOWN_DEADLINE_MS = 10_000;

export interface StartedExtras {
  /** Lines added to the ready banner. */
  lines?: string[];
  /** Called first when the server stops (before it stops accepting), e.g. to end simulations. */
  stop?: () => Promise<void>;
}

/**
 * What a program built on the server adds around it (the demo in tools/: sample data and simulators). The
 * server package knows nothing of them: `npm start` composes them (tools/src/demo-main.ts).
 */
export interface ServerHooks {
  /** After the database opened and migrated, before the app is built. Returns a line for the log. */
  beforeBuild?: (context: { database: Database; config: Config }) => Promise<string | undefined>;
  /** Once the server listens. */
  afterListen?: (context: {
    database: Database;
    config: Config;
    app: FastifyInstance;
  }) => Promise<StartedExtras | undefined>;
}

/**
 * Runs the server as a program: reads the environment, opens and migrates the database, listens, prints the
 * ready banner, and stops cleanly on SIGTERM or SIGINT (docs/operations.md, Stop).
 */
export async function runServer(hooks: ServerHooks = {}): Promise<void> {
  tuneHeap();
  // Where the start's time goes, printed with the ready line: node and the code loading, the database
  // (opening, its recovery after a crash, the migrations check), the demo hook, building the app, listening.
  const phases: Array<[string, number]> = [['load', loadedAt]];
  // What the program did before starting the server (the demo's loader process on a new database).
  if (performance.now() - loadedAt > 50) phases.push(['before', performance.now() - loadedAt]);
  let lap = performance.now();
  const phase = (name: string) => {
    const now = performance.now();
    phases.push([name, now - lap]);
    lap = now;
  };
  let config: Config;
  try {
    config = loadConfig();
  } catch (error) {
    console.error((error as Error).message);
    process.exit(1);
  }

  let database: Database;
  try {
    database = await openDatabase({
      databaseUrl: config.databaseUrl,
      dataDir: config.databaseUrl ? undefined : config.dataDir,
      onPoolError: (error) =>
        console.error(`PostgreSQL connection lost (the pool reconnects): ${error.message}`),
    });
  } catch (error) {
    console.error(`Cannot open the database: ${(error as Error).message}`);
    process.exit(1);
  }

  const createdAdmin = await ensureFirstAdmin(database.db, config.adminEmail, config.adminPassword);
  phase('database');
  const prepared = await hooks.beforeBuild?.({ database, config });
  if (prepared) console.log(prepared);
  if (hooks.beforeBuild) phase('demo');

  // Several processes, one network: the NATS server carries commands to chargers held by other processes.
  let nats: NatsConnection | undefined;
  if (config.natsUrl) {
    try {
      nats = await connectBus(config.natsUrl, `ev-backoffice ${os.hostname()}:${process.pid}`);
    } catch (error) {
      console.error(
        `Cannot reach the NATS server at ${shownNatsUrl(config.natsUrl)}: ${(error as Error).message}`,
      );
      await database.close();
      process.exit(1);
    }
    phase('nats');
  }
  const app = await buildApp({ db: database.db, databaseKind: database.kind, config, nats });
  phase('app');
  let extras: StartedExtras | undefined;
  let stopping = false;
  async function shutdown(signal: string) {
    if (stopping) {
      // A second signal: the operator wants out now.
      app.log.warn({ signal }, 'second signal: exiting at once');
      process.exit(1);
    }
    stopping = true;
    app.log.info({ signal }, 'shutting down');
    const deadline = setTimeout(() => {
      app.log.error(`shutdown took longer than ${SHUTDOWN_DEADLINE_MS} ms: exiting`);
      process.exit(1);
    }, SHUTDOWN_DEADLINE_MS);
    deadline.unref();
    let code = 0;
    try {
      app.lifecycle?.markStopping();
      await extras?.stop?.();
      // Stops accepting, closes the chargers' sockets with 1012 (come back) once their calls are answered,
      // flushes the batched charger writes, then waits for the HTTP requests in flight (app.ts, preClose).
      // Node closes the keep-alive connections idle when the HTTP server closes, then waits for the others: one
      // whose request was still running goes idle once answered and would stay open for the keep-alive timeout
      // (Fastify's 72 s), past the deadline. Those are closed as they go idle (new requests get 503 meanwhile).
      const closeIdle = setInterval(() => app.server.closeIdleConnections(), 100);
      try {
        await app.close();
      } finally {
        clearInterval(closeIdle);
      }
    } catch (error) {
      code = 1;
      app.log.error({ err: error }, 'shutdown failed');
    } finally {
      // Replies still being sent to other processes go out first; with the NATS server away, a drain would
      // wait for it: at most NATS_DRAIN_MS, then the connection is closed.
      if (nats) await closeBus(nats, app.log);
      await database.close().catch((error: unknown) => {
        code = 1;
        app.log.error({ err: error }, 'closing the database failed');
      });
      app.log.info('stopped');
      process.exit(code);
    }
  }
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  /**
   * Last resort, not a fix: every input path handles its own errors (docs/decisions.md, Hardening). Should a
   * bug still throw past them, the process state can't be trusted: log it as one fatal line and exit, for the
   * supervisor to restart (README: "Run under a supervisor"). Chargers reconnect by themselves.
   */
  const fatal = (kind: string) => (error: unknown) => {
    app.log.fatal({ err: error }, `${kind}: exiting for the supervisor to restart the server`);
    process.exit(1);
  };
  process.on('uncaughtException', fatal('uncaught exception'));
  process.on('unhandledRejection', fatal('unhandled rejection'));

  try {
    await app.listen({ port: config.port, host: config.host, backlog: LISTEN_BACKLOG });
  } catch (error) {
    console.error(`Cannot listen on port ${config.port}: ${(error as Error).message}`);
    await database.close();
    process.exit(1);
  }
  phase('listen');
  const readyMs = Math.round(phases.reduce((sum, [, ms]) => sum + ms, 0));
  const breakdown = phases.map(([name, ms]) => `${name} ${Math.round(ms)}`).join(', ');
  app.log.info({ startMs: readyMs, phases: Object.fromEntries(phases) }, 'listening');
  extras = await hooks.afterListen?.({ database, config, app });

  const where =
    database.kind === 'postgres'
      ? 'PostgreSQL server (DATABASE_URL)'
      : `embedded PGlite in ${config.dataDir}`;
  const url = `http://localhost:${config.port}`;
  const password =
    config.adminPassword === DEFAULT_ADMIN_PASSWORD
      ? ` / ${DEFAULT_ADMIN_PASSWORD} (the local default: set ADMIN_PASSWORD for any real use)`
      : createdAdmin
        ? ' / the password in ADMIN_PASSWORD'
        : '';
  console.log(
    [
      '',
      `  EV Charging back office ${config.version} is ready at ${url}  (${readyMs} ms: ${breakdown})`,
      `  Database: ${where}`,
      ...(config.natsUrl
        ? [
            `  Cluster: commands to chargers on other processes through NATS at ${shownNatsUrl(config.natsUrl)}`,
          ]
        : []),
      `  Admin login: ${config.adminEmail}${password}${createdAdmin ? '  [admin account created]' : ''}`,
      config.webDist ? '' : '  (web app not built: API only)',
      `  API docs: ${url}/api/docs`,
      `  OCPP 1.6J and 2.0.1: ws://localhost:${config.port}/ocpp/{chargerId}`,
      ...(extras?.lines ?? []),
      config.batch.token
        ? `  Batch token (Hard Reset All, Config All): ${config.batch.token === 'demo-batch-token' ? 'demo-batch-token' : 'set in BATCH_COMMAND_TOKEN'}`
        : '  Batch commands are off (set BATCH_COMMAND_TOKEN)',
      '',
    ].join('\n'),
  );
}
