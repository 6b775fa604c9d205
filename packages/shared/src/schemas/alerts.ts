/**
 * Alerts (issue 36 §2): conditions an admin sets thresholds for, incidents that fire once and resolve, what
 * each staff user subscribes to, and the bell's list. Our own API, in the spec's conventions.
 */
import { z } from 'zod';
import { idQuery } from './common.ts';
import { booleanParam, listQuery } from './list.ts';

/**
 * The conditions. Each holds for a subject (a charger, a connector, a payment, a refund, a batch job, a site,
 * the system) and fires once it has held for longer than the condition's threshold.
 */
export const ALERT_CONDITIONS = [
  'charger-offline',
  'charger-faulted',
  'connector-unavailable',
  'payment-pending',
  'refund-pending',
  'batch-failed',
  'site-over-limit',
  'database-unreachable',
  'nats-unreachable',
] as const;
export type AlertCondition = (typeof ALERT_CONDITIONS)[number];

export const ALERT_CONDITION_LABELS: Record<AlertCondition, string> = {
  'charger-offline': 'Charger offline',
  'charger-faulted': 'Charger faulted',
  'connector-unavailable': 'Connector unavailable',
  'payment-pending': 'Payment pending',
  'refund-pending': 'Refund pending',
  'batch-failed': 'Batch command failed',
  'site-over-limit': 'Site over its power limit',
  'database-unreachable': 'Database unreachable',
  'nats-unreachable': 'NATS unreachable',
};

/** Minutes each condition must hold before it fires, until an admin sets another. */
export const ALERT_DEFAULT_THRESHOLD_MIN: Record<AlertCondition, number> = {
  'charger-offline': 10,
  'charger-faulted': 10,
  'connector-unavailable': 10,
  'payment-pending': 30,
  'refund-pending': 30,
  'batch-failed': 0,
  'site-over-limit': 2,
  'database-unreachable': 1,
  'nats-unreachable': 1,
};
export const ALERT_MAX_THRESHOLD_MIN = 7 * 24 * 60;

export const ALERT_SUBJECT_TYPES = [
  'charger',
  'connector',
  'payment',
  'refund',
  'batch',
  'site',
  'system',
] as const;
export type AlertSubjectType = (typeof ALERT_SUBJECT_TYPES)[number];

export const alertSetting = z.object({
  condition: z.enum(ALERT_CONDITIONS),
  thresholdMin: z.number().int(),
  enabled: z.boolean(),
  webhookUrl: z.string().nullable(),
  /** The secret itself is never answered. */
  hasWebhookSecret: z.boolean(),
});
export type AlertSetting = z.infer<typeof alertSetting>;
export const alertSettingsResponse = z.object({ settings: z.array(alertSetting) });

const webhookUrl = z
  .string()
  .trim()
  .max(500, 'Please enter no more than 500 characters.')
  .refine((text) => /^https?:\/\/[^\s]+$/i.test(text) && URL.canParse(text), {
    message: 'Webhook URL must be an http or https URL.',
  });

/** PATCH /api/alert-settings/:condition: a key left out keeps its value; null clears the URL or the secret. */
export const alertSettingBody = z.strictObject({
  thresholdMin: z
    .number({ error: 'Threshold (minutes) must be a whole number.' })
    .int('Threshold (minutes) must be a whole number.')
    .min(0, 'Threshold (minutes) must be 0 or more.')
    .max(ALERT_MAX_THRESHOLD_MIN, `Threshold (minutes) must be at most ${ALERT_MAX_THRESHOLD_MIN}.`)
    .optional(),
  enabled: z.boolean().optional(),
  webhookUrl: webhookUrl.nullable().optional(),
  webhookSecret: z
    .string()
    .min(16, 'Webhook secret must be at least 16 characters.')
    .max(200, 'Please enter no more than 200 characters.')
    .nullable()
    .optional(),
});
export type AlertSettingBody = z.infer<typeof alertSettingBody>;
export const alertConditionParam = z.object({ condition: z.enum(ALERT_CONDITIONS) });

/** One user's choice for one condition; a condition without a row: in the app yes, by mail no. */
export const alertSubscription = z.object({
  condition: z.enum(ALERT_CONDITIONS),
  inApp: z.boolean(),
  mail: z.boolean(),
});
export type AlertSubscription = z.infer<typeof alertSubscription>;
export const alertSubscriptionsResponse = z.object({ subscriptions: z.array(alertSubscription) });
/** PUT /api/alert-subscriptions: the conditions given are set, the others keep theirs. */
export const alertSubscriptionsBody = z.strictObject({
  subscriptions: z.array(alertSubscription.strict()).min(1).max(ALERT_CONDITIONS.length),
});

export const alertItem = z.object({
  /** The incident's id. */
  id: z.number().int(),
  condition: z.enum(ALERT_CONDITIONS),
  subjectType: z.enum(ALERT_SUBJECT_TYPES),
  /** The subject's id as text (a charger's OCPP identity, `chargerId/connector` for a connector). */
  subjectId: z.string(),
  /** One line for people: 'Charger CP-1 at Site A offline since 14:02'. */
  message: z.string(),
  /** The screen to open: '/charger/12', '/charging-payment?...'; null when there is none. */
  link: z.string().nullable(),
  landlordId: z.number().int().nullable(),
  /** When the condition began to hold; firedAt = when it had held past the threshold. */
  startedAt: z.string(),
  firedAt: z.string(),
  resolvedAt: z.string().nullable(),
  read: z.boolean(),
});
export type AlertItem = z.infer<typeof alertItem>;

/** GET /api/alerts: the signed-in user's alerts (in-app subscriptions, in scope), newest first. */
export const alertListQuery = listQuery.extend({
  open: booleanParam,
  unread: booleanParam,
  condition: z.enum(ALERT_CONDITIONS).optional(),
});
export const alertListResponse = z.object({
  total: z.number().int(),
  unread: z.number().int(),
  alerts: z.array(alertItem),
});
export type AlertListResponse = z.infer<typeof alertListResponse>;

/** POST /api/alerts/read: these ids, or every alert of the user. */
export const alertReadBody = z.union([
  z.strictObject({ ids: z.array(idQuery).min(1).max(500) }),
  z.strictObject({ all: z.literal(true) }),
]);

/** GET /api/alerts/stream (server-sent events, `?accessToken=`): `alert` events carry an AlertItem. */
export const ALERT_STREAM_EVENT = 'alert';

/** The webhook's JSON body (POST, `X-EV-Signature: sha256=<hex HMAC of the body with the secret>`). */
export const alertWebhookBody = z.object({
  event: z.enum(['fired', 'resolved']),
  alert: alertItem.omit({ read: true }),
  sentAt: z.string(),
});
export type AlertWebhookBody = z.infer<typeof alertWebhookBody>;
