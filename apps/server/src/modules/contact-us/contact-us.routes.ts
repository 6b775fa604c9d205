import { contactUsBody, contactUsResponse, errorResponse, messageResponse } from '@ev/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Services } from '../../services.ts';
import { actorOf } from '../audit/audit.ts';
import { getContactUs, updateContactUs } from './contact-us.service.ts';

const errors = { 400: errorResponse, 401: errorResponse, 403: errorResponse };
const tags = ['contact-us'];

export const contactUsRoutes =
  ({ db }: Services): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      '/api/contact-us',
      {
        config: { permission: 'contact-us.read' },
        schema: {
          tags,
          description: 'The support contact details shown to app users.',
          response: { 200: contactUsResponse, ...errors },
        },
      },
      async () => ({ contactUs: await getContactUs(db) }),
    );
    app.patch(
      '/api/contact-us',
      {
        config: { permission: 'contact-us.write' },
        schema: {
          tags,
          description:
            'Saves the Note form. An absent field keeps its value, null or "" clears it; Email Support, ' +
            'Call Center and LINE cannot end up empty. The phone is stored as its digits.',
          body: contactUsBody,
          response: { 200: messageResponse, ...errors },
        },
      },
      async (request) => {
        await updateContactUs(db, request.body, actorOf(request));
        return { message: 'Success' };
      },
    );
  };
