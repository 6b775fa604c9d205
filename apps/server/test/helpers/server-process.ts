import { type ChildProcess, spawn } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import { buildServerIfStale } from '../../../../tools/build-if-stale.mjs';
import { eventually } from './ocpp.ts';
import { ADMIN } from './test-app.ts';

const ROOT = path.resolve(import.meta.dirname, '../../../..');
/** The production server, as `npm run build` makes it (tools/build-server.mjs). */
export const SERVER_ENTRY = path.join(ROOT, 'dist/server.js');

/** Builds dist/server.js when its sources changed (npm run test:unit does it first; this covers one file alone). */
export const buildServer = () => buildServerIfStale();

/** A port nobody listens on now (the server is given it: with PORT 0 nobody could tell where it listens). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

export interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface ServerProcess {
  child: ChildProcess;
  url: string;
  port: number;
  /** Settles when the process has exited. */
  exited: Promise<Exit>;
  /** Set once it has exited. */
  exit: () => Exit | null;
  /** stdout and stderr so far (JSON log lines, the banner). */
  output: () => string;
}

/**
 * Runs `node dist/server.js` with only the environment given here (plus PATH), on 127.0.0.1:`port`, and waits
 * until GET /api/ready answers 200. The data is the caller's: DATA_DIR, or DATABASE_URL.
 */
export async function startServerProcess(port: number, env: Record<string, string>): Promise<ServerProcess> {
  const child = spawn(process.execPath, ['--enable-source-maps', SERVER_ENTRY], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH ?? '',
      PORT: String(port),
      HOST: '127.0.0.1',
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.pass,
      WEB_DIST: '',
      LOG_LEVEL: 'warn',
      LOG_FORMAT: 'json',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let text = '';
  child.stdout?.on('data', (chunk) => {
    text += chunk;
  });
  child.stderr?.on('data', (chunk) => {
    text += chunk;
  });
  let exit: Exit | null = null;
  const exited = new Promise<Exit>((resolve) => {
    child.once('exit', (code, signal) => {
      exit = { code, signal };
      resolve(exit);
    });
  });
  const url = `http://127.0.0.1:${port}`;
  const server: ServerProcess = { child, url, port, exited, exit: () => exit, output: () => text };
  try {
    await eventually(async () => {
      if (exit) throw new Error(`the server exited (${JSON.stringify(exit)}) before it was ready:\n${text}`);
      const ready = await fetch(`${url}/api/ready`).catch(() => null);
      return ready?.status === 200;
    }, 30_000);
  } catch (error) {
    child.kill('SIGKILL');
    throw error;
  }
  return server;
}

/** Waits at most `ms` for the process to exit; null when it has not. */
export async function exitWithin(server: ServerProcess, ms: number): Promise<Exit | null> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<null>((resolve) => {
    timer = setTimeout(() => resolve(null), ms);
  });
  try {
    return await Promise.race([server.exited, late]);
  } finally {
    clearTimeout(timer);
  }
}

/** Kills what is still running (a failed test must not leave a server holding the data). */
export async function killServer(server: ServerProcess | undefined): Promise<void> {
  if (!server || server.exit()) return;
  server.child.kill('SIGKILL');
  await server.exited;
}
