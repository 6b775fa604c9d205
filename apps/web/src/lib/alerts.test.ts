import { describe, expect, it } from 'vitest';
import { reconnectDelay } from './alerts.ts';

describe('the alert stream', () => {
  it('opens again after 1 s, then waits longer after each failure in a row, at most 30 s', () => {
    expect([0, 1, 2, 3, 4, 5, 6, 50].map(reconnectDelay)).toEqual([
      1000, 2000, 4000, 8000, 16000, 30000, 30000, 30000,
    ]);
  });
});
