import type { ChargerFileKind, ChargerFileRequest } from '@ev/shared';

/** How a step shows: antd Steps' statuses. */
export type StepState = 'wait' | 'process' | 'finish' | 'error';

export interface StepItem {
  title: string;
  state: StepState;
  /** When the charger reported it (ISO), null while it has not. */
  at: string | null;
}

/** The steps a firmware update and a diagnostics upload go through, in order. */
const SEQUENCE: Record<ChargerFileKind, readonly string[]> = {
  firmware: ['Downloading', 'Downloaded', 'Installing', 'Installed'],
  diagnostics: ['Uploading', 'Uploaded'],
};

/** A failure stands in place of the step it kept from coming, under its own words. */
const FAILURES: Record<string, { replaces: string; title: string }> = {
  DownloadFailed: { replaces: 'Downloaded', title: 'Download failed' },
  InstallationFailed: { replaces: 'Installed', title: 'Installation failed' },
  UploadFailed: { replaces: 'Uploaded', title: 'Upload failed' },
  // OCPP 2.0.1's words (kept as the charger sent them).
  InstallVerificationFailed: { replaces: 'Installed', title: 'Verification failed' },
  InvalidSignature: { replaces: 'Installed', title: 'Invalid signature' },
  UploadFailure: { replaces: 'Uploaded', title: 'Upload failed' },
  BadMessage: { replaces: 'Uploaded', title: 'Upload failed: bad message' },
  NotSupportedOperation: { replaces: 'Uploaded', title: 'Upload failed: not supported' },
  PermissionDenied: { replaces: 'Uploaded', title: 'Upload failed: permission denied' },
};

/**
 * The request's steps as a row of Steps: each reported step done with its time, the next one under way while
 * the request is open, a failure in place of the step it stopped. Statuses outside the sequence (Idle) are
 * not steps.
 */
export function stepItems(kind: ChargerFileKind, request: ChargerFileRequest): StepItem[] {
  const sequence = SEQUENCE[kind];
  const items: StepItem[] = sequence.map((title) => ({ title, state: 'wait', at: null }));
  let reached = -1;
  let failed = -1;
  for (const step of request.steps) {
    const index = sequence.indexOf(step.status);
    const failure = FAILURES[step.status];
    if (index >= 0) {
      items[index] = { title: step.status, state: 'finish', at: step.at };
      reached = Math.max(reached, index);
      failed = -1;
    } else if (failure) {
      failed = sequence.indexOf(failure.replaces);
      items[failed] = { title: failure.title, state: 'error', at: step.at };
    }
  }
  // Steps a charger skipped (some go from Downloading to Installing) were passed all the same.
  for (let i = 0; i < reached; i++) if (items[i]!.state === 'wait') items[i]!.state = 'finish';
  const next = reached + 1;
  if (failed < 0 && request.open && next < items.length) items[next]!.state = 'process';
  return items;
}

/** The request's outcome in words, for the line above its steps. */
export function requestOutcome(request: ChargerFileRequest): string {
  if (request.answer === null) return 'Sending…';
  if (request.answer !== 'Accepted') return request.answer;
  if (request.kind === 'diagnostics' && !request.answerFileName)
    return 'Accepted: the charger had no diagnostics';
  return request.status ?? 'Accepted: waiting for the charger';
}
