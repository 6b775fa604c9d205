import { z } from 'zod';
import { ID_MAX, idSchema, instantFrom2000 } from './common.ts';
import { activeBody, booleanParam, idListParam, listQuery, maxMessage, requiredText } from './list.ts';
import { bahtAmount } from './price.ts';

/** Document 3, section 3: what a promotion's codes do. */
export const PROMOTION_TYPES = ['discount', 'point', 'landlord'] as const;
export type PromotionType = (typeof PROMOTION_TYPES)[number];
export const PROMOTION_TYPE_LABELS: Record<PromotionType, string> = {
  discount: 'Promotion Code',
  point: 'Point Code',
  landlord: 'Private Station Code',
};

/** The limits of section 9. */
export const PROMOTION_CODE_MAX = 250;
export const PROMOTION_COUNT_MAX = 1000;
/**
 * The generated codes' suffix symbols: upper-case letters and digits without the look-alikes O/0 and I/1, 32
 * of them (the server draws from them; the form's example code too).
 */
export const PROMOTION_CODE_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';

/**
 * Section 5's messages where it gives them ('Only A-Z a-z 0-9 is allowed', 'Number of code must be between
 * 1-1000', 'Code is already used'); the others are ours, in the same style (docs/decisions.md).
 */
export const PROMOTION_MESSAGES = {
  code: 'Code is required.',
  codeBlank: 'Code is not whitespace',
  codeChars: 'Only A-Z a-z 0-9 is allowed',
  codeUsed: 'Code is already used',
  count: 'Number of code must be between 1-1000',
  total: 'Usage per code must be at least 1',
  nameEn: 'Promotion Name (EN) is required.',
  nameTh: 'Promotion Name (TH) is required.',
  internal: 'Area type is required.',
  expose: 'Homepage is required.',
  landlordIds: 'Site Name is required.',
  validFrom: 'Start Date is required.',
  validTo: 'End Date is required.',
  validRange: 'End Date must be after Start Date.',
  discountPercent: 'Discount (%) is required.',
  discountPercentRange: 'Discount (%) must be between 0-100',
  discountBaht: 'Discount (THB) is required.',
  point: 'Point is required.',
  landlordInternal: 'A private station code is for selected landlords only.',
  landlordExpose: 'A private station code is not shown on the homepage.',
  pointPublic: 'A point code is for public use only.',
  publicPlaces: 'Clusters and sites are chosen only for selected landlords.',
  notFound: 'Promotion not found',
  readOnly: "can't change after the promotion is created",
} as const;

/** A field the type does not use: absent or null. */
const notForType = (field: string, type: PromotionType) => `${field} is not part of a ${type} promotion.`;

const percentHundredths = (value: number) => /^\d+(\.\d{1,2})?$/.test(String(value));

/**
 * The promotion form's fields (document 3, sections 3 to 5), before the type rules. `total` left out or null:
 * no limit per code. `active` left out: active on POST.
 */
const promotionFields = z.strictObject({
  type: z.enum(PROMOTION_TYPES, { error: 'Type must be discount, point or landlord.' }),
  code: z
    .string({ error: PROMOTION_MESSAGES.code })
    .min(1, PROMOTION_MESSAGES.code)
    .max(PROMOTION_CODE_MAX, maxMessage(PROMOTION_CODE_MAX))
    .refine((value) => value.trim().length > 0, PROMOTION_MESSAGES.codeBlank)
    .refine(
      (value) => value.trim().length === 0 || /^[A-Za-z0-9]+$/.test(value),
      PROMOTION_MESSAGES.codeChars,
    ),
  nameEn: requiredText(PROMOTION_MESSAGES.nameEn, 255),
  nameTh: requiredText(PROMOTION_MESSAGES.nameTh, 255),
  internal: z.boolean({ error: PROMOTION_MESSAGES.internal }),
  expose: z.boolean({ error: PROMOTION_MESSAGES.expose }).nullish(),
  active: z.boolean().optional(),
  merchantIds: z.array(idSchema()).max(1000).default([]),
  landlordIds: z.array(idSchema(), { error: PROMOTION_MESSAGES.landlordIds }).max(1000).default([]),
  validFrom: instantFrom2000(PROMOTION_MESSAGES.validFrom),
  validTo: instantFrom2000(PROMOTION_MESSAGES.validTo),
  discountPercent: z
    .number({ error: PROMOTION_MESSAGES.discountPercent })
    .min(0, PROMOTION_MESSAGES.discountPercentRange)
    .max(100, PROMOTION_MESSAGES.discountPercentRange)
    .refine(percentHundredths, 'Discount (%) must have at most 2 decimals.')
    .nullish(),
  discountBaht: bahtAmount('Discount (THB)').nullish(),
  point: z
    .number({ error: PROMOTION_MESSAGES.point })
    .int('Point must be a whole number.')
    .min(0, 'Point must be 0 or more.')
    .max(ID_MAX, `Point must be at most ${ID_MAX}.`)
    .nullish(),
  count: z
    .number({ error: PROMOTION_MESSAGES.count })
    .int(PROMOTION_MESSAGES.count)
    .min(1, PROMOTION_MESSAGES.count)
    .max(PROMOTION_COUNT_MAX, PROMOTION_MESSAGES.count),
  total: z
    .number({ error: PROMOTION_MESSAGES.total })
    .int(PROMOTION_MESSAGES.total)
    .min(1, PROMOTION_MESSAGES.total)
    .max(ID_MAX, `Usage per code must be at most ${ID_MAX}.`)
    .nullish(),
});

type Fields = z.infer<typeof promotionFields>;

/**
 * Section 4's type rules and section 5's required fields by type, refused with a message (never silently
 * changed): landlord is for selected landlords and not on the homepage; point is public; clusters and sites
 * only for selected landlords, a site at least then; discount takes a percent and a baht amount, point a
 * point, landlord neither.
 */
function typeRules(body: Fields, context: z.RefinementCtx) {
  const issue = (path: keyof Fields, message: string) =>
    context.addIssue({ code: 'custom', path: [path], message });
  const { type } = body;
  if (type === 'landlord') {
    if (!body.internal) issue('internal', PROMOTION_MESSAGES.landlordInternal);
    if (body.expose) issue('expose', PROMOTION_MESSAGES.landlordExpose);
  } else if (body.expose == null) issue('expose', PROMOTION_MESSAGES.expose);
  if (type === 'point' && body.internal) issue('internal', PROMOTION_MESSAGES.pointPublic);
  if (body.internal && body.landlordIds.length === 0) issue('landlordIds', PROMOTION_MESSAGES.landlordIds);
  if (!body.internal) {
    if (body.merchantIds.length > 0) issue('merchantIds', PROMOTION_MESSAGES.publicPlaces);
    if (body.landlordIds.length > 0) issue('landlordIds', PROMOTION_MESSAGES.publicPlaces);
  }
  if (type === 'discount') {
    if (body.discountPercent == null) issue('discountPercent', PROMOTION_MESSAGES.discountPercent);
    if (body.discountBaht == null) issue('discountBaht', PROMOTION_MESSAGES.discountBaht);
  } else {
    if (body.discountPercent != null) issue('discountPercent', notForType('Discount (%)', type));
    if (body.discountBaht != null) issue('discountBaht', notForType('Discount (THB)', type));
  }
  if (type === 'point' && body.point == null) issue('point', PROMOTION_MESSAGES.point);
  if (type !== 'point' && body.point != null) issue('point', notForType('Point', type));
  if (Date.parse(body.validFrom) >= Date.parse(body.validTo)) issue('validTo', PROMOTION_MESSAGES.validRange);
}

export const promotionBody = promotionFields.superRefine(typeRules);
export type PromotionBody = z.infer<typeof promotionBody>;
export type PromotionForm = z.input<typeof promotionBody>;
/** PATCH: the whole form (only the names, homepage and point may differ from the stored), or only `{ active }`. */
export const promotionPatchBody = z.union([activeBody, promotionBody]);
export type PromotionPatchBody = z.infer<typeof promotionPatchBody>;

/** What stays editable after creation (section 2). */
export const PROMOTION_EDITABLE = ['nameEn', 'nameTh', 'expose', 'point', 'active'] as const;

export const PROMOTION_SORTS = ['id', 'code', 'nameEn', 'nameTh', 'validFrom', 'validTo', 'active'] as const;

export const promotionListQuery = listQuery.extend({
  type: z.enum(PROMOTION_TYPES).optional(),
  code: z
    .string()
    .trim()
    .max(PROMOTION_CODE_MAX + 20)
    .optional(),
  merchantId: idListParam,
  landlordId: idListParam,
  internal: booleanParam,
  expose: booleanParam,
  active: booleanParam,
});
export type PromotionListQuery = z.infer<typeof promotionListQuery>;

export const promotion = z
  .object({
    id: z.number().int(),
    code: z.string(),
    nameEn: z.string(),
    nameTh: z.string(),
    type: z.enum(PROMOTION_TYPES),
    internal: z.boolean(),
    expose: z.boolean(),
    active: z.boolean(),
    merchantIds: z.array(z.number().int()),
    landlordIds: z.array(z.number().int()),
    merchantNameEns: z.array(z.string()),
    landlordNameEns: z.array(z.string()),
    validFrom: z.string(),
    validTo: z.string(),
    discountPercent: z.number().nullable(),
    discountBaht: z.number().nullable(),
    point: z.number().int().nullable(),
    count: z.number().int(),
    total: z.number().int().nullable(),
    /** Codes with a use left. */
    codeLeft: z.number().int(),
    codeCount: z.number().int(),
  })
  .meta({ id: 'Promotion' });
export type Promotion = z.infer<typeof promotion>;

export const promotionListResponse = z.object({ total: z.number().int(), promotions: z.array(promotion) });
export const promotionResponse = z.object({ promotion });
/** POST answers the codes when there are more than one (the browser saves them as `{code}.csv`). */
export const promotionCreatedResponse = z.object({
  message: z.string(),
  id: z.number().int(),
  codes: z.array(z.string()).optional(),
});

/** The codes' CSV: named after the code (letters and digits only, so no cell needs quoting). */
export const promotionCsvName = (code: string) => `${code}.csv`;
export const PROMOTION_CSV_HEADER = ['Code', 'Used', 'Limit'] as const;

/**
 * The codes as CSV, the server's download and the browser's file after creation alike: each code, its uses so
 * far and its limit per code (empty: no limit).
 */
export function promotionCodesCsv(
  rows: Iterable<readonly [code: string, used: number, limit: number | null]>,
) {
  const lines: string[] = [PROMOTION_CSV_HEADER.join(',')];
  for (const [code, used, limit] of rows) lines.push(`${code},${used},${limit ?? ''}`);
  return `${lines.join('\r\n')}\r\n`;
}

/** The member app's refusals of a code (issue 21: each check its own message). */
export const REDEEM_MESSAGES = {
  notFound: 'Code not found',
  inactive: 'This code is not active',
  notStarted: 'This code is not valid yet',
  expired: 'This code has expired',
  usedUp: 'This code has been used up',
  already: 'You have already used this code',
  bookingNeeded: 'A discount code is used on a booking: give its bookingId',
  bookingOnlyDiscount: 'Only a discount code is used on a booking',
  bookingNotOpen: 'A discount code can be used only on a booking not yet paid',
  bookingHasDiscount: 'This booking already has a discount code',
  site: 'This code is not for the site of this booking',
  licensePlate: 'License Plate is required for a private station code',
  licensePlateOnlyLandlord: 'Only a private station code takes a license plate',
} as const;

/**
 * POST /api/member/promotion/redeem: a code as the member typed it (surrounding spaces aside, any case); a
 * discount code names the booking it is for, a private station code the member's license plate.
 */
export const redeemBody = z.strictObject({
  code: z
    .string({ error: PROMOTION_MESSAGES.code })
    .trim()
    .min(1, PROMOTION_MESSAGES.code)
    .max(PROMOTION_CODE_MAX + 20, maxMessage(PROMOTION_CODE_MAX + 20)),
  bookingId: idSchema().optional(),
  licensePlate: z
    .string({ error: REDEEM_MESSAGES.licensePlate })
    .trim()
    .min(1, REDEEM_MESSAGES.licensePlate)
    .max(20, maxMessage(20))
    .optional(),
});
export type RedeemBody = z.infer<typeof redeemBody>;

export const redemption = z
  .object({
    id: z.number().int(),
    type: z.enum(PROMOTION_TYPES),
    code: z.string(),
    nameEn: z.string(),
    nameTh: z.string(),
    /** The booking a discount is for (taken off at its payment). */
    bookingId: z.number().int().nullable(),
    /** Points a point code credited. */
    point: z.number().int().nullable(),
    /** The sites a private station code made the member a member of. */
    landlordNameEns: z.array(z.string()),
    licensePlate: z.string().nullable(),
    createdAt: z.string(),
  })
  .meta({ id: 'Redemption' });
export type Redemption = z.infer<typeof redemption>;
/** The redemption, and the member's green-point balance after it. */
export const redeemResponse = z.object({ message: z.string(), redemption, point: z.number().int() });

/** A promotion on the member app's homepage: active, shown, valid now, with a use left. */
export const homepagePromotion = z
  .object({
    id: z.number().int(),
    type: z.enum(PROMOTION_TYPES),
    nameEn: z.string(),
    nameTh: z.string(),
    /** The code to type, for a one-code promotion; the codes of a many-code one are handed out one by one. */
    code: z.string().nullable(),
    validFrom: z.string(),
    validTo: z.string(),
    discountPercent: z.number().nullable(),
    discountBaht: z.number().nullable(),
    point: z.number().int().nullable(),
    internal: z.boolean(),
    landlordNameEns: z.array(z.string()),
  })
  .meta({ id: 'HomepagePromotion' });
export type HomepagePromotion = z.infer<typeof homepagePromotion>;
export const homepagePromotionsResponse = z.object({ promotions: z.array(homepagePromotion) });
