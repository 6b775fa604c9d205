// The sign-in pages' rules, loaded on the first check of a field: zod stays off a cold /login.
export { forgotPasswordBody, loginBody } from '@ev/shared';
