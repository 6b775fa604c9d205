import { describe, expect, it } from 'vitest';
import {
  axisText,
  changeOf,
  changeText,
  downForText,
  durationText,
  kwhText,
  MEASURES,
  percentText,
  periodText,
  thbText,
  unitText,
} from './stat-format.ts';

const figures = {
  energyWh: 12_345_678,
  revenue: 1234.5,
  sessions: 1234,
  chargingSeconds: 45_000,
  idleSeconds: 1800,
  utilisation: 0.4257,
  discount: 10,
  point: 0.5,
  refund: 0,
};

describe('the statistics in Thai formats', () => {
  it('shows energy in kWh, baht with 2 decimals, shares and lengths', () => {
    expect(kwhText(12_345_678)).toBe('12,345.68 kWh');
    expect(thbText(1234.5)).toBe('1,234.50 THB');
    expect(percentText(0.4257)).toBe('42.6%');
    expect(percentText(null)).toBe('-');
    expect(durationText(null)).toBe('-');
    expect(durationText(42 * 60 + 10)).toBe('42 min');
    expect(durationText(65 * 60)).toBe('1 h 05 min');
  });

  it('shows periods as the other screens show dates: th-TH, Buddhist era', () => {
    expect(periodText('2026-11-21', 'day')).toBe('21/11/2569');
    expect(periodText('2026-11-21', 'day', true)).toBe('21/11');
    expect(periodText('2026-11-16', 'week')).toBe('Week of 16/11/2569');
    expect(periodText('2026-11-01', 'month')).toBe('11/2569');
    expect(periodText('2026-01-01', 'year')).toBe('2569');
  });

  it('shows every measure in the table and in the chart unit', () => {
    const table = Object.fromEntries(
      Object.entries(MEASURES).map(([key, spec]) => [key, spec.text(figures)]),
    );
    expect(table).toEqual({
      energyWh: '12,345.68',
      revenue: '1,234.50',
      sessions: '1,234',
      chargingSeconds: '12.5',
      idleSeconds: '0.5',
      utilisation: '42.6',
      discount: '10.00',
      point: '0.50',
      refund: '0.00',
    });
    expect(MEASURES.energyWh.value(figures)).toBeCloseTo(12_345.678);
    expect(MEASURES.utilisation.value({ ...figures, utilisation: null })).toBeNull();
    expect(MEASURES.utilisation.text({ ...figures, utilisation: null })).toBe('-');
    expect(unitText(1234.5, 'THB')).toBe('1,234.50 THB');
    expect(unitText(12.5, 'kWh')).toBe('12.50 kWh');
    expect(unitText(42.57, '%')).toBe('42.6%');
    expect(unitText(3, 'h')).toBe('3.0 h');
    expect(unitText(null, 'kWh')).toBe('-');
  });

  it('keeps chart axes narrow', () => {
    expect(axisText(0)).toBe('0');
    expect(axisText(2.5)).toBe('2.5');
    expect(axisText(1250)).toBe('1,250');
    expect(axisText(12_500)).toBe('13k');
    expect(axisText(2_345_000)).toBe('2.3M');
  });
});

describe('today against the usual', () => {
  it('says up or down by how many % of the usual', () => {
    expect(changeOf(120, 100)).toEqual({ direction: 'up', percent: 20 });
    expect(changeOf(75, 100)).toEqual({ direction: 'down', percent: -25 });
    expect(changeText(changeOf(120, 100)!)).toBe('+20.0%');
    expect(changeText(changeOf(75, 100)!)).toBe('-25.0%');
    expect(changeText(changeOf(5, 5)!)).toBe('0.0%');
  });

  it('has no % against a usual of 0, and nothing against an unknown one', () => {
    expect(changeOf(3, 0)).toEqual({ direction: 'up', percent: null });
    expect(changeText(changeOf(3, 0)!)).toBe('new');
    expect(changeText(changeOf(0, 0)!)).toBe('0.0%');
    expect(changeOf(null, 100)).toBeNull();
    expect(changeOf(0.5, null)).toBeNull();
  });

  it('says how long a charger has been down', () => {
    const at = '2026-11-21T12:00:00.000Z';
    expect(downForText('2026-11-21T11:48:00.000Z', at)).toBe('12 min');
    expect(downForText('2026-11-21T08:40:00.000Z', at)).toBe('3 h 20 min');
    expect(downForText('2026-11-19T09:00:00.000Z', at)).toBe('2 d 3 h');
    expect(downForText(null, at)).toBe('never seen');
  });
});
