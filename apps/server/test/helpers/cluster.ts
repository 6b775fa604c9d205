import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import { eventually } from './ocpp.ts';
import { freePort } from './server-process.ts';

/** Debian's nats-server (the package `.ci/run` installs); NATS_SERVER_BIN to use another. */
const NATS_SERVER_BIN = process.env.NATS_SERVER_BIN ?? '/usr/sbin/nats-server';

/** A NATS server of the test's own (it restarts it), on a port nobody else uses. */
export interface NatsServer {
  url: string;
  stop(): Promise<void>;
  start(): Promise<void>;
}

const portAnswers = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });

export async function startNats(): Promise<NatsServer> {
  if (!fs.existsSync(NATS_SERVER_BIN))
    throw new Error(`${NATS_SERVER_BIN} is missing: apt-get install nats-server (or set NATS_SERVER_BIN)`);
  const port = await freePort();
  let child: ChildProcess | null = null;
  const server: NatsServer = {
    url: `nats://127.0.0.1:${port}`,
    async start() {
      child = spawn(NATS_SERVER_BIN, ['-a', '127.0.0.1', '-p', String(port)], { stdio: 'ignore' });
      await eventually(() => portAnswers(port), 10_000);
    },
    async stop() {
      const running = child;
      if (!running || running.exitCode !== null) return;
      const exited = new Promise((resolve) => running.once('exit', resolve));
      running.kill('SIGKILL');
      await exited;
      child = null;
    },
  };
  await server.start();
  return server;
}

/**
 * A load balancer for the test's chargers, in front of several server processes: it reads the WebSocket
 * upgrade's first line (GET /ocpp/{id}) and sends the connection to the process `place` names for that
 * charger, or to the next one that takes it when that one is gone (as HAProxy does with a dead backend).
 */
export class ChargerBalancer {
  readonly placement = new Map<string, number>();
  private readonly server: net.Server;
  private readonly sockets = new Set<net.Socket>();
  port = 0;

  constructor(private readonly backends: () => number[]) {
    this.server = net.createServer((socket) => this.route(socket));
  }

  async listen(): Promise<void> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.port = (this.server.address() as net.AddressInfo).port;
  }

  get url(): string {
    return `ws://127.0.0.1:${this.port}`;
  }

  private route(socket: net.Socket): void {
    this.sockets.add(socket);
    socket.once('close', () => this.sockets.delete(socket));
    socket.on('error', () => socket.destroy());
    let head = Buffer.alloc(0);
    const onData = (chunk: Buffer) => {
      head = Buffer.concat([head, chunk]);
      const line = head.toString('latin1').split('\r\n', 1)[0]!;
      if (line.length === head.length && head.length < 4096) return; // the first line is not whole yet
      socket.off('data', onData);
      socket.pause();
      const chargerId = decodeURIComponent(/^GET \/ocpp\/([^ ?]+)/.exec(line)?.[1] ?? '');
      const all = this.backends();
      const wanted = this.placement.get(chargerId);
      const order = wanted === undefined ? all : [wanted, ...all.filter((port) => port !== wanted)];
      this.connect(socket, head, order);
    };
    socket.on('data', onData);
  }

  private connect(socket: net.Socket, head: Buffer, order: number[]): void {
    const [port, ...rest] = order;
    if (port === undefined || socket.destroyed) {
      socket.destroy();
      return;
    }
    const upstream = net.connect(port, '127.0.0.1');
    this.sockets.add(upstream);
    upstream.once('close', () => this.sockets.delete(upstream));
    let joined = false;
    upstream.once('error', () => {
      upstream.destroy();
      // Refused: that process is gone; the next one takes the charger.
      if (joined) socket.destroy();
      else this.connect(socket, head, rest);
    });
    upstream.once('connect', () => {
      joined = true;
      upstream.write(head);
      socket.pipe(upstream);
      upstream.pipe(socket);
      socket.resume();
      upstream.once('close', () => socket.destroy());
      socket.once('close', () => upstream.destroy());
    });
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise((resolve) => this.server.close(resolve));
  }
}
