/**
 * The dashboard and the statistics (issue 35): their wire. Our own API (the spec has neither screen), so the
 * names follow the spec's conventions: camelCase, money as baht numbers with 2 decimals (integer satang in
 * code), energy in Wh as the bookings answer it, instants as ISO strings, days as Bangkok calendar days.
 * docs/statistics.md defines every measure.
 */
import { z } from 'zod';
import { PAYMENT_METHODS } from '../booking-machine.ts';
import { isoInstantParam } from './booking.ts';
import { idQuery } from './common.ts';
import { idListParam } from './list.ts';

/** How the statistics group time: Bangkok calendar days, ISO weeks (Monday first), months, years. */
export const STAT_PERIODS = ['day', 'week', 'month', 'year'] as const;
export type StatPeriod = (typeof STAT_PERIODS)[number];

/** What the statistics split each period by (none: one row per period). */
export const STAT_SPLITS = [
  'none',
  'merchant',
  'landlord',
  'charger',
  'connectorType',
  'paymentMethod',
  'promotion',
] as const;
export type StatSplit = (typeof STAT_SPLITS)[number];

/** The measures, in the order the table shows them. */
export const STAT_MEASURES = [
  'energyWh',
  'revenue',
  'sessions',
  'chargingSeconds',
  'idleSeconds',
  'utilisation',
  'discount',
  'point',
  'refund',
] as const;
export type StatMeasure = (typeof STAT_MEASURES)[number];

/** The longest range one query may ask for: five years of days is 1,827 points per split. */
export const STAT_MAX_RANGE_DAYS = 5 * 366;

/** An ISO instant that must be there (isoInstantParam is optional: a refine on it never sees a missing key). */
const requiredInstant = (name: string) =>
  z.string({ error: `${name} is required` }).pipe(isoInstantParam.unwrap());

/**
 * GET /api/statistics (and /api/statistics/export): a range [from, to) and the Booking Report's filters
 * (chargerId partial, connectorId, landlordId[], merchantId[], paymentMethod), within the caller's scope.
 */
export const statisticsQuery = z
  .object({
    from: requiredInstant('from'),
    to: requiredInstant('to'),
    period: z.enum(STAT_PERIODS).default('day'),
    split: z.enum(STAT_SPLITS).default('none'),
    chargerId: z.string().trim().max(100).optional(),
    connectorId: idQuery.optional(),
    landlordId: idListParam,
    merchantId: idListParam,
    paymentMethod: z.enum(PAYMENT_METHODS).optional(),
  })
  .transform(({ from, to, ...rest }) => ({ ...rest, from: from as Date, to: to as Date }))
  // A missing from or to is reported above, but zod still runs these checks: they pass it by.
  .refine((query) => !query.from || !query.to || query.from.getTime() < query.to.getTime(), {
    message: 'from must be before to',
    path: ['from'],
  })
  .refine(
    (query) =>
      !query.from ||
      !query.to ||
      query.to.getTime() - query.from.getTime() <= STAT_MAX_RANGE_DAYS * 86_400_000,
    {
      message: `The range must be at most ${STAT_MAX_RANGE_DAYS} days`,
      path: ['to'],
    },
  );
export type StatisticsQuery = z.infer<typeof statisticsQuery>;

/** The measures of one period (and one split key). */
export const statFigures = z.object({
  /** Energy delivered (Wh) by the sessions that started in the period. */
  energyWh: z.number().int(),
  /** Baht: payments made in the period, less what was refunded of them (discounts and points are already off). */
  revenue: z.number(),
  /** Charging sessions that started in the period. */
  sessions: z.number().int(),
  /** Seconds charging (start to stop) of those sessions. */
  chargingSeconds: z.number().int(),
  /** Seconds with the cable still in after charging stopped (stop to cable out / avaliable). */
  idleSeconds: z.number().int(),
  /** chargingSeconds / (connectors in scope × seconds of the period), 0..1; null for a split it does not fit. */
  utilisation: z.number().nullable(),
  /** Baht taken off by discount codes in the period's payments. */
  discount: z.number(),
  /** Baht paid with green points in the period's payments. */
  point: z.number(),
  /** Baht refunded of the period's payments. */
  refund: z.number(),
});
export type StatFigures = z.infer<typeof statFigures>;

export const statisticsRow = statFigures.extend({
  /** The period's first day, yyyy-mm-dd (Bangkok). */
  period: z.string(),
  /** The split's key (an id, a method, a type id as text) or null for split none / nothing to split by. */
  key: z.string().nullable(),
  /** The split's name as the lists show it (a site's nameEn, a method's label), null for split none. */
  label: z.string().nullable(),
});
export type StatisticsRow = z.infer<typeof statisticsRow>;

export const statisticsResponse = z.object({
  rows: z.array(statisticsRow),
  /** The whole range, every split key together. */
  totals: statFigures,
});
export type StatisticsResponse = z.infer<typeof statisticsResponse>;

/** GET /api/dashboard: no query; the caller's scope. */
export const CONNECTOR_STATES = [
  'Available',
  'Charging',
  'Faulted',
  'Unavailable',
  'Offline',
  'Other',
] as const;
export type ConnectorState = (typeof CONNECTOR_STATES)[number];

const dayFigures = z.object({
  energyWh: z.number().int(),
  revenue: z.number(),
  sessions: z.number().int(),
  /** Mean charging seconds of today's sessions (null with none). */
  averageSeconds: z.number().nullable(),
  /** Share of today's sessions that delivered energy (0..1; null with none). */
  successRate: z.number().nullable(),
});
export type DayFigures = z.infer<typeof dayFigures>;

export const dashboardResponse = z.object({
  /** When these figures were read. */
  at: z.string(),
  now: z.object({
    /** Connectors by state; Offline: its charger is not connected, whatever it last said. */
    connectors: z.record(z.enum(CONNECTOR_STATES), z.number().int()),
    /** Chargers offline or with a Faulted connector, the longest first (at most 10). */
    down: z.array(
      z.object({
        chargerId: z.string(),
        nameEn: z.string(),
        landlordNameEn: z.string(),
        state: z.enum(['Offline', 'Faulted']),
        /** Since when (null when never seen). */
        since: z.string().nullable(),
      }),
    ),
    /** Bookings charging now. */
    charging: z.number().int(),
    /** Bookings that charged and wait to be paid. */
    awaitingPayment: z.number().int(),
  }),
  /** Today so far (Bangkok day) against the mean of the same weekday over the 4 weeks before. */
  today: dayFigures,
  usual: dayFigures,
  /** The last 30 Bangkok days, oldest first, today last. */
  daily: z.array(
    z.object({
      day: z.string(),
      energyWh: z.number().int(),
      revenue: z.number(),
      sessions: z.number().int(),
    }),
  ),
  /** Sessions of the last 30 days by their start's hour (Bangkok), 0..23. */
  byHour: z.array(z.object({ hour: z.number().int(), sessions: z.number().int() })),
  /** Payments of the last 30 days by method. */
  paymentMethods: z.array(z.object({ method: z.string(), count: z.number().int(), amount: z.number() })),
  /** Sites by utilisation over the last 30 days: the 10 highest and the 10 lowest. */
  sites: z.object({
    top: z.array(z.object({ landlordId: z.number().int(), nameEn: z.string(), utilisation: z.number() })),
    bottom: z.array(z.object({ landlordId: z.number().int(), nameEn: z.string(), utilisation: z.number() })),
  }),
});
export type DashboardResponse = z.infer<typeof dashboardResponse>;
