import { maxPowerKwValue } from '@ev/shared';
import { Form, type FormRule } from 'antd';
import type { ReactNode } from 'react';
import { optionalZodRule } from '../../lib/zod-rule.ts';
import { NumberInput } from './number-input.tsx';

/** Optional: empty is no limit of its own; a typed one must pass the shared schema (never rounded). */
export const MAX_POWER_RULES: FormRule[] = [optionalZodRule(maxPowerKwValue)];

/**
 * The optional "Max power (kW)" of a site or a charger (form field `maxPowerKw`): empty is no limit, a typed
 * value is checked by the shared schema as the server checks it. `extra` says what the limit caps.
 */
export function MaxPowerField({ extra }: { extra: ReactNode }) {
  return (
    <Form.Item label="Max power (kW)" name="maxPowerKw" rules={MAX_POWER_RULES} extra={extra}>
      <NumberInput step={0.01} maxLength={12} inputMode="decimal" suffix="kW" placeholder="No limit" />
    </Form.Item>
  );
}
