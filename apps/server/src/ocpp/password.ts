import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * Charger passwords (OCPP security profile 1, HTTP Basic) are machine secrets of 16-40 characters, checked on
 * every reconnect of the whole fleet: a salted SHA-256 is enough for them and costs microseconds, where the
 * users' scrypt would cost a reconnect storm minutes of CPU (docs/decisions.md).
 */
export function hashOcppPassword(password: string): string {
  const salt = randomBytes(16);
  return `sha256$${salt.toString('base64')}$${digest(salt, Buffer.from(password, 'utf8')).toString('base64')}`;
}

export function verifyOcppPassword(stored: string, password: Buffer | undefined): boolean {
  const [scheme, saltText, hashText] = stored.split('$');
  if (scheme !== 'sha256' || !saltText || !hashText || !password) return false;
  const expected = Buffer.from(hashText, 'base64');
  const actual = digest(Buffer.from(saltText, 'base64'), password);
  return expected.length === actual.length && timingSafeEqual(expected, actual);
}

const digest = (salt: Buffer, password: Buffer) =>
  createHash('sha256').update(salt).update(password).digest();
