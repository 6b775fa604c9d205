import { createHash, timingSafeEqual } from 'node:crypto';
import { isNull, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../db/client.ts';
import { bookings } from '../db/schema/index.ts';
import type { Metrics } from '../lib/metrics.ts';

const digest = (text: string) => createHash('sha256').update(text).digest();

/** `Authorization: Bearer <token>`, compared in constant time (hashed first, so lengths don't leak either). */
export function bearerMatches(header: string | undefined, token: string): boolean {
  const match = /^Bearer +(\S+) *$/i.exec(header ?? '');
  return timingSafeEqual(digest(match?.[1] ?? ''), digest(token)) && match !== null;
}

/**
 * Bookings by status, for the `ev_bookings` gauge: one sequential scan, counted at most every
 * BOOKING_COUNTS_TTL_MS (docs/operations.md: a million rows take 0.4–0.7 s, during which PGlite's one connection serves nothing else).
 */
export async function countBookingsByStatus(db: Db): Promise<Array<{ status: string; count: number }>> {
  return db
    .select({ status: bookings.status, count: sql<number>`count(*)::int` })
    .from(bookings)
    .where(isNull(bookings.deletedAt))
    .groupBy(bookings.status);
}

/**
 * GET /metrics (Prometheus text format), for the monitoring's scraper only: with METRICS_TOKEN unset the
 * path is a 404 like any unknown one; set, it needs `Authorization: Bearer <METRICS_TOKEN>` (401 without).
 * Not under /api: no session, not in the OpenAPI document. Every HTTP answer is counted by its route pattern
 * (never the raw URL: one series per id would grow without bound).
 */
export function registerMetrics(app: FastifyInstance, metrics: Metrics | null, token: string | undefined) {
  if (metrics) {
    app.addHook('onResponse', async (request, reply) => {
      try {
        metrics.httpAnswered(
          request.method,
          request.routeOptions?.url ?? 'unmatched',
          reply.statusCode,
          reply.elapsedTime / 1000,
        );
      } catch {
        // Uncounted; the answer is gone already.
      }
    });
  }
  app.get(
    '/metrics',
    // A scrape every 15 s is not worth an access log line; refusals (4xx) still log at warn.
    { schema: { hide: true }, config: { public: true }, logLevel: 'warn' },
    async (request, reply) => {
      reply.header('Cache-Control', 'no-store');
      if (!metrics || !token) return reply.status(404).send({ message: 'Not found' });
      if (!bearerMatches(request.headers.authorization, token)) {
        request.log.warn('metrics: refused a scrape without the right bearer token');
        reply.header('WWW-Authenticate', 'Bearer realm="metrics"');
        return reply.status(401).send({ message: 'Unauthorized' });
      }
      reply.type(metrics.contentType);
      return metrics.scrape();
    },
  );
}
