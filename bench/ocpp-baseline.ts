/**
 * The baseline of `bench/ocpp.ts`: a bare ocpp-rpc RPCServer (strict mode and OCPP 1.6 like ours, or 2.0.1 with
 * BASELINE_PROTOCOL=2.0.1; no database, no admission check, no SSE) that answers BootNotification, Heartbeat and
 * StatusNotification, and on request sends Reset Hard (2.0.1: Reset Immediate) to every connected charger at once.
 */
import type { AddressInfo } from 'node:net';
import { RPCServer } from '@ev/server/ocpp/rpc';
import { serveRequests } from './ocpp-ipc.ts';

const HEARTBEAT_INTERVAL_S = Number(process.env.OCPP_HEARTBEAT_INTERVAL ?? 30);
const V201 = process.env.BASELINE_PROTOCOL === '2.0.1';

interface Client {
  identity: string;
  handle(method: string, handler: (call: { params: Record<string, unknown> }) => unknown): void;
  call(method: string, params?: unknown): Promise<unknown>;
  on(event: string, listener: () => void): void;
}

export interface BaselineReset {
  total: number;
  accepted: number;
  /** From sending the first Reset to the last answer. */
  ms: number;
}

const server = new RPCServer({
  protocols: [V201 ? 'ocpp2.0.1' : 'ocpp1.6'],
  strictMode: true,
  callTimeoutMs: 30_000,
  pingIntervalMs: 30_000,
  deferPingsOnActivity: true,
});
const clients = new Map<string, Client>();
const booted = new Set<string>();
server.on('client', (client: unknown) => {
  const c = client as Client;
  clients.set(c.identity, c);
  c.on('close', () => {
    if (clients.get(c.identity) === c) {
      clients.delete(c.identity);
      booted.delete(c.identity);
    }
  });
  c.handle('BootNotification', () => {
    booted.add(c.identity);
    return { status: 'Accepted', currentTime: new Date().toISOString(), interval: HEARTBEAT_INTERVAL_S };
  });
  c.handle('Heartbeat', () => ({ currentTime: new Date().toISOString() }));
  c.handle('StatusNotification', () => ({}));
});
const http = await server.listen(0, '127.0.0.1');

serveRequests(
  {
    held: () => booted.size,
    reset: async (): Promise<BaselineReset> => {
      const started = performance.now();
      const answers = await Promise.all(
        [...clients.values()].map((client) =>
          client.call('Reset', { type: V201 ? 'Immediate' : 'Hard' }).then(
            (answer) => (answer as { status?: string }).status === 'Accepted',
            () => false,
          ),
        ),
      );
      return {
        total: answers.length,
        accepted: answers.filter(Boolean).length,
        ms: performance.now() - started,
      };
    },
    stop: async () => {
      await server.close({ code: 1001, force: true });
      setImmediate(() => process.exit(0));
    },
  },
  { port: (http.address() as AddressInfo).port },
);
