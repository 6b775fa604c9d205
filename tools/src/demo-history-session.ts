/**
 * One demo charging session as a car would make it on a connector: how long it stays, the energy it takes
 * (never more than the connector's power over that time), the state of charge it leaves with, and when the
 * battery was full. And the seeded random numbers the demo history is drawn from.
 */

export type Random = () => number;

/** mulberry32: small, fast and good enough for demo data; the same seed gives the same numbers. */
export function seeded(seed: number): Random {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** Draws an item by weight (cumulative weights, binary search). */
export function pickerOf<T>(items: readonly T[], weights: readonly number[], random: Random): () => T {
  const cumulative: number[] = [];
  let sum = 0;
  for (const weight of weights) {
    sum += weight;
    cumulative.push(sum);
  }
  return () => {
    const target = random() * sum;
    let [low, high] = [0, cumulative.length - 1];
    while (low < high) {
      const middle = (low + high) >> 1;
      if (cumulative[middle]! > target) high = middle;
      else low = middle + 1;
    }
    return items[low]!;
  };
}

export interface DemoCar {
  /** Charging time, StartTransaction to StopTransaction (ms), 15 minutes to 3 hours. */
  duration: number;
  energyWh: number;
  /** State of charge at the end, %. */
  soc: number;
  /** When the battery was full, ms after the start (null if it never was). */
  fullAfter: number | null;
}

const MINUTE = 60_000;
const HOUR = 3_600_000;
const AC_TYPE = 2;
const BATTERIES_KWH = [40, 51, 60, 64, 77, 82, 100];

/**
 * A session on a connector of that power and type. DC drivers mostly leave at 80 %, some wait for 100 %
 * (the DC-full penalty's case); AC drivers stay longer, often to full. A few cars take nothing at all.
 */
export function sessionOf(connector: { kw: number; connectorTypeId: number }, random: Random): DemoCar {
  const dc = connector.connectorTypeId !== AC_TYPE;
  const battery = BATTERIES_KWH[Math.floor(random() * BATTERIES_KWH.length)]!;
  const startSoc = Math.round(dc ? 10 + random() * 45 : 20 + random() * 50);
  if (random() < 0.008) {
    // The car refused the charge (a fault, a full battery): a short session with no energy.
    return {
      duration: Math.round((15 + random() * 5) * MINUTE),
      energyWh: 0,
      soc: startSoc,
      fullAfter: null,
    };
  }
  const carLimitKw = dc ? 50 + random() * 150 : random() < 0.5 ? 7.4 : 11;
  // DC tapers as the battery fills: its average power is well below the peak.
  const powerKw = Math.min(connector.kw, carLimitKw) * (dc ? 0.65 + random() * 0.2 : 0.92 + random() * 0.05);
  const wanted = (dc ? 15 + random() ** 1.5 * 45 : 45 + random() * 135) * MINUTE;
  const target = dc ? (random() < 0.3 ? 100 : 80) : random() < 0.5 ? 100 : 90;
  const targetKwh = (battery * Math.max(0, target - startSoc)) / 100;
  const toTarget = (targetKwh / powerKw) * HOUR;
  let duration: number;
  let kwh: number;
  let fullAfter: number | null = null;
  if (toTarget <= wanted) {
    kwh = targetKwh;
    // At 100 % the car waits for its driver a little; at 80 % the driver is there to stop it.
    duration = toTarget + (target === 100 ? (1 + random() * 25) * MINUTE : random() * 3 * MINUTE);
    if (target === 100) fullAfter = Math.round(toTarget);
  } else {
    duration = wanted;
    kwh = (powerKw * wanted) / HOUR;
  }
  duration = Math.min(3 * HOUR, Math.max(15 * MINUTE, duration));
  if (fullAfter !== null && fullAfter > duration) fullAfter = null;
  kwh = Math.min(kwh, (powerKw * duration) / HOUR);
  const soc = Math.min(100, Math.round(startSoc + (kwh / battery) * 100));
  return { duration: Math.round(duration), energyWh: Math.round(kwh * 1000), soc, fullAfter };
}
