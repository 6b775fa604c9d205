/** Typed errors thrown by services; one handler turns them into an HTTP status and `{ message }`. */
export class AppError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
  ) {
    super(message);
    this.name = new.target.name;
  }
}
export class Invalid extends AppError {
  constructor(message: string) {
    super(400, message);
  }
}
export class Unauthorized extends AppError {
  constructor(message = 'Unauthorized') {
    super(401, message);
  }
}
export class Forbidden extends AppError {
  constructor(message = 'Forbidden') {
    super(403, message);
  }
}
export class NotFound extends AppError {
  constructor(message = 'Not found') {
    super(404, message);
  }
}
export class Conflict extends AppError {
  constructor(message: string) {
    super(409, message);
  }
}
/** A charger answered, but not with what was asked (it rejected the command or answered an error). */
export class BadGateway extends AppError {
  constructor(message: string) {
    super(502, message);
  }
}
/** The server lacks a setting its administrator must give it (the request itself was fine). */
export class ServiceUnavailable extends AppError {
  constructor(message: string) {
    super(503, message);
  }
}
/** A charger did not answer in time. */
export class GatewayTimeout extends AppError {
  constructor(message: string) {
    super(504, message);
  }
}
export class TooManyRequests extends AppError {
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super(429, message);
  }
}

/**
 * True when PostgreSQL refused a statement with one of `codes` (SQLSTATE). Drizzle wraps the driver's error,
 * so the code may sit a few `cause`s deep.
 */
export function hasSqlState(error: unknown, codes: ReadonlySet<string>): boolean {
  let current: unknown = error;
  for (let depth = 0; depth < 4 && current && typeof current === 'object'; depth++) {
    if (codes.has(String((current as { code?: unknown }).code))) return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

const UNIQUE_VIOLATION = new Set(['23505']);
/** A duplicate key: two saves racing for the same id or email. */
export const isUniqueViolation = (error: unknown) => hasSqlState(error, UNIQUE_VIOLATION);
