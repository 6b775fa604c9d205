import { describe, expect, it } from 'vitest';
import {
  changePasswordValue,
  currentPasswordValue,
  PASSWORD_MESSAGES,
  resetPasswordValue,
} from './password.ts';
import { updateSelfBody } from './user.ts';

const messages = (result: { success: boolean; error?: { issues: Array<{ message: string }> } }) =>
  result.success ? [] : result.error!.issues.map((issue) => issue.message);

describe('changePasswordValue (profile)', () => {
  it.each(['Abcdefg1', 'Password123', 'aB3$%^&*()', `Aa1${'x'.repeat(47)}`])('accepts %s', (value) => {
    expect(changePasswordValue.safeParse(value).success).toBe(true);
  });

  it.each([
    ['abcdefg1', 'no uppercase'],
    ['ABCDEFG1', 'no lowercase'],
    ['Abcdefgh', 'no digit'],
    ['Abcdef1', '7 characters'],
    ['12345678', 'digits only'],
  ])('refuses %s (%s) with the strength message', (value) => {
    expect(messages(changePasswordValue.safeParse(value))).toEqual([PASSWORD_MESSAGES.strength]);
  });

  it.each(['Abcdefg1ก', 'รหัสผ่าน', 'ไทย'])(
    'refuses Thai letters in %s with only the Thai message',
    (value) => {
      expect(messages(changePasswordValue.safeParse(value))).toEqual([PASSWORD_MESSAGES.thai]);
    },
  );

  it('requires a value and caps it at 50 characters', () => {
    expect(messages(changePasswordValue.safeParse(''))[0]).toBe(PASSWORD_MESSAGES.newRequired);
    expect(messages(changePasswordValue.safeParse(`Aa1${'x'.repeat(48)}`))).toEqual([
      PASSWORD_MESSAGES.maxLength,
    ]);
  });

  it('refuses a non-string', () => {
    expect(changePasswordValue.safeParse(12345678).success).toBe(false);
  });
});

describe('updateSelfBody (PATCH /api/user/self)', () => {
  // The body is a union of the name and password shapes: a password refusal must keep its own message.
  it.each([
    ['Abcdefgh', PASSWORD_MESSAGES.strength],
    ['Abcdefg1ก', PASSWORD_MESSAGES.thai],
  ])('reports %s with its message, not a generic union error', (pass, message) => {
    const result = updateSelfBody.safeParse({ currentPass: 'Current1', pass });
    expect(messages(result)).toEqual([message]);
    expect(result.error!.issues[0]!.path).toEqual(['pass']);
  });

  it('accepts exactly one shape', () => {
    expect(updateSelfBody.safeParse({ firstName: 'A', lastName: 'B' }).success).toBe(true);
    expect(updateSelfBody.safeParse({ currentPass: 'x', pass: 'Abcdefg1' }).success).toBe(true);
    expect(
      updateSelfBody.safeParse({ firstName: 'A', lastName: 'B', currentPass: 'x', pass: 'Abcdefg1' }).success,
    ).toBe(false);
  });
});

describe('resetPasswordValue (reset link)', () => {
  it('needs 8 characters and nothing more', () => {
    expect(resetPasswordValue.safeParse('abcdefgh').success).toBe(true);
    expect(resetPasswordValue.safeParse('ไทยไทยไทย').success).toBe(true);
    expect(messages(resetPasswordValue.safeParse('abcdefg'))).toEqual([PASSWORD_MESSAGES.resetLength]);
    expect(messages(resetPasswordValue.safeParse(''))[0]).toBe(PASSWORD_MESSAGES.newRequired);
    expect(messages(resetPasswordValue.safeParse('x'.repeat(51)))).toEqual([PASSWORD_MESSAGES.maxLength]);
  });
});

describe('currentPasswordValue', () => {
  it('requires a value of at most 50 characters, of any form', () => {
    expect(currentPasswordValue.safeParse('x').success).toBe(true);
    expect(messages(currentPasswordValue.safeParse(''))).toEqual([PASSWORD_MESSAGES.currentRequired]);
    expect(messages(currentPasswordValue.safeParse('x'.repeat(51)))).toEqual([PASSWORD_MESSAGES.maxLength]);
  });
});

describe('the spec texts', () => {
  it('are the ones of document 1, section 5', () => {
    expect(PASSWORD_MESSAGES.strength).toBe(
      'Your password must be at least 8 characters. It consists of uppercase, lowercase, and numbers.',
    );
    expect(PASSWORD_MESSAGES.thai).toBe('Your password can not use Thai Language.');
    expect(PASSWORD_MESSAGES.resetLength).toBe(
      'Please enter a value greater than or equal to 8 character(s).',
    );
    expect(PASSWORD_MESSAGES.currentRequired).toBe('Current is required.');
    expect(PASSWORD_MESSAGES.newRequired).toBe('New password is required.');
  });
});
