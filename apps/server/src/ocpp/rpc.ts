import ocppRpcModule from 'ocpp-rpc';

/**
 * ocpp-rpc, taken whole as the CommonJS module it is: Node's ESM loader cannot see the names it spreads into
 * its exports (TimeoutError, NOREPLY, …), so named imports work under Vitest but fail under plain Node. The
 * default import is the module's exports everywhere, and lets the build compile it in (tools/build-server.mjs).
 */
const ocppRpc = ocppRpcModule as unknown as typeof import('ocpp-rpc');

export const { RPCServer, RPCClient, TimeoutError, createRPCError, createValidator } = ocppRpc;
/** "Send no answer" (its typings describe the value wrongly). */
export const NO_REPLY = ocppRpc.NOREPLY as unknown as Record<string, unknown>;
