import { createRequire } from 'node:module';

/**
 * ocpp-rpc, loaded as the CommonJS module it is: Node's ESM loader cannot see the names it spreads into its
 * exports (TimeoutError, NOREPLY, …), so named imports work under Vitest but fail under plain Node.
 */
const ocppRpc = createRequire(import.meta.url)('ocpp-rpc') as typeof import('ocpp-rpc');

export const { RPCServer, RPCClient, TimeoutError, createRPCError, createValidator } = ocppRpc;
/** "Send no answer" (its typings describe the value wrongly). */
export const NO_REPLY = ocppRpc.NOREPLY as unknown as Record<string, unknown>;
