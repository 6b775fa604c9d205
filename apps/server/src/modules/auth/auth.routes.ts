import {
  errorResponse,
  forgotPasswordBody,
  loginBody,
  loginResponse,
  messageResponse,
  noFieldsBody,
  resetPasswordBody,
} from '@ev/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { authOf } from '../../plugins/auth.ts';
import type { Services } from '../../services.ts';
import { actorOf } from '../audit/audit.ts';
import { forgotPassword, login, logout, resetPassword } from './auth.service.ts';

const errors = { 400: errorResponse, 401: errorResponse, 403: errorResponse, 429: errorResponse };

export const authRoutes =
  (services: Services): FastifyPluginAsyncZod =>
  async (app) => {
    const { db, config, mailer } = services;
    app.post(
      '/api/auth/login',
      {
        config: { public: true },
        schema: { tags: ['auth'], body: loginBody, response: { 200: loginResponse, ...errors } },
      },
      (request) => login({ db, ip: request.ip, sessionTtlMs: config.sessionTtlMs }, request.body),
    );
    app.post(
      '/api/auth/logout',
      {
        config: { permission: 'self.read' },
        schema: { tags: ['auth'], body: noFieldsBody, response: { 200: messageResponse, ...errors } },
      },
      async (request) => {
        await logout(db, authOf(request).sessionId, actorOf(request));
        return { message: 'Success' };
      },
    );
    app.post(
      '/api/auth/forgot-password',
      {
        config: { public: true },
        schema: { tags: ['auth'], body: forgotPasswordBody, response: { 200: messageResponse, ...errors } },
      },
      async (request) => {
        await forgotPassword(
          { db, ip: request.ip, sessionTtlMs: config.sessionTtlMs, mailer, appUrl: config.appUrl },
          request.body,
        );
        return { message: 'Success' };
      },
    );
    app.post(
      '/api/auth/reset-password',
      {
        config: { public: true },
        schema: { tags: ['auth'], body: resetPasswordBody, response: { 200: messageResponse, ...errors } },
      },
      async (request) => {
        await resetPassword(db, request.body, undefined, request.ip);
        return { message: 'Success' };
      },
    );
  };
