import { describe, expect, it } from 'vitest';
import { CODE_ALPHABET, generateCodes, randomSuffix, SUFFIX_LENGTH } from './codes.ts';

describe('promotion codes', () => {
  it('draws suffixes from 32 upper-case letters and digits without the look-alikes O, 0, I and 1', () => {
    expect(CODE_ALPHABET).toHaveLength(32);
    expect(new Set(CODE_ALPHABET).size).toBe(32);
    expect(CODE_ALPHABET).toMatch(/^[A-Z2-9]+$/);
    for (const lookAlike of ['O', '0', 'I', '1']) expect(CODE_ALPHABET).not.toContain(lookAlike);
    const seen = new Set<string>();
    for (let n = 0; n < 2000; n++) {
      const suffix = randomSuffix();
      expect(suffix).toHaveLength(SUFFIX_LENGTH);
      for (const symbol of suffix) seen.add(symbol);
    }
    // 16,000 symbols drawn: every one of the 32 comes up.
    expect([...seen].sort().join('')).toBe([...CODE_ALPHABET].sort().join(''));
  });

  it('gives the code itself for one, and 1,000 unique codes of the code and a suffix', () => {
    expect(generateCodes('Summer26', 1)).toEqual(['Summer26']);
    const codes = generateCodes('Summer26', 1000);
    expect(codes).toHaveLength(1000);
    expect(new Set(codes.map((code) => code.toLowerCase())).size).toBe(1000);
    for (const code of codes)
      expect(code).toMatch(new RegExp(`^Summer26[${CODE_ALPHABET}]{${SUFFIX_LENGTH}}$`));
  });

  it('never gives a code it is told to avoid, whatever its case', () => {
    const first = generateCodes('EV', 200);
    const avoid = new Set(first.map((code) => code.toLowerCase()));
    const second = generateCodes('ev', 200, avoid);
    expect(second.filter((code) => avoid.has(code.toLowerCase()))).toEqual([]);
  });
});
