/**
 * The alert conditions' settings (an admin's thresholds, on/off, webhook) and each staff user's subscriptions
 * (issue 36 §2; docs/alerts.md). A condition or a subscription without a row has the defaults.
 */
import {
  ALERT_CONDITIONS,
  ALERT_DEFAULT_THRESHOLD_MIN,
  type AlertCondition,
  type AlertSetting,
  type AlertSettingBody,
  type AlertSubscription,
} from '@ev/shared';
import { eq, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import { alertSettings, alertSubscriptions } from '../../db/schema/index.ts';
import { Invalid } from '../../lib/errors.ts';
import { type AuditActor, audit } from '../audit/audit.ts';

/** A condition's settings as the server uses them (the secret included: never answered, never logged). */
export interface ConditionSetting {
  condition: AlertCondition;
  thresholdMin: number;
  enabled: boolean;
  webhookUrl: string | null;
  webhookSecret: string | null;
}

export const defaultSetting = (condition: AlertCondition): ConditionSetting => ({
  condition,
  thresholdMin: ALERT_DEFAULT_THRESHOLD_MIN[condition],
  enabled: true,
  webhookUrl: null,
  webhookSecret: null,
});

/** Subscriptions without a row: the bell yes, mail no. */
export const DEFAULT_SUBSCRIPTION = { inApp: true, mail: false } as const;

/** A webhook without its secret could not be signed: refused (docs/alerts.md, Webhooks). */
export const WEBHOOK_SECRET_NEEDED = 'Webhook secret is required with a webhook URL.';

/** Every condition's settings, stored or default. */
export async function loadSettings(db: Db | Tx): Promise<Map<AlertCondition, ConditionSetting>> {
  const rows = await db.select().from(alertSettings);
  const settings = new Map(ALERT_CONDITIONS.map((condition) => [condition, defaultSetting(condition)]));
  for (const row of rows) {
    if (!settings.has(row.condition as AlertCondition)) continue;
    settings.set(row.condition as AlertCondition, {
      condition: row.condition as AlertCondition,
      thresholdMin: row.thresholdMin,
      enabled: row.enabled,
      webhookUrl: row.webhookUrl,
      webhookSecret: row.webhookSecret,
    });
  }
  return settings;
}

const shown = (setting: ConditionSetting): AlertSetting => ({
  condition: setting.condition,
  thresholdMin: setting.thresholdMin,
  enabled: setting.enabled,
  webhookUrl: setting.webhookUrl,
  hasWebhookSecret: setting.webhookSecret !== null,
});

/** GET /api/alert-settings: every condition, in the contract's order. */
export async function listSettings(db: Db): Promise<AlertSetting[]> {
  const settings = await loadSettings(db);
  return ALERT_CONDITIONS.map((condition) => shown(settings.get(condition)!));
}

/**
 * PATCH /api/alert-settings/:condition: the keys given change, the others keep their value (null clears the
 * URL or the secret). Audited in the write's transaction (the secret is redacted by the capture trigger).
 */
export async function updateSetting(
  db: Db,
  condition: AlertCondition,
  body: AlertSettingBody,
  actor: AuditActor,
): Promise<AlertSetting> {
  return db.transaction(async (tx) => {
    await audit(tx, actor, { entity: 'alert-setting', entityId: condition, action: 'update' });
    const [row] = await tx
      .select()
      .from(alertSettings)
      .where(eq(alertSettings.condition, condition))
      .for('update');
    const current: ConditionSetting = row
      ? {
          condition,
          thresholdMin: row.thresholdMin,
          enabled: row.enabled,
          webhookUrl: row.webhookUrl,
          webhookSecret: row.webhookSecret,
        }
      : defaultSetting(condition);
    const next: ConditionSetting = {
      condition,
      thresholdMin: body.thresholdMin ?? current.thresholdMin,
      enabled: body.enabled ?? current.enabled,
      webhookUrl: body.webhookUrl === undefined ? current.webhookUrl : body.webhookUrl,
      webhookSecret: body.webhookSecret === undefined ? current.webhookSecret : body.webhookSecret,
    };
    if (next.webhookUrl !== null && next.webhookSecret === null) throw new Invalid(WEBHOOK_SECRET_NEEDED);
    const values = {
      thresholdMin: next.thresholdMin,
      enabled: next.enabled,
      webhookUrl: next.webhookUrl,
      webhookSecret: next.webhookSecret,
      updatedAt: sql`now()`,
    };
    await tx
      .insert(alertSettings)
      .values({ condition, ...values })
      .onConflictDoUpdate({ target: alertSettings.condition, set: values });
    return shown(next);
  });
}

/** GET /api/alert-subscriptions: the user's choice for every condition. */
export async function listSubscriptions(db: Db, userId: number): Promise<AlertSubscription[]> {
  const rows = await db.select().from(alertSubscriptions).where(eq(alertSubscriptions.userId, userId));
  const stored = new Map(rows.map((row) => [row.condition, row]));
  return ALERT_CONDITIONS.map((condition) => {
    const row = stored.get(condition);
    return {
      condition,
      inApp: row?.inApp ?? DEFAULT_SUBSCRIPTION.inApp,
      mail: row?.mail ?? DEFAULT_SUBSCRIPTION.mail,
    };
  });
}

/** PUT /api/alert-subscriptions: the conditions given are set, the others keep theirs. Audited. */
export async function saveSubscriptions(
  db: Db,
  userId: number,
  subscriptions: AlertSubscription[],
  actor: AuditActor,
): Promise<AlertSubscription[]> {
  const conditions = subscriptions.map((s) => s.condition);
  const twice = conditions.find((condition, i) => conditions.indexOf(condition) !== i);
  if (twice) throw new Invalid(`body.subscriptions: ${twice} is given twice`);
  await db.transaction(async (tx) => {
    await audit(tx, actor, { entity: 'alert-subscription', entityId: userId, action: 'update' });
    await tx
      .insert(alertSubscriptions)
      .values(subscriptions.map((s) => ({ userId, condition: s.condition, inApp: s.inApp, mail: s.mail })))
      .onConflictDoUpdate({
        target: [alertSubscriptions.userId, alertSubscriptions.condition],
        set: { inApp: sql`excluded.in_app`, mail: sql`excluded.mail` },
      });
  });
  return listSubscriptions(db, userId);
}
