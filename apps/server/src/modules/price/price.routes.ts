import {
  createdResponse,
  errorResponse,
  idParam,
  messageResponse,
  priceBody,
  priceListQuery,
  priceListResponse,
  pricePatchBody,
  priceResponse,
} from '@ev/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Services } from '../../services.ts';
import { actorOf } from '../audit/audit.ts';
import { exportPrices } from './price.export.ts';
import {
  createPrice,
  deletePrice,
  getPrice,
  listPrices,
  PRICE_NOT_FOUND,
  priceDropdown,
  updatePrice,
} from './price.service.ts';

const errors = { 400: errorResponse, 401: errorResponse, 403: errorResponse, 404: errorResponse };
const tags = ['price'];
/** `{ id }`: beyond the integer column it answers this area's 404, like any missing id. */
const params = idParam(PRICE_NOT_FOUND);

export const priceRoutes =
  ({ db }: Services): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      '/api/price',
      {
        // The list and export need price.read; the dropdown (the connector form's choice) is open to every role.
        config: { permission: 'price.read', modePermissions: { dropdown: 'price.dropdown' } },
        schema: {
          tags,
          description:
            'Price plans: a page `{ total, prices }`, `mode=dropdown` (`{ prices }` of id, descEn, bahtPerKwh, ' +
            'bahtPerHour, calculateMethod), or `mode=xlsx` (a workbook).',
          querystring: priceListQuery,
          response: { 200: priceListResponse, ...errors },
        },
      },
      async (request, reply) => {
        if (request.query.mode === 'dropdown') return { prices: await priceDropdown(db) };
        if (request.query.mode === 'xlsx') return exportPrices(db, request.query, reply);
        return listPrices(db, request.query);
      },
    );
    app.get(
      '/api/price/:id',
      {
        config: { permission: 'price.read' },
        schema: {
          tags,
          description: 'One plan with its weekday and dated overrides (empty lists when none).',
          params,
          response: { 200: priceResponse, ...errors },
        },
      },
      async (request) => ({ price: await getPrice(db, request.params.id) }),
    );
    app.post(
      '/api/price',
      {
        config: { permission: 'price.write' },
        schema: {
          tags,
          description:
            'Creates a plan. The method couples the rates: HOUR saves Baht/kWh 0; KW saves Baht/hr 0 and ' +
            'calculateMethod BAHT_HRS (coerced, not refused). Amounts have at most 2 decimals. Override rows ' +
            'must end after they start and must not overlap (weekly ones on the same day).',
          body: priceBody,
          response: { 200: createdResponse, ...errors },
        },
      },
      async (request) => ({ message: 'Success', id: await createPrice(db, request.body, actorOf(request)) }),
    );
    app.patch(
      '/api/price/:id',
      {
        config: { permission: 'price.write' },
        schema: {
          tags,
          description: 'Saves the Price Setting form (override rows replaced), or only `{ active }`.',
          params,
          body: pricePatchBody,
          response: { 200: messageResponse, ...errors },
        },
      },
      async (request) => {
        await updatePrice(db, request.params.id, request.body, actorOf(request));
        return { message: 'Success' };
      },
    );
    app.delete(
      '/api/price/:id',
      {
        config: { permission: 'price.write' },
        schema: {
          tags,
          description:
            "Inactive plans only; a plan a connector uses answers 409 Can't delete already used item.",
          params,
          response: { 200: messageResponse, 409: errorResponse, ...errors },
        },
      },
      async (request) => {
        await deletePrice(db, request.params.id, actorOf(request));
        return { message: 'Success' };
      },
    );
  };
