import { z } from 'zod';
import { maxMessage } from './list.ts';

export const CONTACT_US_MESSAGES = {
  email: 'Email Support is required.',
  emailBlank: 'Email Support is not whitespace',
  emailFormat: "Email isn't correct.",
  phone: 'Call Center is required.',
  phoneBlank: 'Call Center is not whitespace',
  phoneDigits: 'Call Center must have at least 10 digits.',
  phoneCharacters: 'Call Center may hold only digits, spaces and dashes.',
  line: 'LINE is required.',
} as const;

export const CONTACT_US_LIMITS = {
  email: 20,
  phone: 50,
  facebook: 50,
  instagram: 50,
  line: 50,
  address: 255,
  minVersion: 255,
} as const;

export const PHONE_MIN_DIGITS = 10;
const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const PHONE_CHARACTERS = /^[\d -]+$/;

/** The digits of a phone number, as stored and shown ('02-123-45678' -> '0212345678'). */
export const phoneDigits = (phone: string) => phone.replace(/\D/g, '');

/**
 * A field of the PATCH: absent leaves the stored value, null or '' clears it, text is trimmed. `blank` is the
 * message for whitespace-only text; without it, whitespace-only text clears the field like ''.
 */
const patchText = (max: number, blank?: string) =>
  z
    .string()
    .max(max, maxMessage(max))
    .refine((value) => !blank || value === '' || value.trim().length > 0, blank)
    .nullable()
    .optional()
    .transform((value) => (value === undefined ? undefined : value?.trim() || null));

/**
 * PATCH /api/contact-us (document 2, section 5). Email Support, Call Center and LINE must hold a value once
 * saved (the service checks the stored row with the changes); the others may be cleared. Any other key is a
 * 400 naming it.
 */
export const contactUsBody = z.strictObject({
  email: patchText(CONTACT_US_LIMITS.email, CONTACT_US_MESSAGES.emailBlank).refine(
    (value) => !value || EMAIL_PATTERN.test(value),
    CONTACT_US_MESSAGES.emailFormat,
  ),
  phone: patchText(CONTACT_US_LIMITS.phone, CONTACT_US_MESSAGES.phoneBlank)
    .refine((value) => !value || PHONE_CHARACTERS.test(value), CONTACT_US_MESSAGES.phoneCharacters)
    .refine(
      (value) => !value || phoneDigits(value).length >= PHONE_MIN_DIGITS,
      CONTACT_US_MESSAGES.phoneDigits,
    )
    .transform((value) => (value ? phoneDigits(value) : value)),
  facebook: patchText(CONTACT_US_LIMITS.facebook),
  instagram: patchText(CONTACT_US_LIMITS.instagram),
  line: patchText(CONTACT_US_LIMITS.line),
  address: patchText(CONTACT_US_LIMITS.address),
  minVersionAndroid: patchText(CONTACT_US_LIMITS.minVersion),
  minVersionIOS: patchText(CONTACT_US_LIMITS.minVersion),
});
export type ContactUsBody = z.infer<typeof contactUsBody>;
export type ContactUsForm = z.input<typeof contactUsBody>;

export const contactUs = z
  .object({
    email: z.string().nullable(),
    /** Digits only; shown as 2-3-5 digit groups. */
    phone: z.string().nullable(),
    facebook: z.string().nullable(),
    instagram: z.string().nullable(),
    line: z.string().nullable(),
    address: z.string().nullable(),
    minVersionAndroid: z.string().nullable(),
    minVersionIOS: z.string().nullable(),
  })
  .meta({ id: 'ContactUs' });
export type ContactUs = z.infer<typeof contactUs>;
export const contactUsResponse = z.object({ contactUs });

/** The call-center number as the Contact Us page shows it: digits 1-2, 3-5 and 6 on ('02-123-45678'). */
export function formatCallCenter(phone: string | null | undefined): string {
  const digits = phoneDigits(phone ?? '');
  if (!digits) return '-';
  return [digits.slice(0, 2), digits.slice(2, 5), digits.slice(5)].filter(Boolean).join('-');
}
