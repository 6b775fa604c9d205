/**
 * A fleet of simulated chargers (tools/src/simulator.ts, non-strict) in a process of its own, driven by
 * `bench/ocpp.ts` over IPC. It counts the OCPP messages its chargers send and receive.
 *
 *   FLEET_URL ws://127.0.0.1:port   FLEET_FROM, FLEET_TO  charger numbers (BENCH-000001 ...), inclusive
 *   FLEET_STEP  every how many numbers (1: all; 3: FROM, FROM + 3, …, as bench/cluster.ts spreads them)
 *   FLEET_REBOOT_MS  how long a hard reset keeps a charger away   FLEET_CONCURRENCY  connections at a time
 *   FLEET_PROTOCOL  1.6 (default) or 2.0.1
 */

import { RPCClient } from '@ev/server/ocpp/rpc';
import { type AnySimulatedCharger, type Simulation, simulateChargers } from '@ev/tools/simulator';
import { benchChargerId, emptyFleetStats, type FleetStats, serveRequests } from './ocpp-ipc.ts';

export interface FleetStart {
  started: number;
  failed: number;
  /** Failures by reason. */
  reasons: Record<string, number>;
  ms: number;
}

const env = process.env;
const from = Number(env.FLEET_FROM);
const to = Number(env.FLEET_TO);
const step = Number(env.FLEET_STEP ?? 1);
const stats = emptyFleetStats();

// Every OCPP frame goes through RPCClient#sendRaw or #_onMessage, which emit 'message' {outbound}.
const emit = RPCClient.prototype.emit;
RPCClient.prototype.emit = function (
  this: InstanceType<typeof RPCClient>,
  event: string | symbol,
  ...args: unknown[]
) {
  if (event === 'message') {
    if ((args[0] as { outbound: boolean }).outbound) stats.sent++;
    else stats.received++;
  }
  return emit.call(this, event, ...args);
} as typeof emit;
// A charger rebooting after a reset swallows a failed reconnection: count them here.
const connect = RPCClient.prototype.connect;
RPCClient.prototype.connect = function (this: InstanceType<typeof RPCClient>) {
  return connect.call(this).catch((error: { code?: number; message: string }) => {
    const reason = error.code ? `${error.code} ${error.message}` : error.message;
    stats.connectErrors[reason] = (stats.connectErrors[reason] ?? 0) + 1;
    throw error;
  });
} as typeof connect;

const cpuSeconds = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1e6;
};

let simulation: Simulation<AnySimulatedCharger> | null = null;
serveRequests({
  start: async (): Promise<FleetStart> => {
    const started = performance.now();
    const specs = Array.from({ length: Math.floor((to - from) / step) + 1 }, (_, i) => ({
      id: benchChargerId(from + i * step),
      connectors: 1,
    }));
    simulation = await simulateChargers(
      specs,
      {
        url: env.FLEET_URL!,
        protocol: env.FLEET_PROTOCOL === '2.0.1' ? '2.0.1' : '1.6',
        strict: false,
        rebootMs: Number(env.FLEET_REBOOT_MS ?? 10_000),
        onEvent: (event) => {
          if (event.type === 'booted') stats.boots++;
          else if (event.type === 'command' && event.action === 'Reset') stats.resets++;
          else if (event.type === 'closed') stats.closes++;
        },
      },
      Number(env.FLEET_CONCURRENCY ?? 500),
    );
    const reasons: Record<string, number> = {};
    for (const { error } of simulation.failed) reasons[error] = (reasons[error] ?? 0) + 1;
    return {
      started: specs.length - simulation.failed.length,
      failed: simulation.failed.length,
      reasons,
      ms: performance.now() - started,
    };
  },
  stats: (): FleetStats => ({
    ...stats,
    cpuS: cpuSeconds(),
    connected: simulation?.chargers.filter((charger) => charger.connected).length ?? 0,
  }),
  stop: async () => {
    await simulation?.stop();
    setImmediate(() => process.exit(0));
  },
});
