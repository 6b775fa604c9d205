import { z } from 'zod';
import { isoInstantParam } from './booking.ts';
import { idListParam, listQuery } from './list.ts';
import { PROMOTION_CODE_MAX } from './promotion.ts';

/** Document 3, section 8: the member export's and the coupon report's 404s. */
export const USER_PROMOTION_MESSAGES = {
  notFound: 'No matched member found',
  reportNotFound: 'No matched discount found',
  type: 'Type must be landlord.',
} as const;

/** The spreadsheets' names before `_{timestamp}.xlsx` (section 7). */
export const USER_PROMOTION_FILE_NAME = 'Private-Station-Member';
export const COUPON_REPORT_FILE_NAME = 'Coupon-Point-Report';

/** The member list's types: the spec calls it with landlord only (private-station members). */
export const USER_PROMOTION_TYPES = ['landlord'] as const;

const searchText = z.string().trim().max(255).optional();
const codeText = z
  .string()
  .trim()
  .max(PROMOTION_CODE_MAX + 20)
  .optional();

/** Sortable keys of the member list; newest first (createdAt desc, id desc) without one. */
export const USER_PROMOTION_SORTS = [
  'id',
  'createdAt',
  'firstName',
  'lastName',
  'email',
  'tel',
  'code',
  'licensePlate',
] as const;

/**
 * GET /api/user-promotion (section 7): `type=landlord` required, the texts matched partly whatever their case,
 * `merchantId` the clusters of the promotion's sites, `landlordId` its sites. `mode=xlsx` streams
 * Private-Station-Member_{timestamp}.xlsx with the same filters.
 */
export const userPromotionListQuery = listQuery.extend({
  type: z.enum(USER_PROMOTION_TYPES, { error: USER_PROMOTION_MESSAGES.type }),
  firstName: searchText,
  lastName: searchText,
  email: searchText,
  tel: searchText,
  code: codeText,
  merchantId: idListParam,
  landlordId: idListParam,
  mode: z.enum(['xlsx']).optional(),
});
export type UserPromotionListQuery = z.infer<typeof userPromotionListQuery>;

/**
 * A private-station member (section 3's User promotion): a redemption of a landlord code. `id` is the
 * redemption's; `merchantNameEns` the promotion's clusters (or, when none were chosen, its sites' clusters),
 * `landlordNameEns` its sites; `nameEn` the promotion's name.
 */
export const userPromotion = z
  .object({
    id: z.number().int(),
    userId: z.number().int(),
    firstName: z.string().nullable(),
    lastName: z.string().nullable(),
    email: z.string().nullable(),
    tel: z.string().nullable(),
    code: z.string(),
    licensePlate: z.string().nullable(),
    merchantNameEns: z.array(z.string()),
    landlordNameEns: z.array(z.string()),
    internal: z.boolean(),
    nameEn: z.string(),
    createdAt: z.string(),
  })
  .meta({ id: 'UserPromotion' });
export type UserPromotion = z.infer<typeof userPromotion>;

export const userPromotionListResponse = z.object({
  total: z.number().int(),
  userPromotions: z.array(userPromotion),
});
export type UserPromotionListResponse = z.infer<typeof userPromotionListResponse>;

/**
 * GET /api/report/user-promotion (section 3's coupon report filters): every redemption of every type; the
 * Redeem Date From (start of day) and To (end of day) filter the redemption's time.
 */
export const couponReportQuery = z.object({
  firstName: searchText,
  lastName: searchText,
  email: searchText,
  tel: searchText,
  code: codeText,
  merchantId: idListParam,
  landlordId: idListParam,
  createdAfter: isoInstantParam,
  createdBefore: isoInstantParam,
});
export type CouponReportQuery = z.infer<typeof couponReportQuery>;
