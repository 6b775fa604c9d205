import { z } from 'zod';

/** Every error answer of the API. */
export const errorResponse = z.object({ message: z.string() }).meta({ id: 'Error' });
export type ErrorResponse = z.infer<typeof errorResponse>;

export const messageResponse = z.object({ message: z.string() });
export type MessageResponse = z.infer<typeof messageResponse>;

/**
 * Ids are PostgreSQL `integer` columns: 1 to 2,147,483,647. JSON and the query string carry any integer up
 * to 2^53 - 1, so every id the API takes goes through the schemas below, never a bare `z.number()`.
 */
export const ID_MAX = 2_147_483_647;
/** The out-of-range message of every id field; the error names the field (`body.provinceId: …`). */
export const ID_RANGE_MESSAGE = `must be at most ${ID_MAX}`;

/**
 * An id in a JSON body: a whole number from 1 to ID_MAX. `message` (the field's own text, e.g. 'Site Name
 * is required.') answers a missing, non-integer or non-positive value; beyond ID_MAX is ID_RANGE_MESSAGE.
 */
export const idSchema = (message?: string) =>
  z
    .number(message ? { error: message } : undefined)
    .max(ID_MAX, ID_RANGE_MESSAGE)
    .int(message)
    .positive(message);

/** An id in the query string ('12'): as `idSchema`, coerced from the text. */
export const idQuery = z.coerce.number().max(ID_MAX, ID_RANGE_MESSAGE).int().positive();

/**
 * A path id (`/api/merchant/{id}`). Beyond ID_MAX it is a well-formed request for a record that cannot
 * exist: 404 with the area's `notFound` message, as for any missing id (the error handler answers an issue
 * carrying `params.status` with that status). Anything but a positive whole number is a 400.
 */
export const pathId = (notFound: string) =>
  z.coerce
    .number()
    .refine((id) => id <= ID_MAX, { message: notFound, abort: true, params: { status: 404 } })
    .int()
    .positive()
    .max(ID_MAX);

/** `{ id }` path parameters of an area whose missing records answer `notFound`. */
export const idParam = (notFound: string) => z.object({ id: pathId(notFound) });

/** Not empty after trimming: the spec's "not whitespace only" rule. */
export const notBlank = (message: string) =>
  z.string().refine((value) => value.trim().length > 0, { message });

/** A call that takes no fields: no body (Fastify gives null) or `{}`; any key is a 400 naming it. */
export const noFieldsBody = z.strictObject({}).nullish();

/**
 * An ISO 8601 instant with its offset, as every date of the API, from the year 2000 on (an earlier year is a
 * typing slip, and year 0 is no date the database stores). `message` for a text that is no instant.
 */
export const instantFrom2000 = (message: string, yearMessage = 'must be in the year 2000 or later') =>
  z.iso
    .datetime({ offset: true, error: message })
    .refine((text) => new Date(text).getUTCFullYear() >= 2000, yearMessage);
