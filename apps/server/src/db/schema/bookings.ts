import type { BookingStatus } from '@ev/shared';
import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  primaryKey,
  smallint,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { chargers, connectors, prices } from './catalog.ts';
import { chargingSessions } from './ocpp.ts';
import { landlords, merchants } from './places.ts';
import { users } from './users.ts';

const baht = (name: string) => numeric(name, { precision: 12, scale: 2 });
const at = (name: string) => timestamp(name, { withTimezone: true });

/**
 * The statuses of packages/shared's booking machine, spelled out here: schema files import nothing at run
 * time (drizzle-kit loads them alone). The type below fails to compile if the two lists ever differ.
 */
export const BOOKING_STATUS_VALUES = [
  'created',
  'started',
  'charging',
  'charged',
  'stopped',
  'cancelled',
  'paid',
] as const;
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
export const BOOKING_STATUSES_MATCH: Same<(typeof BOOKING_STATUS_VALUES)[number], BookingStatus> = true;

/**
 * A booking is a member's charging session from reservation to payment (document 3, section 3). Its status
 * changes only through packages/shared/src/booking-machine.ts, and each change is a booking_events row.
 * Cluster and site are copied from the charger at creation: the list filters and scopes on them without a join.
 */
export const bookings = pgTable(
  'bookings',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    /** The mobile user (member); null once the member is deleted. */
    userId: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
    chargerId: text('charger_id')
      .notNull()
      .references(() => chargers.id, { onDelete: 'restrict' }),
    connectorId: integer('connector_id')
      .notNull()
      .references(() => connectors.id, { onDelete: 'restrict' }),
    merchantId: integer('merchant_id')
      .notNull()
      .references(() => merchants.id, { onDelete: 'restrict' }),
    landlordId: integer('landlord_id')
      .notNull()
      .references(() => landlords.id, { onDelete: 'restrict' }),
    connectorTypeId: integer('connector_type_id').notNull(),
    /** The OCPP transaction, once the charger started it. */
    sessionId: integer('session_id').references(() => chargingSessions.id, { onDelete: 'restrict' }),
    idTag: text('id_tag'),
    status: text('status', { enum: BOOKING_STATUS_VALUES }).notNull(),
    /** The reserved slot (null for a walk-in). */
    slotStart: at('slot_start'),
    slotEnd: at('slot_end'),
    createdAt: at('created_at').notNull().defaultNow(),
    checkedInAt: at('checked_in_at'),
    startTime: at('start_time'),
    stopTime: at('stop_time'),
    avaliableAt: at('avaliable_at'),
    fullAt: at('full_at'),
    /**
     * The connector reported Available (cable out) while the booking was still charging: the charger's
     * StopTransaction is still on its way (OCPP 1.6 orders only transaction messages). Applied when it comes.
     */
    cableOutAt: at('cable_out_at'),
    /**
     * The EV suspended charging (SuspendedEV) on a charger that reports no state of charge; cleared when it
     * charges again. A pause that lasts to the stop (at least FULL_PAUSE_MS) counts as a full battery.
     */
    suspendedAt: at('suspended_at'),
    energyWh: bigint('energy_wh', { mode: 'number' }).notNull().default(0),
    soc: smallint('soc'),
    /** The plan in force when charging started (PlanSnapshot): editing the plan never reprices this booking. */
    priceId: integer('price_id').references(() => prices.id, { onDelete: 'set null' }),
    priceSnapshot: jsonb('price_snapshot'),
    /** The computed parts, written when the booking is priced (stopped). */
    priceByPower: baht('price_by_power'),
    priceByDuration: baht('price_by_duration'),
    priceByPenalty: baht('price_by_penalty'),
    /** What the pricing counted (billed hours or minutes, overstay and DC-full minutes and baht): the tooltip. */
    priceDetail: jsonb('price_detail'),
    /** Staff overrides (Set amount): a part, or the whole amount. */
    adminPriceByPower: baht('admin_price_by_power'),
    adminPriceByDuration: baht('admin_price_by_duration'),
    adminPriceByPenalty: baht('admin_price_by_penalty'),
    adminAmount: baht('admin_amount'),
    /** What the member owes: adminAmount, else the parts after overrides (null until priced). */
    totalAmount: baht('total_amount'),
    paymentMethod: text('payment_method'),
    paidAt: at('paid_at'),
    /** Deleted by staff: kept with its history, out of every list. */
    deletedAt: at('deleted_at'),
    updatedAt: at('updated_at').notNull().defaultNow(),
  },
  (t) => [
    // The list's default: one day, newest first; scoped lists add the site or cluster first. Ascending keys:
    // walked backward they give ORDER BY … DESC (NULLS FIRST, the default), which a DESC NULLS LAST index
    // cannot (measured: a 90-day page of 1M rows sorted everything, 21.9 s, instead of reading 10 rows).
    index('bookings_created_idx').on(t.createdAt, t.id).where(sql`${t.deletedAt} is null`),
    index('bookings_landlord_created_idx').on(t.landlordId, t.createdAt, t.id),
    index('bookings_merchant_created_idx').on(t.merchantId, t.createdAt, t.id),
    // Charger events find the open booking of a connector.
    index('bookings_connector_open_idx')
      .on(t.connectorId)
      .where(sql`${t.status} in ('created', 'started', 'charging', 'charged') and ${t.deletedAt} is null`),
    uniqueIndex('bookings_session_key').on(t.sessionId),
    index('bookings_user_idx').on(t.userId, t.createdAt),
    index('bookings_charger_created_idx').on(t.chargerId, t.createdAt),
    // The statistics and the dashboard (issue 35) take the sessions that started in a range, of every site or
    // of one (a site user's scope, a site filter); and count the bookings waiting to be paid.
    index('bookings_started_idx').on(t.startTime).where(sql`${t.deletedAt} is null`),
    index('bookings_landlord_started_idx').on(t.landlordId, t.startTime).where(sql`${t.deletedAt} is null`),
    index('bookings_unpaid_idx')
      .on(t.landlordId)
      .where(sql`${t.status} = 'stopped' and ${t.deletedAt} is null`),
    check('bookings_soc_check', sql`${t.soc} between 0 and 100`),
  ],
);

/** Every transition of a booking: what happened, from which status to which, when, and who made it. */
export const bookingEvents = pgTable(
  'booking_events',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    bookingId: integer('booking_id')
      .notNull()
      .references(() => bookings.id, { onDelete: 'cascade' }),
    event: text('event').notNull(),
    fromStatus: text('from_status'),
    toStatus: text('to_status').notNull(),
    actor: text('actor', { enum: ['charger', 'member', 'staff', 'system'] }).notNull(),
    /** The member or staff user who made it. */
    actorUserId: integer('actor_user_id').references(() => users.id, { onDelete: 'set null' }),
    /** The charger that made it (kept as text: history outlives chargers). */
    actorChargerId: text('actor_charger_id'),
    at: at('at').notNull().defaultNow(),
    detail: jsonb('detail'),
  },
  (t) => [index('booking_events_booking_idx').on(t.bookingId, t.at)],
);

/** How OCPP id tags map to members: the app's own tag and any RFID cards a member registers. */
export const idTags = pgTable(
  'id_tags',
  {
    idTag: text('id_tag').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: ['app', 'rfid'] }).notNull(),
    /** An RFID card's last day of use (null: no expiry); a tag past it is answered Expired. */
    expiresAt: at('expires_at'),
    /** A card staff blocked (lost, stolen): answered Blocked, kept so it can be unblocked. */
    blocked: boolean('blocked').notNull().default(false),
    createdAt: at('created_at').notNull().defaultNow(),
  },
  (t) => [index('id_tags_user_idx').on(t.userId)],
);

/**
 * A booking's payment: one per booking, with its tax-invoice number. A refund is written on the same row
 * (exactly once: refunded_at is claimed by a conditional update) with its credit-note number.
 */
export const payments = pgTable(
  'payments',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    invoiceNo: text('invoice_no').notNull(),
    bookingId: integer('booking_id')
      .notNull()
      .references(() => bookings.id, { onDelete: 'restrict' }),
    userId: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
    merchantId: integer('merchant_id').notNull(),
    landlordId: integer('landlord_id').notNull(),
    method: text('method').notNull(),
    amount: baht('amount').notNull(),
    createdAt: at('created_at').notNull().defaultNow(),
    /** The staff user of a manual payment (null when the member paid). */
    createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
    gateway: text('gateway').notNull(),
    gatewayReference: text('gateway_reference'),
    refundedAt: at('refunded_at'),
    refundAmount: baht('refund_amount'),
    creditNoteNo: text('credit_note_no'),
    refundedBy: integer('refunded_by').references(() => users.id, { onDelete: 'set null' }),
    /** manual = recorded, to be settled by hand; succeeded = the gateway paid it back; failed = see the log. */
    /**
     * pending = asked of the provider, no answer yet (refundedAt and the credit note wait for it); manual =
     * recorded, to be settled by hand; succeeded = the provider paid it back; failed = the provider refused,
     * nothing was paid back (a new refund may be tried).
     */
    refundStatus: text('refund_status', { enum: ['pending', 'manual', 'succeeded', 'failed'] }),
    refundReference: text('refund_reference'),
    /** Taken off before `amount` was charged: the booking's discount code, the green points redeemed. */
    discountAmount: baht('discount_amount').notNull().default('0'),
    pointUsed: integer('point_used').notNull().default(0),
    pointAmount: baht('point_amount').notNull().default('0'),
    /** Green points the payment earned, by the rate card in force when it was paid (pointRateId; null: none). */
    pointEarned: integer('point_earned').notNull().default(0),
    pointRateId: integer('point_rate_id'),
  },
  (t) => [
    uniqueIndex('payments_invoice_no_key').on(t.invoiceNo),
    uniqueIndex('payments_booking_key').on(t.bookingId),
    uniqueIndex('payments_credit_note_no_key').on(t.creditNoteNo),
    index('payments_created_idx').on(t.createdAt, t.id),
    index('payments_landlord_created_idx').on(t.landlordId, t.createdAt, t.id),
    // The member search (userName): the payments of the members found, through their id.
    index('payments_user_idx').on(t.userId, t.createdAt, t.id),
    // The Coupon&point report's green-point rows: the few payments that redeemed points, in time order.
    index('payments_point_used_idx').on(t.createdAt, t.id).where(sql`${t.pointUsed} > 0`),
    check('payments_refund_check', sql`${t.refundAmount} is null or ${t.refundAmount} <= ${t.amount}`),
    check(
      'payments_adjustments_check',
      sql`${t.discountAmount} >= 0 and ${t.pointAmount} >= 0 and ${t.pointUsed} >= 0 and ${t.pointEarned} >= 0`,
    ),
  ],
);

/** Gapless document numbers per kind and year (tax invoices, credit notes): taken in the paying transaction. */
export const documentCounters = pgTable(
  'document_counters',
  {
    kind: text('kind', { enum: ['invoice', 'credit-note'] }).notNull(),
    year: integer('year').notNull(),
    last: integer('last').notNull(),
  },
  (t) => [primaryKey({ columns: [t.kind, t.year] })],
);

/**
 * Every call to the payment provider, recorded before it is made (ARCHITECTURE.md: never call a provider inside
 * a database transaction). A charge or refund is written `pending` with an idempotency key, the provider is
 * called with no lock held, and the outcome is committed; a pending row left by a crash is asked of the
 * provider again by its key at start (modules/payment/settlement.ts). A payment row (with its invoice number)
 * exists only for a charge the provider said yes to; a credit note only for a refund it paid back.
 */
export const paymentOperations = pgTable(
  'payment_operations',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    kind: text('kind', { enum: ['charge', 'refund'] }).notNull(),
    /** Sent to the provider with the call: a retry with the same key never charges twice. */
    idempotencyKey: text('idempotency_key').notNull(),
    bookingId: integer('booking_id')
      .notNull()
      .references(() => bookings.id, { onDelete: 'restrict' }),
    /** The payment a refund pays back; for a charge, the payment it made once it succeeded. */
    paymentId: integer('payment_id').references(() => payments.id, { onDelete: 'restrict' }),
    method: text('method').notNull(),
    amount: baht('amount').notNull(),
    status: text('status', { enum: ['pending', 'succeeded', 'manual', 'failed'] }).notNull(),
    gateway: text('gateway').notNull(),
    reference: text('reference'),
    /** Why it failed, or what the last attempt to settle it said. */
    error: text('error'),
    actor: text('actor', { enum: ['member', 'staff'] }).notNull(),
    actorUserId: integer('actor_user_id').references(() => users.id, { onDelete: 'set null' }),
    createdAt: at('created_at').notNull().defaultNow(),
    completedAt: at('completed_at'),
    /**
     * A charge's adjustments, fixed at its intent: the booking's total before them, the discount, and the
     * green points redeemed (taken from the member at the intent, given back if the provider says no).
     */
    grossAmount: baht('gross_amount'),
    discountAmount: baht('discount_amount').notNull().default('0'),
    pointUsed: integer('point_used').notNull().default(0),
    pointAmount: baht('point_amount').notNull().default('0'),
  },
  (t) => [
    uniqueIndex('payment_operations_key').on(t.idempotencyKey),
    // One charge at a time per booking, and at most one refund in progress or done per payment.
    uniqueIndex('payment_operations_pending_charge_key')
      .on(t.bookingId)
      .where(sql`${t.kind} = 'charge' and ${t.status} = 'pending'`),
    uniqueIndex('payment_operations_refund_key')
      .on(t.paymentId)
      .where(sql`${t.kind} = 'refund' and ${t.status} <> 'failed'`),
    index('payment_operations_pending_idx').on(t.createdAt).where(sql`${t.status} = 'pending'`),
  ],
);
