import { auditListQuery, auditListResponse, errorResponse } from '@ev/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Services } from '../../services.ts';
import { exportAudit } from './audit.export.ts';
import { listAudit } from './audit.service.ts';

const errors = { 400: errorResponse, 401: errorResponse, 403: errorResponse, 404: errorResponse };

/** Read only: the audit log has no route that adds, changes or deletes an entry (docs/audit.md). */
export const auditRoutes =
  ({ db }: Services): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      '/api/audit-log',
      {
        config: { permission: 'audit.read' },
        schema: {
          tags: ['audit'],
          description:
            "Who changed what, newest first: `{ total, entries }` with each entry's field changes " +
            '(before → after; secrets redacted), or `mode=xlsx` (AuditLog_{timestamp}.xlsx). Admin only.',
          querystring: auditListQuery,
          response: { 200: auditListResponse, ...errors },
        },
      },
      async (request, reply) => {
        if (request.query.mode === 'xlsx') return exportAudit(db, request.query, reply);
        return listAudit(db, request.query);
      },
    );
  };
