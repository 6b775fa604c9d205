/**
 * The charging profiles a simulated charger obeys (issue 34 §3), whatever its protocol: the wires turn 1.6's
 * `csChargingProfiles` and 2.0.1's `chargingProfile` into a `SimulatedProfile` (1.6's words: 2.0.1's
 * ChargingStationMaxProfile is ChargePointMaxProfile here, its EVSE a connector), and this file alone decides
 * what they allow (docs/ocpp.md, Simulator; docs/decisions.md, "Simulated charging profiles"):
 *
 * - A profile is in force from its validFrom to its validTo, and its schedule from its start (Absolute: its
 *   startSchedule, else when the charger got it; Relative: the transaction's start; Recurring: the last daily or
 *   weekly return of its startSchedule) for its duration (none: for ever). The period in force is the last whose
 *   startPeriod (s) has passed; before the first, the profile sets nothing.
 * - Limits in 'W' are watts; in 'A' amperes per phase: × numberPhases (default 3) × 230 V.
 * - Within a purpose the highest stackLevel in force wins. A connector's TxDefaultProfile beats one on connector 0.
 * - A connector may draw the least of (its TxProfile, bound to the transaction running, if there is one; else its
 *   TxDefaultProfile) and the ChargePointMaxProfile. The max profile is the charger's as a whole: when its
 *   connectors together would draw more, they share it equally, none above what it would draw
 *   (`deliveredW`).
 * - A TxProfile ends with its transaction.
 */

export type ProfilePurpose = 'ChargePointMaxProfile' | 'TxDefaultProfile' | 'TxProfile';

export interface SchedulePeriod {
  /** Seconds from the schedule's start. */
  startPeriod: number;
  limit: number;
  numberPhases?: number;
}

export interface SimulatedProfile {
  id: number;
  /** 0: the charger as a whole (1.6 connectorId 0, 2.0.1 evseId 0); else the connector (2.0.1: EVSE). */
  connectorId: number;
  stackLevel: number;
  purpose: ProfilePurpose;
  kind: 'Absolute' | 'Recurring' | 'Relative';
  recurrencyKind?: 'Daily' | 'Weekly';
  /** ms, the charger's clock. */
  validFrom?: number;
  validTo?: number;
  /** A TxProfile's transaction (1.6: the server's number; 2.0.1: the charger's string); none: the one running. */
  transactionId?: number | string;
  schedule: {
    /** ms. */
    startSchedule?: number;
    /** Seconds. */
    duration?: number;
    unit: 'W' | 'A';
    periods: SchedulePeriod[];
  };
  /** When the charger got it (ms): an Absolute schedule without a start starts then. */
  receivedAt: number;
}

/**
 * What SetChargingProfile carries under the same names in 1.6 (csChargingProfiles) and 2.0.1 (chargingProfile):
 * the wires differ in the profile's id, purpose, connector (EVSE), transaction id type and how many schedules.
 */
export interface WireProfile {
  stackLevel: number;
  chargingProfileKind: SimulatedProfile['kind'];
  recurrencyKind?: 'Daily' | 'Weekly';
  validFrom?: string;
  validTo?: string;
  /** 1.6: the server's number; 2.0.1: the charger's string. */
  transactionId?: number | string;
}

/** A ChargingSchedule, the same in 1.6 and 2.0.1 (times ISO 8601, durations in seconds). */
export interface WireSchedule {
  startSchedule?: string;
  duration?: number;
  chargingRateUnit: 'A' | 'W';
  chargingSchedulePeriod: SchedulePeriod[];
}

const msOf = (iso: string) => Date.parse(iso);

/**
 * A received profile in the core's terms, from the fields both wires name alike (`wire`) and those each wire names
 * its own way, already in 1.6's words (`as`: its id, connector, purpose, the schedule it obeys, when it came).
 * It only translates: what a charger refuses is `ChargerCore.setChargingProfile`'s to decide.
 */
export function simulatedProfile(
  wire: WireProfile,
  as: {
    id: number;
    connectorId: number;
    purpose: ProfilePurpose;
    schedule: WireSchedule;
    receivedAt: number;
  },
): SimulatedProfile {
  const { schedule } = as;
  return {
    id: as.id,
    connectorId: as.connectorId,
    stackLevel: wire.stackLevel,
    purpose: as.purpose,
    kind: wire.chargingProfileKind,
    ...(wire.recurrencyKind ? { recurrencyKind: wire.recurrencyKind } : {}),
    ...(wire.validFrom ? { validFrom: msOf(wire.validFrom) } : {}),
    ...(wire.validTo ? { validTo: msOf(wire.validTo) } : {}),
    ...(wire.transactionId === undefined ? {} : { transactionId: wire.transactionId }),
    schedule: {
      ...(schedule.startSchedule ? { startSchedule: msOf(schedule.startSchedule) } : {}),
      ...(schedule.duration === undefined ? {} : { duration: schedule.duration }),
      unit: schedule.chargingRateUnit,
      periods: schedule.chargingSchedulePeriod,
    },
    receivedAt: as.receivedAt,
  };
}

/** The voltage per phase the simulated chargers convert amperes at. */
export const PROFILE_VOLTAGE = 230;
/** The phases of a period in amperes that names none. */
export const DEFAULT_PHASES = 3;
/** The highest stackLevel a simulated charger takes (1.6 ChargeProfileMaxStackLevel, 2.0.1 ProfileStackLevel). */
export const MAX_STACK_LEVEL = 8;
/** The most periods a schedule may have (1.6 ChargingScheduleMaxPeriods, 2.0.1 PeriodsPerSchedule). */
export const MAX_PERIODS = 24;

const DAY_MS = 86_400_000;

/** A period's limit in watts. */
export const periodWatts = (period: SchedulePeriod, unit: 'W' | 'A'): number =>
  unit === 'W' ? period.limit : period.limit * (period.numberPhases ?? DEFAULT_PHASES) * PROFILE_VOLTAGE;

/** The running transaction of a connector, for Relative schedules and TxProfiles. */
export interface RunningTransaction {
  id: number | string;
  /** ms, the charger's clock. */
  startedAt: number;
}

/** The limit (W) a profile sets at `now`, or null when it sets none (not valid, not started, past its duration). */
export function limitAt(
  profile: SimulatedProfile,
  now: number,
  transaction: RunningTransaction | null,
): number | null {
  if (profile.validFrom !== undefined && now < profile.validFrom) return null;
  if (profile.validTo !== undefined && now >= profile.validTo) return null;
  const { schedule } = profile;
  let start: number;
  switch (profile.kind) {
    case 'Relative':
      start = transaction?.startedAt ?? profile.receivedAt;
      break;
    case 'Recurring': {
      const base = schedule.startSchedule ?? profile.receivedAt;
      const every = profile.recurrencyKind === 'Weekly' ? 7 * DAY_MS : DAY_MS;
      start = now >= base ? base + Math.floor((now - base) / every) * every : base;
      break;
    }
    default:
      start = schedule.startSchedule ?? profile.receivedAt;
  }
  const elapsedS = (now - start) / 1000;
  if (elapsedS < 0) return null;
  if (schedule.duration !== undefined && elapsedS >= schedule.duration) return null;
  let current: SchedulePeriod | null = null;
  for (const period of schedule.periods) {
    if (period.startPeriod <= elapsedS && (!current || period.startPeriod >= current.startPeriod))
      current = period;
  }
  return current ? Math.max(0, periodWatts(current, schedule.unit)) : null;
}

/** Which profiles ClearChargingProfile names: an id, or any of connector, purpose and stack level (none: all). */
export interface ClearCriteria {
  id?: number;
  connectorId?: number;
  purpose?: string;
  stackLevel?: number;
}

/** A charger's installed profiles, and what they allow. */
export class ChargingProfiles {
  private readonly byId = new Map<number, SimulatedProfile>();

  get size(): number {
    return this.byId.size;
  }

  get(id: number): SimulatedProfile | undefined {
    return this.byId.get(id);
  }

  list(): SimulatedProfile[] {
    return [...this.byId.values()];
  }

  /**
   * Installs a profile: it replaces one of the same id, and one of the same connector, purpose and stack level
   * (a TxProfile: of the same transaction), as OCPP asks.
   */
  install(profile: SimulatedProfile): void {
    for (const [id, other] of this.byId) {
      if (
        id === profile.id ||
        (other.connectorId === profile.connectorId &&
          other.purpose === profile.purpose &&
          other.stackLevel === profile.stackLevel &&
          (profile.purpose !== 'TxProfile' || other.transactionId === profile.transactionId))
      )
        this.byId.delete(id);
    }
    this.byId.set(profile.id, profile);
  }

  /** The profiles the criteria name (an id names that one only). */
  matching(criteria: ClearCriteria): SimulatedProfile[] {
    return this.list().filter((p) =>
      criteria.id !== undefined
        ? p.id === criteria.id
        : (criteria.connectorId === undefined || p.connectorId === criteria.connectorId) &&
          (criteria.purpose === undefined || p.purpose === criteria.purpose) &&
          (criteria.stackLevel === undefined || p.stackLevel === criteria.stackLevel),
    );
  }

  /** Removes these profiles; how many there were. */
  remove(profiles: readonly SimulatedProfile[]): number {
    for (const profile of profiles) this.byId.delete(profile.id);
    return profiles.length;
  }

  /** The connector's transaction ended (or the charger rebooted): its TxProfiles end with it. */
  endTransaction(connectorId: number): void {
    this.remove(this.list().filter((p) => p.purpose === 'TxProfile' && p.connectorId === connectorId));
  }

  /** The limit (W) of the highest stack level in force among these profiles, or null. */
  private highest(profiles: SimulatedProfile[], now: number, transaction: RunningTransaction | null) {
    let best: { stackLevel: number; limit: number } | null = null;
    for (const profile of profiles) {
      if (best && profile.stackLevel <= best.stackLevel) continue;
      const limit = limitAt(profile, now, transaction);
      if (limit !== null) best = { stackLevel: profile.stackLevel, limit };
    }
    return best?.limit ?? null;
  }

  /** The charger's ChargePointMaxProfile limit now (W), Infinity when none is in force. */
  chargerLimitW(now: number): number {
    const max = this.list().filter((p) => p.purpose === 'ChargePointMaxProfile');
    return this.highest(max, now, null) ?? Number.POSITIVE_INFINITY;
  }

  /**
   * What the connector's own profiles allow now (W), Infinity when none is in force: its TxProfile bound to the
   * running transaction, else its TxDefaultProfile (the connector's, else connector 0's).
   */
  connectorLimitW(connectorId: number, now: number, transaction: RunningTransaction | null): number {
    const all = this.list();
    if (transaction) {
      const tx = all.filter(
        (p) =>
          p.purpose === 'TxProfile' &&
          p.connectorId === connectorId &&
          (p.transactionId === undefined || p.transactionId === transaction.id),
      );
      const limit = this.highest(tx, now, transaction);
      if (limit !== null) return limit;
    }
    const defaults = (on: number) =>
      this.highest(
        all.filter((p) => p.purpose === 'TxDefaultProfile' && p.connectorId === on),
        now,
        transaction,
      );
    return defaults(connectorId) ?? defaults(0) ?? Number.POSITIVE_INFINITY;
  }

  /** The composite limit of one connector now (W): the least of its own profiles' and the charger's max. */
  allowedW(connectorId: number, now: number, transaction: RunningTransaction | null): number {
    return Math.min(this.connectorLimitW(connectorId, now, transaction), this.chargerLimitW(now));
  }

  /**
   * What each connector delivers now (W), by connector number - 1, from what each would draw (`demandW`: the
   * car's draw within the connector's maximum; 0 when not charging): each within its own profiles, and together
   * within the charger's max, shared equally (none above what it would draw).
   */
  deliveredW(
    now: number,
    connectors: ReadonlyArray<{ demandW: number; transaction: RunningTransaction | null }>,
  ): number[] {
    const wants = connectors.map(({ demandW, transaction }, i) =>
      demandW > 0 ? Math.min(demandW, this.connectorLimitW(i + 1, now, transaction)) : 0,
    );
    return shareEqually(wants, this.chargerLimitW(now));
  }
}

/** Shares `cap` among these wants: each its want while they fit, else one level for all, none above its want. */
export function shareEqually(wants: readonly number[], cap: number): number[] {
  const total = wants.reduce((sum, want) => sum + want, 0);
  if (total <= cap) return [...wants];
  let left = Math.max(0, cap);
  let open = wants.filter((want) => want > 0).length;
  const given = wants.map(() => 0);
  // The smallest wants are met first; the others share what is left equally.
  const order = wants.map((want, i) => [want, i] as const).sort((a, b) => a[0] - b[0]);
  for (const [want, i] of order) {
    if (want <= 0) continue;
    const share = left / open;
    given[i] = Math.min(want, share);
    left -= given[i]!;
    open--;
  }
  return given;
}
