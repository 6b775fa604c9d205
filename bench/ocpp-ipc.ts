/**
 * The plumbing of `bench/ocpp.ts`: its children (server under test, bare baseline server, simulated fleets)
 * run in processes of their own and answer requests over the Node IPC channel; their memory and CPU are
 * read from /proc.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';

const root = path.resolve(import.meta.dirname, '..');

interface Request {
  id: number;
  type: string;
  payload?: unknown;
}
interface Reply {
  id: number;
  ok: boolean;
  value?: unknown;
  error?: string;
}

/** In a child: answers the parent's requests with these handlers, then tells it that it is ready. */
export function serveRequests(
  handlers: Record<string, (payload: unknown) => unknown>,
  ready?: unknown,
): void {
  process.on('message', (message: Request) => {
    const handler = handlers[message.type];
    Promise.resolve()
      .then(() => {
        if (!handler) throw new Error(`unknown request ${message.type}`);
        return handler(message.payload);
      })
      .then(
        (value) => process.send?.({ id: message.id, ok: true, value } satisfies Reply),
        (error: unknown) =>
          process.send?.({ id: message.id, ok: false, error: String((error as Error).stack ?? error) }),
      );
  });
  // The bench went away (killed, crashed): do not linger holding ports and sockets.
  process.on('disconnect', () => process.exit(1));
  process.send?.({ id: 0, ok: true, value: ready ?? null } satisfies Reply);
}

/** A child process running one of the bench's TypeScript files, spoken to over IPC. */
export class Child {
  private nextId = 1;
  private readonly waiting = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  readonly process: ChildProcess;
  readonly exited: Promise<number | null>;
  /** Resolves when the child says it is ready (its message of id 0), with what it sent. */
  readonly ready: Promise<unknown>;

  constructor(
    readonly name: string,
    file: string,
    env: Record<string, string>,
    execArgv: string[] = [],
  ) {
    this.process = spawn(process.execPath, [...execArgv, '--import', 'tsx', path.join('bench', file)], {
      cwd: root,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
    });
    for (const stream of [this.process.stdout, this.process.stderr]) {
      createInterface({ input: stream! }).on('line', (line) => console.log(`  [${name}] ${shorten(line)}`));
    }
    let ready: (value: unknown) => void = () => undefined;
    let failed: (error: Error) => void = () => undefined;
    this.ready = new Promise((resolve, reject) => {
      ready = resolve;
      failed = reject;
    });
    this.ready.catch(() => undefined);
    this.process.on('message', (message: Reply) => {
      if (message.id === 0) ready(message.value);
      const waiter = this.waiting.get(message.id);
      if (!waiter) return;
      this.waiting.delete(message.id);
      if (message.ok) waiter.resolve(message.value);
      else waiter.reject(new Error(`${this.name}: ${message.error}`));
    });
    this.exited = new Promise((resolve) => {
      this.process.once('exit', (code) => {
        for (const waiter of this.waiting.values()) waiter.reject(new Error(`${name} exited with ${code}`));
        this.waiting.clear();
        failed(new Error(`${name} exited with ${code}`));
        resolve(code);
      });
    });
  }

  get pid(): number {
    return this.process.pid!;
  }

  ask<T>(type: string, payload?: unknown): Promise<T> {
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      if (this.process.exitCode !== null) {
        reject(new Error(`${this.name} has exited`));
        return;
      }
      this.waiting.set(id, { resolve: resolve as (v: unknown) => void, reject });
      this.process.send({ id, type, payload } satisfies Request);
    });
  }

  /** Asks it to stop, then makes sure it has. */
  async stop(): Promise<void> {
    if (this.process.exitCode !== null || this.process.signalCode !== null) return;
    const timer = setTimeout(() => this.process.kill('SIGKILL'), 15_000);
    await this.ask('stop').catch(() => undefined);
    await this.exited;
    clearTimeout(timer);
  }
}

/**
 * A child's output line, short: a server log line (pino JSON) as its message, error and cause (a failed
 * query's log line holds all its parameters), anything else cut at 300 characters.
 */
function shorten(line: string): string {
  try {
    const entry = JSON.parse(line) as { msg?: string; err?: { message?: string; stack?: string } } | null;
    if (typeof entry !== 'object' || entry === null || !entry.msg) throw new Error('not a log line');
    const cause = entry.err?.stack?.split('\n').find((l) => l.trim().startsWith('caused by'));
    const error = entry.err?.message?.split('\n')[0]?.slice(0, 120);
    return [entry.msg, error, cause?.trim()].filter(Boolean).join(': ');
  } catch {
    return line.length > 300 ? `${line.slice(0, 300)}…` : line;
  }
}

/** Resident set now and its high-water mark (MB) of a live process. */
export function memoryOf(pid: number): { rssMb: number; hwmMb: number } {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? 0);
  return { rssMb: kb('VmRSS') / 1024, hwmMb: kb('VmHWM') / 1024 };
}

const TICKS_PER_SECOND = 100;

/** CPU seconds (user + system) a live process has used so far. */
export function cpuSecondsOf(pid: number): number {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  // Fields after the command name (which may hold spaces): state is field 3, utime 14, stime 15.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
}

/** CPU seconds the whole machine has spent busy (all cores, all processes) since boot. */
export function machineBusySeconds(): number {
  const [, ...ticks] = fs.readFileSync('/proc/stat', 'utf8').split('\n', 1)[0]!.trim().split(/\s+/);
  const [user, nice, system, , , irq, softirq, steal] = ticks.map(Number);
  return (user! + nice! + system! + irq! + softirq! + steal!) / TICKS_PER_SECOND;
}

/** Open file descriptors of a live process and its limit. */
export function fdsOf(pid: number): { open: number; limit: number } {
  const limits = fs.readFileSync(`/proc/${pid}/limits`, 'utf8');
  const limit = Number(/^Max open files\s+(\d+)/m.exec(limits)?.[1] ?? 0);
  return { open: fs.readdirSync(`/proc/${pid}/fd`).length, limit };
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The id of the bench's charger number n (1-based), the same in the database and the simulator. */
export const benchChargerId = (n: number) => `BENCH-${String(n).padStart(6, '0')}`;

/** What a fleet process reports (`stats`); the parent adds the fleets' reports up. */
export interface FleetStats {
  /** OCPP messages (calls, results, errors) sent and received by all chargers so far. */
  sent: number;
  received: number;
  connected: number;
  /** Boots so far (a charger counts again when it boots after a reset). */
  boots: number;
  /** Reset calls received. */
  resets: number;
  closes: number;
  /** CPU seconds this process has used. */
  cpuS: number;
  /** Failed connection attempts (first connections and reconnections after a reset), by reason. */
  connectErrors: Record<string, number>;
}

export const emptyFleetStats = (): FleetStats => ({
  sent: 0,
  received: 0,
  connected: 0,
  boots: 0,
  resets: 0,
  closes: 0,
  cpuS: 0,
  connectErrors: {},
});
