import type { PromotionType } from '@ev/shared';
import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  index,
  integer,
  numeric,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { bookings, payments } from './bookings.ts';
import { landlords, merchants } from './places.ts';
import { users } from './users.ts';

const at = (name: string) => timestamp(name, { withTimezone: true });

/**
 * The promotion types of packages/shared, spelled out here: schema files import nothing at run time
 * (drizzle-kit loads them alone). The type below fails to compile if the two lists ever differ.
 */
export const PROMOTION_TYPE_VALUES = ['discount', 'point', 'landlord'] as const;
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
export const PROMOTION_TYPES_MATCH: Same<(typeof PROMOTION_TYPE_VALUES)[number], PromotionType> = true;

/**
 * A promotion (document 3, section 3): `count` codes, each usable `total` times (null: no limit per code).
 * `code` is what staff entered: the one code when count is 1, the prefix of the generated ones above.
 * `internal` is the area type: true = selected landlords (its sites), false = public. Money in baht with
 * 2 decimals, as every amount of the booking tables; the services work in satang.
 */
export const promotions = pgTable(
  'promotions',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    code: text('code').notNull(),
    nameEn: text('name_en').notNull(),
    nameTh: text('name_th').notNull(),
    type: text('type', { enum: PROMOTION_TYPE_VALUES }).notNull(),
    internal: boolean('internal').notNull(),
    expose: boolean('expose').notNull().default(false),
    active: boolean('active').notNull().default(true),
    validFrom: at('valid_from').notNull(),
    validTo: at('valid_to').notNull(),
    discountPercent: numeric('discount_percent', { precision: 5, scale: 2 }),
    discountBaht: numeric('discount_baht', { precision: 12, scale: 2 }),
    point: integer('point'),
    count: integer('count').notNull(),
    total: integer('total'),
    createdAt: at('created_at').notNull().defaultNow(),
    updatedAt: at('updated_at').notNull().defaultNow(),
  },
  (t) => [
    // A prefix is never another promotion's too (case aside): its codes and CSV are told apart by it.
    uniqueIndex('promotions_code_lower_key').on(sql`lower(${t.code})`),
    index('promotions_type_idx').on(t.type, t.id),
    check('promotions_type_check', sql`${t.type} in ('discount', 'point', 'landlord')`),
    check('promotions_count_check', sql`${t.count} between 1 and 1000`),
    check('promotions_total_check', sql`${t.total} is null or ${t.total} >= 1`),
    check('promotions_valid_check', sql`${t.validFrom} < ${t.validTo}`),
  ],
);

/** The clusters a promotion of selected landlords was set for (as chosen in the form). */
export const promotionMerchants = pgTable(
  'promotion_merchants',
  {
    promotionId: integer('promotion_id')
      .notNull()
      .references(() => promotions.id, { onDelete: 'cascade' }),
    merchantId: integer('merchant_id')
      .notNull()
      .references(() => merchants.id, { onDelete: 'restrict' }),
  },
  (t) => [
    primaryKey({ columns: [t.promotionId, t.merchantId] }),
    index('promotion_merchants_merchant_idx').on(t.merchantId),
  ],
);

/** The sites of a promotion of selected landlords: where its codes apply (a landlord code's private stations). */
export const promotionLandlords = pgTable(
  'promotion_landlords',
  {
    promotionId: integer('promotion_id')
      .notNull()
      .references(() => promotions.id, { onDelete: 'cascade' }),
    landlordId: integer('landlord_id')
      .notNull()
      .references(() => landlords.id, { onDelete: 'restrict' }),
  },
  (t) => [
    primaryKey({ columns: [t.promotionId, t.landlordId] }),
    index('promotion_landlords_landlord_idx').on(t.landlordId),
  ],
);

/**
 * One code of a promotion, unique across all promotions whatever its case. `used` counts its redemptions;
 * a use is taken by one conditional update (`used < total`), and the check makes an overdraw impossible even
 * for a statement that forgot the condition.
 */
export const promotionCodes = pgTable(
  'promotion_codes',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    promotionId: integer('promotion_id')
      .notNull()
      .references(() => promotions.id, { onDelete: 'cascade' }),
    code: text('code').notNull(),
    used: integer('used').notNull().default(0),
    total: integer('total'),
  },
  (t) => [
    uniqueIndex('promotion_codes_code_lower_key').on(sql`lower(${t.code})`),
    index('promotion_codes_promotion_idx').on(t.promotionId, t.id),
    check(
      'promotion_codes_used_check',
      sql`${t.used} >= 0 and (${t.total} is null or ${t.used} <= ${t.total})`,
    ),
  ],
);

/**
 * A member's redemption of a code: one per member and code. A discount applies to a booking (its payment
 * once paid); a point code credits points; a landlord code makes the member one of its sites' members, with
 * the licence plate they gave. A code with redemptions can't be deleted (RESTRICT): its promotion neither.
 */
export const promotionRedemptions = pgTable(
  'promotion_redemptions',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'restrict' }),
    codeId: integer('code_id')
      .notNull()
      .references(() => promotionCodes.id, { onDelete: 'restrict' }),
    promotionId: integer('promotion_id')
      .notNull()
      .references(() => promotions.id, { onDelete: 'restrict' }),
    bookingId: integer('booking_id').references(() => bookings.id, { onDelete: 'set null' }),
    paymentId: integer('payment_id').references(() => payments.id, { onDelete: 'set null' }),
    discount: numeric('discount', { precision: 12, scale: 2 }),
    point: integer('point'),
    licensePlate: text('license_plate'),
    createdAt: at('created_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('promotion_redemptions_user_code_key').on(t.userId, t.codeId),
    // One discount code a booking (only a discount is redeemed on a booking).
    uniqueIndex('promotion_redemptions_booking_key').on(t.bookingId).where(sql`${t.bookingId} is not null`),
    index('promotion_redemptions_code_idx').on(t.codeId),
    index('promotion_redemptions_promotion_idx').on(t.promotionId),
    index('promotion_redemptions_created_idx').on(t.createdAt, t.id),
  ],
);
