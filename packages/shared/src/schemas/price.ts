import { z } from 'zod';
import { firstOverlap, minutesOf, type Span, wallMinutesOf } from '../price-rules.ts';
import { activeBody, listMode, listQuery, maxMessage } from './list.ts';

export * from '../price-rules.ts';

/** How a plan charges: by time (HOUR) or by energy (KW). Wire values: never rename. */
export const PRICE_METHODS = ['HOUR', 'KW'] as const;
export type PriceMethod = (typeof PRICE_METHODS)[number];
export const PRICE_METHOD_LABELS: Record<PriceMethod, string> = { HOUR: 'Hour', KW: 'kWh' };

/** How time is billed: per started hour (BAHT_HRS) or per minute at bahtPerHour / 60 (BAHT_MIN). */
export const CALCULATE_METHODS = ['BAHT_HRS', 'BAHT_MIN'] as const;
export type CalculateMethod = (typeof CALCULATE_METHODS)[number];
export const CALCULATE_METHOD_LABELS: Record<CalculateMethod, string> = {
  BAHT_HRS: 'Baht/hr',
  BAHT_MIN: 'Baht/min',
};

/** The screen names of the amounts, used in their messages. */
export const PRICE_LABELS = {
  bahtPerKwh: 'Baht/kWh',
  bahtPerHour: 'Baht/hr',
  penaltyBahtPerMin: 'Extracharger fee (Baht/min)',
  penaltyDCFullBahtPerMin: 'Penalty fee (Baht/min)',
  penaltyDCFullDelayMin: 'Penalty delay (min)',
} as const;

export const PRICE_MESSAGES = {
  descEn: 'Description (EN) is required.',
  descEnBlank: 'Description (EN) is not whitespace',
  descTh: 'Description (TH) is required.',
  descThBlank: 'Description (TH) is not whitespace',
  method: 'Method is required.',
  calculateMethod: 'Calculate Method is required.',
  day: 'Day is required.',
  from: 'From is required.',
  to: 'To is required.',
  timeFormat: 'Time must be HH:mm.',
  dateTimeFormat: 'Date and time must be YYYY-MM-DD HH:mm.',
  notFound: 'No price found',
} as const;

const required = (label: string) => `${label} is required.`;
/** Baht amounts fit numeric(12,2): ten digits before the point (the inputs' max length is 10). */
export const BAHT_MAX = 9_999_999_999.99;
/** Penalty delay is an integer column. */
export const DELAY_MAX = 2_147_483_647;
/** The spec does not limit the override rows; this keeps one save bounded. */
export const OVERRIDE_ROWS_MAX = 100;

/** At most 2 decimals in the number's shortest exact form (1.234 and 0.1 + 0.2 are refused, 7.15 passes). */
const hasCents = (value: number) => /^-?\d+(\.\d{1,2})?$/.test(String(value));

/** A baht amount on the wire: a JSON number, 0 or more, exact to the satang. */
export const bahtAmount = (label: string) =>
  z
    .number({ error: required(label) })
    .min(0, `${label} must be 0 or more.`)
    .max(BAHT_MAX, `${label} must be at most 9,999,999,999.99.`)
    .refine(hasCents, `${label} must have at most 2 decimals.`);

const minutes = (label: string) =>
  z
    .number({ error: required(label) })
    .int(`${label} must be a whole number.`)
    .min(0, `${label} must be 0 or more.`)
    .max(DELAY_MAX, `${label} must be at most ${DELAY_MAX.toLocaleString('en-US')}.`);

const description = (requiredMessage: string, blank: string) =>
  z
    .string({ error: requiredMessage })
    .min(1, requiredMessage)
    .max(255, maxMessage(255))
    .refine((value) => value.trim().length > 0, blank)
    .trim();

const timeOfDay = (message: string) =>
  z
    .string({ error: message })
    .min(1, message)
    .refine((value) => !Number.isNaN(minutesOf(value)), PRICE_MESSAGES.timeFormat);

const wallDateTime = (message: string) =>
  z
    .string({ error: message })
    .min(1, message)
    .refine((value) => !Number.isNaN(wallMinutesOf(value)), PRICE_MESSAGES.dateTimeFormat);

/** Calculate Method as the form asks for it (when the method is not KW). */
export const calculateMethodField = z.enum(CALCULATE_METHODS, { error: PRICE_MESSAGES.calculateMethod });

/** A rate field whose need depends on the plan's method (checked on the whole body). */
const rate = (label: string) => bahtAmount(label).nullish();

/** The fields of one weekly window: day 1 = Sunday … 7 = Saturday, local `HH:mm` times. */
export const weekdayOverrideFields = {
  dayOfWeek: z
    .number({ error: PRICE_MESSAGES.day })
    .int(PRICE_MESSAGES.day)
    .min(1, PRICE_MESSAGES.day)
    .max(7, PRICE_MESSAGES.day),
  validTimeFrom: timeOfDay(PRICE_MESSAGES.from),
  validTimeTo: timeOfDay(PRICE_MESSAGES.to),
  bahtPerKwh: rate(PRICE_LABELS.bahtPerKwh),
  bahtPerHour: rate(PRICE_LABELS.bahtPerHour),
};
export const weekdayOverrideInput = z.strictObject(weekdayOverrideFields);

/** The fields of one dated period, Bangkok wall time `YYYY-MM-DD HH:mm`. */
export const datedOverrideFields = {
  validFrom: wallDateTime(PRICE_MESSAGES.from),
  validTo: wallDateTime(PRICE_MESSAGES.to),
  bahtPerKwh: rate(PRICE_LABELS.bahtPerKwh),
  bahtPerHour: rate(PRICE_LABELS.bahtPerHour),
};
export const datedOverrideInput = z.strictObject(datedOverrideFields);

/**
 * The Price Setting form's fields (document 2, sections 3 and 5), before the method's rules, and `active`
 * (left out: active on POST, unchanged on PATCH). Any other key, on the plan or on a row, is a 400 naming it.
 */
export const priceFields = z.strictObject({
  descEn: description(PRICE_MESSAGES.descEn, PRICE_MESSAGES.descEnBlank),
  descTh: description(PRICE_MESSAGES.descTh, PRICE_MESSAGES.descThBlank),
  method: z.enum(PRICE_METHODS, { error: PRICE_MESSAGES.method }),
  calculateMethod: calculateMethodField.nullish(),
  bahtPerKwh: rate(PRICE_LABELS.bahtPerKwh),
  bahtPerHour: rate(PRICE_LABELS.bahtPerHour),
  penaltyBahtPerMin: bahtAmount(PRICE_LABELS.penaltyBahtPerMin),
  penaltyDCFullBahtPerMin: bahtAmount(PRICE_LABELS.penaltyDCFullBahtPerMin),
  penaltyDCFullDelayMin: minutes(PRICE_LABELS.penaltyDCFullDelayMin),
  overrideWeekdays: z.array(weekdayOverrideInput).max(OVERRIDE_ROWS_MAX).optional(),
  overrides: z.array(datedOverrideInput).max(OVERRIDE_ROWS_MAX).optional(),
  active: z.boolean().optional(),
});
type PriceFields = z.infer<typeof priceFields>;

/** Which rate fields a method asks for (section 5): Baht/kWh unless HOUR; Baht/hr and Calculate Method unless KW. */
export const rateRequired = (method: PriceMethod | null | undefined, field: 'bahtPerKwh' | 'bahtPerHour') =>
  field === 'bahtPerKwh' ? method !== 'HOUR' : method !== 'KW';

export interface PriceIssue {
  path: (string | number)[];
  message: string;
}

type Window = { validTimeFrom?: unknown; validTimeTo?: unknown; dayOfWeek?: unknown };
type Period = { validFrom?: unknown; validTo?: unknown };
const text = (value: unknown) => (typeof value === 'string' ? value : '');

function weeklySpan(row: Window): Span | null {
  const from = minutesOf(text(row.validTimeFrom));
  const to = minutesOf(text(row.validTimeTo));
  return Number.isNaN(from) || Number.isNaN(to) || to <= from ? null : { from, to };
}
function datedSpan(row: Period): Span | null {
  const from = wallMinutesOf(text(row.validFrom));
  const to = wallMinutesOf(text(row.validTo));
  return Number.isNaN(from) || Number.isNaN(to) || to <= from ? null : { from, to };
}

/**
 * The override rows' own rules, for the form and the server alike: To after From, and no two windows of one
 * price overlapping (weekly ones on the same day, dated ones anywhere). Each issue names its row (1-based)
 * and sits on the row's To field.
 */
export function overrideIssues(value: {
  overrideWeekdays?: readonly Window[] | null;
  overrides?: readonly Period[] | null;
}): PriceIssue[] {
  const issues: PriceIssue[] = [];
  const check = <T>(
    rows: readonly T[],
    list: string,
    toField: string,
    name: string,
    complete: (row: T) => boolean,
    spanOf: (row: T) => Span | null,
    key?: (row: T) => string | number,
  ) => {
    rows.forEach((row, index) => {
      if (complete(row) && !spanOf(row)) {
        issues.push({
          path: [list, index, toField],
          message: `${name} ${index + 1}: To must be after From.`,
        });
      }
    });
    const pair = firstOverlap(rows, spanOf, key);
    if (pair) {
      const [earlier, later] = pair;
      issues.push({
        path: [list, later, toField],
        message: `${name} ${later + 1} overlaps ${name.toLowerCase()} ${earlier + 1}.`,
      });
    }
  };
  check(
    value.overrideWeekdays ?? [],
    'overrideWeekdays',
    'validTimeTo',
    'Weekday override',
    (row) =>
      !Number.isNaN(minutesOf(text(row.validTimeFrom))) && !Number.isNaN(minutesOf(text(row.validTimeTo))),
    weeklySpan,
    (row) => String(row.dayOfWeek),
  );
  check(
    value.overrides ?? [],
    'overrides',
    'validTo',
    'Dated override',
    (row) =>
      !Number.isNaN(wallMinutesOf(text(row.validFrom))) && !Number.isNaN(wallMinutesOf(text(row.validTo))),
    datedSpan,
  );
  return issues;
}

/** The method's required fields, on the plan and on every override row. */
function methodIssues(body: PriceFields): PriceIssue[] {
  const issues: PriceIssue[] = [];
  const rates = (
    row: { bahtPerKwh?: number | null; bahtPerHour?: number | null },
    at: (string | number)[],
  ) => {
    for (const field of ['bahtPerKwh', 'bahtPerHour'] as const) {
      if (rateRequired(body.method, field) && row[field] == null) {
        issues.push({ path: [...at, field], message: required(PRICE_LABELS[field]) });
      }
    }
  };
  if (body.method !== 'KW' && body.calculateMethod == null) {
    issues.push({ path: ['calculateMethod'], message: PRICE_MESSAGES.calculateMethod });
  }
  rates(body, []);
  body.overrideWeekdays?.forEach((row, index) => {
    rates(row, ['overrideWeekdays', index]);
  });
  body.overrides?.forEach((row, index) => {
    rates(row, ['overrides', index]);
  });
  return issues;
}

/**
 * The method's coupling (section 4), applied to what is saved: HOUR charges no energy (Baht/kWh 0), KW no
 * time (Baht/hr 0, Calculate Method BAHT_HRS); override rows follow. Values the method makes meaningless are
 * coerced, never refused: the form sets and disables them the same way.
 */
function couple(body: PriceFields) {
  const hour = body.method === 'HOUR';
  const kw = body.method === 'KW';
  const rates = <R extends { bahtPerKwh?: number | null; bahtPerHour?: number | null }>(row: R) => ({
    ...row,
    bahtPerKwh: hour ? 0 : (row.bahtPerKwh ?? 0),
    bahtPerHour: kw ? 0 : (row.bahtPerHour ?? 0),
  });
  return {
    ...rates(body),
    calculateMethod: kw ? ('BAHT_HRS' as const) : (body.calculateMethod ?? 'BAHT_HRS'),
    overrideWeekdays: (body.overrideWeekdays ?? []).map(rates),
    overrides: (body.overrides ?? []).map(rates),
  };
}

/** `POST /api/price` and the form of `PATCH /api/price/{id}`: fields, method rules, override rules, coupling. */
export const priceBody = priceFields
  .superRefine((body, ctx) => {
    for (const issue of [...methodIssues(body), ...overrideIssues(body)]) {
      ctx.addIssue({ code: 'custom', path: issue.path, message: issue.message });
    }
  })
  .transform(couple);
export type PriceBody = z.infer<typeof priceBody>;
export type PriceForm = z.input<typeof priceBody>;
export const pricePatchBody = z.union([activeBody, priceBody]);
export type PricePatchBody = z.infer<typeof pricePatchBody>;

export const PRICE_SORTS = [
  'id',
  'descEn',
  'descTh',
  'method',
  'calculateMethod',
  'bahtPerHour',
  'bahtPerKwh',
  'active',
] as const;

export const priceListQuery = listQuery.extend({
  mode: listMode,
  /** Contained in the English or the Thai description, any case. */
  desc: z.string().trim().max(255).optional(),
  method: z.enum(PRICE_METHODS).optional(),
  calculateMethod: z.enum(CALCULATE_METHODS).optional(),
});
export type PriceListQuery = z.infer<typeof priceListQuery>;

export const priceListItem = z.object({
  id: z.number().int(),
  descEn: z.string(),
  descTh: z.string(),
  method: z.enum(PRICE_METHODS),
  calculateMethod: z.enum(CALCULATE_METHODS),
  bahtPerKwh: z.number(),
  bahtPerHour: z.number(),
  penaltyBahtPerMin: z.number(),
  penaltyDCFullBahtPerMin: z.number(),
  penaltyDCFullDelayMin: z.number().int(),
  active: z.boolean(),
});
export type PriceListItem = z.infer<typeof priceListItem>;

/** `mode=dropdown`: exactly these keys (section 3, Price option). */
export const priceOption = z.object({
  id: z.number().int(),
  descEn: z.string(),
  bahtPerKwh: z.number(),
  bahtPerHour: z.number(),
  calculateMethod: z.enum(CALCULATE_METHODS),
});
export type PriceOption = z.infer<typeof priceOption>;

export const priceListResponse = z.union([
  z.object({ total: z.number().int(), prices: z.array(priceListItem) }),
  z.object({ prices: z.array(priceOption) }),
]);

export const weekdayOverride = z.object({
  dayOfWeek: z.number().int(),
  validTimeFrom: z.string(),
  validTimeTo: z.string(),
  bahtPerKwh: z.number(),
  bahtPerHour: z.number(),
});
export type WeekdayOverride = z.infer<typeof weekdayOverride>;
export const datedOverride = z.object({
  validFrom: z.string(),
  validTo: z.string(),
  bahtPerKwh: z.number(),
  bahtPerHour: z.number(),
});
export type DatedOverride = z.infer<typeof datedOverride>;

export const price = priceListItem
  .extend({ overrideWeekdays: z.array(weekdayOverride), overrides: z.array(datedOverride) })
  .meta({ id: 'Price' });
export type Price = z.infer<typeof price>;
export const priceResponse = z.object({ price });
