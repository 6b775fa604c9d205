import {
  createdResponse,
  errorResponse,
  idParam,
  messageResponse,
  POINT_MESSAGES,
  pointBody,
  pointListResponse,
} from '@ev/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Services } from '../../services.ts';
import { actorOf } from '../audit/audit.ts';
import { createPoint, deletePoint, listPoints, updatePoint } from './point.service.ts';

const errors = { 400: errorResponse, 401: errorResponse, 403: errorResponse, 404: errorResponse };
const tags = ['point'];
const params = idParam(POINT_MESSAGES.notFound);

/**
 * The green-point rate cards (document 3, Point setup): admin and marketting. Only a pending card (one not yet
 * in force) may change or go; the cards belong to the whole network, so no data scope narrows them.
 */
export const pointRoutes =
  ({ db }: Services): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      '/api/point',
      {
        config: { permission: 'point.read' },
        schema: {
          tags,
          description:
            'Every rate card `{ points }` with its status by the server clock: the active one (the latest ' +
            'start at or before now) first, then the pending ones by start, then the past ones latest first.',
          response: { 200: pointListResponse, ...errors },
        },
      },
      async () => listPoints(db),
    );
    app.post(
      '/api/point',
      {
        config: { permission: 'point.write' },
        schema: {
          tags,
          description:
            'Adds a rate card. A start more than a minute in the past is a 400; ' +
            `409 '${POINT_MESSAGES.sameInstant}'.`,
          body: pointBody,
          response: { 200: createdResponse, 409: errorResponse, ...errors },
        },
      },
      async (request) => ({ message: 'Success', id: await createPoint(db, request.body, actorOf(request)) }),
    );
    app.patch(
      '/api/point/:id',
      {
        config: { permission: 'point.write' },
        schema: {
          tags,
          description: 'Saves a pending rate card (the active and past ones are read-only: 409).',
          params,
          body: pointBody,
          response: { 200: messageResponse, 409: errorResponse, ...errors },
        },
      },
      async (request) => {
        await updatePoint(db, request.params.id, request.body, actorOf(request));
        return { message: 'Success' };
      },
    );
    app.delete(
      '/api/point/:id',
      {
        config: { permission: 'point.write' },
        schema: {
          tags,
          description: 'Deletes a pending rate card (the active and past ones stay: 409).',
          params,
          response: { 200: messageResponse, 409: errorResponse, ...errors },
        },
      },
      async (request) => {
        await deletePoint(db, request.params.id, actorOf(request));
        return { message: 'Success' };
      },
    );
  };
