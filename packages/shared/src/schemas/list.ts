import { z } from 'zod';
import { idQuery } from './common.ts';

/** Paging and sorting of every list call: `?page&size&sort&order`. */
export const LIST_PAGE_SIZE = 10;
export const LIST_MAX_SIZE = 100;

export const listQuery = z.object({
  page: z.coerce.number().int().min(1).default(1),
  size: z.coerce.number().int().min(1).max(LIST_MAX_SIZE).default(LIST_PAGE_SIZE),
  /** A column key; each list whitelists its own keys (an unknown key is a 400). */
  sort: z.string().max(50).optional(),
  order: z.enum(['asc', 'desc']).optional(),
});
export type ListQuery = z.infer<typeof listQuery>;

/** `mode=dropdown` answers `{ <items>: [{ id, nameEn }] }` unpaged; `mode=xlsx` streams a workbook. */
export const listMode = z.enum(['dropdown', 'xlsx']).optional();
export type ListMode = z.infer<typeof listMode>;

/**
 * A repeated id filter: `?merchantId=1&merchantId=2` or a single `?merchantId=1`, always a number[]. Each id
 * is an `idQuery` (1 to ID_MAX): one beyond answers 400 naming it (`query.merchantId.1: …`).
 */
export const idListParam = z
  .union([idQuery, z.array(idQuery).max(1000)])
  .transform((value) => (Array.isArray(value) ? value : [value]))
  .optional();

/** A boolean filter from the query string: 'true' or 'false'. */
export const booleanParam = z
  .enum(['true', 'false'])
  .transform((value) => value === 'true')
  .optional();

export const idName = z.object({ id: z.number().int(), nameEn: z.string() });
export type IdName = z.infer<typeof idName>;

/** The spec's max-length message. */
export const maxMessage = (max: number) => `Please enter no more than ${max} characters.`;

/** A required text field: missing, empty or blank gives `message`; trimmed. */
export const requiredText = (message: string, max: number) =>
  z.string({ error: message }).trim().min(1, message).max(max, maxMessage(max));

/** An optional text field: empty becomes null; trimmed. */
export const optionalText = (max: number) =>
  z
    .string()
    .trim()
    .max(max, maxMessage(max))
    .nullish()
    .transform((value) => (value ? value : null));

/** PATCH bodies take the whole form or only `{ active }` (the list's switch). */
export const activeBody = z.strictObject({ active: z.boolean() });
export type ActiveBody = z.infer<typeof activeBody>;
export const isActiveOnly = (body: object): body is ActiveBody =>
  Object.keys(body).length === 1 && 'active' in body;

/** POST answers the new record's id. */
export const createdResponse = z.object({ message: z.string(), id: z.number().int() });
