import {
  chargerBrandBody,
  chargerBrandListQuery,
  chargerBrandListResponse,
  chargerBrandPatchBody,
  chargerBrandResponse,
  createdResponse,
  errorResponse,
  idParam,
  messageResponse,
} from '@ev/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Services } from '../../services.ts';
import { actorOf } from '../audit/audit.ts';
import { exportChargerBrands } from './charger-brand.export.ts';
import {
  CHARGER_BRAND_NOT_FOUND,
  chargerBrandDropdown,
  createChargerBrand,
  deleteChargerBrand,
  getChargerBrand,
  listChargerBrands,
  updateChargerBrand,
} from './charger-brand.service.ts';

const errors = { 400: errorResponse, 401: errorResponse, 403: errorResponse, 404: errorResponse };
const tags = ['charger-brand'];
/** `{ id }`: beyond the integer column it answers this area's 404, like any missing id. */
const params = idParam(CHARGER_BRAND_NOT_FOUND);

export const chargerBrandRoutes =
  ({ db }: Services): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      '/api/charger-brand',
      {
        // The list and export are admin's; the dropdown (charger form and filter) is open to every role.
        config: {
          permission: 'charger-brand.read',
          modePermissions: { dropdown: 'charger-brand.dropdown' },
        },
        schema: {
          tags,
          description:
            'Charger brands: a page `{ total, chargerBrands }`, `mode=dropdown`, or `mode=xlsx` (a workbook).',
          querystring: chargerBrandListQuery,
          response: { 200: chargerBrandListResponse, ...errors },
        },
      },
      async (request, reply) => {
        if (request.query.mode === 'dropdown') return { chargerBrands: await chargerBrandDropdown(db) };
        if (request.query.mode === 'xlsx') return exportChargerBrands(db, request.query, reply);
        return listChargerBrands(db, request.query);
      },
    );
    app.get(
      '/api/charger-brand/:id',
      {
        config: { permission: 'charger-brand.read' },
        schema: { tags, params, response: { 200: chargerBrandResponse, ...errors } },
      },
      async (request) => ({ chargerBrand: await getChargerBrand(db, request.params.id) }),
    );
    app.post(
      '/api/charger-brand',
      {
        config: { permission: 'charger-brand.write' },
        schema: { tags, body: chargerBrandBody, response: { 200: createdResponse, ...errors } },
      },
      async (request) => ({
        message: 'Success',
        id: await createChargerBrand(db, request.body, actorOf(request)),
      }),
    );
    app.patch(
      '/api/charger-brand/:id',
      {
        config: { permission: 'charger-brand.write' },
        schema: {
          tags,
          description: 'Saves the Charger Brand Setting form, or only `{ active }`.',
          params,
          body: chargerBrandPatchBody,
          response: { 200: messageResponse, ...errors },
        },
      },
      async (request) => {
        await updateChargerBrand(db, request.params.id, request.body, actorOf(request));
        return { message: 'Success' };
      },
    );
    app.delete(
      '/api/charger-brand/:id',
      {
        config: { permission: 'charger-brand.write' },
        schema: {
          tags,
          description: 'Inactive brands only; a brand a charger uses answers 409.',
          params,
          response: { 200: messageResponse, 409: errorResponse, ...errors },
        },
      },
      async (request) => {
        await deleteChargerBrand(db, request.params.id, actorOf(request));
        return { message: 'Success' };
      },
    );
  };
