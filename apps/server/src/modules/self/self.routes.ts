import {
  errorResponse,
  messageResponse,
  selfResponse,
  termAcceptBody,
  termAcceptResponse,
  updateSelfBody,
} from '@ev/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { authOf } from '../../plugins/auth.ts';
import type { Services } from '../../services.ts';
import { actorOf } from '../audit/audit.ts';
import { acceptTerms, getSelf, updateSelf } from './self.service.ts';

const errors = { 400: errorResponse, 401: errorResponse, 403: errorResponse, 429: errorResponse };

export const selfRoutes =
  ({ db }: Services): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      '/api/user/self',
      {
        config: { permission: 'self.read' },
        schema: { tags: ['user'], response: { 200: selfResponse, ...errors } },
      },
      async (request) => ({ user: await getSelf(db, authOf(request).user.id) }),
    );
    app.patch(
      '/api/user/self',
      {
        config: { permission: 'self.update' },
        schema: { tags: ['user'], body: updateSelfBody, response: { 200: messageResponse, ...errors } },
      },
      async (request) => {
        await updateSelf(db, authOf(request), request.body, actorOf(request));
        return { message: 'Success' };
      },
    );
    app.post(
      '/api/user/self/term-accept',
      {
        config: { permission: 'terms.accept' },
        schema: {
          tags: ['user'],
          description: 'Records that the signed-in user accepted the terms and privacy pages in force.',
          body: termAcceptBody,
          response: { 200: termAcceptResponse, 409: errorResponse, ...errors },
        },
      },
      async (request) => ({
        message: 'Success' as const,
        termAccept: await acceptTerms(db, authOf(request).user.id, request.body, actorOf(request)),
      }),
    );
  };
