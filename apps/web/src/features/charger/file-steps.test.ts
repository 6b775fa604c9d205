import type { ChargerFileRequest } from '@ev/shared';
import { describe, expect, it } from 'vitest';
import { requestOutcome, stepItems } from './file-steps.ts';

const request = (steps: string[], overrides: Partial<ChargerFileRequest> = {}): ChargerFileRequest => ({
  id: 1,
  kind: 'firmware',
  chargerId: 'C1',
  fileId: 1,
  fileName: 'fw.bin',
  version: '2.0',
  jobId: null,
  requestedByEmail: null,
  requestedAt: '2026-05-01T03:00:00.000Z',
  retrieveAt: '2026-05-01T03:00:00.000Z',
  answer: 'Accepted',
  answerFileName: null,
  status: steps.at(-1) ?? null,
  statusAt: null,
  steps: steps.map((status, i) => ({ status, at: `2026-05-01T03:00:0${i}.000Z` })),
  open: true,
  ...overrides,
});
const states = (items: ReturnType<typeof stepItems>) => items.map((item) => `${item.title}:${item.state}`);

describe('stepItems', () => {
  it('marks the steps reported done and the next one under way', () => {
    expect(states(stepItems('firmware', request(['Downloading', 'Downloaded'])))).toEqual([
      'Downloading:finish',
      'Downloaded:finish',
      'Installing:process',
      'Installed:wait',
    ]);
    expect(stepItems('firmware', request(['Downloading']))[0]!.at).toBe('2026-05-01T03:00:00.000Z');
  });

  it('shows a failure in place of the step it kept from coming, and nothing under way after it', () => {
    const failed = request(['Downloading', 'DownloadFailed'], { open: false });
    expect(states(stepItems('firmware', failed))).toEqual([
      'Downloading:finish',
      'Download failed:error',
      'Installing:wait',
      'Installed:wait',
    ]);
    expect(
      states(stepItems('diagnostics', request(['Uploading', 'UploadFailed'], { kind: 'diagnostics' }))),
    ).toEqual(['Uploading:finish', 'Upload failed:error']);
  });

  it('counts skipped steps as passed, ignores Idle, and ends all done at Installed', () => {
    expect(
      states(
        stepItems('firmware', request(['Idle', 'Downloading', 'Installing', 'Installed'], { open: false })),
      ),
    ).toEqual(['Downloading:finish', 'Downloaded:finish', 'Installing:finish', 'Installed:finish']);
  });
});

describe('requestOutcome', () => {
  it('says how the command went, then the last step', () => {
    expect(requestOutcome(request([], { answer: null }))).toBe('Sending…');
    expect(requestOutcome(request([], { answer: 'NotSupported' }))).toBe('NotSupported');
    expect(requestOutcome(request([]))).toBe('Accepted: waiting for the charger');
    expect(requestOutcome(request(['Downloading']))).toBe('Downloading');
    expect(requestOutcome(request([], { kind: 'diagnostics' }))).toBe(
      'Accepted: the charger had no diagnostics',
    );
  });
});
