import {
  appConfigResponse,
  errorResponse,
  healthResponse,
  peaResponse,
  provincesResponse,
  readyResponse,
} from '@ev/shared';
import { asc, sql } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { provinces } from '../../db/schema/index.ts';
import { ServiceUnavailable } from '../../lib/errors.ts';
import type { Services } from '../../services.ts';
import { readinessCheck } from './readiness.ts';

const errors = { 401: errorResponse, 403: errorResponse };

/**
 * What an admin reads when 'See pea token' has nothing to show: which of the two settings is missing, by the
 * name the server administrator sets.
 */
export function peaNotConfigured({ token, tokenC }: { token?: string; tokenC?: string }): string {
  const missing = [!token && 'PEA_TOKEN', !tokenC && 'PEA_TOKEN_C'].filter(Boolean);
  const which = missing.length === 2 ? 'PEA_TOKEN and PEA_TOKEN_C are not set' : `${missing[0]} is not set`;
  const them = missing.length === 2 ? 'them' : 'it';
  return `The PEA tokens are not configured on this server: ${which}. Ask the server administrator to set ${them} and restart the server.`;
}

export const referenceRoutes =
  ({ db, config, databaseKind }: Services): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      '/api/health',
      { config: { public: true }, schema: { tags: ['system'], response: { 200: healthResponse } } },
      async () => {
        await db.execute(sql`select 1`);
        return { status: 'ok' as const, database: databaseKind, version: config.version };
      },
    );
    // Liveness is /api/health; readiness says whether to send traffic here now (docs/operations.md).
    const notReady = readinessCheck(db, {
      lifecycle: app.lifecycle,
      listening: () => app.server.listening,
      onDatabaseChange: (error) =>
        error
          ? app.log.warn({ err: error }, 'readiness: the database does not answer')
          : app.log.info('readiness: the database answers again'),
    });
    app.get(
      '/api/ready',
      {
        config: { public: true },
        // Probed every few seconds: no access log line; a database going away is logged above.
        logLevel: 'warn',
        schema: {
          tags: ['system'],
          description:
            'Readiness: 200 while this server takes traffic (listening, database answering, migrations ' +
            'applied), 503 with the reason while starting, shutting down or without its database. ' +
            '/api/health is the liveness check.',
          response: { 200: readyResponse, 503: errorResponse },
        },
      },
      async (_request, reply) => {
        const problem = await notReady();
        reply.header('Cache-Control', 'no-store');
        if (problem) return reply.status(503).send({ message: problem });
        return { status: 'ready' as const };
      },
    );
    app.get(
      '/api/app-config',
      { config: { public: true }, schema: { tags: ['system'], response: { 200: appConfigResponse } } },
      async () => ({ mapTileUrl: config.mapTileUrl, mapAttribution: config.mapAttribution }),
    );
    app.get(
      '/api/province',
      {
        config: { permission: 'province.read' },
        schema: { tags: ['reference'], response: { 200: provincesResponse, ...errors } },
      },
      async () => ({ provinces: await db.select().from(provinces).orderBy(asc(provinces.id)) }),
    );
    app.get(
      '/api/pea',
      {
        config: { permission: 'pea.read' },
        schema: { tags: ['reference'], response: { 200: peaResponse, 503: errorResponse, ...errors } },
      },
      async () => {
        const { peaToken: token, peaTokenC: tokenC } = config;
        if (!token || !tokenC) throw new ServiceUnavailable(peaNotConfigured({ token, tokenC }));
        return { peaToken: { token, tokenC } };
      },
    );
  };
