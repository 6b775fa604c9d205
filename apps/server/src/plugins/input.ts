import type { FastifyInstance } from 'fastify';
import { Invalid } from '../lib/errors.ts';

/** True when a string (value or key) anywhere in the parsed input holds U+0000. */
export function containsNul(input: unknown): boolean {
  const pending: unknown[] = [input];
  while (pending.length > 0) {
    const value = pending.pop();
    if (typeof value === 'string') {
      if (value.includes('\u0000')) return true;
    } else if (value !== null && typeof value === 'object') {
      for (const [key, item] of Object.entries(value)) {
        if (key.includes('\u0000')) return true;
        pending.push(item);
      }
    }
  }
  return false;
}

/**
 * PostgreSQL text cannot hold U+0000: such input would fail in the database as a 500. It is refused at
 * the door, for every route, as a 400 (after sign-in checks, before schema validation).
 */
export function registerInputGuard(app: FastifyInstance) {
  app.addHook('preValidation', async (request) => {
    if (containsNul(request.body) || containsNul(request.query) || containsNul(request.params)) {
      throw new Invalid('Text must not contain the NUL character (U+0000).');
    }
  });
}
