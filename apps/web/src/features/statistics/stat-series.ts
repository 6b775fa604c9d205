import {
  CONNECTOR_STATES,
  type ConnectorState,
  type DashboardResponse,
  paymentMethodLabel,
  type StatisticsRow,
  type StatMeasure,
  type StatPeriod,
} from '@ev/shared';
import { MEASURES, periodText } from './stat-format.ts';

/**
 * The Okabe–Ito colours (distinguishable with the common colour-vision deficiencies), darkest first, less
 * the yellow that vanishes on white; 'Other' is grey. Colour is never the only carrier: the legend, the
 * tooltip and the table beside every chart say the same in words.
 */
export const PALETTE = [
  '#0072B2',
  '#D55E00',
  '#009E73',
  '#CC79A7',
  '#E69F00',
  '#56B4E9',
  '#332288',
  '#882255',
];
export const OTHER_COLOUR = '#8C8C8C';
/** The split keys a chart draws one by one; the rest are 'Other' (the table lists them all). */
export const CHART_TOP_KEYS = PALETTE.length;
export const OTHER_KEY = '__other__';
const TOTAL_KEY = '__total__';

export interface ChartSeries {
  /** The data key of the series in each point. */
  dataKey: string;
  label: string;
  colour: string;
}
export type ChartPoint = { period: string; label: string } & Record<string, number | string | null>;
export interface StatisticsChart {
  series: ChartSeries[];
  points: ChartPoint[];
  /** Additive measures stack; a share is drawn side by side. */
  stacked: boolean;
  unit: string;
  /** Split keys not drawn (a share has no 'Other': its keys' shares do not add up). */
  hidden: number;
}

const keyOf = (row: StatisticsRow) => row.key ?? TOTAL_KEY;

const DAY_MS = 86_400_000;
const utcDay = (day: string) => Date.parse(`${day}T00:00:00Z`);
const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/**
 * Every period of a range of Bangkok days (both included), by its first day as the API names it: the days,
 * the Mondays of the ISO weeks, the firsts of the months, the New Year's days. A chart draws them all, so a
 * period without sessions is an empty slot, not a missing one.
 */
export function periodsOf([first, last]: readonly [string, string], period: StatPeriod): string[] {
  const end = utcDay(last);
  const start = new Date(utcDay(first));
  if (period === 'week') start.setUTCDate(start.getUTCDate() - ((start.getUTCDay() + 6) % 7));
  if (period === 'month' || period === 'year') start.setUTCDate(1);
  if (period === 'year') start.setUTCMonth(0);
  const periods: string[] = [];
  for (const at = start; at.getTime() <= end; ) {
    periods.push(dayOf(at.getTime()));
    if (period === 'day') at.setTime(at.getTime() + DAY_MS);
    else if (period === 'week') at.setTime(at.getTime() + 7 * DAY_MS);
    else if (period === 'month') at.setUTCMonth(at.getUTCMonth() + 1);
    else at.setUTCFullYear(at.getUTCFullYear() + 1);
  }
  return periods;
}

/**
 * The chart of one measure: a point per period (in order; every period of the range when given), a series
 * per split key. The keys with the largest
 * total over the range come first and get their own colour; with more than CHART_TOP_KEYS the rest add up to
 * 'Other' (an additive measure) or are left to the table (utilisation).
 */
export function statisticsChart(
  rows: readonly StatisticsRow[],
  measure: StatMeasure,
  period: StatPeriod,
  /** Every period of the range (periodsOf), drawn even without a row; none: the rows' periods only. */
  periods: readonly string[] = [],
  top = CHART_TOP_KEYS,
): StatisticsChart {
  const spec = MEASURES[measure];
  const totals = new Map<string, { label: string; sum: number }>();
  for (const row of rows) {
    const key = keyOf(row);
    const entry = totals.get(key) ?? { label: row.label ?? row.key ?? spec.label, sum: 0 };
    entry.sum += Math.abs(spec.value(row) ?? 0);
    totals.set(key, entry);
  }
  const ranked = [...totals.entries()].sort(
    ([keyA, a], [keyB, b]) => b.sum - a.sum || a.label.localeCompare(b.label) || keyA.localeCompare(keyB),
  );
  const overflow = ranked.length > top;
  const shown = overflow ? ranked.slice(0, spec.additive ? top - 1 : top) : ranked;
  const shownKeys = new Set(shown.map(([key]) => key));
  const withOther = overflow && spec.additive;
  const series: ChartSeries[] = shown.map(([, { label }], index) => ({
    dataKey: `k${index}`,
    label,
    colour: PALETTE[index % PALETTE.length]!,
  }));
  if (withOther) series.push({ dataKey: OTHER_KEY, label: 'Other', colour: OTHER_COLOUR });
  const dataKeyOf = new Map(shown.map(([key], index) => [key, `k${index}`]));

  const byPeriod = new Map<string, ChartPoint>();
  const pointOf = (day: string) => {
    let point = byPeriod.get(day);
    if (!point) {
      point = { period: day, label: periodText(day, period, true) };
      for (const { dataKey } of series) point[dataKey] = spec.additive ? 0 : null;
      byPeriod.set(day, point);
    }
    return point;
  };
  if (rows.length > 0) for (const day of periods) pointOf(day);
  for (const row of rows) {
    const point = pointOf(row.period);
    const value = spec.value(row);
    const key = keyOf(row);
    const dataKey = shownKeys.has(key) ? dataKeyOf.get(key)! : withOther ? OTHER_KEY : null;
    if (dataKey === null || value === null) continue;
    point[dataKey] = spec.additive ? ((point[dataKey] as number) ?? 0) + value : value;
  }
  const points = [...byPeriod.values()].sort((a, b) => a.period.localeCompare(b.period));
  return {
    series,
    points,
    stacked: spec.additive,
    unit: spec.unit,
    hidden: overflow && !spec.additive ? ranked.length - top : 0,
  };
}

/** The connectors' states, in a fixed order and colour (state colours as a traffic light, offline dark). */
export const CONNECTOR_COLOURS: Record<ConnectorState, string> = {
  Available: '#009E73',
  Charging: '#0072B2',
  Faulted: '#D55E00',
  Unavailable: '#E69F00',
  Offline: '#595959',
  Other: '#CC79A7',
};

export interface Slice {
  key: string;
  label: string;
  value: number;
  colour: string;
}

/** Connectors by state, every state in order (0 where none). */
export function connectorSlices(connectors: DashboardResponse['now']['connectors']): Slice[] {
  return CONNECTOR_STATES.map((state) => ({
    key: state,
    label: state,
    value: connectors[state] ?? 0,
    colour: CONNECTOR_COLOURS[state],
  }));
}

/** Payments of the last 30 days by method, the most used first, named as the lists name them. */
export function methodSlices(methods: DashboardResponse['paymentMethods']): (Slice & { amount: number })[] {
  return [...methods]
    .sort((a, b) => b.count - a.count || a.method.localeCompare(b.method))
    .map((row, index) => ({
      key: row.method,
      label: paymentMethodLabel(row.method) || row.method,
      value: row.count,
      amount: row.amount,
      colour: PALETTE[index % PALETTE.length]!,
    }));
}

/** The last 30 days for the energy and revenue chart: kWh and THB per Bangkok day, labelled dd/mm. */
export function dailyPoints(daily: DashboardResponse['daily']) {
  return daily.map((row) => ({
    day: row.day,
    label: periodText(row.day, 'day', true),
    kwh: row.energyWh / 1000,
    revenue: row.revenue,
    sessions: row.sessions,
  }));
}

/** Sessions by their start's hour, every hour 00..23 (0 where none). */
export function hourPoints(byHour: DashboardResponse['byHour']) {
  const counts = new Map(byHour.map((row) => [row.hour, row.sessions]));
  return Array.from({ length: 24 }, (_, hour) => ({
    hour,
    label: String(hour).padStart(2, '0'),
    sessions: counts.get(hour) ?? 0,
  }));
}

/** A site's utilisation as a bar: % with the site's name. */
export function sitePoints(sites: DashboardResponse['sites']['top']) {
  return sites.map((site) => ({
    landlordId: site.landlordId,
    name: site.nameEn,
    percent: site.utilisation * 100,
  }));
}

/** Nothing to show: no connector, no session and no payment in the scope. */
export function dashboardIsEmpty(dashboard: DashboardResponse): boolean {
  const connectors = Object.values(dashboard.now.connectors).reduce((sum, count) => sum + (count ?? 0), 0);
  const sessions = dashboard.daily.reduce((sum, day) => sum + day.sessions, 0);
  return (
    connectors === 0 &&
    sessions === 0 &&
    dashboard.paymentMethods.length === 0 &&
    dashboard.now.charging === 0 &&
    dashboard.now.awaitingPayment === 0
  );
}
