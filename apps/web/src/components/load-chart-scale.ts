/**
 * The arithmetic of the load chart (load-chart.tsx), apart so it can be tested without a browser: nice kW
 * ticks, clock-aligned time ticks in Bangkok, the line's path and the sentence a screen reader hears.
 */

export interface LoadPoint {
  /** The minute's start (ISO 8601). */
  at: string;
  kw: number;
}

const MINUTE = 60_000;

const BANGKOK_TIME = new Intl.DateTimeFormat('en-GB', {
  timeZone: 'Asia/Bangkok',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
});

/** 24-hour clock time in Bangkok ('14:05'), whatever the browser's zone. */
export const bangkokTime = (at: number | string | Date) => BANGKOK_TIME.format(new Date(at));

const KW_TEXT = new Intl.NumberFormat('en-US', { maximumFractionDigits: 2 });
/** kW as the chart writes it: thousands separators, up to 2 decimals, no padding ('1,250.5'). */
export const kwText = (kw: number) => KW_TEXT.format(kw);

/**
 * Ticks from 0 to at least `max` at a 'nice' step (1, 2, 2.5 or 5 times a power of ten), about `count` of
 * them: 0, 25, 50, 75, 100, 125 for 110.
 */
export function kwTicks(max: number, count = 5): number[] {
  const top = Number.isFinite(max) && max > 0 ? max : 1;
  const rough = top / count;
  const power = 10 ** Math.floor(Math.log10(rough));
  const step = ([1, 2, 2.5, 5, 10].find((factor) => factor * power >= rough) ?? 10) * power;
  const last = Math.ceil(Number((top / step).toFixed(6)));
  // Rounded to the step's decimals: 0.1 * 3 is 0.30000000000000004.
  return Array.from({ length: last + 1 }, (_, index) => Number((index * step).toFixed(6)));
}

/**
 * Clock-aligned ticks (every `everyMinutes` minutes on the Bangkok clock, which is UTC+7 all year, so on the
 * UTC clock too) within [from, to], epoch ms.
 */
export function timeTicks(from: number, to: number, everyMinutes: number): number[] {
  const every = everyMinutes * MINUTE;
  const ticks: number[] = [];
  for (let at = Math.ceil(from / every) * every; at <= to; at += every) ticks.push(at);
  return ticks;
}

/** A scale from a domain to a range of pixels (a degenerate domain maps to the range's start). */
export function linear(domain: [number, number], range: [number, number]) {
  const [d0, d1] = domain;
  const [r0, r1] = range;
  const span = d1 - d0;
  return (value: number) => (span === 0 ? r0 : r0 + ((value - d0) / span) * (r1 - r0));
}

/** The SVG path through the points, in order ('M x y L x y …'), two decimals; '' for none. */
export function linePath(points: ReadonlyArray<{ x: number; y: number }>): string {
  return points
    .map(({ x, y }, index) => `${index === 0 ? 'M' : 'L'}${x.toFixed(2)} ${y.toFixed(2)}`)
    .join(' ');
}

/** True when the hour holds no reading above 0: the chart shows its empty state. */
export const noReadings = (points: readonly LoadPoint[]) => !points.some((point) => point.kw > 0);

/**
 * What the chart says to a screen reader: now against the limit, and the hour's peak.
 * 'Site power over the last hour: now 42.5 kW of a 100 kW limit (43%); peak 80 kW at 14:05.'
 */
export function loadSummary(points: readonly LoadPoint[], limitKw: number | null): string {
  const limit = limitKw === null ? 'no limit' : `a ${kwText(limitKw)} kW limit`;
  if (noReadings(points)) return `Site power over the last hour: no power readings; ${limit}.`;
  const now = points.at(-1)?.kw ?? 0;
  const share = limitKw ? ` (${Math.round((now / limitKw) * 100)}%)` : '';
  const peak = points.reduce((best, point) => (point.kw > best.kw ? point : best));
  return `Site power over the last hour: now ${kwText(now)} kW of ${limit}${share}; peak ${kwText(peak.kw)} kW at ${bangkokTime(peak.at)}.`;
}
