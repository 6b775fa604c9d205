/**
 * Thai formats of the cluster and site forms: the Taxpayer Identification No. (13 digits with a check digit)
 * and the Tel (a Thai phone number, dashes and spaces allowed). The value is stored as typed, trimmed: a
 * check never reshapes it.
 */
import { z } from 'zod';
import { maxMessage } from './list.ts';

export const TAX_ID_LENGTH = 13;
/** The spec's limit of both fields (document 1: 'tel and taxId 13'). */
export const TEL_FIELD_MAX = 13;

export const THAI_FORMAT_MESSAGES = {
  taxIdDigits: 'Taxpayer Identification No. must be 13 digits.',
  taxIdCheckDigit: "Taxpayer Identification No. isn't valid: its last digit doesn't match the first 12.",
  telCharacters: 'Tel may hold only digits, with a space or a dash between groups, and may start with +66.',
  telDigits:
    'Tel must be 9 or 10 digits starting with 0 (02-123-4567, 081-234-5678), or +66 and 8 or 9 digits.',
} as const;

const THIRTEEN_DIGITS = /^\d{13}$/;

/**
 * The check digit of a Thai tax ID (the 13th) from its first 12 digits d1..d12:
 * (11 − Σ d_i × (14 − i) mod 11) mod 10.
 */
export function thaiTaxIdCheckDigit(first12: string): number {
  let sum = 0;
  for (let i = 0; i < 12; i += 1) sum += Number(first12[i]) * (13 - i);
  return (11 - (sum % 11)) % 10;
}

/** True for 13 digits whose last is the check digit of the first 12. */
export function isThaiTaxId(value: string): boolean {
  return THIRTEEN_DIGITS.test(value) && thaiTaxIdCheckDigit(value) === Number(value[12]);
}

/** Digits in groups separated by one space or dash, optionally after '+66' ('+66 81 234 5678'). */
const TEL_SHAPE = /^(\+66[ -]?)?\d+([ -]\d+)*$/;

/**
 * True when a Tel's digits are a Thai number: 9 (landline) or 10 (mobile) digits starting with 0, or +66
 * followed by the number without its 0 (8 or 9 digits).
 */
export function isThaiPhone(value: string): boolean {
  if (!TEL_SHAPE.test(value)) return false;
  const digits = value.replace(/\D/g, '');
  if (value.startsWith('+')) return /^66[1-9]\d{7,8}$/.test(digits);
  return /^0\d{8,9}$/.test(digits);
}

/** An optional text checked only when filled: empty or blank becomes null; trimmed, never reshaped. */
const optionalChecked = (max: number, checks: (text: z.ZodString) => z.ZodType<string, string>) =>
  checks(z.string().trim().max(max, maxMessage(max)))
    .nullish()
    .transform((value) => (value ? value : null));

/** An optional Taxpayer Identification No.: 13 digits, the last the check digit. */
export const optionalTaxId = optionalChecked(TAX_ID_LENGTH, (text) =>
  text
    .refine((value) => value === '' || THIRTEEN_DIGITS.test(value), THAI_FORMAT_MESSAGES.taxIdDigits)
    .refine(
      (value) => !THIRTEEN_DIGITS.test(value) || isThaiTaxId(value),
      THAI_FORMAT_MESSAGES.taxIdCheckDigit,
    ),
);

/** An optional Tel: a Thai phone number as `isThaiPhone` reads it. */
export const optionalTel = optionalChecked(TEL_FIELD_MAX, (text) =>
  text
    .refine((value) => value === '' || TEL_SHAPE.test(value), THAI_FORMAT_MESSAGES.telCharacters)
    .refine(
      (value) => value === '' || !TEL_SHAPE.test(value) || isThaiPhone(value),
      THAI_FORMAT_MESSAGES.telDigits,
    ),
);
