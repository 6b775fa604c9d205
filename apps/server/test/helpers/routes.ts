import diagnostics from 'node:diagnostics_channel';
import type { FastifyInstance, RouteOptions } from 'fastify';

export interface RouteInfo {
  method: string;
  url: string;
  permission?: string;
  public?: boolean;
  /** A member (companion app) route: a mobile user's token, not staff. */
  member?: boolean;
}

/**
 * Runs `start` (which builds one Fastify app) and returns every route that app registered, with its
 * config. It listens on Fastify's `fastify.initialization` diagnostics channel, which hands over each new
 * instance before any plugin runs, so an `onRoute` hook sees all routes: no change to production code.
 */
export async function collectRoutes<T>(start: () => Promise<T>): Promise<{ result: T; routes: RouteInfo[] }> {
  const routes: RouteInfo[] = [];
  const channel = diagnostics.channel('fastify.initialization');
  const onInit = (message: unknown) => {
    const { fastify } = message as { fastify: FastifyInstance };
    fastify.addHook('onRoute', (route: RouteOptions) => {
      const config = (route.config ?? {}) as { permission?: string; public?: boolean; member?: boolean };
      for (const method of [route.method].flat()) {
        routes.push({
          method,
          url: route.url,
          permission: config.permission,
          public: config.public,
          member: config.member,
        });
      }
    });
  };
  channel.subscribe(onInit);
  try {
    return { result: await start(), routes };
  } finally {
    channel.unsubscribe(onInit);
  }
}
