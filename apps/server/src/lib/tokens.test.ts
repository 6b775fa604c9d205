import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { hashToken, newToken } from './tokens.ts';

describe('newToken', () => {
  it('gives 256 random bits as base64url, different each time', () => {
    const tokens = Array.from({ length: 100 }, newToken);
    for (const token of tokens) {
      expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(Buffer.from(token, 'base64url')).toHaveLength(32);
    }
    expect(new Set(tokens).size).toBe(100);
  });
});

describe('hashToken', () => {
  it('is the SHA-256 of the token, base64url', () => {
    expect(hashToken('abc')).toBe('ungWv48Bz-pBQUDeXa4iI7ADYaOWF3qctBD_YfIAFa0');
    const token = newToken();
    expect(hashToken(token)).toBe(createHash('sha256').update(token).digest('base64url'));
    expect(hashToken(token)).not.toBe(token);
  });

  it('is stable and tells tokens apart', () => {
    const token = newToken();
    expect(hashToken(token)).toBe(hashToken(token));
    expect(hashToken(token)).not.toBe(hashToken(`${token}x`));
  });
});
