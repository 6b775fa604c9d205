/**
 * The price of one charging session in integer satang (spec document 3, section 4), from the plan as it was
 * when the session started and the facts of the session. The server, the booking list's live estimate, the
 * report (up to a million rows) and the web app all call it: pure, no clock, no per-minute loop (the work is
 * per window segment), and each part is rounded once, half up, from an exact integer.
 */

import { BANGKOK_OFFSET_MS } from './dates.ts';
import { toSatang } from './money.ts';
import { minutesOf, wallMinutesOf } from './price-rules.ts';

/** The plan as it was when the session started: the price API's field names, baht as numbers (≤ 2 decimals). */
export interface PlanSnapshot {
  method: 'HOUR' | 'KW';
  /** null behaves as BAHT_HRS. */
  calculateMethod: 'BAHT_HRS' | 'BAHT_MIN' | null;
  bahtPerKwh: number;
  bahtPerHour: number;
  penaltyBahtPerMin: number;
  penaltyDCFullBahtPerMin: number;
  penaltyDCFullDelayMin: number;
  /** dayOfWeek 1 = Sunday … 7 = Saturday; HH:mm Bangkok times, both minutes included. */
  overrideWeekdays: {
    dayOfWeek: number;
    validTimeFrom: string;
    validTimeTo: string;
    bahtPerKwh: number;
    bahtPerHour: number;
  }[];
  /** 'YYYY-MM-DD HH:mm' Bangkok wall time, both minutes included. */
  overrides: { validFrom: string; validTo: string; bahtPerKwh: number; bahtPerHour: number }[];
}
/** The meter register: energy delivered since the session started (Wh, >= 0) at an instant (epoch ms). */
export interface EnergySample {
  at: number;
  wh: number;
}
export interface SessionFacts {
  /** Epoch ms of StartTransaction; null = never charged, every part 0. */
  startTime: number | null;
  /** Epoch ms of StopTransaction or a force stop; null = still charging. */
  stopTime: number | null;
  /** Epoch ms the connector was Available again (cable removed) or the staff's 'Avaliable'. */
  avaliableAt: number | null;
  /** Epoch ms the battery was full. */
  fullAt: number | null;
  /** Total energy of the session, whole Wh. */
  energyWh: number;
  /** Ascending; splits the energy between price windows. */
  samples?: EnergySample[];
  /** 4 = CCS2 (DC): only it pays the DC-full penalty. */
  connectorTypeId: number;
}
/** Baht; a part replaced when not null, the total when adminAmount is not null. */
export interface AdminOverrides {
  priceByPower?: number | null;
  priceByDuration?: number | null;
  priceByPenalty?: number | null;
  adminAmount?: number | null;
}
export interface PriceBreakdown {
  /** Satang as the rules give them; byPenalty = overstay + dcFull. */
  computed: { byPower: number; byDuration: number; byPenalty: number; overstay: number; dcFull: number };
  /** Satang after the admin's part overrides. */
  byPower: number;
  byDuration: number;
  byPenalty: number;
  /** byPower + byDuration + byPenalty. */
  partsTotal: number;
  /** Satang: adminAmount when set, else partsTotal. */
  total: number;
  /** What was counted, for the tooltip: hours or minutes by the calculate method (null when not billed by time). */
  billed: {
    hours: number | null;
    minutes: number | null;
    overstayMinutes: number;
    dcFullMinutes: number;
    kwh: number;
  };
}

const MINUTE = 60_000;
const HOUR = 3_600_000;
const DAY = 86_400_000;
const BANGKOK = BANGKOK_OFFSET_MS;
const GRACE = 10 * MINUTE;
const OVERSTAY_ALLOWANCE = 5 * MINUTE;
const DC_CONNECTOR_TYPE = 4;

/** Satang per kWh and per hour. */
interface Rates {
  kwh: number;
  hour: number;
}
/** [from, to) in epoch ms for a dated window, in ms of the local day for a weekly one. */
interface RateWindow {
  from: number;
  to: number;
  rates: Rates;
}
interface Plan {
  byTime: boolean;
  byEnergy: boolean;
  perHour: boolean;
  base: Rates;
  /** Index 0 = Sunday. */
  weekly: RateWindow[][];
  dated: RateWindow[];
  overstay: number;
  dcFull: number;
  dcDelay: number;
}
interface Segment {
  from: number;
  to: number;
  rates: Rates;
}

const fail = (message: string): never => {
  throw new RangeError(message);
};
const mod = (value: number, by: number) => ((value % by) + by) % by;

/** Satang of a plan or admin amount; NaN, negative or more than 2 decimals are refused. */
function satangOf(value: unknown, field: string): number {
  if (typeof value !== 'number' || !(value >= 0))
    return fail(`${field} must be a baht amount of 0 or more: ${String(value)}`);
  // The report prices a million rows: skip toSatang's text parsing when the number is plainly k / 100 (the
  // same amounts it accepts, to the satang).
  const satang = Math.round(value * 100);
  if (Number.isSafeInteger(satang) && satang / 100 === value) return satang;
  try {
    return toSatang(value);
  } catch {
    return fail(`${field} must be a baht amount with at most 2 decimals: ${String(value)}`);
  }
}
function wholeOf(value: unknown, field: string): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) {
    return fail(`${field} must be a whole number of 0 or more: ${String(value)}`);
  }
  return value;
}
function instantOf(value: unknown, field: string): number | null {
  if (value === null || value === undefined) return null;
  if (typeof value !== 'number' || !Number.isSafeInteger(value))
    return fail(`${field} must be epoch milliseconds: ${String(value)}`);
  return value;
}

/** RateWindow times recur on every row of a report: parse each text once (a bounded memo of a pure function). */
function memo(parse: (text: string) => number): (text: string) => number {
  const parsed = new Map<string, number>();
  return (text) => {
    let value = parsed.get(text);
    if (value === undefined) {
      if (parsed.size >= 10_000) parsed.clear();
      value = parse(text);
      parsed.set(text, value);
    }
    return value;
  };
}
const timeOfDay = memo(minutesOf);
const wallTime = memo(wallMinutesOf);

function readPlan(plan: PlanSnapshot): Plan {
  if (plan.method !== 'HOUR' && plan.method !== 'KW')
    fail(`plan.method must be HOUR or KW: ${String(plan.method)}`);
  const calculate = plan.calculateMethod ?? 'BAHT_HRS';
  if (calculate !== 'BAHT_HRS' && calculate !== 'BAHT_MIN')
    fail(`plan.calculateMethod is unknown: ${String(calculate)}`);
  const ratesOf = (row: { bahtPerKwh: number; bahtPerHour: number }, at: string): Rates => ({
    kwh: satangOf(row.bahtPerKwh, `${at}.bahtPerKwh`),
    hour: satangOf(row.bahtPerHour, `${at}.bahtPerHour`),
  });
  const weekly: RateWindow[][] = [[], [], [], [], [], [], []];
  (plan.overrideWeekdays ?? []).forEach((row, index) => {
    const at = `plan.overrideWeekdays[${index}]`;
    const from = timeOfDay(row.validTimeFrom);
    const to = timeOfDay(row.validTimeTo);
    if (!Number.isInteger(row.dayOfWeek) || row.dayOfWeek < 1 || row.dayOfWeek > 7)
      fail(`${at}.dayOfWeek must be 1 to 7`);
    if (!(from <= to)) fail(`${at} must run from HH:mm to a later or equal HH:mm`);
    weekly[row.dayOfWeek - 1]!.push({ from: from * MINUTE, to: (to + 1) * MINUTE, rates: ratesOf(row, at) });
  });
  const dated = (plan.overrides ?? []).map((row, index): RateWindow => {
    const at = `plan.overrides[${index}]`;
    const from = wallTime(row.validFrom);
    const to = wallTime(row.validTo);
    if (!(from <= to)) fail(`${at} must run from YYYY-MM-DD HH:mm to a later or equal one`);
    return { from: from * MINUTE - BANGKOK, to: (to + 1) * MINUTE - BANGKOK, rates: ratesOf(row, at) };
  });
  return {
    byTime: plan.method !== 'KW',
    byEnergy: plan.method !== 'HOUR',
    perHour: calculate === 'BAHT_HRS',
    base: ratesOf(plan, 'plan'),
    weekly,
    dated,
    overstay: satangOf(plan.penaltyBahtPerMin, 'plan.penaltyBahtPerMin'),
    dcFull: satangOf(plan.penaltyDCFullBahtPerMin, 'plan.penaltyDCFullBahtPerMin'),
    dcDelay: wholeOf(plan.penaltyDCFullDelayMin, 'plan.penaltyDCFullDelayMin') * MINUTE,
  };
}

/**
 * [from, to) cut where the rates in force change: a dated window covering an instant beats a weekly one, which
 * beats the base rates; within a kind the first listed window covering it wins.
 */
function timeline(plan: Plan, from: number, to: number): Segment[] {
  const segments: Segment[] = [];
  const windowed = plan.dated.length > 0 || plan.weekly.some((day) => day.length > 0);
  let at = from;
  while (at < to) {
    const dayStart = at - mod(at + BANGKOK, DAY);
    let next = windowed ? dayStart + DAY : to;
    const covering = (windows: RateWindow[], shift: number) => {
      let found: Rates | undefined;
      for (const window of windows) {
        const start = window.from + shift;
        const end = window.to + shift;
        if (start > at) next = Math.min(next, start);
        else if (end > at) {
          next = Math.min(next, end);
          found ??= window.rates;
        }
      }
      return found;
    };
    // 1970-01-01 was a Thursday (index 4 with Sunday = 0).
    const weekday = mod(Math.floor((dayStart + BANGKOK) / DAY) + 4, 7);
    const dated = covering(plan.dated, 0);
    const weekly = covering(plan.weekly[weekday]!, dayStart);
    const rates = dated ?? weekly ?? plan.base;
    const end = Math.min(next, to);
    const last = segments.at(-1);
    if (last && last.rates === rates) last.to = end;
    else segments.push({ from: at, to: end, rates });
    at = end;
  }
  return segments;
}

/** floor(n / d) and its remainder, exact for safe integers (d > 0). */
function floorDiv(n: number, d: number): [number, number] {
  let q = Math.floor(n / d);
  let r = n - q * d;
  if (r < 0) [q, r] = [q - 1, r + d];
  else if (r >= d) [q, r] = [q + 1, r - d];
  return [q, r];
}
const ceilDiv = (n: number, d: number) => -floorDiv(-n, d)[0];

/** Σ a·b of non-negative integers, exact: a number while every partial result is safe, else a BigInt. */
function dot(terms: [number, number][]): number | bigint {
  let sum = 0;
  for (const [a, b] of terms) {
    sum += a * b;
    if (!Number.isSafeInteger(sum)) return terms.reduce((big, [x, y]) => big + BigInt(x) * BigInt(y), 0n);
  }
  return sum;
}
/** n / d rounded half up, n >= 0. */
function halfUp(n: number | bigint, d: number, part: string): number {
  if (typeof n === 'number') {
    const [q, r] = floorDiv(n, d);
    return 2 * r >= d ? q + 1 : q;
  }
  const result = Number((2n * n + BigInt(d)) / (2n * BigInt(d)));
  return Number.isSafeInteger(result) ? result : fail(`${part} is out of range`);
}
function times(count: number, satang: number, part: string): number {
  const result = count * satang;
  return Number.isSafeInteger(result) ? result : fail(`${part} is out of range`);
}

/** The meter curve from (start, 0) to (end, energy): samples in between, never falling, never above the total. */
function curve(samples: EnergySample[], start: number, end: number, energy: number) {
  const points = [{ at: start, wh: 0 }];
  const sorted = samples.every((sample, index) => index === 0 || samples[index - 1]!.at <= sample.at)
    ? samples
    : [...samples].sort((a, b) => a.at - b.at);
  let top = 0;
  for (const sample of sorted) {
    if (sample.at <= start || sample.at >= end) continue;
    // The samples only split the total between windows: whole Wh are enough.
    top = Math.min(energy, Math.max(top, Math.round(sample.wh)));
    const last = points.at(-1)!;
    if (last.at === sample.at) last.wh = top;
    else points.push({ at: sample.at, wh: top });
  }
  points.push({ at: end, wh: energy });
  return points;
}

/**
 * Whole Wh delivered under each kWh rate, summing to the energy exactly. The rates' exact energies are
 * accumulated dearest first and each running total floored: one more Wh raises every running total by at most
 * one, so each Wh a rate loses is matched by one gained at a dearer rate and the price never falls. Rounding
 * each window's share alone, or in time order, could move a Wh from a dear hour to a cheap one.
 */
function splitEnergy(
  segments: Segment[],
  end: number,
  curveOf: () => { at: number; wh: number }[],
  energy: number,
): [number, number][] {
  // Charging that took no time delivered its energy at the rate in force when it started.
  const runs = [{ from: segments[0]!.from, kwh: segments[0]!.rates.kwh }];
  for (const segment of segments) {
    if (segment.from < end && runs.at(-1)!.kwh !== segment.rates.kwh) {
      runs.push({ from: segment.from, kwh: segment.rates.kwh });
    }
  }
  if (runs.length === 1) return [[runs[0]!.kwh, energy]];
  const rates = [...new Set(runs.map((run) => run.kwh))].sort((a, b) => b - a);
  const points = curveOf();
  // The energy at each edge between runs: whole + remainder / span of its stretch of the curve.
  let k = 0;
  const edges = runs.slice(1).map((run) => {
    while (points[k + 1]!.at <= run.from) k++;
    const [a, b] = [points[k]!, points[k + 1]!];
    const span = b.at - a.at;
    const [q, r] = mulDivFloor(b.wh - a.wh, run.from - a.at, span);
    return { whole: a.wh + q, rest: r, span };
  });
  const rank = runs.map((run) => rates.indexOf(run.kwh));
  const shares: [number, number][] = [];
  let before = 0;
  rates.forEach((rate, g) => {
    let cumulative = energy;
    if (g < rates.length - 1) {
      // Energy under the g + 1 dearest rates: telescoped over the edges where a run enters or leaves them.
      cumulative = rank.at(-1)! <= g ? energy : 0;
      const rests = new Map<number, number>();
      edges.forEach((edge, index) => {
        const sign = Number(rank[index]! <= g) - Number(rank[index + 1]! <= g);
        if (sign === 0) return;
        cumulative += sign * edge.whole;
        rests.set(edge.span, (rests.get(edge.span) ?? 0) + sign * edge.rest);
      });
      cumulative += floorOfFractions(rests);
    }
    shares.push([rate, cumulative - before]);
    before = cumulative;
  });
  return shares;
}
function mulDivFloor(a: number, b: number, d: number): [number, number] {
  if (Number.isSafeInteger(a * b)) return floorDiv(a * b, d);
  const [n, big] = [BigInt(a) * BigInt(b), BigInt(d)];
  return [Number(n / big), Number(n % big)];
}
/** floor(Σ numerator / denominator) over a map denominator -> numerator, exact. */
function floorOfFractions(fractions: Map<number, number>): number {
  const entries = [...fractions].filter(([, n]) => n !== 0);
  if (entries.length === 0) return 0;
  if (entries.length === 1) return floorDiv(entries[0]![1], entries[0]![0])[0];
  let [num, den] = [0n, 1n];
  for (const [d, n] of entries) [num, den] = [num * BigInt(d) + BigInt(n) * den, den * BigInt(d)];
  const q = num / den;
  return Number(num < 0n && q * den !== num ? q - 1n : q);
}

function parts(plan: Plan, facts: SessionFacts, now: number | null) {
  const start = instantOf(facts.startTime, 'facts.startTime');
  const stop = instantOf(facts.stopTime, 'facts.stopTime');
  const available = instantOf(facts.avaliableAt, 'facts.avaliableAt');
  const full = instantOf(facts.fullAt, 'facts.fullAt');
  const energy = wholeOf(facts.energyWh, 'facts.energyWh');
  const samples = facts.samples ?? [];
  for (let index = 0; index < samples.length; index++) {
    const { at, wh } = samples[index]!;
    if (!Number.isSafeInteger(at) || !(wh >= 0) || !Number.isFinite(wh)) {
      fail(`facts.samples[${index}] must have epoch milliseconds and a finite wh of 0 or more`);
    }
  }
  if (start === null) {
    const computed = { byPower: 0, byDuration: 0, byPenalty: 0, overstay: 0, dcFull: 0 };
    return { computed, billed: { hours: null, minutes: null, overstayMinutes: 0, dcFullMinutes: 0, kwh: 0 } };
  }

  const end = stop ?? now ?? start;
  const duration = Math.max(0, end - start);
  const hours = plan.byTime && plan.perHour ? Math.max(1, ceilDiv(duration - GRACE, HOUR)) : null;
  const minutes = plan.byTime && !plan.perHour ? ceilDiv(duration, MINUTE) : null;
  const billedEnd = start + (hours ?? 0) * HOUR + (minutes ?? 0) * MINUTE;
  // One pass over the windows for both the billed span and the charging span (at least 1 ms: the rate at start).
  const segments = timeline(plan, start, Math.max(billedEnd, end, start + 1));

  const timeTerms: [number, number][] = [];
  for (const { from, to, rates } of segments) {
    if (from < billedEnd) timeTerms.push([rates.hour, Math.min(to, billedEnd) - from]);
  }
  const byDuration = plan.byTime ? halfUp(dot(timeTerms), HOUR, 'byDuration') : 0;
  const byPower =
    plan.byEnergy && energy > 0
      ? halfUp(
          dot(splitEnergy(segments, end, () => curve(samples, start, end, energy), energy)),
          1000,
          'byPower',
        )
      : 0;

  const back = stop === null ? null : (available ?? now);
  const overstayMinutes =
    stop !== null && back !== null ? Math.max(0, ceilDiv(back - stop - OVERSTAY_ALLOWANCE, MINUTE)) : 0;
  const dcFullMinutes =
    facts.connectorTypeId === DC_CONNECTOR_TYPE && full !== null
      ? Math.max(0, ceilDiv(end - full - plan.dcDelay, MINUTE))
      : 0;
  const overstay = times(overstayMinutes, plan.overstay, 'overstay');
  const dcFull = times(dcFullMinutes, plan.dcFull, 'dcFull');
  return {
    computed: { byPower, byDuration, byPenalty: overstay + dcFull, overstay, dcFull },
    billed: { hours, minutes, overstayMinutes, dcFullMinutes, kwh: energy / 1000 },
  };
}

/** Satang of an admin amount in baht, or null when not set. */
const adminSatang = (value: number | null | undefined, field: string) =>
  value === null || value === undefined ? null : satangOf(value, field);

/**
 * Prices a session. `now` only feeds a live estimate: while stopTime is null charging runs to now (else to
 * startTime), and while avaliableAt is null after a stop the overstay runs to now (else there is none).
 */
export function priceSession(
  plan: PlanSnapshot,
  facts: SessionFacts,
  options: { now?: number; overrides?: AdminOverrides } = {},
): PriceBreakdown {
  const now = instantOf(options.now, 'options.now');
  const { computed, billed } = parts(readPlan(plan), facts, now);
  const overrides = options.overrides ?? {};
  const byPower = adminSatang(overrides.priceByPower, 'priceByPower') ?? computed.byPower;
  const byDuration = adminSatang(overrides.priceByDuration, 'priceByDuration') ?? computed.byDuration;
  const byPenalty = adminSatang(overrides.priceByPenalty, 'priceByPenalty') ?? computed.byPenalty;
  const partsTotal = byPower + byDuration + byPenalty;
  const total = adminSatang(overrides.adminAmount, 'adminAmount') ?? partsTotal;
  return { computed, byPower, byDuration, byPenalty, partsTotal, total, billed };
}

/** The total in satang of parts in satang, or of adminAmount (baht, as on the booking) when it is set. */
export function totalOf(
  parts: { byPower: number; byDuration: number; byPenalty: number },
  adminAmount?: number | null,
): number {
  const admin = adminSatang(adminAmount, 'adminAmount');
  if (admin !== null) return admin;
  return (
    wholeOf(parts.byPower, 'byPower') +
    wholeOf(parts.byDuration, 'byDuration') +
    wholeOf(parts.byPenalty, 'byPenalty')
  );
}

/** A discount code's terms (its promotion's): a percent (2 decimals) and a baht amount. */
export interface DiscountTerms {
  discountPercent: number;
  discountBaht: number;
}

/**
 * What a discount code takes off a total (satang): the percent of it, rounded down to the satang, capped at
 * the baht amount when that is above 0; with 0 % the baht amount itself. Never more than the total.
 */
export function discountSatang(totalSatang: number, terms: DiscountTerms): number {
  const total = wholeOf(totalSatang, 'totalSatang');
  const percent = satangOf(terms.discountPercent, 'discountPercent');
  if (percent > 10_000) return fail(`discountPercent must be at most 100: ${terms.discountPercent}`);
  const cap = satangOf(terms.discountBaht, 'discountBaht');
  const off = percent === 0 ? cap : Math.floor((total * percent) / 10_000);
  return Math.min(total, percent > 0 && cap > 0 ? Math.min(off, cap) : off);
}

/** The amount owed after the adjustments, in satang: what a payment charges, and how it was made up. */
export interface AmountOwed {
  /** The booking's total before them: adminAmount when set, else the parts. */
  gross: number;
  /** Taken off by the booking's discount code. */
  discount: number;
  /** Taken off by the green points the member redeems. */
  point: number;
  /** gross - discount - point: what is charged. */
  total: number;
}

/**
 * The one place a total meets its adjustments: the discount comes off first, then the points' worth
 * (`pointSatang`, from redeemSatang). Points worth more than what is left after the discount are a
 * RangeError: the caller refuses them, never takes fewer than the member asked.
 */
export function amountOwed(
  grossSatang: number,
  adjustments: { discount?: DiscountTerms | null; pointSatang?: number } = {},
): AmountOwed {
  const gross = wholeOf(grossSatang, 'grossSatang');
  const discount = adjustments.discount ? discountSatang(gross, adjustments.discount) : 0;
  const point = wholeOf(adjustments.pointSatang ?? 0, 'pointSatang');
  if (point > gross - discount)
    return fail(`The points are worth more than the ${gross - discount} satang owed: ${point}`);
  return { gross, discount, point, total: gross - discount - point };
}
