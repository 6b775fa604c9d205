import type { FastifyInstance } from 'fastify';
import { Invalid } from '../lib/errors.ts';
import { unstorableText } from '../lib/text.ts';

/**
 * Text PostgreSQL cannot store (U+0000, a lone surrogate) would fail in the database as a 500, or be silently
 * replaced on its way there. It is refused at the door, for every route, as a 400 (after sign-in checks,
 * before schema validation). The OCPP endpoint applies the same rule to charger frames.
 */
export function registerInputGuard(app: FastifyInstance) {
  app.addHook('preValidation', async (request) => {
    const reason =
      unstorableText(request.body) ?? unstorableText(request.query) ?? unstorableText(request.params);
    if (reason) throw new Invalid(reason);
  });
}
