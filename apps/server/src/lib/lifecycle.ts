/**
 * Where the server is in its life, for the readiness check (GET /api/ready): 'starting' until it listens,
 * 'ready' while it serves, 'stopping' from the first shutdown signal on. A load balancer stops sending
 * requests once readiness answers 503, so the shutdown marks the server stopping before it stops accepting.
 */
export type LifecycleState = 'starting' | 'ready' | 'stopping';

export class Lifecycle {
  private current: LifecycleState = 'starting';

  get state(): LifecycleState {
    return this.current;
  }

  /** The server listens (HTTP and the OCPP upgrade on it). Never undoes a stop. */
  markReady(): void {
    if (this.current === 'starting') this.current = 'ready';
  }

  /** Shutting down: readiness answers 503 from now on, while in-flight work finishes. */
  markStopping(): void {
    this.current = 'stopping';
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The server's lifecycle (buildApp's `lifecycle` option, or its own). */
    lifecycle: Lifecycle;
  }
}
