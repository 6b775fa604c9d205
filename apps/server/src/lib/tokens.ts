import { createHash, randomBytes } from 'node:crypto';

/** 256 random bits, base64url: what the client holds. */
export const newToken = (): string => randomBytes(32).toString('base64url');

/** What the database holds: a stolen table cannot be replayed as tokens. */
export const hashToken = (token: string): string => createHash('sha256').update(token).digest('base64url');
