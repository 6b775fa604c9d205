import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  doublePrecision,
  index,
  integer,
  numeric,
  pgTable,
  primaryKey,
  smallint,
  text,
  time,
  timestamp,
} from 'drizzle-orm/pg-core';
import { provinces } from './reference.ts';

const timestamps = {
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
};

/** Clusters (wire name: merchant). `internal` is the area type: true = Internal Used, false = Public Used. */
export const merchants = pgTable('merchants', {
  id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
  nameEn: text('name_en').notNull(),
  nameTh: text('name_th').notNull(),
  internal: boolean('internal').notNull().default(false),
  active: boolean('active').notNull().default(true),
  addrEn: text('addr_en'),
  addrTh: text('addr_th'),
  provinceId: integer('province_id').references(() => provinces.id, { onDelete: 'restrict' }),
  taxId: text('tax_id'),
  tel: text('tel'),
  ...timestamps,
});

/** Sites (wire name: landlord), each in one cluster; the area type is the cluster's. */
export const landlords = pgTable(
  'landlords',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    merchantId: integer('merchant_id')
      .notNull()
      .references(() => merchants.id, { onDelete: 'restrict' }),
    nameEn: text('name_en').notNull(),
    nameTh: text('name_th').notNull(),
    latitude: doublePrecision('latitude').notNull(),
    longitude: doublePrecision('longitude').notNull(),
    businessHoursType: text('business_hours_type', {
      enum: ['24H', 'closed', 'period', 'comingsoon', 'maintenance'],
    }).notNull(),
    meaId: text('mea_id'),
    peaId: text('pea_id'),
    partnerProjectId: text('partner_project_id'),
    partnerUserType: text('partner_user_type'),
    descEn: text('desc_en'),
    descTh: text('desc_th'),
    addrEn: text('addr_en'),
    addrTh: text('addr_th'),
    provinceId: integer('province_id').references(() => provinces.id, { onDelete: 'restrict' }),
    tel: text('tel'),
    active: boolean('active').notNull().default(true),
    /**
     * The site's power limit (issue 34): what its connection can carry, shared among its sessions
     * (packages/shared/src/power-sharing.ts); null = no limit. `phases` and `voltage` (per phase) turn watts into
     * amperes for chargers that limit in amperes.
     */
    maxPowerKw: numeric('max_power_kw', { precision: 12, scale: 2 }),
    phases: smallint('phases'),
    voltage: integer('voltage'),
    ...timestamps,
  },
  (t) => [
    index('landlords_merchant_idx').on(t.merchantId),
    check('landlords_max_power_positive', sql`${t.maxPowerKw} > 0`),
    check('landlords_phases', sql`${t.phases} in (1, 3)`),
    check('landlords_voltage_range', sql`${t.voltage} between 100 and 1000`),
    check('landlords_latitude_range', sql`${t.latitude} between -90 and 90`),
    check('landlords_longitude_range', sql`${t.longitude} between -180 and 180`),
  ],
);

/** Opening hours of a site whose type is 'period': day 1 = Sunday … 7 = Saturday, local Bangkok times. */
export const landlordBusinessHours = pgTable(
  'landlord_business_hours',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    landlordId: integer('landlord_id')
      .notNull()
      .references(() => landlords.id, { onDelete: 'cascade' }),
    dayOfWeek: smallint('day_of_week').notNull(),
    openTime: time('open_time').notNull(),
    closeTime: time('close_time').notNull(),
  },
  (t) => [
    index('landlord_business_hours_landlord_idx').on(t.landlordId),
    check('landlord_business_hours_day', sql`${t.dayOfWeek} between 1 and 7`),
  ],
);

/** Groups (wire name: party) gather sites. */
export const parties = pgTable('parties', {
  id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
  nameEn: text('name_en').notNull(),
  nameTh: text('name_th').notNull(),
  active: boolean('active').notNull().default(true),
  ...timestamps,
});

/** A site in a group. A site still in a group cannot be deleted (409). */
export const partyLandlords = pgTable(
  'party_landlords',
  {
    partyId: integer('party_id')
      .notNull()
      .references(() => parties.id, { onDelete: 'cascade' }),
    landlordId: integer('landlord_id')
      .notNull()
      .references(() => landlords.id, { onDelete: 'restrict' }),
  },
  (t) => [
    primaryKey({ columns: [t.partyId, t.landlordId] }),
    index('party_landlords_landlord_idx').on(t.landlordId),
  ],
);
