import { notification as staticNotification } from 'antd';
import type { ReactNode } from 'react';
import { ApiError } from './api.ts';

type Notifier = Pick<typeof staticNotification, 'error' | 'info' | 'success' | 'warning'>;

// The App component's instance follows the theme; the static one only serves until the app has mounted.
let notifier: Notifier = staticNotification;

export function setNotifier(instance: Notifier) {
  notifier = instance;
}

export const ERROR_TITLE = 'Something went wrong !';
export const errorDescription = (code: string) => `Please re-login or contact web admin. (Code: ${code})`;

/** How a query or mutation tells the one error handler which failures its screen shows itself. */
export interface CallMeta {
  /** Server messages the screen handles (for example 'pass' on login); others still notify. */
  handledErrors?: readonly string[];
  /** HTTP statuses the screen handles (for example 409 on terms acceptance). */
  handledStatuses?: readonly number[];
  /** The screen handles every failure, or none should be shown. */
  silent?: boolean;
}

export function notifyError(code: string) {
  // One notice per code: several calls failing together (an expired session) show it once.
  notifier.error({ key: `error:${code}`, title: ERROR_TITLE, description: errorDescription(code) });
}

export function notify(
  kind: 'error' | 'info' | 'success' | 'warning',
  title: ReactNode,
  description?: ReactNode,
) {
  notifier[kind]({ title, description });
}

export function notifyInfo(options: { title: ReactNode; description: ReactNode; duration?: number }) {
  notifier.info(options);
}

/** The generic failure notice of the spec, unless the caller's meta says the screen handles it. */
export function notifyCallError(error: unknown, meta: CallMeta | undefined) {
  if (meta?.silent) return;
  if (error instanceof DOMException && error.name === 'AbortError') return;
  if (error instanceof ApiError && meta?.handledErrors?.includes(error.message)) return;
  if (error instanceof ApiError && meta?.handledStatuses?.includes(error.status)) return;
  const code = error instanceof Error ? error.message : String(error);
  notifyError(code);
}
