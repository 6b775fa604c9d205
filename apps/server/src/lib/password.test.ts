import { describe, expect, it } from 'vitest';
import { hashPassword, verifyPassword } from './password.ts';

describe('hashPassword / verifyPassword', async () => {
  // scrypt is deliberately slow (~350 ms): one hash serves the file.
  const stored = await hashPassword('Correct-Horse-9');

  it('stores scrypt parameters, a salt and a key, never the password', () => {
    expect(stored).toMatch(/^scrypt\$131072\$8\$1\$[A-Za-z0-9_-]{22}\$[A-Za-z0-9_-]{43}$/);
    expect(stored).not.toContain('Correct-Horse-9');
  });

  it('verifies the right password and refuses a wrong one', async () => {
    expect(await verifyPassword('Correct-Horse-9', stored)).toBe(true);
    expect(await verifyPassword('correct-horse-9', stored)).toBe(false);
  });

  it('salts each hash', async () => {
    const again = await hashPassword('Correct-Horse-9');
    expect(again).not.toBe(stored);
    expect(again.split('$')[4]).not.toBe(stored.split('$')[4]);
  });

  it('compares passwords in NFKC form', async () => {
    // A fullwidth letter (U+FF23) and its ASCII form are one password after NFKC normalization.
    expect(await verifyPassword('Correct-Horse-9'.replace('C', '\uFF23'), stored)).toBe(true);
  });

  it('answers false for a missing hash', async () => {
    expect(await verifyPassword('Correct-Horse-9', null)).toBe(false);
  });

  it('answers false, not an error, for a malformed stored value', async () => {
    const [, n, r, p, salt, key] = stored.split('$');
    const malformed = [
      '',
      'not-a-hash',
      `bcrypt$${n}$${r}$${p}$${salt}$${key}`,
      `scrypt$${n}$${r}$${p}$${salt}`,
      `scrypt$abc$${r}$${p}$${salt}$${key}`,
      `scrypt$1000$${r}$${p}$${salt}$${key}`,
      `scrypt$-1$${r}$${p}$${salt}$${key}`,
      `scrypt$${2 ** 30}$${r}$${p}$${salt}$${key}`,
      `scrypt$${n}$${r}$${p}$${salt}$${key!.slice(0, 20)}`,
    ];
    for (const value of malformed) expect(await verifyPassword('Correct-Horse-9', value), value).toBe(false);
  });
});
