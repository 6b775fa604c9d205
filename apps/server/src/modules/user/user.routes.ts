import {
  createdResponse,
  errorResponse,
  idParam,
  messageResponse,
  PERMISSIONS,
  userBody,
  userListQuery,
  userListResponse,
} from '@ev/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { authOf } from '../../plugins/auth.ts';
import type { Services } from '../../services.ts';
import { actorOf } from '../audit/audit.ts';
import { exportUsers } from './user.export.ts';
import {
  createUser,
  deleteUser,
  listUsers,
  requireKind,
  USER_NOT_FOUND,
  updateUser,
} from './user.service.ts';

const errors = { 400: errorResponse, 401: errorResponse, 403: errorResponse, 404: errorResponse };
const tags = ['user'];
/** `{ id }`: beyond the integer column it answers this area's 404, like any missing id. */
const params = idParam(USER_NOT_FOUND);

/**
 * One path serves both user screens: the route names the wider permission (Member Mobile User, admin and
 * callcenter) and each call then requires the one of the kind it touches (`admin=true` or `type: 'admin'`
 * needs user.admin.*). That holds only while every role of the admin screen also has the mobile one.
 */
for (const access of ['read', 'write'] as const) {
  const mobile: readonly string[] = PERMISSIONS[`user.mobile.${access}`];
  if (!PERMISSIONS[`user.admin.${access}`].every((role) => mobile.includes(role))) {
    throw new Error(`user.admin.${access} must be a subset of user.mobile.${access} (see user.routes.ts)`);
  }
}

export const userRoutes =
  ({ db, mailer, config }: Services): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      '/api/user',
      {
        config: { permission: 'user.mobile.read' },
        schema: {
          tags,
          description:
            'Mobile users (`admin=false`, user.mobile.read) or admin users (`admin=true`, user.admin.read): ' +
            'a page `{ total, users }`, or `mode=xlsx` (User-Mobile_… / User-Admin_… workbook).',
          querystring: userListQuery,
          response: { 200: userListResponse, ...errors },
        },
      },
      async (request, reply) => {
        const kind = request.query.admin ? 'admin' : 'mobile';
        requireKind(authOf(request).user, kind, 'read');
        if (request.query.mode === 'xlsx') return exportUsers(db, kind, request.query, reply);
        return listUsers(db, kind, request.query);
      },
    );
    app.post(
      '/api/user',
      {
        config: { permission: 'user.mobile.write' },
        schema: {
          tags,
          description:
            "Creates a mobile user (`type: 'mobile'`, locked unless `active`) or an admin user (`type: 'admin'`, " +
            'user.admin.write). Either is mailed a 72-hour invitation link to set a password (a member for the ' +
            'charging app, who signs in at POST /api/member/login once active).',
          body: userBody,
          response: { 200: createdResponse, 409: errorResponse, 502: errorResponse, ...errors },
        },
      },
      async (request) => {
        const ctx = { db, mailer, appUrl: config.appUrl, log: request.log };
        return {
          message: 'Success',
          id: await createUser(ctx, authOf(request).user, request.body, actorOf(request)),
        };
      },
    );
    app.patch(
      '/api/user/:id',
      {
        config: { permission: 'user.mobile.write' },
        schema: {
          tags,
          description:
            'Saves the user modal; `type` must be the user’s. A new role, link or lock applies from the user’s ' +
            'next request; a lock ends their sessions.',
          params,
          body: userBody,
          response: { 200: messageResponse, 409: errorResponse, 502: errorResponse, ...errors },
        },
      },
      async (request) => {
        const ctx = { db, mailer, appUrl: config.appUrl, log: request.log };
        await updateUser(ctx, authOf(request).user, request.params.id, request.body, actorOf(request));
        return { message: 'Success' };
      },
    );
    app.delete(
      '/api/user/:id',
      {
        config: { permission: 'user.mobile.write' },
        schema: {
          tags,
          description: 'Deletes an inactive user (409 while active or still referred to).',
          params,
          response: { 200: messageResponse, 409: errorResponse, ...errors },
        },
      },
      async (request) => {
        await deleteUser(db, authOf(request).user, request.params.id, actorOf(request));
        return { message: 'Success' };
      },
    );
  };
