import type { FastifyServerOptions } from 'fastify';

/** Query parameters holding secrets, compared in lower case after decoding. */
const SECRET_PARAMETERS = new Set(['accesstoken', 'token', 'emailtoken']);

/** A parameter name as the query parser reads it: `+` is a space, %XX escapes decoded (kept raw if malformed). */
function parameterName(raw: string): string {
  const name = raw.replace(/\+/g, ' ');
  try {
    return decodeURIComponent(name);
  } catch {
    return name;
  }
}

/**
 * Removes secret values from a URL before it is logged. Names are compared after decoding, as the server's
 * query parser reads them (`?acc%65ssToken=` is `accessToken`); the whole value goes, up to the next `&`.
 */
export function redactUrl(url: string): string {
  const start = url.indexOf('?');
  if (start < 0) return url;
  const parameters = url
    .slice(start + 1)
    .split('&')
    .map((part) => {
      const equals = part.indexOf('=');
      if (equals < 0) return part;
      const raw = part.slice(0, equals);
      return SECRET_PARAMETERS.has(parameterName(raw).toLowerCase()) ? `${raw}=[Redacted]` : part;
    });
  return `${url.slice(0, start + 1)}${parameters.join('&')}`;
}

/** A one-time file link's token (modules/charger-file: `/ocpp-files/{purpose}/{token}`) is a credential. */
const FILE_LINK = /(\/ocpp-files\/(?:firmware|diagnostics)\/)[^/?#\s"]+/g;
export const redactFileLinks = (text: string) => text.replace(FILE_LINK, '$1[Redacted]');

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

/**
 * Human-readable lines (pino-pretty) for a person at a terminal; JSON for files, pipes and services, which
 * parse it. `LOG_FORMAT` forces either. Redaction happens before either format sees a line.
 */
export function prettyLogs(format: 'auto' | 'json' | 'pretty', stdoutIsTty: boolean | undefined): boolean {
  return format === 'pretty' || (format === 'auto' && stdoutIsTty === true);
}

const PRETTY_TRANSPORT = {
  target: 'pino-pretty',
  options: { colorize: true, singleLine: true, translateTime: 'SYS:HH:MM:ss', ignore: 'pid,hostname' },
};

export function loggerOptions(
  level: string,
  stream?: NodeJS.WritableStream,
  format: 'auto' | 'json' | 'pretty' = 'json',
): FastifyServerOptions['logger'] {
  return {
    level,
    redact: { paths: REDACT_PATHS, censor: '[Redacted]' },
    serializers: {
      req(request: { method: string; url: string; ip?: string; headers: Record<string, unknown> }) {
        return {
          method: request.method,
          url: redactUrl(redactFileLinks(request.url)),
          remoteAddress: request.ip,
        };
      },
    },
    ...(stream
      ? { stream }
      : prettyLogs(format, process.stdout.isTTY)
        ? { transport: PRETTY_TRANSPORT }
        : {}),
  } as FastifyServerOptions['logger'];
}
