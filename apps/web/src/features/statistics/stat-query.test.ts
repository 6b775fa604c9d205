import { describe, expect, it } from 'vitest';
import { addDays, defaultRange, searchOf, statisticsQuery, valuesOf } from './stat-query.ts';

const NOW = Date.parse('2026-11-21T20:00:00Z'); // 03:00 on the 22nd in Bangkok

describe('the statistics query', () => {
  it('sends the range as [start of the first Bangkok day, start of the day after the last)', () => {
    const query = statisticsQuery({
      range: ['2026-11-01', '2026-11-30'],
      period: 'week',
      split: 'landlord',
      measure: 'revenue',
      chargerId: '  TH-01 ',
      connectorId: '',
      merchantId: ['3'],
      landlordId: ['4', '5'],
      paymentMethod: '',
    });
    expect(query.toString()).toBe(
      new URLSearchParams([
        ['from', '2026-11-01T00:00:00.000+07:00'],
        ['to', '2026-12-01T00:00:00.000+07:00'],
        ['period', 'week'],
        ['split', 'landlord'],
        ['chargerId', 'TH-01'],
        ['merchantId', '3'],
        ['landlordId', '4'],
        ['landlordId', '5'],
      ]).toString(),
    );
  });

  it('keeps the choices in the URL and reads them back', () => {
    const values = {
      range: ['2025-12-30', '2026-01-02'] as [string, string],
      period: 'month' as const,
      split: 'paymentMethod' as const,
      measure: 'sessions' as const,
      chargerId: '',
      connectorId: '7',
      merchantId: [],
      landlordId: ['9'],
      paymentMethod: 'qr',
    };
    expect(valuesOf(searchOf(values), NOW)).toEqual({ ...values, chargerId: '' });
  });

  it('starts on the last 30 Bangkok days by day, no split, energy; anything malformed falls back', () => {
    expect(defaultRange(NOW)).toEqual(['2026-10-24', '2026-11-22']);
    expect(valuesOf(new URLSearchParams(), NOW)).toMatchObject({
      range: ['2026-10-24', '2026-11-22'],
      period: 'day',
      split: 'none',
      measure: 'energyWh',
      paymentMethod: '',
    });
    const bad = new URLSearchParams({
      from: 'x',
      to: '2026-01-01',
      period: 'decade',
      split: 'user',
      measure: 'x',
    });
    bad.set('paymentMethod', 'cash');
    expect(valuesOf(bad, NOW)).toMatchObject({
      range: ['2026-10-24', '2026-11-22'],
      period: 'day',
      split: 'none',
      measure: 'energyWh',
      paymentMethod: '',
    });
  });

  it('counts days across months and years', () => {
    expect(addDays('2026-12-31', 1)).toBe('2027-01-01');
    expect(addDays('2028-03-01', -1)).toBe('2028-02-29');
  });
});
