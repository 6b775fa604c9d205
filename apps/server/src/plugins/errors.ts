import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { AppError, TooManyRequests } from '../lib/errors.ts';

interface BranchIssue {
  code: string;
  path: PropertyKey[];
  message: string;
  keys?: string[];
}

interface Issue {
  instancePath?: string;
  message?: string;
  keyword?: string;
  params?: { errors?: BranchIssue[][]; params?: { status?: unknown } };
}

/**
 * A body that fits no branch of a union (PATCH takes the form or `{ active }`) fails as one 'invalid_union'
 * issue with a useless message. Report instead the first issue of the branch the body came closest to: the
 * one with the fewest top-level keys it does not know (the form sent with an extra `foo` is closer to the
 * form than to `{ active }`, and `{ active, foo }` closer to `{ active }`), then the fewest unknown keys in
 * nested rows, then the fewest issues.
 */
export function closestIssue(issue: Issue | undefined): Issue | undefined {
  const branches = issue?.keyword === 'invalid_union' ? issue.params?.errors : undefined;
  if (!branches?.length) return issue;
  const unknownKeys = (branch: BranchIssue[], top: boolean) =>
    branch
      .filter((inner) => inner.code === 'unrecognized_keys' && (inner.path.length === 0) === top)
      .reduce((sum, inner) => sum + (inner.keys?.length ?? 1), 0);
  const score = (branch: BranchIssue[]) =>
    unknownKeys(branch, true) * 1_000_000 + unknownKeys(branch, false) * 1000 + branch.length;
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
      // A path id beyond its column names a record that cannot exist: the area's 404 (shared `pathId`).
      if (first?.params?.params?.status === 404) return reply.status(404).send({ message: first.message });
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
