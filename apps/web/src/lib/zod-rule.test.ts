import {
  changePasswordValue,
  forgotPasswordBody,
  LOGIN_MESSAGES,
  loginBody,
  PASSWORD_MESSAGES,
  resetPasswordValue,
} from '@ev/shared';
import type { FormRule } from 'antd';
import { describe, expect, it } from 'vitest';
import { optionalZodRule, zodRule, zodValidator } from './zod-rule.ts';

describe('zodValidator', () => {
  it('resolves for a valid value', async () => {
    await expect(zodValidator(loginBody.shape.email)('admin@example.com')).resolves.toBeUndefined();
  });

  it("rejects with the first issue's message", async () => {
    await expect(zodValidator(loginBody.shape.email)('')).rejects.toThrow(LOGIN_MESSAGES.usernameRequired);
    await expect(zodValidator(resetPasswordValue)('')).rejects.toThrow(PASSWORD_MESSAGES.newRequired);
    await expect(zodValidator(resetPasswordValue)('short')).rejects.toThrow(PASSWORD_MESSAGES.resetLength);
    await expect(zodValidator(changePasswordValue)('weakpassword')).rejects.toThrow(
      PASSWORD_MESSAGES.strength,
    );
    await expect(zodValidator(changePasswordValue)('รหัสผ่านไทย1A')).rejects.toThrow(PASSWORD_MESSAGES.thai);
  });

  it('treats an untouched field (undefined) as empty', async () => {
    await expect(zodValidator(forgotPasswordBody.shape.email)(undefined)).rejects.toThrow(
      LOGIN_MESSAGES.email,
    );
    await expect(zodValidator(forgotPasswordBody.shape.email)('not-an-email')).rejects.toThrow(
      LOGIN_MESSAGES.email,
    );
  });
});

/** Runs a rule's validator on one value, as the form does. */
function validate(rule: FormRule, value: unknown) {
  if (typeof rule === 'function' || !rule.validator)
    throw new Error('expected a rule object with a validator');
  return rule.validator({}, value, () => undefined);
}

describe('zodRule', () => {
  it('is an Ant Design rule whose validator applies the schema', async () => {
    const rule = zodRule(loginBody.shape.pass);
    await expect(validate(rule, '')).rejects.toThrow(LOGIN_MESSAGES.passwordRequired);
    await expect(validate(rule, 'secret')).resolves.toBeUndefined();
  });
});

describe('optionalZodRule', () => {
  it('lets an empty field through and applies the schema to a given value', async () => {
    // The schema alone refuses an empty email; the optional rule does not ask it.
    const rule = optionalZodRule(forgotPasswordBody.shape.email);
    for (const empty of [undefined, null, '']) await expect(validate(rule, empty)).resolves.toBeUndefined();
    await expect(validate(rule, 'not-an-email')).rejects.toThrow(LOGIN_MESSAGES.email);
    await expect(validate(rule, 'admin@example.com')).resolves.toBeUndefined();
  });
});
