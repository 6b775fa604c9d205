import { ALERT_CONDITIONS } from '@ev/shared';
import { describe, expect, it } from 'vitest';
import { bodyOf, choicesOf, valuesOf } from './alert-forms.ts';

describe('an alert setting row', () => {
  it('starts from the saved setting, the secret field empty (the secret is never answered)', () => {
    expect(
      valuesOf([
        {
          condition: 'charger-offline',
          thresholdMin: 10,
          enabled: true,
          webhookUrl: null,
          hasWebhookSecret: true,
        },
      ]),
    ).toEqual({
      'charger-offline': { thresholdMin: 10, enabled: true, webhookUrl: '', webhookSecret: '' },
    });
  });

  it('saves every field, an emptied URL as null, and a secret only when one was typed', () => {
    expect(bodyOf({ thresholdMin: 0, enabled: false, webhookUrl: '  ', webhookSecret: '' })).toEqual({
      thresholdMin: 0,
      enabled: false,
      webhookUrl: null,
    });
    expect(
      bodyOf({
        thresholdMin: 5,
        enabled: true,
        webhookUrl: ' https://hooks.example.com/ev ',
        webhookSecret: '0123456789abcdef',
      }),
    ).toEqual({
      thresholdMin: 5,
      enabled: true,
      webhookUrl: 'https://hooks.example.com/ev',
      webhookSecret: '0123456789abcdef',
    });
  });
});

describe('the subscriptions', () => {
  it('hold every condition: what the user chose, else in the app and not by mail', () => {
    const choices = choicesOf([{ condition: 'payment-pending', inApp: false, mail: true }]);
    expect(Object.keys(choices)).toEqual([...ALERT_CONDITIONS]);
    expect(choices['payment-pending']).toEqual({ inApp: false, mail: true });
    expect(choices['charger-offline']).toEqual({ inApp: true, mail: false });
  });
});
