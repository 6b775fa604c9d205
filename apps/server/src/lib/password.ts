import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';

/** scrypt's cost in production: N = 2^17 (OWASP: N=2^17, r=8, p=1 is the recommended minimum for scrypt). */
export const SCRYPT_LOG_N = 17;

/**
 * The cost new hashes get. A test run may lower it with SCRYPT_LOG_N (10–17), honoured only when NODE_ENV is
 * 'test' (the test runner's): at full cost every sign-in of the API suites took ~0.35 s of a core, a third of
 * their time. A hash keeps its own parameters, so verifying reads them from it whatever the cost is now.
 */
export function scryptCost(env: NodeJS.ProcessEnv = process.env): number {
  const log = Number(env.SCRYPT_LOG_N);
  const lowered = env.NODE_ENV === 'test' && Number.isInteger(log) && log >= 10 && log <= SCRYPT_LOG_N;
  return 2 ** (lowered ? log : SCRYPT_LOG_N);
}

const N = scryptCost();
const R = 8;
const P = 1;
const KEY_LENGTH = 32;
const MAXMEM = 256 * 1024 * 1024;

function derive(password: string, salt: Buffer, n: number, r: number, p: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(password.normalize('NFKC'), salt, KEY_LENGTH, { N: n, r, p, maxmem: MAXMEM }, (error, key) =>
      error ? reject(error) : resolve(key),
    );
  });
}

/** `scrypt$N$r$p$salt$hash`, base64url parts. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, N, R, P);
  return ['scrypt', N, R, P, salt.toString('base64url'), key.toString('base64url')].join('$');
}

export async function verifyPassword(password: string, stored: string | null): Promise<boolean> {
  const parts = (stored ?? DUMMY_HASH).split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') return false;
  const [, n, r, p, salt, hash] = parts as [string, string, string, string, string, string];
  const expected = Buffer.from(hash, 'base64url');
  let key: Buffer;
  try {
    key = await derive(password, Buffer.from(salt, 'base64url'), Number(n), Number(r), Number(p));
  } catch {
    // Parameters scrypt refuses (not a number, not a power of 2, over the memory limit): a corrupt hash.
    return false;
  }
  // With no stored hash we still spend the same time, so timing does not tell unknown accounts apart.
  return stored !== null && key.length === expected.length && timingSafeEqual(key, expected);
}

/** A hash of a random password, compared against when the account does not exist. */
const DUMMY_HASH = `scrypt$${N}$${R}$${P}$${randomBytes(16).toString('base64url')}$${randomBytes(KEY_LENGTH).toString('base64url')}`;
