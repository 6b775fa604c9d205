import { errorResponse, privacyResponse, termsResponse } from '@ev/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Services } from '../../services.ts';
import { publishedLegalPage } from './legal.service.ts';

export const legalRoutes =
  ({ db }: Services): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      '/api/terms',
      {
        config: { public: true },
        schema: { tags: ['legal'], response: { 200: termsResponse, 404: errorResponse } },
      },
      async () => ({ terms: await publishedLegalPage(db, 'terms') }),
    );
    app.get(
      '/api/privacy',
      {
        config: { public: true },
        schema: { tags: ['legal'], response: { 200: privacyResponse, 404: errorResponse } },
      },
      async () => ({ privacy: await publishedLegalPage(db, 'privacy') }),
    );
  };
