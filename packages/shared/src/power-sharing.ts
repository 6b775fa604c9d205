/**
 * Sharing a site's power limit among its charging sessions (issue 34): one pure function, called by the server
 * whenever something that changes the shares happens, and by its property tests. Watts, whole numbers.
 *
 * The rule (docs/decisions.md, "Power within a site's limit"):
 * 1. Loads we cannot steer (a charger offline, or one that refused our profile) count at their full power first.
 * 2. Sessions are admitted oldest first, each at its minimum, while the minima fit in what is left; one whose
 *    minimum no longer fits waits at 0 (and is told so), and a younger one with a smaller minimum may still fit.
 * 3. What is left above the minima is shared equally (water-filling): every admitted session rises to the same
 *    level, but none above what it can use: its connector's maximum (capped by its charger's limit), and what the
 *    car draws now when it draws less (a tapering car, one suspended by the car). What one cannot use goes to the
 *    others.
 */

export interface PowerSession {
  /** The caller's key for the session (a booking id, a transaction id). */
  id: string;
  /** When the session started (ms): the youngest wait first when the minima do not fit. */
  startedAt: number;
  /** The most it may get: its connector's maximum power, capped by its charger's own limit. */
  maxW: number;
  /** The least its charger can charge at: AC 6 A per phase, a DC charger's own minimum. */
  minW: number;
  /**
   * What it can use now, when the car takes less than it is given: 0 while the car has suspended charging, a
   * tapering car's draw plus headroom. Absent: as much as it gets. Never lowers it below its minimum, so a
   * suspended car can resume.
   */
  usableW?: number;
}

export interface PowerAllowance {
  id: string;
  /** Watts the session may draw now; 0 while it waits. */
  allowanceW: number;
  /** True when the limit cannot give it even its minimum: it waits at 0 until a share frees. */
  waiting: boolean;
}

const whole = (watts: number) => (Number.isFinite(watts) ? Math.max(0, Math.floor(watts)) : 0);

/**
 * The allowance of each session under a site limit, in the order the sessions were given. The sum of the
 * allowances never exceeds `limitW - fixedW`; nobody gets more than its `maxW`; while the limit gives every
 * session its minimum, nobody gets less.
 */
export function sharePower(limitW: number, sessions: readonly PowerSession[], fixedW = 0): PowerAllowance[] {
  let available = whole(whole(limitW) - whole(fixedW));
  const byAge = [...sessions].sort(
    (a, b) => a.startedAt - b.startedAt || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
  );

  const admitted: { id: string; min: number; cap: number }[] = [];
  const waiting = new Set<string>();
  for (const session of byAge) {
    const max = whole(session.maxW);
    const min = Math.min(whole(session.minW), max);
    if (max === 0 || min > available) {
      waiting.add(session.id);
      continue;
    }
    available -= min;
    const usable = session.usableW === undefined ? max : whole(session.usableW);
    admitted.push({ id: session.id, min, cap: Math.min(max, Math.max(min, usable)) });
  }

  // Water-filling above the minima: raise a common level until the extra is used or everyone is at its cap.
  const level = waterLevel(admitted, available);
  const allowance = new Map<string, number>();
  for (const session of admitted) {
    allowance.set(session.id, Math.floor(Math.min(session.cap, Math.max(session.min, level))));
  }
  return sessions.map(({ id }) => ({
    id,
    allowanceW: allowance.get(id) ?? 0,
    waiting: waiting.has(id) || !allowance.has(id),
  }));
}

/**
 * The level L such that Σ min(cap, max(min, L)) − Σ min = extra, or +∞ when every cap fits. Each session's
 * share grows with L from its min to its cap; walking the breakpoints in order keeps it exact.
 */
function waterLevel(sessions: readonly { min: number; cap: number }[], extra: number): number {
  const headroom = sessions.reduce((sum, session) => sum + (session.cap - session.min), 0);
  if (headroom <= extra) return Number.POSITIVE_INFINITY;
  const points = [...new Set(sessions.flatMap((session) => [session.min, session.cap]))].sort(
    (a, b) => a - b,
  );
  const used = (level: number) =>
    sessions.reduce((sum, s) => sum + Math.min(s.cap, Math.max(s.min, level)) - s.min, 0);
  let low = points[0] ?? 0;
  for (const point of points) {
    if (used(point) >= extra) break;
    low = point;
  }
  // Between `low` and the next breakpoint the use grows linearly with the number of sessions rising there.
  const rising = sessions.filter((s) => s.min <= low && s.cap > low).length;
  return rising === 0 ? low : low + (extra - used(low)) / rising;
}

/**
 * A tapering car (issue 34 §2: "what a session does not use goes to the others"): what a session can use,
 * judged from what its car drew lately against the allowance it has now. Stateless, with a band between the
 * two thresholds, so a car drawing steadily below its allowance settles after one step instead of swinging:
 * - drawing at least RELEASE of its allowance, the car may want more: undefined (as much as the share gives);
 * - between REDUCE and RELEASE: its allowance as it is (held; it still rises no further);
 * - at most REDUCE: its draw plus headroom (HEADROOM times it, and at least MARGIN_W more, rounded up to
 *   STEP_W), when that frees at least MARGIN_W; the draw after the step is then within the band.
 * A car that draws more again crosses RELEASE and gets the whole share back at the next decision.
 */
export const TAPER = { RELEASE: 0.9, REDUCE: 0.8, HEADROOM: 1.15, MARGIN_W: 1000, STEP_W: 500 } as const;

export function usableFromDraw(drawW: number, allowanceW: number): number | undefined {
  if (!Number.isFinite(drawW) || !Number.isFinite(allowanceW) || allowanceW <= 0 || drawW < 0)
    return undefined;
  if (drawW >= TAPER.RELEASE * allowanceW) return undefined;
  if (drawW > TAPER.REDUCE * allowanceW) return Math.floor(allowanceW);
  const headroom = Math.ceil((drawW * TAPER.HEADROOM) / TAPER.STEP_W) * TAPER.STEP_W;
  const usable = Math.max(headroom, Math.ceil(drawW) + TAPER.MARGIN_W);
  return usable <= allowanceW - TAPER.MARGIN_W ? usable : Math.floor(allowanceW);
}

/** How a charger is told its allowance: amperes per phase on AC where the site gives phases and voltage. */
export interface PowerUnit {
  unit: 'W' | 'A';
  phases?: number;
  voltage?: number;
}

/** The charging-profile limit for an allowance: watts, or amperes per phase rounded down to 0.1 A. */
export function profileLimit(allowanceW: number, { unit, phases = 3, voltage = 230 }: PowerUnit): number {
  if (unit === 'W') return whole(allowanceW);
  return Math.floor((whole(allowanceW) / (phases * voltage)) * 10) / 10;
}

/** The least an AC session can charge at: 6 A on each phase (IEC 61851). */
export const AC_MIN_AMPS = 6;

export const acMinimumW = (phases: number, voltage: number) => AC_MIN_AMPS * phases * voltage;
