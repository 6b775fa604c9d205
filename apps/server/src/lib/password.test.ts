import { describe, expect, it } from 'vitest';
import { hashPassword, scryptCost, verifyPassword } from './password.ts';

describe('hashPassword / verifyPassword', async () => {
  // scrypt is deliberately slow (~350 ms): one hash serves the file.
  const stored = await hashPassword('Correct-Horse-9');

  it('stores scrypt parameters, a salt and a key, never the password', () => {
    expect(stored).toMatch(/^scrypt\$\d+\$8\$1\$[A-Za-z0-9_-]{22}\$[A-Za-z0-9_-]{43}$/);
    expect(stored.split('$')[1]).toBe(String(scryptCost()));
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

  it('hashes at N = 2^17 outside a test run, whatever SCRYPT_LOG_N says; a test run may lower it', () => {
    expect(scryptCost({})).toBe(2 ** 17);
    expect(scryptCost({ SCRYPT_LOG_N: '10' })).toBe(2 ** 17);
    expect(scryptCost({ NODE_ENV: 'production', SCRYPT_LOG_N: '10' })).toBe(2 ** 17);
    expect(scryptCost({ NODE_ENV: 'test', SCRYPT_LOG_N: '12' })).toBe(2 ** 12);
    // Never raised past production's, never below 2^10, never a fraction.
    for (const log of ['18', '9', '12.5', 'x', '']) {
      expect(scryptCost({ NODE_ENV: 'test', SCRYPT_LOG_N: log }), log).toBe(2 ** 17);
    }
  });

  it('verifies a hash made at another cost by the cost it carries', async () => {
    const [, , r, p, salt] = stored.split('$');
    // The same password hashed at production cost verifies in a test run too (and the reverse).
    const { scrypt } = await import('node:crypto');
    const key = await new Promise<Buffer>((done, fail) =>
      scrypt(
        'Correct-Horse-9',
        Buffer.from(salt!, 'base64url'),
        32,
        { N: 2 ** 17, r: 8, p: 1, maxmem: 256 * 1024 * 1024 },
        (error, derived) => (error ? fail(error) : done(derived)),
      ),
    );
    const production = ['scrypt', 2 ** 17, r, p, salt, key.toString('base64url')].join('$');
    expect(await verifyPassword('Correct-Horse-9', production)).toBe(true);
    expect(await verifyPassword('Correct-Horse-8', production)).toBe(false);
  });
});
