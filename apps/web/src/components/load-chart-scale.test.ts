import { describe, expect, it } from 'vitest';
import {
  bangkokTime,
  kwText,
  kwTicks,
  linear,
  linePath,
  loadSummary,
  noReadings,
  timeTicks,
} from './load-chart-scale.ts';

const MINUTE = 60_000;

describe('kwTicks', () => {
  it('steps by 1, 2, 2.5 or 5 times a power of ten from 0 to at least the top', () => {
    expect(kwTicks(110)).toEqual([0, 25, 50, 75, 100, 125]);
    expect(kwTicks(100)).toEqual([0, 20, 40, 60, 80, 100]);
    expect(kwTicks(22)).toEqual([0, 5, 10, 15, 20, 25]);
    expect(kwTicks(0.33)).toEqual([0, 0.1, 0.2, 0.3, 0.4]);
    expect(kwTicks(1_250)).toEqual([0, 250, 500, 750, 1000, 1250]);
  });

  it('draws 0 to 1 for nothing, a negative or a non-number', () => {
    for (const top of [0, -5, Number.NaN, Number.POSITIVE_INFINITY])
      expect(kwTicks(top)).toEqual([0, 0.2, 0.4, 0.6, 0.8, 1]);
  });
});

describe('timeTicks and bangkokTime', () => {
  it('puts ticks on the clock, in Bangkok 24-hour time whatever the zone', () => {
    // 13:57 to 14:56 in Bangkok (06:57 to 07:56 UTC).
    const from = Date.parse('2026-05-01T06:57:00Z');
    const ticks = timeTicks(from, from + 59 * MINUTE, 10);
    expect(ticks.map(bangkokTime)).toEqual(['14:00', '14:10', '14:20', '14:30', '14:40', '14:50']);
    expect(bangkokTime('2026-05-01T17:05:00Z')).toBe('00:05');
    expect(bangkokTime('2026-05-01T15:30:00Z')).toBe('22:30');
  });

  it('includes both ends when they fall on a tick', () => {
    const from = Date.parse('2026-05-01T07:00:00Z');
    expect(timeTicks(from, from + 30 * MINUTE, 15)).toEqual([from, from + 15 * MINUTE, from + 30 * MINUTE]);
  });
});

describe('linear and linePath', () => {
  it('maps a domain onto pixels, upside down for the kW axis', () => {
    const y = linear([0, 100], [200, 0]);
    expect(y(0)).toBe(200);
    expect(y(25)).toBe(150);
    expect(y(100)).toBe(0);
    expect(linear([5, 5], [10, 20])(5)).toBe(10);
  });

  it('writes the SVG path, empty for no points', () => {
    expect(
      linePath([
        { x: 1, y: 2 },
        { x: 3.333, y: 4 },
      ]),
    ).toBe('M1.00 2.00 L3.33 4.00');
    expect(linePath([])).toBe('');
  });
});

describe('loadSummary', () => {
  const at = (minute: number) => new Date(Date.parse('2026-05-01T07:00:00Z') + minute * MINUTE).toISOString();
  it('tells now against the limit and the peak with its time', () => {
    const points = [
      { at: at(0), kw: 20 },
      { at: at(5), kw: 80 },
      { at: at(6), kw: 42.5 },
    ];
    expect(loadSummary(points, 100)).toBe(
      'Site power over the last hour: now 42.5 kW of a 100 kW limit (43%); peak 80 kW at 14:05.',
    );
    expect(loadSummary(points, null)).toBe(
      'Site power over the last hour: now 42.5 kW of no limit; peak 80 kW at 14:05.',
    );
  });

  it('says when the hour has no readings', () => {
    expect(noReadings([])).toBe(true);
    expect(noReadings([{ at: at(0), kw: 0 }])).toBe(true);
    expect(noReadings([{ at: at(0), kw: 0.1 }])).toBe(false);
    expect(loadSummary([{ at: at(0), kw: 0 }], 1_250.5)).toBe(
      'Site power over the last hour: no power readings; a 1,250.5 kW limit.',
    );
  });

  it('writes kW with separators and no padding', () => {
    expect(kwText(1250.5)).toBe('1,250.5');
    expect(kwText(7)).toBe('7');
  });
});
