import { z } from 'zod';
import { idSchema } from './common.ts';
import {
  activeBody,
  booleanParam,
  idListParam,
  idName,
  listMode,
  listQuery,
  optionalText,
  requiredText,
} from './list.ts';
import { optionalTaxId, optionalTel } from './thai-formats.ts';

export const MERCHANT_MESSAGES = {
  nameEn: 'Cluster Name (EN) is required.',
  nameTh: 'Cluster Name (TH) is required.',
  internal: 'Area Type is required.',
  notFound: 'No matched merchant found',
} as const;

/**
 * The Cluster Setting form (document 1, section 5), and `active` (left out: active on POST, unchanged on
 * PATCH). Any other key is a 400 naming it.
 */
export const merchantBody = z.strictObject({
  nameEn: requiredText(MERCHANT_MESSAGES.nameEn, 255),
  nameTh: requiredText(MERCHANT_MESSAGES.nameTh, 50),
  internal: z.boolean({ error: MERCHANT_MESSAGES.internal }),
  addrEn: optionalText(255),
  addrTh: optionalText(255),
  provinceId: idSchema().nullish(),
  taxId: optionalTaxId,
  tel: optionalTel,
  active: z.boolean().optional(),
});
export type MerchantBody = z.infer<typeof merchantBody>;
export type MerchantForm = z.input<typeof merchantBody>;
export const merchantPatchBody = z.union([activeBody, merchantBody]);
export type MerchantPatchBody = z.infer<typeof merchantPatchBody>;

export const MERCHANT_SORTS = ['id', 'nameEn', 'nameTh', 'internal', 'active'] as const;

export const merchantListQuery = listQuery.extend({
  mode: listMode,
  merchantId: idListParam,
  landlordId: idListParam,
  internal: booleanParam,
  active: booleanParam,
});
export type MerchantListQuery = z.infer<typeof merchantListQuery>;

export const merchantListItem = z.object({
  id: z.number().int(),
  nameEn: z.string(),
  nameTh: z.string(),
  internal: z.boolean(),
  active: z.boolean(),
  landlords: z.array(z.object({ id: z.number().int(), nameEn: z.string(), active: z.boolean() })),
});
export type MerchantListItem = z.infer<typeof merchantListItem>;

export const merchantListResponse = z.union([
  z.object({ total: z.number().int(), merchants: z.array(merchantListItem) }),
  z.object({ merchants: z.array(idName) }),
]);

export const merchant = z
  .object({
    id: z.number().int(),
    nameEn: z.string(),
    nameTh: z.string(),
    internal: z.boolean(),
    active: z.boolean(),
    addrEn: z.string().nullable(),
    addrTh: z.string().nullable(),
    provinceId: z.number().int().nullable(),
    taxId: z.string().nullable(),
    tel: z.string().nullable(),
    landlords: z.array(z.object({ id: z.number().int(), nameEn: z.string(), active: z.boolean() })),
  })
  .meta({ id: 'Merchant' });
export type Merchant = z.infer<typeof merchant>;
export const merchantResponse = z.object({ merchant });
