import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  index,
  integer,
  numeric,
  pgTable,
  smallint,
  text,
  time,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { landlords, merchants } from './places.ts';

const timestamps = {
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
};

/** Baht amounts: exact to the satang (packages/shared/src/money.ts). */
const baht = (name: string) => numeric(name, { precision: 12, scale: 2 });

/** Charger brands; `power_type` is AC or DC (docs/decisions.md). */
export const chargerBrands = pgTable('charger_brands', {
  id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
  name: text('name').notNull(),
  powerType: text('power_type', { enum: ['AC', 'DC'] }).notNull(),
  minPowerKw: numeric('min_power_kw', { precision: 12, scale: 2 }).notNull(),
  active: boolean('active').notNull().default(true),
  ...timestamps,
});

/**
 * Price plans. method HOUR charges by time (baht_per_kwh 0), KW by energy (baht_per_hour 0, BAHT_HRS);
 * calculate_method BAHT_MIN bills time per minute at baht_per_hour / 60.
 */
export const prices = pgTable('prices', {
  id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
  descEn: text('desc_en').notNull(),
  descTh: text('desc_th').notNull(),
  method: text('method', { enum: ['HOUR', 'KW'] }).notNull(),
  calculateMethod: text('calculate_method', { enum: ['BAHT_HRS', 'BAHT_MIN'] }).notNull(),
  bahtPerKwh: baht('baht_per_kwh').notNull().default('0'),
  bahtPerHour: baht('baht_per_hour').notNull().default('0'),
  /** 'Extracharger fee' (Baht/min). */
  penaltyBahtPerMin: baht('penalty_baht_per_min').notNull().default('0'),
  /** 'Penalty fee' (Baht/min) once a DC charge is full. */
  penaltyDcFullBahtPerMin: baht('penalty_dc_full_baht_per_min').notNull().default('0'),
  /** 'Penalty delay' (min) before the penalty fee starts. */
  penaltyDcFullDelayMin: integer('penalty_dc_full_delay_min').notNull().default(0),
  active: boolean('active').notNull().default(true),
  ...timestamps,
});

/** A weekly rate window: day 1 = Sunday … 7 = Saturday, local times. */
export const priceOverrideWeekdays = pgTable(
  'price_override_weekdays',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    priceId: integer('price_id')
      .notNull()
      .references(() => prices.id, { onDelete: 'cascade' }),
    dayOfWeek: smallint('day_of_week').notNull(),
    validTimeFrom: time('valid_time_from').notNull(),
    validTimeTo: time('valid_time_to').notNull(),
    bahtPerKwh: baht('baht_per_kwh').notNull().default('0'),
    bahtPerHour: baht('baht_per_hour').notNull().default('0'),
  },
  (t) => [
    index('price_override_weekdays_price_idx').on(t.priceId),
    check('price_override_weekdays_day_check', sql`${t.dayOfWeek} between 1 and 7`),
  ],
);

/** A dated rate period (holidays, promotions), local Bangkok wall time 'YYYY-MM-DD HH:mm'. */
export const priceOverrides = pgTable(
  'price_overrides',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    priceId: integer('price_id')
      .notNull()
      .references(() => prices.id, { onDelete: 'cascade' }),
    validFrom: timestamp('valid_from', { mode: 'string' }).notNull(),
    validTo: timestamp('valid_to', { mode: 'string' }).notNull(),
    bahtPerKwh: baht('baht_per_kwh').notNull().default('0'),
    bahtPerHour: baht('baht_per_hour').notNull().default('0'),
  },
  (t) => [index('price_overrides_price_idx').on(t.priceId)],
);

/** Connector types (seeded: Type 1, Type 2, CHAdeMO, CCS2 = 4, GB/T). */
export const connectorTypes = pgTable('connector_types', {
  id: integer('id').primaryKey(),
  name: text('name').notNull(),
});

/** Chargers: the id is the charge point identity the charger uses over OCPP, entered on creation. */
export const chargers = pgTable(
  'chargers',
  {
    id: text('id').primaryKey(),
    nameEn: text('name_en').notNull(),
    nameTh: text('name_th').notNull(),
    merchantId: integer('merchant_id')
      .notNull()
      .references(() => merchants.id, { onDelete: 'restrict' }),
    landlordId: integer('landlord_id')
      .notNull()
      .references(() => landlords.id, { onDelete: 'restrict' }),
    // A brand or price still in use cannot be deleted (409).
    chargerBrandId: integer('charger_brand_id')
      .notNull()
      .references(() => chargerBrands.id, { onDelete: 'restrict' }),
    active: boolean('active').notNull().default(true),
    /** OCPP security profile 1: the HTTP Basic password's salted SHA-256 (null = no password asked). */
    ocppPasswordHash: text('ocpp_password_hash'),
    /** What the charger told us in its last BootNotification. */
    vendor: text('vendor'),
    model: text('model'),
    serialNumber: text('serial_number'),
    firmwareVersion: text('firmware_version'),
    bootedAt: timestamp('booted_at', { withTimezone: true }),
    /** The Heartbeat interval we gave it (s); its deadline is twice that. */
    heartbeatIntervalS: integer('heartbeat_interval_s'),
    /** The last frame received from it. */
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }),
    /** The server process holding its WebSocket (null = not connected). */
    connectedNode: text('connected_node'),
    /**
     * Which OCPP version the charger is spoken to in (issue 33): 'auto' takes the newest both sides speak from
     * the charger's Sec-WebSocket-Protocol list; '1.6' or '2.0.1' takes only that one.
     */
    ocppProtocol: text('ocpp_protocol', { enum: ['auto', '1.6', '2.0.1'] })
      .notNull()
      .default('auto'),
    /** The subprotocol of its last connection ('ocpp1.6', 'ocpp2.0.1'); null before the first. */
    protocol: text('protocol'),
    /** The version of the last local authorization list the charger accepted (SendLocalList), and when. */
    localListVersion: integer('local_list_version'),
    localListSentAt: timestamp('local_list_sent_at', { withTimezone: true }),
    /** The charger's own power limit (issue 34), below its connectors' maxima; null = none. */
    maxPowerKw: numeric('max_power_kw', { precision: 12, scale: 2 }),
    /**
     * The answer to the safe default profile sent at boot on a site with a limit (issue 34): Accepted,
     * Rejected, NotSupported, an error word, or null when none was sent; and when.
     */
    defaultProfileStatus: text('default_profile_status'),
    defaultProfileAt: timestamp('default_profile_at', { withTimezone: true }),
    ...timestamps,
  },
  (t) => [
    index('chargers_landlord_idx').on(t.landlordId),
    index('chargers_brand_idx').on(t.chargerBrandId),
    check('chargers_max_power_positive', sql`${t.maxPowerKw} > 0`),
  ],
);

export const connectors = pgTable(
  'connectors',
  {
    id: integer('id').primaryKey(),
    chargerId: text('charger_id')
      .notNull()
      .references(() => chargers.id, { onDelete: 'cascade' }),
    token: text('token').notNull(),
    nameEn: text('name_en').notNull(),
    nameTh: text('name_th').notNull(),
    connectorTypeId: integer('connector_type_id')
      .notNull()
      .references(() => connectorTypes.id, { onDelete: 'restrict' }),
    judjodId: integer('judjod_id'),
    maxPowerKw: numeric('max_power_kw', { precision: 12, scale: 2 }).notNull(),
    oldQr: text('old_qr'),
    priceId: integer('price_id')
      .notNull()
      .references(() => prices.id, { onDelete: 'restrict' }),
    status: text('status').notNull().default('UNKNOWN'),
    /** The connector's number on its charger in OCPP (1, 2, ...): given in the order connectors are added. */
    ocppConnectorId: integer('ocpp_connector_id').notNull(),
    /** From the last StatusNotification: OCPP error code, vendor code and info, and when the status was set. */
    errorCode: text('error_code'),
    vendorErrorCode: text('vendor_error_code'),
    statusInfo: text('status_info'),
    statusAt: timestamp('status_at', { withTimezone: true }),
    /**
     * When we first received the current status (our clock, not the charger's: alerts measure how long a
     * connector has been Faulted or Unavailable from it, docs/alerts.md); null before a status came.
     */
    statusSince: timestamp('status_since', { withTimezone: true }),
  },
  (t) => [
    index('connectors_charger_idx').on(t.chargerId),
    index('connectors_price_idx').on(t.priceId),
    uniqueIndex('connectors_ocpp_number_idx').on(t.chargerId, t.ocppConnectorId),
  ],
);

/** The one row of support contact details shown to app users (id is always 1). */
export const contactUs = pgTable(
  'contact_us',
  {
    id: integer('id').primaryKey().default(1),
    email: text('email'),
    phone: text('phone'),
    facebook: text('facebook'),
    instagram: text('instagram'),
    line: text('line'),
    address: text('address'),
    minVersionAndroid: text('min_version_android'),
    minVersionIOS: text('min_version_ios'),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [check('contact_us_single_row', sql`${t.id} = 1`)],
);
