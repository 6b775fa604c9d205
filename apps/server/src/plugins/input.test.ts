import { describe, expect, it } from 'vitest';
import { containsNul } from './input.ts';

describe('containsNul', () => {
  it('finds U+0000 in a string, a nested value or a key', () => {
    expect(containsNul('a\u0000b')).toBe(true);
    expect(containsNul({ a: { b: ['x', 'y\u0000'] } })).toBe(true);
    expect(containsNul({ 'k\u0000': 1 })).toBe(true);
  });

  it('passes everything else', () => {
    for (const value of [
      undefined,
      null,
      0,
      true,
      '',
      'plain',
      'ไทย',
      '\\u0000',
      { a: [1, 'b', null] },
      [],
    ]) {
      expect(containsNul(value), JSON.stringify(value)).toBe(false);
    }
  });

  it('walks deep nesting without recursion', () => {
    let deep: unknown = 'end\u0000';
    for (let i = 0; i < 100_000; i++) deep = [deep];
    expect(containsNul(deep)).toBe(true);
  });
});
