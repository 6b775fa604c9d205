import { sql } from 'drizzle-orm';
import {
  bigint,
  date,
  index,
  integer,
  pgSequence,
  pgTable,
  smallint,
  text,
  timestamp,
} from 'drizzle-orm/pg-core';

/**
 * Daily rollups of the statistics (issue 35 §3, docs/statistics.md "Rollups"). Each row holds, for one Bangkok
 * day and one combination of the grain's keys, the booking measures of the sessions that started that day and
 * the money of the payments made that day, computed by the same SQL aggregates as the live path
 * (modules/statistics/measures.ts). Three grains: each query reads the coarsest one holding every key its
 * scope, filters and split need (modules/statistics/rollup.ts). A key the grain does not keep is null.
 * Money in satang. A day is read from here only when it is in `statistics_days` and not in
 * `statistics_dirty_days`; every other day is aggregated live.
 */
export const statisticsDaily = pgTable(
  'statistics_daily',
  {
    /**
     * 1 site (+ method), 2 charger (+ connector type, promotion), 3 connector (every key); 11, 12, 13 the same
     * summed by month (`day` the month's first day).
     */
    grain: smallint('grain').notNull(),
    day: date('day', { mode: 'string' }).notNull(),
    merchantId: integer('merchant_id'),
    landlordId: integer('landlord_id'),
    chargerId: text('charger_id'),
    connectorId: integer('connector_id'),
    connectorTypeId: integer('connector_type_id'),
    paymentMethod: text('payment_method'),
    promotionId: integer('promotion_id'),
    energyWh: bigint('energy_wh', { mode: 'number' }).notNull(),
    sessions: integer('sessions').notNull(),
    chargingSeconds: bigint('charging_seconds', { mode: 'number' }).notNull(),
    idleSeconds: bigint('idle_seconds', { mode: 'number' }).notNull(),
    delivered: integer('delivered').notNull(),
    payments: integer('payments').notNull(),
    amount: bigint('amount', { mode: 'number' }).notNull(),
    refund: bigint('refund', { mode: 'number' }).notNull(),
    discount: bigint('discount', { mode: 'number' }).notNull(),
    point: bigint('point', { mode: 'number' }).notNull(),
  },
  (t) => [
    index('statistics_daily_day_idx').on(t.grain, t.day),
    // A site user's (or a site filter's) rows.
    index('statistics_daily_landlord_idx').on(t.grain, t.landlordId, t.day),
  ],
);

/** The days rolled up (a day without data has no rows in statistics_daily but is here: it is zeros). */
export const statisticsDays = pgTable('statistics_days', {
  day: date('day', { mode: 'string' }).primaryKey(),
  rolledAt: timestamp('rolled_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * The months summed up from their days (grains 11, 12, 13 of statistics_daily, `day` the month's first): a month
 * is here once every day of it is rolled up and clean; rolling up one of its days again takes it out.
 */
export const statisticsMonths = pgTable('statistics_months', {
  month: date('month', { mode: 'string' }).primaryKey(),
  rolledAt: timestamp('rolled_at', { withTimezone: true }).notNull().defaultNow(),
});

/** Each mark takes the next number: the job clears a day's mark only if it is still the one it read. */
export const statisticsMarkSeq = pgSequence('statistics_mark_seq');

/**
 * Days whose rollup is stale: marked by the triggers on bookings, payments and promotion redemptions (migration
 * 0020) when a change touches a day before today, cleared by the job once it recomputed the day.
 */
export const statisticsDirtyDays = pgTable('statistics_dirty_days', {
  day: date('day', { mode: 'string' }).primaryKey(),
  mark: bigint('mark', { mode: 'number' }).notNull().default(sql`nextval('statistics_mark_seq')`),
});
