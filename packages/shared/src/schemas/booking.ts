import { z } from 'zod';
import { BOOKING_STATUSES, PAYMENT_METHODS } from '../booking-machine.ts';
import { idQuery } from './common.ts';
import { idListParam, listQuery } from './list.ts';
import { BAHT_MAX } from './price.ts';

export const BOOKING_MESSAGES = {
  notFound: 'No booking found',
  paymentNotFound: 'No payment found',
  stopped: 'Sent remote stop charging successfully!',
  forceStopped: 'Force stopped successfully!',
  avaliable: 'Skipped cable removal successfully!',
  setAmount: 'Set payment amount successfully!',
  paid: 'Created payment successfully!',
  cancelledPayment: 'Cancelled payment successfully!',
  refunded: 'Refunded successfully!',
  deleted: 'Deleted Successfully !',
  inputNumber: 'Please input number',
  reportNotFound: 'No matched booking found',
  offline: 'The charger is offline: the stop was not sent. Use Force stop to end the booking.',
  paymentPending:
    'A payment of this booking is waiting for the payment provider: it can be changed once the provider answers',
  refundPending: 'A refund of this payment is waiting for the payment provider',
} as const;

/** An instant in ISO 8601 with its offset ('2026-11-23T00:00:00.000+07:00' or '…Z'), as the filters send it. */
export const isoInstantParam = z
  .string()
  .max(40)
  .refine((text) => /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?(Z|[+-]\d{2}:?\d{2})$/.test(text), {
    message: 'must be an ISO 8601 date and time with an offset',
  })
  .transform((text) => new Date(text))
  .refine((date) => !Number.isNaN(date.getTime()), { message: 'must be a real date and time' })
  .optional();

const searchText = z.string().trim().max(255).optional();

/** GET /api/booking (section 7). Without createdAfter and createdBefore the range is today in Asia/Bangkok. */
export const bookingListQuery = listQuery.extend({
  bookingId: idQuery.optional(),
  chargerId: searchText,
  connectorId: idQuery.optional(),
  landlordId: idListParam,
  merchantId: idListParam,
  /** Name, surname, email or telephone, partly. */
  userName: searchText,
  status: z.enum(BOOKING_STATUSES).optional(),
  createdAfter: isoInstantParam,
  createdBefore: isoInstantParam,
  paymentMethod: z.enum(PAYMENT_METHODS).optional(),
  mode: z.enum(['xlsx']).optional(),
});
export type BookingListQuery = z.infer<typeof bookingListQuery>;
export const BOOKING_SORT_KEYS = ['id', 'createdAt', 'startTime', 'status', 'totalAmount', 'energy'] as const;

const instant = z.string().nullable();
const baht = z.number();

export const bookingItem = z.object({
  id: z.number().int(),
  userId: z.number().int().nullable(),
  firstName: z.string().nullable(),
  lastName: z.string().nullable(),
  email: z.string().nullable(),
  tel: z.string().nullable(),
  merchantId: z.number().int(),
  merchantNameEn: z.string(),
  landlordId: z.number().int(),
  landlordNameEn: z.string(),
  chargerId: z.string(),
  chargerNameEn: z.string(),
  connectorId: z.number().int(),
  connectorNameEn: z.string(),
  connectorTypeId: z.number().int(),
  createdAt: z.string(),
  /** The reserved slot (null for a walk-in). */
  slotStart: instant,
  slotEnd: instant,
  startTime: instant,
  stopTime: instant,
  avaliableAt: instant,
  fullAt: instant,
  totalEnergyKwh: z.number(),
  soc: z.number().int().nullable(),
  paymentMethod: z.string().nullable(),
  status: z.string(),
  /** The parts in force (a staff override, else the computed part), baht. */
  priceByPower: baht,
  priceByDuration: baht,
  priceByPenalty: baht,
  adminAmount: baht.nullable(),
  /**
   * What is owed: adminAmount, else the sum of the parts (a live estimate while charging), less the booking's
   * discount code; once paid, what was charged (after the discount and the green points).
   */
  totalAmount: baht,
  /** The discount code redeemed on the booking, and what it takes off (an estimate until paid). */
  discountCode: z.string().nullable(),
  discount: baht,
  /** The green points redeemed at payment: their worth (baht) and how many. */
  point: baht,
  pointUsed: z.number().int(),
  /** The computed parts before overrides, and what they counted: the total's tooltip. */
  computed: z.object({
    priceByPower: baht,
    priceByDuration: baht,
    priceByPenalty: baht,
    overstay: baht,
    dcFull: baht,
    billedHours: z.number().nullable(),
    billedMinutes: z.number().nullable(),
    overstayMinutes: z.number(),
    dcFullMinutes: z.number(),
  }),
  overrides: z.object({
    priceByPower: baht.nullable(),
    priceByDuration: baht.nullable(),
    priceByPenalty: baht.nullable(),
  }),
  /** True while the amounts are an estimate that grows (charging, or charged with the cable still in). */
  live: z.boolean(),
  invoiceNo: z.string().nullable(),
});
export type BookingItem = z.infer<typeof bookingItem>;
export const bookingListResponse = z.object({ total: z.number().int(), bookings: z.array(bookingItem) });

export const bookingEventItem = z.object({
  event: z.string(),
  fromStatus: z.string().nullable(),
  toStatus: z.string(),
  actor: z.string(),
  actorName: z.string().nullable(),
  at: z.string(),
  detail: z.record(z.string(), z.unknown()).nullable(),
});
export const bookingDetailResponse = z.object({
  booking: bookingItem,
  history: z.array(bookingEventItem),
});

/** A baht amount typed in the Set amount and Refund modals: 'Please input number' for anything else. */
export const typedBaht = z
  .number({ error: BOOKING_MESSAGES.inputNumber })
  .min(0, 'must be 0 or more')
  .max(BAHT_MAX, 'must be at most 9,999,999,999.99')
  .refine((value) => /^\d+(\.\d{1,2})?$/.test(String(value)), 'must have at most 2 decimals');

/** PATCH /api/booking/{id} (Set amount): each given key sets (a number) or clears (null) that override. */
export const bookingAmountBody = z
  .strictObject({
    amount: typedBaht.nullable().optional(),
    priceByPower: typedBaht.nullable().optional(),
    priceByDuration: typedBaht.nullable().optional(),
    priceByPenalty: typedBaht.nullable().optional(),
  })
  .refine((body) => Object.keys(body).length > 0, 'Give amount or a part');
export type BookingAmountBody = z.infer<typeof bookingAmountBody>;

/** POST /api/booking/{id}/pay: the amount the staff saw; refused (409) when the amount due differs. */
export const bookingPayBody = z.strictObject({ amount: typedBaht.optional() }).nullish();

export const paymentListQuery = listQuery.extend({
  invoiceNo: z.string().trim().max(50).optional(),
  landlordId: idListParam,
  merchantId: idListParam,
  bookingId: idQuery.optional(),
  userName: searchText,
  createdAfter: isoInstantParam,
  createdBefore: isoInstantParam,
  paymentMethod: z.enum(PAYMENT_METHODS).optional(),
  mode: z.enum(['xlsx']).optional(),
});
export type PaymentListQuery = z.infer<typeof paymentListQuery>;
export const PAYMENT_SORT_KEYS = ['id', 'invoiceNo', 'createdAt', 'amount', 'method'] as const;

export const paymentItem = z.object({
  id: z.number().int(),
  invoiceNo: z.string(),
  firstName: z.string().nullable(),
  lastName: z.string().nullable(),
  email: z.string().nullable(),
  merchantId: z.number().int(),
  merchantNameEn: z.string(),
  landlordId: z.number().int(),
  landlordNameEn: z.string(),
  bookingId: z.number().int(),
  createdAt: z.string(),
  method: z.string(),
  amount: baht,
  refundedAt: instant,
  refundAmount: baht.nullable(),
  creditNoteNo: z.string().nullable(),
  refundStatus: z.string().nullable(),
  /** Taken off before `amount` was charged: the booking's discount code and the green points redeemed. */
  discountCode: z.string().nullable(),
  discount: baht,
  point: baht,
  pointUsed: z.number().int(),
  /** Green points the payment earned. */
  pointEarned: z.number().int(),
});
export type PaymentItem = z.infer<typeof paymentItem>;
export const paymentListResponse = z.object({ total: z.number().int(), payments: z.array(paymentItem) });

/** POST /api/payment/{id}/refund: more than 0, at most what was paid (checked by the server). */
export const refundBody = z.strictObject({
  amount: typedBaht.refine((value) => value > 0, 'must be more than 0'),
});

/** The Booking Report's Style: machine values (raw) or what a person reads (processed, the default). */
export const REPORT_STYLES = ['processed', 'raw'] as const;
export type ReportStyle = (typeof REPORT_STYLES)[number];
export const REPORT_STYLE_LABELS: Record<ReportStyle, string> = { processed: 'Processed', raw: 'Raw' };

const reportText = z.string().trim().max(255).optional();

/**
 * GET /api/report/booking (section 3's booking report filters). Dates are the form's From (start of day) and
 * To (end of day) as ISO instants; service dates filter createdAt, payment dates the payment's time.
 */
export const bookingReportQuery = z.object({
  chargerId: reportText,
  connectorId: idQuery.optional(),
  landlordId: idListParam,
  merchantId: idListParam,
  firstName: reportText,
  lastName: reportText,
  email: reportText,
  tel: reportText,
  paymentMethod: z.enum(PAYMENT_METHODS).optional(),
  createdAfter: isoInstantParam,
  createdBefore: isoInstantParam,
  paymentAfter: isoInstantParam,
  paymentBefore: isoInstantParam,
  style: z.enum(REPORT_STYLES).default('processed'),
});
export type BookingReportQuery = z.infer<typeof bookingReportQuery>;
