import type { DashboardResponse, StatisticsRow } from '@ev/shared';
import { describe, expect, it } from 'vitest';
import {
  CHART_TOP_KEYS,
  connectorSlices,
  dashboardIsEmpty,
  hourPoints,
  methodSlices,
  OTHER_COLOUR,
  OTHER_KEY,
  PALETTE,
  periodsOf,
  statisticsChart,
} from './stat-series.ts';

const NONE = { Available: 0, Charging: 0, Faulted: 0, Unavailable: 0, Offline: 0, Other: 0 };
const ZERO = {
  energyWh: 0,
  revenue: 0,
  sessions: 0,
  chargingSeconds: 0,
  idleSeconds: 0,
  utilisation: 0,
  discount: 0,
  point: 0,
  refund: 0,
};
const row = (period: string, key: string | null, figures: Partial<StatisticsRow>): StatisticsRow => ({
  ...ZERO,
  period,
  key,
  label: key === null ? null : `Site ${key}`,
  ...figures,
});

describe('statisticsChart', () => {
  it('draws one series of the measure without a split, periods in order, in the chart unit', () => {
    const chart = statisticsChart(
      [row('2026-11-02', null, { energyWh: 2500 }), row('2026-11-01', null, { energyWh: 1000 })],
      'energyWh',
      'day',
    );
    expect(chart.series).toEqual([{ dataKey: 'k0', label: 'Energy (kWh)', colour: PALETTE[0] }]);
    expect(chart.points).toEqual([
      { period: '2026-11-01', label: '01/11', k0: 1 },
      { period: '2026-11-02', label: '02/11', k0: 2.5 },
    ]);
    expect(chart).toMatchObject({ stacked: true, unit: 'kWh', hidden: 0 });
  });

  it('stacks the largest keys and adds the rest up as Other, keeping every period whole', () => {
    // 12 sites on two days; site n earned n baht a day, so sites 12..6 are drawn and 5..1 are Other.
    const rows = [1, 2].flatMap((day) =>
      Array.from({ length: 12 }, (_, index) =>
        row(`2026-11-0${day}`, String(index + 1), { revenue: index + 1 }),
      ),
    );
    const chart = statisticsChart(rows, 'revenue', 'day');
    expect(chart.series).toHaveLength(CHART_TOP_KEYS);
    expect(chart.series.map((series) => series.label)).toEqual([
      'Site 12',
      'Site 11',
      'Site 10',
      'Site 9',
      'Site 8',
      'Site 7',
      'Site 6',
      'Other',
    ]);
    expect(chart.series.at(-1)).toEqual({ dataKey: OTHER_KEY, label: 'Other', colour: OTHER_COLOUR });
    for (const point of chart.points) {
      expect(point[OTHER_KEY]).toBe(1 + 2 + 3 + 4 + 5);
      const sum = chart.series.reduce((total, series) => total + (point[series.dataKey] as number), 0);
      expect(sum).toBe(78);
    }
    expect(chart.hidden).toBe(0);
  });

  it('draws a share side by side: no Other (shares do not add up), the keys not drawn counted', () => {
    const rows = Array.from({ length: 10 }, (_, index) =>
      row('2026-11-01', String(index + 1), { utilisation: (index + 1) / 100 }),
    );
    rows.push(row('2026-11-02', '10', { utilisation: null }));
    const chart = statisticsChart(rows, 'utilisation', 'day');
    expect(chart.stacked).toBe(false);
    expect(chart.series.map((series) => series.label)).not.toContain('Other');
    expect(chart.series).toHaveLength(CHART_TOP_KEYS);
    expect(chart.hidden).toBe(2);
    expect(chart.points[0]).toMatchObject({ k0: 10 });
    // A missing share stays missing, not 0.
    expect(chart.points[1]).toMatchObject({ k0: null });
  });

  it('draws every period of the range, 0 where a period has no row', () => {
    const chart = statisticsChart(
      [row('2026-11-02', null, { sessions: 4 })],
      'sessions',
      'day',
      periodsOf(['2026-11-01', '2026-11-03'], 'day'),
    );
    expect(chart.points.map((point) => [point.label, point.k0])).toEqual([
      ['01/11', 0],
      ['02/11', 4],
      ['03/11', 0],
    ]);
  });

  it('names the periods of a range by their first days: Mondays, firsts of months, New Year', () => {
    expect(periodsOf(['2026-11-01', '2026-11-03'], 'day')).toEqual([
      '2026-11-01',
      '2026-11-02',
      '2026-11-03',
    ]);
    // 2026-11-01 is a Sunday: its ISO week began on Monday 26 October.
    expect(periodsOf(['2026-11-01', '2026-11-16'], 'week')).toEqual([
      '2026-10-26',
      '2026-11-02',
      '2026-11-09',
      '2026-11-16',
    ]);
    expect(periodsOf(['2026-11-15', '2027-02-01'], 'month')).toEqual([
      '2026-11-01',
      '2026-12-01',
      '2027-01-01',
      '2027-02-01',
    ]);
    expect(periodsOf(['2025-03-31', '2026-01-01'], 'year')).toEqual(['2025-01-01', '2026-01-01']);
    expect(periodsOf(['2026-01-31', '2026-03-01'], 'month')).toEqual([
      '2026-01-01',
      '2026-02-01',
      '2026-03-01',
    ]);
  });

  it('has nothing to draw without rows', () => {
    expect(statisticsChart([], 'sessions', 'month')).toMatchObject({ series: [], points: [] });
  });
});

const dashboard = (overrides: Partial<DashboardResponse> = {}): DashboardResponse => ({
  at: '2026-11-21T05:00:00.000Z',
  now: { connectors: NONE, down: [], charging: 0, awaitingPayment: 0 },
  today: { energyWh: 0, revenue: 0, sessions: 0, averageSeconds: null, successRate: null },
  usual: { energyWh: 0, revenue: 0, sessions: 0, averageSeconds: null, successRate: null },
  daily: [{ day: '2026-11-21', energyWh: 0, revenue: 0, sessions: 0 }],
  byHour: [],
  paymentMethods: [],
  sites: { top: [], bottom: [] },
  ...overrides,
});

describe('the dashboard in charts', () => {
  it('lists every connector state in order, 0 where none', () => {
    expect(
      connectorSlices({ ...NONE, Charging: 3, Available: 5 }).map(({ label, value }) => [label, value]),
    ).toEqual([
      ['Available', 5],
      ['Charging', 3],
      ['Faulted', 0],
      ['Unavailable', 0],
      ['Offline', 0],
      ['Other', 0],
    ]);
  });

  it('fills every hour of the day', () => {
    const hours = hourPoints([{ hour: 18, sessions: 7 }]);
    expect(hours).toHaveLength(24);
    expect(hours[0]).toEqual({ hour: 0, label: '00', sessions: 0 });
    expect(hours[18]).toEqual({ hour: 18, label: '18', sessions: 7 });
  });

  it('names payment methods as the lists do, the most used first', () => {
    const slices = methodSlices([
      { method: 'credit', count: 2, amount: 100 },
      { method: 'qr', count: 5, amount: 250.5 },
    ]);
    expect(slices.map(({ label, value, amount }) => [label, value, amount])).toEqual([
      ['QR Promptpay', 5, 250.5],
      ['Credit / Debit Card', 2, 100],
    ]);
  });

  it('is empty without connectors, sessions or payments', () => {
    expect(dashboardIsEmpty(dashboard())).toBe(true);
    expect(
      dashboardIsEmpty(
        dashboard({
          now: { connectors: { ...NONE, Offline: 1 }, down: [], charging: 0, awaitingPayment: 0 },
        }),
      ),
    ).toBe(false);
    expect(
      dashboardIsEmpty(dashboard({ daily: [{ day: '2026-11-21', energyWh: 10, revenue: 5, sessions: 1 }] })),
    ).toBe(false);
  });
});
