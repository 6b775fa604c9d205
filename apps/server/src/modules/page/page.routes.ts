import {
  createdResponse,
  errorResponse,
  idParam,
  messageResponse,
  PAGE_DETAIL_MAX,
  PAGE_MESSAGES,
  pageBody,
  pageListQuery,
  pageListResponse,
  pagePatchBody,
  pageResponse,
} from '@ev/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Services } from '../../services.ts';
import { actorOf } from '../audit/audit.ts';
import { createPage, deletePage, getPage, listPages, pageDropdown, updatePage } from './page.service.ts';

const errors = { 400: errorResponse, 401: errorResponse, 403: errorResponse, 404: errorResponse };
const tags = ['page'];
const params = idParam(PAGE_MESSAGES.notFound);
const config = { permission: 'page.write' as const };
/**
 * A page's two Details may each hold PAGE_DETAIL_MAX characters, up to 3 bytes each in UTF-8 (Thai): the
 * app's 1 MiB body limit would refuse a long bilingual page before its fields were checked.
 */
const PAGE_BODY_LIMIT = 2 * PAGE_DETAIL_MAX * 3 + 64 * 1024;

/** Tutorials (type guide), terms and privacy pages: Tutorial Management and Policy Management. */
export const pageRoutes =
  ({ db }: Services): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      '/api/page',
      {
        config: { permission: 'page.read' },
        schema: {
          tags,
          description:
            'Pages of one type: `{ total, pages }` without their Detail HTML (default order: tutorials by id, ' +
            'newest first; terms and privacy by update, latest first), or `mode=dropdown` for every title.',
          querystring: pageListQuery,
          response: { 200: pageListResponse, ...errors },
        },
      },
      async (request) => {
        if (request.query.mode === 'dropdown') return { pages: await pageDropdown(db, request.query.type) };
        return listPages(db, request.query);
      },
    );
    app.get(
      '/api/page/:id',
      {
        config: { permission: 'page.read' },
        schema: { tags, params, response: { 200: pageResponse, ...errors } },
      },
      async (request) => ({ page: await getPage(db, request.params.id) }),
    );
    app.post(
      '/api/page',
      {
        config,
        bodyLimit: PAGE_BODY_LIMIT,
        schema: {
          tags,
          description:
            'Creates a page; Detail HTML is sanitized. A tutorial is active unless `active: false`; a terms or ' +
            'privacy page is a Draft unless `active: true`, which publishes it (every staff user accepts again).',
          body: pageBody,
          response: { 200: createdResponse, ...errors },
        },
      },
      async (request) => ({ message: 'Success', id: await createPage(db, request.body, actorOf(request)) }),
    );
    app.patch(
      '/api/page/:id',
      {
        config,
        bodyLimit: PAGE_BODY_LIMIT,
        schema: {
          tags,
          description:
            "Saves the form (its `type` must be the page's), `{ active }` or, for a tutorial, `{ weight }` " +
            '(display order, 0 = not shown). Publishing a terms or privacy page, or changing the text of the ' +
            'one in force, asks every staff user to accept again; the one in force cannot be switched off ' +
            'while no other of its type is active (409).',
          params,
          body: pagePatchBody,
          response: { 200: messageResponse, 409: errorResponse, ...errors },
        },
      },
      async (request) => {
        await updatePage(db, request.params.id, request.body, actorOf(request));
        return { message: 'Success' };
      },
    );
    app.delete(
      '/api/page/:id',
      {
        config,
        schema: {
          tags,
          description: 'Deletes an inactive page; a terms or privacy page someone accepted is kept (409).',
          params,
          response: { 200: messageResponse, 409: errorResponse, ...errors },
        },
      },
      async (request) => {
        await deletePage(db, request.params.id, actorOf(request));
        return { message: 'Success' };
      },
    );
  };
