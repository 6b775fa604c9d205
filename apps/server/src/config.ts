import path from 'node:path';
import { AUDIT_RETENTION_DEFAULT_DAYS, AUDIT_RETENTION_MIN_DAYS } from '@ev/shared';
import { z } from 'zod';

const flag = z
  .enum(['0', '1', 'true', 'false', ''])
  .optional()
  .transform((value) => value === '1' || value === 'true');

export const DEFAULT_ADMIN_EMAIL = 'admin@example.com';
export const DEFAULT_ADMIN_PASSWORD = 'Admin1234';
export const DEFAULT_MAP_TILE_URL = 'https://tile.openstreetmap.org/{z}/{x}/{y}.png';
export const DEFAULT_MAP_ATTRIBUTION = '© OpenStreetMap contributors';
/**
 * Pending connections the listening socket queues (the kernel caps it at net.core.somaxconn). Node's 511
 * overflows when thousands of chargers reconnect at once, after a restart or a network cut.
 */
export const LISTEN_BACKLOG = 8192;

const envSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default('0.0.0.0'),
  DATA_DIR: z.string().default('./data'),
  /**
   * Where an older version kept uploaded images (now in the database): imported at start; default
   * DATA_DIR/uploads (docs/uploads.md).
   */
  UPLOAD_DIR: z.string().optional(),
  DATABASE_URL: z
    .string()
    .url()
    .optional()
    .or(z.literal('').transform(() => undefined)),
  ADMIN_EMAIL: z.string().email().default(DEFAULT_ADMIN_EMAIL),
  ADMIN_PASSWORD: z.string().min(8).default(DEFAULT_ADMIN_PASSWORD),
  DEMO_DATA: flag,
  SMTP_URL: z.string().optional(),
  MAIL_FROM: z.string().default('EV Charging Back Office <no-reply@example.com>'),
  APP_URL: z.string().url().optional(),
  PEA_TOKEN: z.string().optional(),
  PEA_TOKEN_C: z.string().optional(),
  SESSION_TTL_HOURS: z.coerce
    .number()
    .positive()
    .default(24 * 7),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** `auto`: human-readable lines on a terminal, JSON otherwise (files, pipes, services). */
  LOG_FORMAT: z.enum(['auto', 'json', 'pretty']).default('auto'),
  TRUST_PROXY: flag,
  WEB_DIST: z.string().optional(),
  MAP_TILE_URL: z.string().default(DEFAULT_MAP_TILE_URL),
  MAP_ATTRIBUTION: z.string().default(DEFAULT_MAP_ATTRIBUTION),
  /** The Heartbeat interval given to chargers at boot (s); a charger silent for twice that is UNAVAILABLE. */
  OCPP_HEARTBEAT_INTERVAL: z.coerce.number().int().min(1).max(86_400).default(60),
  /** How long a command to a charger waits for its answer. */
  OCPP_COMMAND_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(30_000),
  /**
   * An id tag no member holds, at Authorize and StartTransaction: `invalid` (the default) refuses it;
   * `accept` lets it charge with no booking (free vending, for an operator who wants it; docs/decisions.md).
   */
  OCPP_UNKNOWN_TAGS: z
    .enum(['invalid', 'accept'], {
      error: "'invalid' (the default: an unknown id tag may not charge) or 'accept' (free vending)",
    })
    .default('invalid'),
  /** DataTransfer vendorId of the parking-bay blockers (Open/Close blocker). */
  OCPP_BLOCKER_VENDOR_ID: z.string().min(1).max(255).default('JudJod'),
  /** Authorises Hard Reset All and Config All (docs/decisions.md); unset = batch commands are off. */
  BATCH_COMMAND_TOKEN: z.string().optional(),
  /**
   * Opens GET /metrics (Prometheus) to scrapers sending `Authorization: Bearer <token>`; unset = 404. At least
   * 16 characters: it guards the fleet's and the money's figures.
   */
  METRICS_TOKEN: z
    .string()
    .min(16)
    .optional()
    .or(z.literal('').transform(() => undefined)),
  /** How many chargers a batch command talks to at once. */
  BATCH_CONCURRENCY: z.coerce.number().int().min(1).max(100_000).default(1000),
  /** Also connect the server's own chargers as simulated ones (the demo's live statuses). */
  SIMULATE_CHARGERS: flag,
  /**
   * The NATS server that joins several server processes into one network (PostgreSQL only): commands reach a
   * charger on whichever process holds its socket. Unset: one process, no broker (docs/operations.md, Cluster).
   */
  NATS_URL: z
    .string()
    .regex(/^(nats|tls):\/\/\S+$/, 'a nats:// or tls:// URL, e.g. nats://127.0.0.1:4222')
    .optional()
    .or(z.literal('').transform(() => undefined)),
  /** The message log's bounds (docs/decisions.md, Message log): rows older than this many days go… */
  OCPP_MESSAGE_LOG_DAYS: z.coerce.number().int().min(1).max(3650).default(7),
  /** …and a charger keeps at most this many of its newest frames. */
  OCPP_MESSAGE_LOG_MAX: z.coerce.number().int().min(1).max(10_000_000).default(5000),
  /** How long a call to the payment provider may take before its outcome counts as unknown (settled later). */
  PAYMENT_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(30_000),
  // The statistics' rollup timer (modules/statistics/rollup.ts); 0 = only at start (a test that needs a day to
  // stay dirty while it runs).
  STATISTICS_ROLLUP_EVERY_MS: z.coerce.number().int().min(0).max(86_400_000).default(60_000),
  // Issue 36: audit entries older than this many days are pruned (docs/audit.md); never fewer than 90.
  AUDIT_RETENTION_DAYS: z.coerce
    .number()
    .int()
    .min(AUDIT_RETENTION_MIN_DAYS)
    .max(36_500)
    .default(AUDIT_RETENTION_DEFAULT_DAYS),
  /**
   * How often each process evaluates the alert conditions and sends the alerts' mail and webhooks (ms; issue
   * 36, docs/alerts.md). The thresholds themselves are minutes an admin sets; this is only how soon a condition
   * that passed its threshold is noticed.
   */
  ALERTS_EVERY_MS: z.coerce.number().int().min(200).max(3_600_000).default(30_000),
});

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  /** Images of an older version, imported into the database at start (never created, never served). */
  uploadDir: string;
  databaseUrl: string | undefined;
  /** NATS_URL: several processes share the network through it; undefined = one process. */
  natsUrl: string | undefined;
  adminEmail: string;
  adminPassword: string;
  demoData: boolean;
  smtpUrl: string | undefined;
  mailFrom: string;
  appUrl: string;
  peaToken: string | undefined;
  peaTokenC: string | undefined;
  sessionTtlMs: number;
  logLevel: string;
  logFormat: 'auto' | 'json' | 'pretty';
  trustProxy: boolean;
  /** The built web app to serve, or null to serve the API only. */
  webDist: string | null;
  /** Leaflet tile URL template of the site map; null = no tiles. */
  mapTileUrl: string | null;
  mapAttribution: string;
  version: string;
  ocpp: {
    heartbeatIntervalS: number;
    commandTimeoutMs: number;
    blockerVendorId: string;
    /** What an id tag no member holds is answered (OCPP_UNKNOWN_TAGS). */
    unknownTags: 'invalid' | 'accept';
    /** The message log's bounds: days, and frames per charger. */
    messageLog: { days: number; maxPerCharger: number };
  };
  batch: { token: string | undefined; concurrency: number };
  /** The bearer token of GET /metrics; undefined = metrics off (404). */
  metricsToken: string | undefined;
  simulateChargers: boolean;
  payment: { timeoutMs: number };
  /** How often the statistics' rollups run after the one at start; 0 = never (STATISTICS_ROLLUP_EVERY_MS). */
  statisticsRollupEveryMs: number;
  /** Days an audit entry is kept (AUDIT_RETENTION_DAYS). */
  auditRetentionDays: number;
  /** ALERTS_EVERY_MS: the alerts' evaluation and delivery period. */
  alerts: { everyMs: number };
}

const here = path.dirname(new URL(import.meta.url).pathname);
/** The built web app: from apps/server/src in the sources, from dist/ in the build (tools/build-server.mjs). */
export const DEFAULT_WEB_DIST = path.resolve(
  here,
  process.env.EV_BUNDLED === '1' ? '../apps/web/dist' : '../../web/dist',
);
export const APP_VERSION = process.env.npm_package_version ?? '0.1.0';

/** Reads the environment once; a bad value stops the start with a message naming the variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
    throw new Error(`Invalid environment:\n  ${problems.join('\n  ')}`);
  }
  const e = parsed.data;
  if (e.NATS_URL && !e.DATABASE_URL) {
    // Every process must read and write one database: the embedded one belongs to a single process.
    throw new Error(
      'Invalid environment:\n  NATS_URL: several server processes share one PostgreSQL server; set DATABASE_URL too (the embedded database serves one process only)',
    );
  }
  return {
    port: e.PORT,
    host: e.HOST,
    dataDir: path.resolve(e.DATA_DIR),
    uploadDir: path.resolve(e.UPLOAD_DIR || path.join(e.DATA_DIR, 'uploads')),
    databaseUrl: e.DATABASE_URL,
    natsUrl: e.NATS_URL,
    adminEmail: e.ADMIN_EMAIL,
    adminPassword: e.ADMIN_PASSWORD,
    demoData: e.DEMO_DATA,
    smtpUrl: e.SMTP_URL || undefined,
    mailFrom: e.MAIL_FROM,
    appUrl: (e.APP_URL ?? `http://localhost:${e.PORT}`).replace(/\/$/, ''),
    peaToken: e.PEA_TOKEN || undefined,
    peaTokenC: e.PEA_TOKEN_C || undefined,
    sessionTtlMs: e.SESSION_TTL_HOURS * 3600_000,
    logLevel: e.LOG_LEVEL,
    logFormat: e.LOG_FORMAT,
    trustProxy: e.TRUST_PROXY,
    webDist: e.WEB_DIST === '' ? null : path.resolve(e.WEB_DIST ?? DEFAULT_WEB_DIST),
    mapTileUrl: e.MAP_TILE_URL.trim() || null,
    mapAttribution: e.MAP_ATTRIBUTION,
    version: APP_VERSION,
    ocpp: {
      heartbeatIntervalS: e.OCPP_HEARTBEAT_INTERVAL,
      commandTimeoutMs: e.OCPP_COMMAND_TIMEOUT_MS,
      blockerVendorId: e.OCPP_BLOCKER_VENDOR_ID,
      unknownTags: e.OCPP_UNKNOWN_TAGS,
      messageLog: { days: e.OCPP_MESSAGE_LOG_DAYS, maxPerCharger: e.OCPP_MESSAGE_LOG_MAX },
    },
    batch: { token: e.BATCH_COMMAND_TOKEN || undefined, concurrency: e.BATCH_CONCURRENCY },
    metricsToken: e.METRICS_TOKEN,
    simulateChargers: e.SIMULATE_CHARGERS,
    payment: { timeoutMs: e.PAYMENT_TIMEOUT_MS },
    auditRetentionDays: e.AUDIT_RETENTION_DAYS,
    alerts: { everyMs: e.ALERTS_EVERY_MS },
    statisticsRollupEveryMs: e.STATISTICS_ROLLUP_EVERY_MS,
  };
}
