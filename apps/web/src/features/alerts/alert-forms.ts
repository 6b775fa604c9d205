import {
  ALERT_CONDITIONS,
  type AlertCondition,
  type AlertSetting,
  type AlertSettingBody,
  type AlertSubscription,
} from '@ev/shared';

/** The alert settings' form: one row of fields per condition. */
export interface RowValues {
  thresholdMin: number | null;
  enabled: boolean;
  webhookUrl: string;
  /** A new secret to set; empty keeps the one set. */
  webhookSecret: string;
}
export type Values = Partial<Record<AlertCondition, RowValues>>;

export const valuesOf = (settings: readonly AlertSetting[]): Values =>
  Object.fromEntries(
    settings.map((setting) => [
      setting.condition,
      {
        thresholdMin: setting.thresholdMin,
        enabled: setting.enabled,
        webhookUrl: setting.webhookUrl ?? '',
        webhookSecret: '',
      },
    ]),
  );

/** What Save sends for a row: every field of it, the URL emptied as null, the secret only when one was typed. */
export function bodyOf(row: RowValues): AlertSettingBody {
  const url = row.webhookUrl?.trim() ?? '';
  return {
    thresholdMin: row.thresholdMin ?? undefined,
    enabled: row.enabled,
    webhookUrl: url === '' ? null : url,
    ...(row.webhookSecret ? { webhookSecret: row.webhookSecret } : {}),
  };
}

/** The subscriptions' form: per condition, in the app and by mail. */
export type Choices = Record<AlertCondition, { inApp: boolean; mail: boolean }>;

/** Each condition as the user has it; a condition without a choice: in the app yes, by mail no. */
export function choicesOf(subscriptions: readonly AlertSubscription[]): Choices {
  const given = new Map(subscriptions.map((subscription) => [subscription.condition, subscription]));
  return Object.fromEntries(
    ALERT_CONDITIONS.map((condition) => {
      const chosen = given.get(condition);
      return [condition, { inApp: chosen?.inApp ?? true, mail: chosen?.mail ?? false }];
    }),
  ) as Choices;
}
