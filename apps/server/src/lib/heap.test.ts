import { describe, expect, it } from 'vitest';
import { heapFactorGiven } from './heap.ts';

describe('heapFactorGiven', () => {
  it('sees a factor given on the command line or in NODE_OPTIONS, in either spelling', () => {
    expect(heapFactorGiven(['--import', 'tsx', '--heap-growing-percent=50'])).toBe(true);
    expect(heapFactorGiven([], '--max-old-space-size=512 --heap_growing_percent=30')).toBe(true);
    expect(heapFactorGiven(['--heap-growing-percent', '50'])).toBe(true);
  });

  it('leaves the server its own factor otherwise', () => {
    expect(heapFactorGiven(['--import', 'tsx'], '--max-old-space-size=512')).toBe(false);
    expect(heapFactorGiven([], undefined)).toBe(false);
    expect(heapFactorGiven(['--heap-growing-percentage=5'])).toBe(false);
  });
});
