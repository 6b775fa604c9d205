import { bigint, boolean, index, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { connectors } from './catalog.ts';
import { chargingSessions } from './ocpp.ts';
import { landlords } from './places.ts';

/**
 * Power within a site's limit (issue 34). One row per connector of a limited site that has (or had) an active
 * session: the allowance the sharing function last gave it, and what its charger answered to the profile that
 * carries it. A charger that refused (or is offline) is counted at its full power by the next sharing.
 */
export const powerAllowances = pgTable(
  'power_allowances',
  {
    connectorId: integer('connector_id')
      .primaryKey()
      .references(() => connectors.id, { onDelete: 'cascade' }),
    landlordId: integer('landlord_id')
      .notNull()
      .references(() => landlords.id, { onDelete: 'cascade' }),
    chargingSessionId: integer('charging_session_id').references(() => chargingSessions.id, {
      onDelete: 'set null',
    }),
    /** Watts the session may draw (0 while it waits). */
    allowanceW: integer('allowance_w').notNull(),
    /** The limit could not give it its minimum: it waits at 0. */
    waiting: boolean('waiting').notNull().default(false),
    /** Pending (decided, not yet answered), Accepted, Rejected, NotSupported, Offline, or an error word. */
    profileStatus: text('profile_status').notNull().default('Pending'),
    decidedAt: timestamp('decided_at', { withTimezone: true }).notNull().defaultNow(),
    answeredAt: timestamp('answered_at', { withTimezone: true }),
    /**
     * What the session's car can use, judged from its draw once its charger had taken the allowance (a
     * tapering car; null: as much as it is given). Kept until the next reading judges it again.
     */
    usableW: integer('usable_w'),
  },
  (t) => [index('power_allowances_landlord_idx').on(t.landlordId)],
);

/**
 * The power each connector of a limited site drew, from its meter values (Power.Active.Import, or the energy
 * between two readings): what the site's live load chart sums. Kept for a few hours, pruned in the background.
 */
export const powerSamples = pgTable(
  'power_samples',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    landlordId: integer('landlord_id')
      .notNull()
      .references(() => landlords.id, { onDelete: 'cascade' }),
    connectorId: integer('connector_id')
      .notNull()
      .references(() => connectors.id, { onDelete: 'cascade' }),
    at: timestamp('at', { withTimezone: true }).notNull(),
    powerW: integer('power_w').notNull(),
  },
  (t) => [index('power_samples_landlord_at_idx').on(t.landlordId, t.at)],
);
