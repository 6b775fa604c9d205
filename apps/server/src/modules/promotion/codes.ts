import { randomBytes } from 'node:crypto';
import { PROMOTION_CODE_ALPHABET } from '@ev/shared';

/** The suffixes' alphabet: 32 symbols, so one random byte's low 5 bits pick one without bias. */
export const CODE_ALPHABET = PROMOTION_CODE_ALPHABET;
/**
 * 8 symbols: 32^8 ≈ 1.1 × 10^12 suffixes. A promotion's 1,000 codes clash among themselves with a chance of
 * about 1 in 2 million (retried), and a code typed at random hits one of a million codes 1 time in a million.
 */
export const SUFFIX_LENGTH = 8;

/** A random suffix from `crypto`. */
export function randomSuffix(length = SUFFIX_LENGTH): string {
  const bytes = randomBytes(length);
  let suffix = '';
  for (const byte of bytes) suffix += CODE_ALPHABET[byte & 31];
  return suffix;
}

/**
 * `count` codes for a promotion: the code itself for one, else the code and a random suffix each, no two
 * alike (case aside: codes are unique whatever their case, and the suffixes are upper-case).
 */
export function generateCodes(code: string, count: number, avoid: ReadonlySet<string> = new Set()): string[] {
  if (count === 1) return [code];
  const codes = new Map<string, string>();
  while (codes.size < count) {
    const next = `${code}${randomSuffix()}`;
    const key = next.toLowerCase();
    if (!avoid.has(key)) codes.set(key, next);
  }
  return [...codes.values()];
}
