import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { AppError, TooManyRequests } from '../lib/errors.ts';

interface Issue {
  instancePath?: string;
  message?: string;
  keyword?: string;
  params?: { errors?: Array<Array<{ code: string; path: PropertyKey[]; message: string }>> };
}

/**
 * A body that fits no branch of a union (PATCH takes the form or `{ active }`) fails as one 'invalid_union'
 * issue with a useless message. Report instead the first issue of the branch the body came closest to:
 * one whose keys it did not break (no unrecognized keys), then the one with the fewest issues.
 */
export function closestIssue(issue: Issue | undefined): Issue | undefined {
  const branches = issue?.keyword === 'invalid_union' ? issue.params?.errors : undefined;
  if (!branches?.length) return issue;
  const score = (branch: (typeof branches)[number]) =>
    (branch.some((inner) => inner.code === 'unrecognized_keys') ? 1000 : 0) + branch.length;
  const best = [...branches].sort((a, b) => score(a) - score(b))[0]?.[0];
  if (!best) return issue;
  const prefix = issue?.instancePath && issue.instancePath !== '/' ? issue.instancePath : '';
  return { message: best.message, instancePath: `${prefix}/${best.path.map(String).join('/')}` };
}

/** Turns every error into an HTTP status and `{ message }`; only our own bugs become a 500. */
export function registerErrorHandler(app: FastifyInstance) {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof AppError) {
      if (error instanceof TooManyRequests) reply.header('Retry-After', String(error.retryAfterSeconds));
      return reply.status(error.statusCode).send({ message: error.message });
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const first = closestIssue(error.validation[0]);
      const field = first?.instancePath?.replace(/^\//, '').replace(/\//g, '.') || '';
      const where = `${error.validationContext ?? 'request'}${field ? `.${field}` : ''}`;
      return reply.status(400).send({ message: first ? `${where}: ${first.message}` : 'Invalid request' });
    }
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      return reply.status(status).send({ message: error.message });
    }
    request.log.error({ err: error }, 'request failed');
    return reply.status(500).send({ message: 'Internal server error' });
  });
}
