import { sql } from 'drizzle-orm';
import { boolean, check, index, integer, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { landlords, merchants, parties } from './places.ts';

const timestamps = {
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
};

/** Web admin users (type 'admin') and mobile users (type 'mobile') share one table, as on the wire. */
export const users = pgTable(
  'users',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    type: text('type', { enum: ['admin', 'mobile'] }).notNull(),
    email: text('email').notNull(),
    /** scrypt hash; null until the user sets a password. */
    passHash: text('pass_hash'),
    firstName: text('first_name').notNull().default(''),
    lastName: text('last_name').notNull().default(''),
    tel: text('tel'),
    avatar: text('avatar'),
    point: integer('point').notNull().default(0),
    adminRole: text('admin_role', {
      enum: ['admin', 'merchant', 'party', 'landlord', 'callcenter', 'station', 'marketting'],
    }),
    // A cluster, group or site that a user belongs to cannot be deleted (409).
    merchantId: integer('merchant_id').references(() => merchants.id, { onDelete: 'restrict' }),
    partyId: integer('party_id').references(() => parties.id, { onDelete: 'restrict' }),
    landlordId: integer('landlord_id').references(() => landlords.id, { onDelete: 'restrict' }),
    active: boolean('active').notNull().default(true),
    emailVerified: boolean('email_verified').notNull().default(false),
    telVerified: boolean('tel_verified').notNull().default(false),
    /** Mobile users: 'mobile' (the app) or 'ruejai' (a partner's members); null for admin users. */
    partnerUserType: text('partner_user_type', { enum: ['mobile', 'ruejai'] }),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('users_type_email_key').on(t.type, sql`lower(${t.email})`),
    // The member search (userMatches in booking-query.ts): trigram indexes serve `ilike '%text%'` from
    // three characters on (pg_trgm, created by migration 0013 before these indexes).
    index('users_name_trgm_idx').using('gin', sql`(${t.firstName} || ' ' || ${t.lastName}) gin_trgm_ops`),
    index('users_email_trgm_idx').using('gin', t.email.op('gin_trgm_ops')),
    index('users_tel_trgm_idx').using('gin', t.tel.op('gin_trgm_ops')),
    // The green-point balance (the point ledger's sum) never goes below 0.
    check('users_point_check', sql`${t.point} >= 0`),
  ],
);

/** Opaque session tokens; only their SHA-256 is stored. */
export const sessions = pgTable(
  'sessions',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    tokenHash: text('token_hash').notNull().unique(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('sessions_user_idx').on(t.userId)],
);

/** Single-use password reset links; only the token's SHA-256 is stored. */
export const passwordResets = pgTable(
  'password_resets',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    tokenHash: text('token_hash').notNull().unique(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    /** 'reset' (forgot password, 1 hour) or 'invite' (a new admin user sets a first password, 72 hours). */
    kind: text('kind', { enum: ['reset', 'invite'] })
      .notNull()
      .default('reset'),
  },
  (t) => [index('password_resets_user_idx').on(t.userId)],
);

/** Failed sign-in and reset attempts by key ('email:…', 'ip:…'), for throttling. */
export const authFailures = pgTable(
  'auth_failures',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    key: text('key').notNull(),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('auth_failures_key_at_idx').on(t.key, t.at)],
);
