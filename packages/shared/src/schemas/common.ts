import { z } from 'zod';

/** Every error answer of the API. */
export const errorResponse = z.object({ message: z.string() }).meta({ id: 'Error' });
export type ErrorResponse = z.infer<typeof errorResponse>;

export const messageResponse = z.object({ message: z.string() });
export type MessageResponse = z.infer<typeof messageResponse>;

export const idParam = z.object({ id: z.coerce.number().int().positive() });

/** Not empty after trimming: the spec's "not whitespace only" rule. */
export const notBlank = (message: string) =>
  z.string().refine((value) => value.trim().length > 0, { message });
