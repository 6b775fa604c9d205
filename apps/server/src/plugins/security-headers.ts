import { VIDEO_HOSTS } from '@ev/shared';
import fastifyHelmet from '@fastify/helmet';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Config } from '../config.ts';

/** One year; no includeSubDomains: the hosts beside the back office are not ours to force onto HTTPS. */
export const HSTS_VALUE = 'max-age=31536000';

/**
 * The CSP source that allows the map tiles of MAP_TILE_URL (a Leaflet template such as
 * `https://{s}.tile.example.com/{z}/{x}/{y}.png`), or null when tiles are off or come from this server.
 * A `{s}` subdomain placeholder becomes the CSP wildcard `*.`; a host CSP cannot express stops the start.
 */
export function tileImageSource(mapTileUrl: string | null): string | null {
  if (!mapTileUrl) return null;
  const match = /^(?:([a-z][a-z0-9+.-]*):)?\/\/([^/?#]*)/i.exec(mapTileUrl.trim());
  // A path without a host (`/tiles/{z}/{x}/{y}.png`) is served by this server: 'self' covers it.
  if (!match) return null;
  const [, scheme, authority = ''] = match;
  const host = authority.replace(/^\{[^{}]*\}\./, '*.').toLowerCase();
  if (!/^(\*\.)?[a-z0-9-]+(\.[a-z0-9-]+)*(:(\d{1,5}|\*))?$/.test(host)) {
    throw new Error(
      `MAP_TILE_URL: the host "${authority}" cannot be allowed in the Content-Security-Policy (use a plain host name, optionally starting with {s}.)`,
    );
  }
  return scheme ? `${scheme.toLowerCase()}://${host}` : host;
}

/**
 * The policy of the web app, the API and the docs. Why each source is there: docs/decisions.md
 * ("Security headers"). No 'unsafe-eval' and no inline scripts: Vite emits only <script src>.
 */
export function cspDirectives(config: Pick<Config, 'mapTileUrl'>): Record<string, string[]> {
  const tiles = tileImageSource(config.mapTileUrl);
  return {
    'default-src': ["'self'"],
    'script-src': ["'self'"],
    'script-src-attr': ["'none'"],
    // antd injects <style> elements at run time, some without the ConfigProvider nonce (rc-component's
    // scroll locker and scrollbar measure): a nonce-only policy breaks modals.
    'style-src': ["'self'", "'unsafe-inline'"],
    'img-src': ["'self'", 'data:', ...(tiles ? [tiles] : [])],
    'font-src': ["'self'"],
    'connect-src': ["'self'"],
    // Videos in tutorials: the sanitizer keeps only the player pages of these hosts (lib/sanitize.ts).
    'frame-src': ["'self'", ...VIDEO_HOSTS.map((host) => `https://${host}`)],
    'object-src': ["'none'"],
    'base-uri': ["'self'"],
    'form-action': ["'self'"],
    'frame-ancestors': ["'none'"],
  };
}

/**
 * Headers that only mean something on a document (a page the browser renders and runs): a script, a style
 * sheet or a font is never one. A built page loads ~30 such files, and these would add ~0.6 KB to each.
 */
const DOCUMENT_ONLY_HEADERS = [
  'content-security-policy',
  'cross-origin-opener-policy',
  'origin-agent-cluster',
  'referrer-policy',
  'x-dns-prefetch-control',
  'x-download-options',
  'x-frame-options',
  'x-permitted-cross-domain-policies',
  'x-xss-protection',
];

/** A built script, style sheet or font (hashed, under /assets/): never rendered as a document. */
const isSubresource = (url: string) => /^\/assets\/[^?#]+\.(?:js|css|woff2?)(?:[?#]|$)/.test(url);

const isApi = (url: string) => url === '/api' || url.startsWith('/api/') || url.startsWith('/api?');

/** A session token in the header, or in the query of the routes that take one there (event streams). */
function carriesToken(request: FastifyRequest): boolean {
  if (request.headers['x-access-token']) return true;
  const query = request.query as { accessToken?: unknown } | undefined;
  return typeof query?.accessToken === 'string';
}

/**
 * Security headers on every answer (web app, assets, API, errors), through @fastify/helmet: the CSP, no
 * framing, nosniff, Referrer-Policy, plus `Cache-Control: no-store` on API answers to signed-in requests
 * (and to every write: a sign-in answer holds a token) and HSTS on requests that came over HTTPS.
 * Register it before the routes and the auth hook, so refusals carry the headers too.
 */
export async function registerSecurityHeaders(app: FastifyInstance, config: Pick<Config, 'mapTileUrl'>) {
  await app.register(fastifyHelmet, {
    contentSecurityPolicy: { useDefaults: false, directives: cspDirectives(config) },
    frameguard: { action: 'deny' },
    // The origin only, to every destination: OpenStreetMap's tile policy wants a Referer, and no path
    // (a reset-password link holds its token) leaves the page.
    referrerPolicy: { policy: 'strict-origin' },
    // Sent below, only for HTTPS requests.
    strictTransportSecurity: false,
  });

  app.addHook('onRequest', async (request, reply) => {
    // `protocol` is https for a TLS socket, or for X-Forwarded-Proto from a trusted proxy (TRUST_PROXY=1):
    // Fastify ignores the header otherwise. HSTS on plain http would be ignored by browsers anyway.
    if (request.protocol === 'https') reply.header('strict-transport-security', HSTS_VALUE);
  });

  app.addHook('onSend', async (request, reply, payload) => {
    const write = request.method !== 'GET' && request.method !== 'HEAD';
    if (isApi(request.url) && (write || carriesToken(request))) reply.header('cache-control', 'no-store');
    // nosniff and Cross-Origin-Resource-Policy stay: they are what protects a subresource.
    if (reply.statusCode === 200 && isSubresource(request.url)) {
      for (const name of DOCUMENT_ONLY_HEADERS) reply.removeHeader(name);
    }
    return payload;
  });
}
