import { sql } from 'drizzle-orm';
import { check, integer, numeric, pgTable, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';

const at = (name: string) => timestamp(name, { withTimezone: true });
/** The form's inputs: at most 7 characters with 2 decimals (document 3, section 9), so 9,999,999.99 fits. */
const rate = (name: string) => numeric(name, { precision: 9, scale: 2 }).notNull();

/**
 * A green-point rate card (document 3, Point setup): earn `toPoint` points per `fromBaht` baht paid, redeem
 * `fromPoint` points for `toBaht` baht, from `validFrom` on. The card in force at an instant is the one with
 * the latest `validFrom` at or before it, so two cards never start at the same instant (unique index). The
 * checks keep the dividers above 0 even for a statement that skipped the API's rules.
 */
export const pointRates = pgTable(
  'point_rates',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    fromBaht: rate('from_baht'),
    toPoint: rate('to_point'),
    fromPoint: rate('from_point'),
    toBaht: rate('to_baht'),
    validFrom: at('valid_from').notNull(),
    createdAt: at('created_at').notNull().defaultNow(),
    updatedAt: at('updated_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('point_rates_valid_from_key').on(t.validFrom),
    check('point_rates_from_check', sql`${t.fromBaht} > 0 and ${t.fromPoint} > 0`),
    check('point_rates_to_check', sql`${t.toPoint} >= 0 and ${t.toBaht} >= 0`),
  ],
);
