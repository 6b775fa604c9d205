import { CHARGER_STATUSES } from '@ev/shared';
import { describe, expect, it } from 'vitest';
import { brandLabel, priceLabel, shownErrorCode, statusColor } from './charger-format.ts';

describe('statusColor', () => {
  it('colours every status of the spec: available green, busy orange, out of order red', () => {
    expect(Object.fromEntries(CHARGER_STATUSES.map((status) => [status, statusColor(status)]))).toEqual({
      AVAILABLE: 'green',
      PREPARING: 'orange',
      CHARGING: 'orange',
      PAUSED: 'orange',
      FINISHING: 'orange',
      UNKNOWN: 'red',
      UNAVAILABLE: 'red',
      FAULTED: 'red',
    });
  });

  it('has no colour for any other value (shown as -)', () => {
    expect(statusColor('SuspendedEV')).toBeNull();
    expect(statusColor('available')).toBeNull();
    expect(statusColor('')).toBeNull();
  });
});

describe('labels', () => {
  it('shows a brand with its minimum power as the brand list does', () => {
    expect(brandLabel({ name: 'ABB Terra 184', minPowerKw: 50 })).toBe('ABB Terra 184 (50.00 kW)');
    expect(brandLabel({ name: 'Big', minPowerKw: 1250.5 })).toBe('Big (1,250.50 kW)');
  });

  it('shows a price plan with the rates it charges, and per-minute billing', () => {
    const plan = {
      id: 1,
      descEn: 'DC fast',
      bahtPerKwh: 7.5,
      bahtPerHour: 0,
      calculateMethod: 'BAHT_HRS',
    } as const;
    expect(priceLabel(plan)).toBe('DC fast (7.50 Baht/kWh)');
    expect(priceLabel({ ...plan, bahtPerKwh: 0, bahtPerHour: 45, calculateMethod: 'BAHT_MIN' })).toBe(
      'DC fast (45.00 Baht/hr, billed per minute)',
    );
    expect(priceLabel({ ...plan, bahtPerKwh: 5.15, bahtPerHour: 40 })).toBe(
      'DC fast (5.15 Baht/kWh, 40.00 Baht/hr)',
    );
    expect(priceLabel({ ...plan, bahtPerKwh: 0 })).toBe('DC fast (free)');
  });

  it('shows an error code only when there is a fault', () => {
    expect(shownErrorCode('NoError')).toBeNull();
    expect(shownErrorCode(null)).toBeNull();
    expect(shownErrorCode('GroundFailure')).toBe('GroundFailure');
  });
});
