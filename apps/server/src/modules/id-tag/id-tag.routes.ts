import {
  errorResponse,
  idParam,
  idTagChangeBody,
  idTagCreateBody,
  idTagListResponse,
  idTagParams,
  idTagResponse,
  messageResponse,
} from '@ev/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Services } from '../../services.ts';
import { actorOf } from '../audit/audit.ts';
import { addIdTag, changeIdTag, listIdTags, MEMBER_NOT_FOUND, removeIdTag } from './id-tag.service.ts';

const errors = { 400: errorResponse, 401: errorResponse, 403: errorResponse, 404: errorResponse };
const tags = ['user'];
const CASE =
  ' Id tags are compared without regard to case (OCPP CiString20): the path may name the tag in any case.';

/**
 * A member's id tags (issue 32 §4; docs/permissions.md): the Member Mobile User roles (admin, callcenter),
 * reading with user.mobile.read and changing with user.mobile.write. Members only: an admin user's id is a 404.
 */
export const idTagRoutes =
  ({ db }: Services): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      '/api/user/:id/id-tag',
      {
        config: { permission: 'user.mobile.read' },
        schema: {
          tags,
          description:
            "A member's id tags: the app's own (kind app, read-only; made at the member's first sign-in) and " +
            'the RFID cards (kind rfid), each with its expiry, block and state at a charger (Accepted, Blocked, Expired).',
          params: idParam(MEMBER_NOT_FOUND),
          response: { 200: idTagListResponse, ...errors },
        },
      },
      async (request) => ({ idTags: await listIdTags(db, request.params.id) }),
    );
    app.post(
      '/api/user/:id/id-tag',
      {
        config: { permission: 'user.mobile.write' },
        schema: {
          tags,
          description:
            'Registers an RFID card: `idTag` 1 to 20 printable ASCII characters (stored as typed), optional ' +
            '`expiresAt` (a future instant) and `blocked`. 409 when any member holds the tag already (in any ' +
            'case) or the member holds 10 cards.',
          params: idParam(MEMBER_NOT_FOUND),
          body: idTagCreateBody,
          response: { 200: idTagResponse, 409: errorResponse, ...errors },
        },
      },
      async (request) => ({
        message: 'Success',
        idTag: await addIdTag(db, request.params.id, request.body, actorOf(request)),
      }),
    );
    app.patch(
      '/api/user/:id/id-tag/:idTag',
      {
        config: { permission: 'user.mobile.write' },
        schema: {
          tags,
          description: `Changes a card's \`expiresAt\` (null: none) and \`blocked\`; the app tag is a 409.${CASE}`,
          params: idTagParams(MEMBER_NOT_FOUND),
          body: idTagChangeBody,
          response: { 200: idTagResponse, 409: errorResponse, ...errors },
        },
      },
      async (request) => ({
        message: 'Success',
        idTag: await changeIdTag(db, request.params.id, request.params.idTag, request.body, actorOf(request)),
      }),
    );
    app.delete(
      '/api/user/:id/id-tag/:idTag',
      {
        config: { permission: 'user.mobile.write' },
        schema: {
          tags,
          description: `Removes a card (a charger then answers it Invalid); the app tag is a 409.${CASE}`,
          params: idTagParams(MEMBER_NOT_FOUND),
          response: { 200: messageResponse, 409: errorResponse, ...errors },
        },
      },
      async (request) => {
        await removeIdTag(db, request.params.id, request.params.idTag, actorOf(request));
        return { message: 'Success' };
      },
    );
  };
