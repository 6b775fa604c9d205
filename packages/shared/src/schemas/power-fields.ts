import { z } from 'zod';
import { toSatang } from '../money.ts';

/**
 * The power limit fields of the Site Setting and Charger Setting forms (issue 34 §1): a site's or a charger's
 * Max power (kW), and the site's Phases and Voltage (V) that turn its watts into amperes for chargers that
 * limit in amperes. Empty (null) is no limit, as before. Absent from a body keeps what is stored (a client
 * that does not know these fields never removes a limit); null clears; a value sets. docs/decisions.md, "Power
 * within a site's limit".
 */
export const POWER_FIELD_MESSAGES = {
  maxPowerKw: 'Max power (kW) must be a number.',
  maxPowerKwMin: 'Max power (kW) must be greater than 0.',
  maxPowerKwMax: 'Max power (kW) must be at most 100,000.',
  maxPowerKwStep: 'Max power (kW) must have at most 2 decimals.',
  phases: 'Phases must be 1 or 3.',
  voltage: 'Voltage (V) must be a whole number from 100 to 1000.',
  phasesRequired: 'Phases is required when Voltage (V) is set.',
  voltageRequired: 'Voltage (V) is required when Phases is set.',
} as const;

/** The largest limit taken: 100 MW, far above any site's connection, far below the column's range. */
export const MAX_POWER_KW_MAX = 100_000;
export const PHASES = [1, 3] as const;
export const VOLTAGE_MIN = 100;
export const VOLTAGE_MAX = 1000;

const hasTwoDecimalsAtMost = (value: number) => {
  try {
    toSatang(value);
    return true;
  } catch {
    return false;
  }
};

/** A limit in kW: greater than 0, at most 100,000, 2 decimals at most (the `numeric(12,2)` column); no rounding. */
export const maxPowerKwValue = z
  .number({ error: POWER_FIELD_MESSAGES.maxPowerKw })
  .gt(0, POWER_FIELD_MESSAGES.maxPowerKwMin)
  .max(MAX_POWER_KW_MAX, POWER_FIELD_MESSAGES.maxPowerKwMax)
  .refine(hasTwoDecimalsAtMost, POWER_FIELD_MESSAGES.maxPowerKwStep);
export const maxPowerKwField = maxPowerKwValue.nullish();

/** 1 or 3 (single- or three-phase supply). */
export const phasesValue = z.literal(PHASES, { error: POWER_FIELD_MESSAGES.phases });
export const phasesField = phasesValue.nullish();

/** Volts per phase (line to neutral: 230 in Thailand), a whole number from 100 to 1000. */
export const voltageValue = z
  .number({ error: POWER_FIELD_MESSAGES.voltage })
  .int(POWER_FIELD_MESSAGES.voltage)
  .min(VOLTAGE_MIN, POWER_FIELD_MESSAGES.voltage)
  .max(VOLTAGE_MAX, POWER_FIELD_MESSAGES.voltage);
export const voltageField = voltageValue.nullish();

/**
 * Phases and voltage go together (amperes need both): the one missing beside the other is what the message
 * names. Absent counts as missing here, so a body changing one sends both.
 */
export function phasesVoltageIssue(values: {
  phases?: number | null;
  voltage?: number | null;
}): { path: 'phases' | 'voltage'; message: string } | undefined {
  const hasPhases = values.phases != null;
  const hasVoltage = values.voltage != null;
  if (hasPhases && !hasVoltage) return { path: 'voltage', message: POWER_FIELD_MESSAGES.voltageRequired };
  if (hasVoltage && !hasPhases) return { path: 'phases', message: POWER_FIELD_MESSAGES.phasesRequired };
  return undefined;
}
