import { POWER_FIELD_MESSAGES } from '@ev/shared';
import { Form } from 'antd';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { MAX_POWER_RULES, MaxPowerField } from './max-power-field.tsx';

/** What the field's rules say of a value: undefined when it passes, else the message shown under the field. */
async function check(value: unknown): Promise<string | undefined> {
  for (const rule of MAX_POWER_RULES) {
    if (typeof rule === 'function' || !rule.validator)
      throw new Error('expected a rule object with a validator');
    try {
      await rule.validator({}, value, () => undefined);
    } catch (error) {
      return (error as Error).message;
    }
  }
  return undefined;
}

describe('MaxPowerField', () => {
  it('draws the optional kW input with its label, name and the help it is given', () => {
    const html = renderToStaticMarkup(
      <Form>
        <MaxPowerField extra="Empty: no limit. Shared among the site's charging sessions." />
      </Form>,
    );
    expect(html).toContain('<label for="maxPowerKw"');
    expect(html).toContain('>Max power (kW)</label>');
    expect(html).toContain('id="maxPowerKw"');
    expect(html).toContain('placeholder="No limit"');
    expect(html).toContain('inputMode="decimal"');
    expect(html).toContain('maxLength="12"');
    expect(html).toContain('>kW<');
    expect(html).toContain('Empty: no limit. Shared among the site&#x27;s charging sessions.');
    // Not required: an empty field is no limit.
    expect(html).not.toContain('ant-form-item-required');
  });

  it("rejects a typed value the shared schema refuses, with the schema's message", async () => {
    expect(await check(0)).toBe(POWER_FIELD_MESSAGES.maxPowerKwMin);
    expect(await check(-1)).toBe(POWER_FIELD_MESSAGES.maxPowerKwMin);
    expect(await check(100_001)).toBe(POWER_FIELD_MESSAGES.maxPowerKwMax);
    expect(await check(12.345)).toBe(POWER_FIELD_MESSAGES.maxPowerKwStep);
  });

  it('accepts an empty field (no limit) and a limit the schema takes, unrounded', async () => {
    expect(await check(undefined)).toBeUndefined();
    expect(await check(null)).toBeUndefined();
    expect(await check('')).toBeUndefined();
    expect(await check(22)).toBeUndefined();
    expect(await check(7.45)).toBeUndefined();
  });
});
