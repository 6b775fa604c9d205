import type { FastifyServerOptions } from 'fastify';

const SECRET_QUERY = /([?&](?:accessToken|token|emailToken)=)[^&#]*/gi;

/** Removes token values from a URL before it is logged. */
export function redactUrl(url: string): string {
  return url.replace(SECRET_QUERY, '$1[Redacted]');
}

/** Paths redacted wherever they appear in a log line: tokens and passwords never reach the logs. */
export const REDACT_PATHS = [
  'req.headers["x-access-token"]',
  'req.headers.authorization',
  'req.headers.cookie',
  'headers["x-access-token"]',
  'body.pass',
  'body.currentPass',
  'body.emailToken',
  'body.accessToken',
  'body.token',
  'body.ocppPassword',
  '*.ocppPassword',
  '*.pass',
  '*.currentPass',
  '*.password',
  '*.accessToken',
  '*.emailToken',
];

export function loggerOptions(level: string, stream?: NodeJS.WritableStream): FastifyServerOptions['logger'] {
  return {
    level,
    redact: { paths: REDACT_PATHS, censor: '[Redacted]' },
    serializers: {
      req(request: { method: string; url: string; ip?: string; headers: Record<string, unknown> }) {
        return { method: request.method, url: redactUrl(request.url), remoteAddress: request.ip };
      },
    },
    ...(stream ? { stream } : {}),
  } as FastifyServerOptions['logger'];
}
