import {
  PAYMENT_METHODS,
  STAT_MEASURES,
  STAT_PERIODS,
  STAT_SPLITS,
  type StatMeasure,
  type StatPeriod,
  type StatSplit,
} from '@ev/shared';
import { bangkokDay, dayStart } from '../../components/list/day-range.ts';

/**
 * The Statistics screen's choices as the form holds them and as the URL keeps them (so a reload, the back
 * button and a shared link show the same figures). The range is two Bangkok days, both included; the API
 * takes it as [start of the first day, start of the day after the last).
 */
export interface StatisticsValues {
  /** First and last Bangkok day, 'yyyy-mm-dd'. */
  range: [string, string];
  period: StatPeriod;
  split: StatSplit;
  /** What the chart draws (the table shows every measure); not sent to the API. */
  measure: StatMeasure;
  chargerId?: string;
  connectorId?: string;
  merchantId?: string[];
  landlordId?: string[];
  /** '' for any. */
  paymentMethod?: string;
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const DAY_MS = 86_400_000;

/** The Bangkok day `count` days after `day` (negative: before). */
export function addDays(day: string, count: number): string {
  const [year, month, date] = day.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(year, month - 1, date) + count * DAY_MS).toISOString().slice(0, 10);
}

/** The last 30 Bangkok days, today included: the range a first visit shows. */
export function defaultRange(now = Date.now()): [string, string] {
  const today = bangkokDay(now) as string;
  return [addDays(today, -29), today];
}

const oneOf = <T extends string>(choices: readonly T[], value: string | null, fallback: T): T =>
  choices.includes(value as T) ? (value as T) : fallback;

/** The query of `GET /api/statistics` and of its export: empty filters left out, text trimmed. */
export function statisticsQuery(values: StatisticsValues): URLSearchParams {
  const [first, last] = values.range;
  const query = new URLSearchParams({
    from: dayStart(first),
    to: dayStart(addDays(last, 1)),
    period: values.period,
    split: values.split,
  });
  for (const key of ['chargerId', 'connectorId', 'paymentMethod'] as const) {
    const value = values[key]?.trim();
    if (value) query.set(key, value);
  }
  for (const key of ['merchantId', 'landlordId'] as const) {
    for (const id of values[key] ?? []) query.append(key, id);
  }
  return query;
}

/** The page's URL: the API's query and the chart's measure. */
export function searchOf(values: StatisticsValues): URLSearchParams {
  const search = statisticsQuery(values);
  search.set('measure', values.measure);
  return search;
}

/**
 * The choices a URL holds, anything missing or malformed replaced by the defaults (the last 30 days by day,
 * no split, energy).
 */
export function valuesOf(search: URLSearchParams, now = Date.now()): StatisticsValues {
  const from = search.get('from');
  const to = search.get('to');
  const first = from ? bangkokDay(from) : null;
  const end = to ? bangkokDay(to) : null;
  const range: [string, string] =
    first && end && DAY.test(first) && first < end ? [first, addDays(end, -1)] : defaultRange(now);
  return {
    range,
    period: oneOf(STAT_PERIODS, search.get('period'), 'day'),
    split: oneOf(STAT_SPLITS, search.get('split'), 'none'),
    measure: oneOf(STAT_MEASURES, search.get('measure'), 'energyWh'),
    chargerId: search.get('chargerId') ?? '',
    connectorId: search.get('connectorId') ?? '',
    merchantId: search.getAll('merchantId'),
    landlordId: search.getAll('landlordId'),
    paymentMethod: oneOf(['', ...PAYMENT_METHODS], search.get('paymentMethod'), ''),
  };
}
