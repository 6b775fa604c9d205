import { z } from 'zod';
import { ADMIN_ROLES } from '../enums.ts';
import { resetPasswordValue } from './password.ts';

export const LOGIN_MESSAGES = {
  usernameRequired: 'Username is required.',
  passwordRequired: 'Password is required.',
  email: 'Please use a valid of the format example: example@email.com',
} as const;

/** The back office signs in accounts of type 'admin' only. Like every write body, unknown keys are a 400. */
export const loginBody = z.strictObject({
  email: z.string().trim().min(1, LOGIN_MESSAGES.usernameRequired).max(255),
  pass: z.string().min(1, LOGIN_MESSAGES.passwordRequired).max(128),
  type: z.literal('admin'),
});
export type LoginBody = z.infer<typeof loginBody>;

export const loginResponse = z.object({
  message: z.literal('Success'),
  accessToken: z.string(),
  adminRole: z.enum(ADMIN_ROLES),
});
export type LoginResponse = z.infer<typeof loginResponse>;

export const emailValue = z
  .string()
  .trim()
  .min(1, LOGIN_MESSAGES.email)
  .max(255)
  .pipe(z.email({ message: LOGIN_MESSAGES.email }));

export const forgotPasswordBody = z.strictObject({
  email: emailValue,
  type: z.literal('admin'),
});
export type ForgotPasswordBody = z.infer<typeof forgotPasswordBody>;

export const resetPasswordBody = z.strictObject({
  emailToken: z.string().min(1, 'The reset link is missing its token.').max(200),
  pass: resetPasswordValue,
});
export type ResetPasswordBody = z.infer<typeof resetPasswordBody>;
