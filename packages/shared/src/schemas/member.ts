import { z } from 'zod';
import { emailValue, resetPasswordBody } from './auth.ts';
import { bookingItem, isoInstantParam, typedBaht } from './booking.ts';
import { idSchema } from './common.ts';

/** The companion app's member API (OpenAPI tag 'member'): reserve, check in, start, stop, pay. */
export const MEMBER_LIMITS = {
  /** A slot starts at most this far ahead (terms: scheduling at most 1 day ahead). */
  aheadMs: 24 * 3_600_000,
  /** A slot lasts at most this long. */
  slotMaxMs: 4 * 3_600_000,
  /** Check-in opens this long before the slot starts. */
  checkInEarlyMs: 15 * 60_000,
  /** A slot may start this far in the past (a reservation made on the spot). */
  startGraceMs: 5 * 60_000,
} as const;

export const memberLoginBody = z.strictObject({
  email: z.string().trim().min(1, 'Email is required.').max(255),
  pass: z.string().min(1, 'Password is required.').max(200),
});
export const memberLoginResponse = z.object({
  message: z.string(),
  accessToken: z.string(),
  /** The id tag the app's sessions start with (RemoteStartTransaction). */
  idTag: z.string(),
});

/** Forgot password in the app: the member's email (no `type`: the member API has one kind of account). */
export const memberForgotPasswordBody = z.strictObject({ email: emailValue });
export type MemberForgotPasswordBody = z.infer<typeof memberForgotPasswordBody>;
/** The link's token and the new password: the staff reset body and its rules (8 to 50 characters). */
export const memberResetPasswordBody = resetPasswordBody;

const requiredInstant = (label: string) =>
  isoInstantParam
    .refine((value) => value !== undefined, `${label} is required.`)
    .transform((value) => value!);

export const reserveBody = z.strictObject({
  connectorId: idSchema('Connector is required.'),
  slotStart: requiredInstant('Slot start'),
  slotEnd: requiredInstant('Slot end'),
});
export type ReserveBody = z.infer<typeof reserveBody>;

/** How a member pays in the app (zero is set by the server for a free session; manual is staff's). */
export const MEMBER_PAYMENT_METHODS = ['qr', 'credit', 'truemoney', 'linepay'] as const;
export const memberPayBody = z.strictObject({
  method: z.enum(MEMBER_PAYMENT_METHODS),
  /** The amount the member saw, after the booking's discount and the points below. */
  amount: typedBaht.optional(),
  /** Green points to redeem on this payment, worth the card in force's rate: whole points only. */
  point: z
    .number({ error: 'Green points must be a whole number' })
    .int('Green points must be a whole number')
    .min(1, 'Green points must be at least 1')
    .max(1_000_000_000, 'Green points must be at most 1,000,000,000')
    .optional(),
});

export const memberBookingResponse = z.object({ booking: bookingItem });
export const memberBookingListResponse = z.object({ bookings: z.array(bookingItem) });
export const memberPayResponse = z.object({
  message: z.string(),
  invoiceNo: z.string(),
  amount: z.number(),
  /** Taken off before `amount` was charged, and the points it earned. */
  discount: z.number(),
  point: z.number(),
  pointUsed: z.number().int(),
  pointEarned: z.number().int(),
});
