import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { createScratchDatabase } from '@ev/tools/scratch-database';
import type { NatsConnection } from '@nats-io/transport-node';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/app.ts';
import { type Config, loadConfig } from '../../src/config.ts';
import { type Database, openDatabase } from '../../src/db/client.ts';
import type { PaymentGateway } from '../../src/modules/payment/payment-gateway.ts';
import { ensureFirstAdmin } from '../../src/seed/first-admin.ts';
import { migratedTemplate } from './pglite-template.ts';

export const ADMIN = { email: 'root-admin@example.com', pass: 'RootAdmin1' };

export interface TestApp {
  app: FastifyInstance;
  database: Database;
  config: Config;
  /** Base URL of the listening server, e.g. http://127.0.0.1:40123 */
  url: string;
  dataDir: string;
  /** Every log line the server wrote, as text. */
  logs: () => string;
  /** fetch against the server; JSON bodies are encoded, the answer parsed. */
  call: (method: string, urlPath: string, options?: CallOptions) => Promise<CallResult>;
  close: () => Promise<void>;
}

export interface CallOptions {
  body?: unknown;
  token?: string;
  headers?: Record<string, string>;
  /** Send this raw text as the body instead of JSON. */
  raw?: string;
  /** An event stream that may never end (the alerts' bell): read its first chunk only, then close it. */
  peekStreams?: boolean;
}

export interface CallResult {
  status: number;
  // biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON answers
  body: any;
  headers: Headers;
}

/**
 * A real server on a fresh database: PGlite in memory by default, or a new database on the PostgreSQL
 * server when DATABASE_URL is set (dropped on close), so test files can run in parallel. `database`: serve
 * this open database instead (closed with the app, never dropped).
 */
/** JSON calls to a server at `url` (the test app's, or a spawned process's): token, body, parsed answer. */
export function callsTo(url: string) {
  return async (method: string, urlPath: string, options: CallOptions = {}): Promise<CallResult> => {
    const headers: Record<string, string> = { ...options.headers };
    if (options.token) headers['x-access-token'] = options.token;
    let body: string | undefined;
    if (options.raw !== undefined) body = options.raw;
    else if (options.body !== undefined) {
      body = JSON.stringify(options.body);
      headers['content-type'] ??= 'application/json';
    }
    const response = await fetch(url + urlPath, { method, headers, body });
    if (options.peekStreams && response.headers.get('content-type')?.startsWith('text/event-stream')) {
      const reader = response.body!.getReader();
      const first = await reader.read();
      await reader.cancel();
      return {
        status: response.status,
        body: first.value ? new TextDecoder().decode(first.value) : '',
        headers: response.headers,
      };
    }
    const text = await response.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      // not JSON: keep the text
    }
    return { status: response.status, body: parsed, headers: response.headers };
  };
}

export async function startTestApp(
  env: Record<string, string> = {},
  options: {
    paymentGateway?: PaymentGateway;
    database?: Database;
    /** Joins a cluster: this app's connection to the NATS server (closed by the caller). */
    nats?: NatsConnection;
  } = {},
): Promise<TestApp> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ev-test-'));
  const scratch =
    process.env.DATABASE_URL && !options.database
      ? await createScratchDatabase(process.env.DATABASE_URL, 'ev_test')
      : null;
  const databaseUrl = scratch?.url;
  const config = loadConfig({
    DATA_DIR: dataDir,
    WEB_DIST: '',
    LOG_LEVEL: 'info',
    ADMIN_EMAIL: ADMIN.email,
    ADMIN_PASSWORD: ADMIN.pass,
    PEA_TOKEN: 'pea-token-value',
    PEA_TOKEN_C: 'pea-token-c-value',
    ...env,
  });
  const database =
    options.database ??
    (await openDatabase(databaseUrl ? { databaseUrl } : { loadDataDir: await migratedTemplate() }));
  await ensureFirstAdmin(database.db, config.adminEmail, config.adminPassword);
  let logText = '';
  const logStream = new Writable({
    write(chunk, _encoding, done) {
      logText += chunk.toString();
      done();
    },
  });
  const app = await buildApp({
    db: database.db,
    databaseKind: database.kind,
    config,
    logStream,
    paymentGateway: options.paymentGateway,
    nats: options.nats,
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  if (!address || typeof address === 'string') throw new Error('no port');
  const url = `http://127.0.0.1:${address.port}`;

  const call = callsTo(url);

  return {
    app,
    database,
    config,
    url,
    dataDir,
    logs: () => logText,
    call,
    close: async () => {
      await app.close();
      await database.close();
      await scratch?.drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
      // Every staff change must write its audit entry (modules/audit/audit.ts logs the ones that did not).
      const unaudited = [...new Set(logText.match(/audit: no entry for [A-Z]+ \S+/g) ?? [])];
      if (unaudited.length > 0)
        throw new Error(`Staff changes without an audit entry: ${unaudited.join('; ')}`);
    },
  };
}
