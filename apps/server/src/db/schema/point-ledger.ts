import { sql } from 'drizzle-orm';
import { check, index, integer, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { payments } from './bookings.ts';
import { promotionRedemptions } from './promotions.ts';
import { users } from './users.ts';

/** The kinds of green-point movements (issue 21): earned at payment, spent at payment, a point code, a refund's reversal, expiry. */
export const POINT_ENTRY_KINDS = ['earn', 'redeem', 'code', 'reversal', 'expiry'] as const;

/**
 * The green-point ledger, append-only: every movement of a member's points, signed (earned and credited
 * positive, spent negative). `source` names what made it ('redemption:12', 'payment:40:earn', …) and is
 * unique, so a replay of the same payment or redemption can't count twice. `users.point` is the balance: it
 * moves in the same transaction as the entry, by a conditional update that never lets it go below 0.
 */
export const pointLedger = pgTable(
  'point_ledger',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'restrict' }),
    kind: text('kind', { enum: POINT_ENTRY_KINDS }).notNull(),
    points: integer('points').notNull(),
    source: text('source').notNull(),
    paymentId: integer('payment_id').references(() => payments.id, { onDelete: 'restrict' }),
    redemptionId: integer('redemption_id').references(() => promotionRedemptions.id, {
      onDelete: 'restrict',
    }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('point_ledger_source_key').on(t.source),
    index('point_ledger_user_idx').on(t.userId, t.id),
    check('point_ledger_kind_check', sql`${t.kind} in ('earn', 'redeem', 'code', 'reversal', 'expiry')`),
    check('point_ledger_points_check', sql`${t.points} <> 0`),
  ],
);
