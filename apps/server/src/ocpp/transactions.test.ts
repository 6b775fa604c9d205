import { describe, expect, it } from 'vitest';
import { backOfficeStatus } from './store.ts';
import { activePowerW, chargerTime, energyRegisterWh, powerBetween } from './transactions.ts';

describe('backOfficeStatus', () => {
  it('maps OCPP 1.6 statuses to the back-office values', () => {
    expect(backOfficeStatus('Available')).toBe('AVAILABLE');
    expect(backOfficeStatus('SuspendedEV')).toBe('PAUSED');
    expect(backOfficeStatus('SuspendedEVSE')).toBe('PAUSED');
    expect(backOfficeStatus('Faulted')).toBe('FAULTED');
    expect(backOfficeStatus('Reserved')).toBe('RESERVED');
    expect(backOfficeStatus('Whatever')).toBe('UNKNOWN');
  });
});

describe('chargerTime', () => {
  const now = new Date('2026-11-21T10:00:00Z');
  it("takes the charger's time unless it is unreadable or in the future", () => {
    expect(chargerTime('2026-11-21T09:59:00Z', now).toISOString()).toBe('2026-11-21T09:59:00.000Z');
    expect(chargerTime('2026-11-21T10:04:00Z', now).toISOString()).toBe('2026-11-21T10:04:00.000Z');
    expect(chargerTime('2026-11-21T11:00:00Z', now)).toBe(now);
    expect(chargerTime('not a time', now)).toBe(now);
    expect(chargerTime(undefined, now)).toBe(now);
  });
});

describe('energyRegisterWh', () => {
  it('reads the last energy register, in Wh or kWh, ignoring other measurands', () => {
    expect(
      energyRegisterWh([
        { timestamp: '2026-11-21T09:00:00Z', sampledValue: [{ value: '1000' }] },
        {
          timestamp: '2026-11-21T09:05:00Z',
          sampledValue: [
            { value: '7.5', measurand: 'Power.Active.Import', unit: 'kW' },
            { value: '1.25', measurand: 'Energy.Active.Import.Register', unit: 'kWh' },
          ],
        },
      ]),
    ).toEqual({ wh: 1250, at: new Date('2026-11-21T09:05:00Z') });
    expect(energyRegisterWh([{ timestamp: 'x', sampledValue: [{ value: 'n/a' }] }])).toBeNull();
    expect(energyRegisterWh([])).toBeNull();
  });
});

describe('activePowerW', () => {
  const at = '2026-11-21T09:05:00Z';
  it('reads Power.Active.Import in W or kW (1.6) or with a multiplier (2.0.1), the last one reported', () => {
    expect(
      activePowerW([
        { timestamp: at, sampledValue: [{ value: '7.5', measurand: 'Power.Active.Import', unit: 'kW' }] },
      ]),
    ).toBe(7500);
    expect(
      activePowerW([{ timestamp: at, sampledValue: [{ value: '7400', measurand: 'Power.Active.Import' }] }]),
    ).toBe(7400);
    expect(
      activePowerW([
        {
          timestamp: at,
          sampledValue: [{ value: 11, measurand: 'Power.Active.Import', unitOfMeasure: { unit: 'kW' } }],
        },
        {
          timestamp: at,
          sampledValue: [
            { value: 22, measurand: 'Power.Active.Import', unitOfMeasure: { unit: 'W', multiplier: 3 } },
          ],
        },
        { timestamp: at, sampledValue: [{ value: '5', measurand: 'Energy.Active.Import.Register' }] },
      ]),
    ).toBe(22_000);
  });
  it('takes the total, else sums the phases once each', () => {
    const phase = (value: string, p: string) => ({
      value,
      measurand: 'Power.Active.Import',
      unit: 'W',
      phase: p,
    });
    expect(
      activePowerW([
        { timestamp: at, sampledValue: [phase('3600', 'L1'), phase('3700', 'L2'), phase('3700', 'L3')] },
      ]),
    ).toBe(11_000);
    expect(
      activePowerW([{ timestamp: at, sampledValue: [phase('3600', 'L1'), phase('3600', 'L1-N')] }]),
    ).toBe(3600);
    expect(
      activePowerW([
        {
          timestamp: at,
          sampledValue: [phase('3600', 'L1'), { value: '11000', measurand: 'Power.Active.Import' }],
        },
      ]),
    ).toBe(11_000);
  });
  it('is null without a readable, plausible value', () => {
    expect(activePowerW([{ timestamp: at, sampledValue: [{ value: '1000' }] }])).toBeNull();
    expect(
      activePowerW([{ timestamp: at, sampledValue: [{ value: 'x', measurand: 'Power.Active.Import' }] }]),
    ).toBeNull();
    expect(
      activePowerW([{ timestamp: at, sampledValue: [{ value: '-5', measurand: 'Power.Active.Import' }] }]),
    ).toBeNull();
    expect(
      activePowerW([{ timestamp: at, sampledValue: [{ value: '1e12', measurand: 'Power.Active.Import' }] }]),
    ).toBeNull();
  });
});

describe('powerBetween', () => {
  const at = (s: number) => new Date(Date.UTC(2026, 10, 21, 9, 0, s));
  it('is the mean power between two registers', () => {
    expect(powerBetween({ wh: 1000, at: at(0) }, { wh: 1500, at: at(60) })).toBe(30_000);
  });
  it('is null when the register went back or the readings are under a second apart', () => {
    expect(powerBetween({ wh: 1500, at: at(0) }, { wh: 1000, at: at(60) })).toBeNull();
    expect(powerBetween({ wh: 1000, at: at(0) }, { wh: 1000, at: at(0) })).toBeNull();
  });
});
