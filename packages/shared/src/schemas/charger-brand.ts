import { z } from 'zod';
import { toSatang } from '../money.ts';
import { activeBody, listMode, listQuery, maxMessage } from './list.ts';

/** The allowed power types (document 2 leaves them open; docs/decisions.md). */
export const POWER_TYPES = ['AC', 'DC'] as const;
export type PowerType = (typeof POWER_TYPES)[number];

export const CHARGER_BRAND_MESSAGES = {
  name: 'Name is required.',
  nameBlank: 'Name is not whitespace',
  powerType: 'Power Type is required.',
  minPowerKw: 'Min Power is required.',
  minPowerKwMin: 'Min Power must be at least 0.01.',
  minPowerKwMax: 'Min Power must be at most 9,999,999.99.',
  minPowerKwStep: 'Min Power must have at most 2 decimals.',
  /** The spec's text, typo included. */
  notFound: 'No matched changer brand found',
} as const;

/** Smallest and largest minimum power: step 0.01, and at most 10 characters as typed ('9999999.99'). */
export const MIN_POWER_KW_MIN = 0.01;
export const MIN_POWER_KW_MAX = 9_999_999.99;

/** True when a number has at most 2 decimals (the money helpers' rule: 1.234 is refused, not rounded). */
const hasTwoDecimalsAtMost = (value: number) => {
  try {
    toSatang(value);
    return true;
  } catch {
    return false;
  }
};

/** A kW amount: a number, 0.01 to 9,999,999.99, step 0.01. */
const kwValue = (messages: { required: string; min: string; max: string; step: string }) =>
  z
    .number({ error: messages.required })
    .min(MIN_POWER_KW_MIN, messages.min)
    .max(MIN_POWER_KW_MAX, messages.max)
    .refine(hasTwoDecimalsAtMost, messages.step);

/**
 * The Charger Brand Setting form (document 2, section 5), and `active` (left out: active on POST, unchanged
 * on PATCH). Any other key is a 400 naming it.
 */
export const chargerBrandBody = z.strictObject({
  name: z
    .string({ error: CHARGER_BRAND_MESSAGES.name })
    .min(1, CHARGER_BRAND_MESSAGES.name)
    .max(255, maxMessage(255))
    .refine((value) => value.trim().length > 0, CHARGER_BRAND_MESSAGES.nameBlank)
    .trim(),
  powerType: z.enum(POWER_TYPES, { error: CHARGER_BRAND_MESSAGES.powerType }),
  minPowerKw: kwValue({
    required: CHARGER_BRAND_MESSAGES.minPowerKw,
    min: CHARGER_BRAND_MESSAGES.minPowerKwMin,
    max: CHARGER_BRAND_MESSAGES.minPowerKwMax,
    step: CHARGER_BRAND_MESSAGES.minPowerKwStep,
  }),
  active: z.boolean().optional(),
});
export type ChargerBrandBody = z.infer<typeof chargerBrandBody>;
export type ChargerBrandForm = z.input<typeof chargerBrandBody>;
export const chargerBrandPatchBody = z.union([activeBody, chargerBrandBody]);
export type ChargerBrandPatchBody = z.infer<typeof chargerBrandPatchBody>;

export const CHARGER_BRAND_SORTS = ['id', 'name', 'powerType', 'minPowerKw', 'active'] as const;

export const chargerBrandListQuery = listQuery.extend({
  mode: listMode,
  /** Part of the name, any case. */
  name: z.string().trim().max(255, maxMessage(255)).optional(),
  powerType: z.enum(POWER_TYPES).optional(),
});
export type ChargerBrandListQuery = z.infer<typeof chargerBrandListQuery>;

export const chargerBrand = z
  .object({
    id: z.number().int(),
    name: z.string(),
    powerType: z.enum(POWER_TYPES),
    /** kW with at most 2 decimals. */
    minPowerKw: z.number(),
    active: z.boolean(),
  })
  .meta({ id: 'ChargerBrand' });
export type ChargerBrand = z.infer<typeof chargerBrand>;

/** `mode=dropdown`: what the charger form and filter need (the label shows the minimum power). */
export const chargerBrandOption = chargerBrand.omit({ active: true });
export type ChargerBrandOption = z.infer<typeof chargerBrandOption>;

export const chargerBrandListResponse = z.union([
  z.object({ total: z.number().int(), chargerBrands: z.array(chargerBrand) }),
  z.object({ chargerBrands: z.array(chargerBrandOption) }),
]);
export const chargerBrandResponse = z.object({ chargerBrand });
