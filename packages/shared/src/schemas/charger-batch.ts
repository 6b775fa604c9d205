import { z } from 'zod';
import { listQuery } from './list.ts';

/**
 * What one charger answered a batch command (docs/decisions.md): Accepted or Rejected as the charger said,
 * NotSupported when it answered NotImplemented/NotSupported (or the key is unknown to it), Offline when it
 * was not connected (reported at once), Timeout when it did not answer in time.
 */
export const BATCH_RESULTS = ['Accepted', 'Rejected', 'NotSupported', 'Offline', 'Timeout'] as const;
export type BatchResult = (typeof BATCH_RESULTS)[number];

/** `firmware`: UpdateFirmware to every charger of a brand; `local-list`: SendLocalList of the members' id tags to
 * every charger (issue 32). */
export const BATCH_KINDS = ['hard-reset', 'config', 'firmware', 'local-list'] as const;
export type BatchKind = (typeof BATCH_KINDS)[number];

/** One `update` event of the batch stream. */
export const batchUpdate = z.object({ id: z.string(), result: z.enum(BATCH_RESULTS) });
export type BatchUpdate = z.infer<typeof batchUpdate>;

/**
 * The standard OCPP 1.6 configuration keys a Config All may set (the read-only ones left out), with the
 * kind of value each takes; any other key may be typed as a free key.
 */
export const OCPP_CONFIGURATION_KEYS = [
  { key: 'HeartbeatInterval', type: 'integer' },
  { key: 'MeterValueSampleInterval', type: 'integer' },
  { key: 'ConnectionTimeOut', type: 'integer' },
  { key: 'ClockAlignedDataInterval', type: 'integer' },
  { key: 'MeterValuesSampledData', type: 'list' },
  { key: 'MeterValuesAlignedData', type: 'list' },
  { key: 'StopTxnSampledData', type: 'list' },
  { key: 'StopTxnAlignedData', type: 'list' },
  { key: 'WebSocketPingInterval', type: 'integer' },
  { key: 'MinimumStatusDuration', type: 'integer' },
  { key: 'ResetRetries', type: 'integer' },
  { key: 'TransactionMessageAttempts', type: 'integer' },
  { key: 'TransactionMessageRetryInterval', type: 'integer' },
  { key: 'BlinkRepeat', type: 'integer' },
  { key: 'LightIntensity', type: 'integer' },
  { key: 'MaxEnergyOnInvalidId', type: 'integer' },
  { key: 'AllowOfflineTxForUnknownId', type: 'boolean' },
  { key: 'AuthorizationCacheEnabled', type: 'boolean' },
  { key: 'AuthorizeRemoteTxRequests', type: 'boolean' },
  { key: 'LocalAuthorizeOffline', type: 'boolean' },
  { key: 'LocalPreAuthorize', type: 'boolean' },
  { key: 'LocalAuthListEnabled', type: 'boolean' },
  { key: 'StopTransactionOnEVSideDisconnect', type: 'boolean' },
  { key: 'StopTransactionOnInvalidId', type: 'boolean' },
  { key: 'UnlockConnectorOnEVSideDisconnect', type: 'boolean' },
] as const;

export const BATCH_MESSAGES = {
  token: 'Token is required.',
  key: 'Key is required.',
  keyMax: 'Key may have at most 50 characters.',
  valueMax: 'Value may have at most 500 characters.',
  configurations: 'Add at least one configuration.',
  keysUnique: 'Each key may appear once.',
  nul: 'Text must not contain the NUL character (U+0000).',
  configurationsJson: 'configurations must be JSON: [{"key":…,"value":…}]',
  bodyJson: 'body must be JSON: {"configurations":[{"key":…,"value":…}]}',
  once: 'Send the configurations once: in `configurations`, in `body` or as the request body.',
} as const;

/**
 * JSON text inside the query string may spell U+0000 as an escape, which the input guard cannot see in the
 * raw text; PostgreSQL cannot store it (the job keeps its configurations as jsonb).
 */
const withoutNul = (text: string) => !text.includes('\u0000');

/** One row of Config All (OCPP ChangeConfiguration: key up to 50 characters, value up to 500). */
export const batchConfiguration = z.strictObject({
  key: z
    .string()
    .trim()
    .min(1, BATCH_MESSAGES.key)
    .max(50, BATCH_MESSAGES.keyMax)
    .refine(withoutNul, BATCH_MESSAGES.nul),
  value: z.string().max(500, BATCH_MESSAGES.valueMax).refine(withoutNul, BATCH_MESSAGES.nul),
});
export type BatchConfiguration = z.infer<typeof batchConfiguration>;

export const batchConfigurations = z
  .array(batchConfiguration, { error: BATCH_MESSAGES.configurations })
  .min(1, BATCH_MESSAGES.configurations)
  .max(30)
  .refine((rows) => new Set(rows.map((row) => row.key)).size === rows.length, BATCH_MESSAGES.keysUnique);

/** `?accessToken` (the session, or the X-ACCESS-TOKEN header) and `?token` (BATCH_COMMAND_TOKEN). */
export const batchHardResetQuery = z.object({
  accessToken: z.string().max(200).optional(),
  token: z.string({ error: BATCH_MESSAGES.token }).min(1, BATCH_MESSAGES.token).max(500),
});

/** The spec's `body` of Config All: `{ configurations: [{ key, value }] }`. */
export const batchConfigBody = z.strictObject(
  { configurations: batchConfigurations },
  { error: (issue) => (issue.code === 'invalid_type' ? BATCH_MESSAGES.bodyJson : undefined) },
);
export type BatchConfigBody = z.infer<typeof batchConfigBody>;

/** JSON text in a query parameter, parsed (`message` when it is not JSON). */
const jsonText = (message: string) =>
  z
    .string()
    .max(20_000)
    .transform((text, ctx) => {
      try {
        return JSON.parse(text) as unknown;
      } catch {
        ctx.addIssue({ code: 'custom', message });
        return z.NEVER;
      }
    });

/**
 * Config All's query. The spec names a `body` of configurations on a GET, which a browser's EventSource
 * can't send: the list travels as JSON in `configurations` (`[{key, value}]`, what our web app sends), or as
 * the spec names it, a `body` parameter holding `{"configurations":[…]}`, or a JSON request body
 * `{configurations}` on the GET. Exactly one of the three (the route checks: the query can't see the body).
 */
export const batchConfigQuery = batchHardResetQuery.extend({
  configurations: jsonText(BATCH_MESSAGES.configurationsJson).pipe(batchConfigurations).optional(),
  body: jsonText(BATCH_MESSAGES.bodyJson).pipe(batchConfigBody).optional(),
});

export const batchJob = z
  .object({
    id: z.number().int(),
    kind: z.enum(BATCH_KINDS),
    status: z.enum(['running', 'finished', 'interrupted']),
    total: z.number().int(),
    done: z.number().int(),
    configurations: z.array(batchConfiguration).nullable(),
    /** A firmware batch: the file (null once deleted) and the brand it updated. */
    firmware: z
      .object({
        fileName: z.string().nullable(),
        version: z.string().nullable(),
        brandName: z.string().nullable(),
      })
      .nullable()
      .optional(),
    createdByEmail: z.string().nullable(),
    startedAt: z.string(),
    finishedAt: z.string().nullable(),
    /** How many chargers gave each result. */
    counts: z.record(z.enum(BATCH_RESULTS), z.number().int()),
  })
  .meta({ id: 'BatchJob' });
export type BatchJob = z.infer<typeof batchJob>;

export const batchJobListQuery = listQuery;
export const batchJobListResponse = z.object({ total: z.number().int(), jobs: z.array(batchJob) });

/** File name of a batch's per-charger results. */
const CSV_PREFIX: Record<BatchKind, string> = {
  'hard-reset': 'Hard-Reset',
  config: 'Config',
  firmware: 'Firmware',
  'local-list': 'Local-List',
};
export const batchCsvName = (kind: BatchKind, at: Date) => `${CSV_PREFIX[kind]}_${at.getTime()}.csv`;

/** CSV header of the per-charger results (the browser and the server write the same file). */
export const BATCH_CSV_HEADER = ['Charger Id', 'Result', 'Detail', 'Time'] as const;

/** A CSV cell: quoted when it holds a comma, quote or line break; a formula start (= + - @) defused. */
export const csvCell = (text: string) => {
  const safe = /^[=+\-@]/.test(text) ? `'${text}` : text;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
};

/** The per-charger results as CSV (the server's file, and the browser's when a stream named no job). */
export function batchCsv(
  rows: Iterable<readonly [id: string, result: string, detail: string, at: string]>,
): string {
  const lines = [BATCH_CSV_HEADER.join(',')];
  for (const row of rows) lines.push(row.map(csvCell).join(','));
  return `${lines.join('\r\n')}\r\n`;
}
