import type { FormRule } from 'antd';

/** The part of a zod schema the rule needs; any shared schema fits. */
export interface SafeParser {
  safeParse(value: unknown): { success: true } | { success: false; error: { issues: { message: string }[] } };
}

/** Validates one value with a shared schema; rejects with the first issue's message, as the server would. */
export function zodValidator(schema: SafeParser) {
  return (value: unknown): Promise<void> => {
    const result = schema.safeParse(value ?? '');
    if (result.success) return Promise.resolve();
    return Promise.reject(new Error(result.error.issues[0]?.message ?? 'Invalid value'));
  };
}

/** An Ant Design Form rule from a shared zod schema, so the form and the API apply the same rules. */
export function zodRule(schema: SafeParser): FormRule {
  const validate = zodValidator(schema);
  return { validator: (_rule, value) => validate(value) };
}

/** The same rule for a field that may stay empty: empty (null, undefined, '') passes, a given value must pass the schema. */
export function optionalZodRule(schema: SafeParser): FormRule {
  const validate = zodValidator(schema);
  return {
    validator: (_rule, value) => (value == null || value === '' ? Promise.resolve() : validate(value)),
  };
}

/**
 * The same rule with its schema loaded on the first check: for the pages that must load first (/login),
 * which would otherwise download zod before the user has typed anything.
 */
export function lazyZodRule(load: () => Promise<SafeParser>): FormRule {
  return { validator: async (_rule, value) => zodValidator(await load())(value) };
}

/** A confirmation field: required, and equal to another field of the same form. */
export function sameAsRules(field: string, requiredMessage: string, mismatchMessage: string): FormRule[] {
  return [
    { required: true, message: requiredMessage },
    ({ getFieldValue }) => ({
      validator: (_rule, value: string | undefined) =>
        !value || value === getFieldValue(field)
          ? Promise.resolve()
          : Promise.reject(new Error(mismatchMessage)),
    }),
  ];
}
