import { z } from 'zod';

export const PASSWORD_MAX = 50;
export const RESET_PASSWORD_MIN = 8;

export const PASSWORD_MESSAGES = {
  currentRequired: 'Current is required.',
  newRequired: 'New password is required.',
  confirmRequired: 'Confirm new password is required.',
  strength: 'Your password must be at least 8 characters. It consists of uppercase, lowercase, and numbers.',
  thai: 'Your password can not use Thai Language.',
  resetLength: 'Please enter a value greater than or equal to 8 character(s).',
  resetConfirm: 'The value has to be same with New Password.',
  changeConfirm: 'Password do not match',
  maxLength: `Please enter no more than ${PASSWORD_MAX} characters.`,
} as const;

const THAI = /[\u0E00-\u0E7F]/;
const STRONG = /^(?=.*[a-z])(?=.*[A-Z])(?=.*\d).{8,}$/;

/** New password on the profile screen: lower, upper, digit, 8+, no Thai letters, at most 50. */
export const changePasswordValue = z
  .string()
  .min(1, PASSWORD_MESSAGES.newRequired)
  .max(PASSWORD_MAX, PASSWORD_MESSAGES.maxLength)
  .refine((value) => !THAI.test(value), { message: PASSWORD_MESSAGES.thai })
  // Skipped for Thai text so that only the Thai message shows. Not `abort` on the Thai rule: an aborted
  // issue makes PATCH /api/user/self's union answer 'Invalid input' instead of the Thai message.
  .refine((value) => STRONG.test(value), {
    message: PASSWORD_MESSAGES.strength,
    when: (payload) => typeof payload.value === 'string' && !THAI.test(payload.value),
  });

/** New password on the reset screen: at least 8 characters, at most 50. */
export const resetPasswordValue = z
  .string()
  .min(1, PASSWORD_MESSAGES.newRequired)
  .min(RESET_PASSWORD_MIN, PASSWORD_MESSAGES.resetLength)
  .max(PASSWORD_MAX, PASSWORD_MESSAGES.maxLength);

export const currentPasswordValue = z
  .string()
  .min(1, PASSWORD_MESSAGES.currentRequired)
  .max(PASSWORD_MAX, PASSWORD_MESSAGES.maxLength);
