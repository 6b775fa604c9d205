import type { ReactNode } from 'react';
import { ApiError } from './api.ts';
import { notify } from './notify.ts';

/** The server's reason (offline, no answer, refused), or what went wrong on the way. */
export const failureText = (error: unknown) => (error instanceof ApiError ? error.message : String(error));

/** 'Failed!' with what was not done and why: the notice of an operation on a charger that did not happen. */
export function notifyNotDone(what: ReactNode, error: unknown): void {
  notify(
    'error',
    'Failed!',
    <>
      {what} was not done.
      <br />
      {failureText(error)}
    </>,
  );
}
