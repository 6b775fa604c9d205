/**
 * The charging profiles the power sharing sends (docs/decisions.md, "Power within a site's limit"), in OCPP
 * 1.6's shape: the 2.0.1 adapter (ocpp/adapters/ocpp201/operations.ts) turns them into 2.0.1's, EVSE n for
 * connector n and the charger's own transaction id for ours.
 */
import { acMinimumW, type PowerUnit, profileLimit } from '@ev/shared';
import type { ChargingProfile16, CommandOutcome } from '../../ocpp/commands.ts';

/**
 * Our profile ids on a charger: the safe default is 34000 ("issue 34"), connector n's TxProfile 34000 + n. A
 * profile id is the charger's own, so these only have to be stable per charger and unlike an operator's.
 * A new profile with the same id replaces the old one on the charger.
 */
export const DEFAULT_PROFILE_ID = 34_000;
export const txProfileId = (ocppConnectorId: number) => DEFAULT_PROFILE_ID + ocppConnectorId;

/**
 * Both our profiles sit on stack level 1: above a charger's own level-0 profiles, below what an operator may
 * set by hand above it. A TxProfile outranks a TxDefaultProfile whatever their levels (OCPP 1.6 §3.13.2).
 */
export const POWER_STACK_LEVEL = 1;

/** kW as the database keeps it (numeric(12,2), a string) → whole watts; null stays null. */
export const wattsOf = (kw: string | null): number | null =>
  kw === null ? null : Math.round(Number(kw) * 1000);

export interface SiteElectrics {
  phases: number | null;
  voltage: number | null;
}

/** How a charger is told its limit: amperes per phase for AC where the site gives phases and voltage. */
export function unitFor(powerType: 'AC' | 'DC', site: SiteElectrics): PowerUnit {
  if (powerType === 'AC' && site.phases !== null && site.voltage !== null)
    return { unit: 'A', phases: site.phases, voltage: site.voltage };
  return { unit: 'W' };
}

/** The least a session of this charger can charge at: AC 6 A per phase, DC its brand's minimum. */
export function minimumW(powerType: 'AC' | 'DC', brandMinKw: string, site: SiteElectrics): number {
  if (powerType === 'AC') return acMinimumW(site.phases ?? 3, site.voltage ?? 230);
  return wattsOf(brandMinKw) ?? 0;
}

/** One period from the start, forever: the same limit for the whole transaction (or every transaction). */
function schedule(allowanceW: number, unit: PowerUnit): ChargingProfile16['chargingSchedule'] {
  return {
    chargingRateUnit: unit.unit,
    chargingSchedulePeriod: [
      {
        startPeriod: 0,
        limit: profileLimit(allowanceW, unit),
        // Amperes are per phase: a single-phase site says so (the charger would assume three).
        ...(unit.unit === 'A' && unit.phases !== undefined ? { numberPhases: unit.phases } : {}),
      },
    ],
  };
}

/** The TxProfile of a session: bound to its transaction (our charging_sessions.id), on its connector. */
export function txProfile(
  ocppConnectorId: number,
  sessionId: number,
  allowanceW: number,
  unit: PowerUnit,
): ChargingProfile16 {
  return {
    chargingProfileId: txProfileId(ocppConnectorId),
    transactionId: sessionId,
    stackLevel: POWER_STACK_LEVEL,
    chargingProfilePurpose: 'TxProfile',
    chargingProfileKind: 'Relative',
    chargingSchedule: schedule(allowanceW, unit),
  };
}

/** The safe default, on connector 0: what every transaction of the charger gets when we do not say more. */
export function defaultProfile(limitW: number, unit: PowerUnit): ChargingProfile16 {
  return {
    chargingProfileId: DEFAULT_PROFILE_ID,
    stackLevel: POWER_STACK_LEVEL,
    chargingProfilePurpose: 'TxDefaultProfile',
    chargingProfileKind: 'Relative',
    chargingSchedule: schedule(limitW, unit),
  };
}

/**
 * The safe default's limit: the site's limit shared by all its connectors, so that every charger that loses
 * us at once stays under it together; never below what the charger can charge at.
 */
export const defaultLimitW = (siteLimitW: number, siteConnectors: number, minW: number) =>
  Math.max(minW, Math.floor(siteLimitW / Math.max(1, siteConnectors)));

/**
 * What a profile's answer is recorded as: the charger's word (Accepted, Rejected, NotSupported), Timeout,
 * Offline, or its CALLERROR's code.
 */
export function profileAnswer(outcome: CommandOutcome): string {
  switch (outcome.status) {
    case 'answered':
      return typeof outcome.response.status === 'string' ? outcome.response.status : 'Unknown';
    case 'offline':
      return 'Offline';
    case 'timeout':
      return 'Timeout';
    case 'error':
      return outcome.code === 'NotImplemented' ? 'NotSupported' : outcome.code;
  }
}

/** Statuses of a profile that is on the charger or on its way: anything else is a refusal. */
const STEERED = new Set(['Pending', 'Accepted', 'Offline']);

/** The charger refused the profile (Rejected, NotSupported, Timeout, a CALLERROR): it is counted at full power. */
export const isRefusal = (status: string) => !STEERED.has(status);
