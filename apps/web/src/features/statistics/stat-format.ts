import { STAT_MEASURES, type StatFigures, type StatMeasure, type StatPeriod } from '@ev/shared';
import { bahtText } from '../../lib/format.ts';

/**
 * The figures of the dashboard and the statistics in the screens' formats (issue 35): baht with 2 decimals,
 * energy in kWh, hours, shares in %, and Bangkok days in the Buddhist era as the other screens show dates.
 */
const TWO = new Intl.NumberFormat('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
const ONE = new Intl.NumberFormat('en-US', { minimumFractionDigits: 1, maximumFractionDigits: 1 });
const WHOLE = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });

/** Wh (as the bookings answer energy) in kWh: '1,234.50 kWh'. */
export const kwhText = (wh: number) => `${TWO.format(wh / 1000)} kWh`;
/** Baht as the lists show it, with its unit: '1,234.50 THB'. */
export const thbText = (baht: number) => `${bahtText(baht)} THB`;
/** A count: '12,345'. */
export const countText = (count: number) => WHOLE.format(count);
/** Seconds as hours with one decimal: '12.5 h'. */
export const hoursText = (seconds: number) => `${ONE.format(seconds / 3600)} h`;
/** A share 0..1 as a percentage with one decimal: '42.5%'; '-' when there is none. */
export const percentText = (ratio: number | null) => (ratio === null ? '-' : `${ONE.format(ratio * 100)}%`);

/** A session's length: '42 min', '1 h 05 min'; '-' when there is none. */
export function durationText(seconds: number | null): string {
  if (seconds === null) return '-';
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `${minutes} min`;
  return `${Math.floor(minutes / 60)} h ${String(minutes % 60).padStart(2, '0')} min`;
}

/** Today against the usual: the direction and the change in % of the usual (null when the usual is 0 or unknown). */
export interface Change {
  direction: 'up' | 'down' | 'same';
  percent: number | null;
}

export function changeOf(today: number | null, usual: number | null): Change | null {
  if (today === null || usual === null) return null;
  const direction = today > usual ? 'up' : today < usual ? 'down' : 'same';
  return { direction, percent: usual === 0 ? null : ((today - usual) / Math.abs(usual)) * 100 };
}

/** '+12.5%', '-3.0%', '0.0%'; 'new' when the usual was 0 and today is not. */
export function changeText(change: Change): string {
  if (change.percent === null) return change.direction === 'same' ? '0.0%' : 'new';
  const sign = change.percent > 0 ? '+' : '';
  return `${sign}${ONE.format(change.percent)}%`;
}

/** 'yyyy-mm-dd' → its parts; the Buddhist-era year is the Gregorian year + 543. */
function dayParts(day: string) {
  const [year = '', month = '', date = ''] = day.split('-');
  return { year, month, date, buddhist: String(Number(year) + 543) };
}

/**
 * A period (its first day, 'yyyy-mm-dd') as the screens show dates (th-TH, Buddhist era): a day '21/11/2569',
 * a week by its Monday 'Week of 17/11/2569', a month '11/2569', a year '2569'. `short` drops the year of
 * days and weeks (a chart's axis).
 */
export function periodText(day: string, period: StatPeriod, short = false): string {
  const { month, date, buddhist } = dayParts(day);
  if (period === 'year') return buddhist;
  if (period === 'month') return `${month}/${buddhist}`;
  const shown = short ? `${date}/${month}` : `${date}/${month}/${buddhist}`;
  return period === 'week' && !short ? `Week of ${shown}` : shown;
}

/** What the statistics measure, in the table's order: its label, its unit on a chart, and its value there. */
export interface MeasureSpec {
  label: string;
  /** The chart's axis unit. */
  unit: string;
  /** The figure in the chart's unit (kWh, THB, hours, %); null where it does not apply. */
  value: (figures: StatFigures) => number | null;
  /** The figure as the table shows it. */
  text: (figures: StatFigures) => string;
  /** Sums across split keys (a share does not: it is drawn side by side, never stacked). */
  additive: boolean;
  kind: 'money' | 'number';
}

export const MEASURES: Record<StatMeasure, MeasureSpec> = {
  energyWh: {
    label: 'Energy (kWh)',
    unit: 'kWh',
    value: (f) => f.energyWh / 1000,
    text: (f) => TWO.format(f.energyWh / 1000),
    additive: true,
    kind: 'number',
  },
  revenue: {
    label: 'Revenue (THB)',
    unit: 'THB',
    value: (f) => f.revenue,
    text: (f) => bahtText(f.revenue),
    additive: true,
    kind: 'money',
  },
  sessions: {
    label: 'Sessions',
    unit: 'sessions',
    value: (f) => f.sessions,
    text: (f) => countText(f.sessions),
    additive: true,
    kind: 'number',
  },
  chargingSeconds: {
    label: 'Charging hours',
    unit: 'h',
    value: (f) => f.chargingSeconds / 3600,
    text: (f) => ONE.format(f.chargingSeconds / 3600),
    additive: true,
    kind: 'number',
  },
  idleSeconds: {
    label: 'Idle hours',
    unit: 'h',
    value: (f) => f.idleSeconds / 3600,
    text: (f) => ONE.format(f.idleSeconds / 3600),
    additive: true,
    kind: 'number',
  },
  utilisation: {
    label: 'Utilisation (%)',
    unit: '%',
    value: (f) => (f.utilisation === null ? null : f.utilisation * 100),
    text: (f) => (f.utilisation === null ? '-' : ONE.format(f.utilisation * 100)),
    additive: false,
    kind: 'number',
  },
  discount: {
    label: 'Discount (THB)',
    unit: 'THB',
    value: (f) => f.discount,
    text: (f) => bahtText(f.discount),
    additive: true,
    kind: 'money',
  },
  point: {
    label: 'Green points (THB)',
    unit: 'THB',
    value: (f) => f.point,
    text: (f) => bahtText(f.point),
    additive: true,
    kind: 'money',
  },
  refund: {
    label: 'Refunds (THB)',
    unit: 'THB',
    value: (f) => f.refund,
    text: (f) => bahtText(f.refund),
    additive: true,
    kind: 'money',
  },
};

export const MEASURE_OPTIONS = STAT_MEASURES.map((value) => ({ value, label: MEASURES[value].label }));

/** A number on a chart's axis: 1,250 / 12.5k / 1.2M, so the axis stays narrow on a phone. */
export function axisText(value: number): string {
  const size = Math.abs(value);
  if (size >= 1_000_000) return `${ONE.format(value / 1_000_000)}M`;
  if (size >= 10_000) return `${WHOLE.format(value / 1000)}k`;
  return size >= 100 || Number.isInteger(value) ? WHOLE.format(value) : ONE.format(value);
}

/** A chart value with its unit, as a tooltip shows it. */
export function unitText(value: number | null, unit: string): string {
  if (value === null) return '-';
  if (unit === 'THB') return thbText(value);
  if (unit === 'sessions') return countText(value);
  if (unit === '%' || unit === 'h')
    return `${ONE.format(value)} ${unit === '%' ? '%' : 'h'}`.replace(' %', '%');
  return `${TWO.format(value)} ${unit}`;
}

/** How long a charger has been down at `at`: '2 d 3 h', '3 h 20 min', '12 min'; 'never seen' without a since. */
export function downForText(since: string | null, at: string): string {
  if (since === null) return 'never seen';
  const minutes = Math.max(0, Math.floor((Date.parse(at) - Date.parse(since)) / 60_000));
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return `${hours} h ${String(minutes % 60).padStart(2, '0')} min`;
  return `${Math.floor(hours / 24)} d ${hours % 24} h`;
}
