import { describe, expect, it } from 'vitest';
import { NUL_MESSAGE, SURROGATE_MESSAGE, unstorableText } from './text.ts';

const containsNul = (input: unknown) => unstorableText(input) === NUL_MESSAGE;

describe('unstorableText', () => {
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

describe('unstorableText and surrogates', () => {
  it('finds a lone surrogate, high or low, in a value or a key', () => {
    for (const value of ['\ud800', 'a\ud800b', 'x\udc00', { '\udfff': 1 }, ['ok', '\udbff']]) {
      expect(unstorableText(value), JSON.stringify(value)).toBe(SURROGATE_MESSAGE);
    }
  });

  it('passes whole pairs (emoji and other astral characters)', () => {
    for (const value of ['😀', 'a😀b', '𠀀', { '😀': '𝄞' }]) expect(unstorableText(value)).toBeNull();
  });
});
