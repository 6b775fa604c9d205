import { z } from 'zod';
import { instantFrom2000 } from './common.ts';
import { maxMessage } from './list.ts';

/** The point setup form's inputs: at most 7 characters with 2 decimals (document 3, sections 5 and 9). */
export const POINT_INPUT_MAX = 7;
/** The largest value of 7 characters: 9,999,999 (9999.99 is 7 characters too). */
export const POINT_VALUE_MAX = 9_999_999;

/** The screen names of the rate card's fields: each pair reads 'Baht → Point' (earn), 'Point → Baht' (redeem). */
export const POINT_LABELS = {
  fromBaht: 'Baht',
  toPoint: 'Point',
  fromPoint: 'Point',
  toBaht: 'Baht',
  validFrom: 'Effective Date',
} as const;

/** The spec gives no messages for the point setup form: ours, in the style of the other forms (docs/decisions.md). */
export const POINT_MESSAGES = {
  baht: 'Baht is required.',
  point: 'Point is required.',
  bahtMin: 'Baht must be 0 or more.',
  pointMin: 'Point must be 0 or more.',
  bahtPositive: 'Baht must be more than 0.',
  pointPositive: 'Point must be more than 0.',
  bahtDecimals: 'Baht must have at most 2 decimals.',
  pointDecimals: 'Point must have at most 2 decimals.',
  length: maxMessage(POINT_INPUT_MAX),
  validFrom: 'Effective Date is required.',
  validFromYear: 'Effective Date must be in the year 2000 or later.',
  validFromPast: 'Effective Date must not be in the past.',
  sameInstant: 'Another rate card starts at this Effective Date.',
  activeChange: "The active rate card can't be changed.",
  activeDelete: "The active rate card can't be deleted.",
  pastChange: "A past rate card can't be changed.",
  pastDelete: "A past rate card can't be deleted.",
  notFound: 'Point rate not found',
} as const;

const hasCents = (value: number) => /^\d+(\.\d{1,2})?$/.test(String(value));

/**
 * One number of the card: required, at most 2 decimals and 7 characters in its shortest decimal form
 * (String(value): 9999.99 passes, 12345678 is refused; the thousands separators are display only). A divider
 * (fromBaht, fromPoint) must be more than 0, the others 0 or more.
 */
const rateNumber = (label: 'Baht' | 'Point', divider: boolean) => {
  const messages =
    label === 'Baht'
      ? { required: POINT_MESSAGES.baht, min: POINT_MESSAGES.bahtMin, positive: POINT_MESSAGES.bahtPositive }
      : {
          required: POINT_MESSAGES.point,
          min: POINT_MESSAGES.pointMin,
          positive: POINT_MESSAGES.pointPositive,
        };
  const base = z.number({ error: messages.required });
  return (divider ? base.positive(messages.positive) : base.min(0, messages.min))
    .max(POINT_VALUE_MAX, POINT_MESSAGES.length)
    .refine(hasCents, label === 'Baht' ? POINT_MESSAGES.bahtDecimals : POINT_MESSAGES.pointDecimals)
    .refine((value) => String(value).length <= POINT_INPUT_MAX, POINT_MESSAGES.length);
};

/**
 * The Point setup form. `validFrom` is an ISO 8601 instant with its offset, from the year 2000 on; the server
 * refuses one in the past (a minute's grace, see point.service.ts). Any other key is a 400 naming it.
 */
export const pointBody = z.strictObject({
  fromBaht: rateNumber('Baht', true),
  toPoint: rateNumber('Point', false),
  fromPoint: rateNumber('Point', true),
  toBaht: rateNumber('Baht', false),
  validFrom: instantFrom2000(POINT_MESSAGES.validFrom, POINT_MESSAGES.validFromYear),
});
export type PointBody = z.infer<typeof pointBody>;
export type PointForm = z.input<typeof pointBody>;

/**
 * A card's status by the database's clock: the card in force (latest validFrom at or before now) is active,
 * those to come are pending, the earlier ones past (shown below the others, read-only).
 */
export const POINT_STATUSES = ['active', 'pending', 'past'] as const;
export type PointStatus = (typeof POINT_STATUSES)[number];

export const pointRate = z
  .object({
    id: z.number().int(),
    fromBaht: z.number(),
    toPoint: z.number(),
    fromPoint: z.number(),
    toBaht: z.number(),
    validFrom: z.string(),
    status: z.enum(POINT_STATUSES),
  })
  .meta({ id: 'PointRate' });
export type PointRate = z.infer<typeof pointRate>;

/** Every card: the active one first, then the pending ones by start, then the past ones latest first. */
export const pointListResponse = z.object({ points: z.array(pointRate) });
export type PointListResponse = z.infer<typeof pointListResponse>;

/** GET /api/member/point: the member's balance, the card in force (to price points in the app) and the ledger. */
export const memberPointResponse = z.object({
  point: z.number().int(),
  card: z
    .object({ fromBaht: z.number(), toPoint: z.number(), fromPoint: z.number(), toBaht: z.number() })
    .nullable(),
  ledger: z.array(
    z.object({
      kind: z.enum(['earn', 'redeem', 'code', 'reversal', 'expiry']),
      points: z.number().int(),
      source: z.string(),
      createdAt: z.string(),
    }),
  ),
});
export type MemberPointResponse = z.infer<typeof memberPointResponse>;
