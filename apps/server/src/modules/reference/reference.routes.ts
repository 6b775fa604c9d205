import { appConfigResponse, errorResponse, healthResponse, peaResponse, provincesResponse } from '@ev/shared';
import { asc, sql } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { provinces } from '../../db/schema/index.ts';
import { NotFound } from '../../lib/errors.ts';
import type { Services } from '../../services.ts';

const errors = { 401: errorResponse, 403: errorResponse };

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
        schema: { tags: ['reference'], response: { 200: peaResponse, 404: errorResponse, ...errors } },
      },
      async () => {
        if (!config.peaToken && !config.peaTokenC) throw new NotFound('PEA token is not configured');
        return { peaToken: { token: config.peaToken ?? '', tokenC: config.peaTokenC ?? '' } };
      },
    );
  };
