import { describe, expect, it } from 'vitest';
import { backOfficeStatus } from './store.ts';
import { chargerTime, energyRegisterWh } from './transactions.ts';

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
