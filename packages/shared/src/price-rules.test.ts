import { describe, expect, it } from 'vitest';
import {
  firstOverlap,
  minutesOf,
  perMinuteRate,
  type Span,
  spansOverlap,
  wallMinutesOf,
} from './price-rules.ts';

describe('perMinuteRate', () => {
  it.each([
    [40, '0.667'],
    [60, '1.000'],
    [45.5, '0.758'],
    [120, '2.000'],
    [0.03, '0.001'],
    [0.02, '0.000'],
    [0, '0.000'],
    ['99.99', '1.667'],
    [9_999_999_999.99, '166666666.667'],
  ] as const)('%o Baht/hr is %s Baht/min', (hour, minute) => {
    expect(perMinuteRate(hour)).toBe(minute);
  });

  it('rounds half up on exact satang, never on a float', () => {
    // 0.09 baht = 9 satang; 9 / 6 = 1.5 thousandths -> 2.
    expect(perMinuteRate(0.09)).toBe('0.002');
    expect(perMinuteRate(0.03)).toBe('0.001');
  });

  it('is empty for a missing or malformed amount', () => {
    for (const value of [null, undefined, '', 'abc', 1.234]) expect(perMinuteRate(value)).toBe('');
  });
});

describe('minutesOf and wallMinutesOf', () => {
  it('reads HH:mm times of the day', () => {
    expect(minutesOf('00:00')).toBe(0);
    expect(minutesOf('22:30')).toBe(1350);
    expect(minutesOf('23:59')).toBe(1439);
    for (const bad of ['24:00', '7:00', '07:60', '07:00:00', '']) expect(minutesOf(bad)).toBeNaN();
  });

  it('reads wall-clock date-times without a time zone, refusing dates that do not exist', () => {
    expect(wallMinutesOf('1970-01-01 00:01')).toBe(1);
    expect(wallMinutesOf('2027-04-15 23:59') - wallMinutesOf('2027-04-13 00:00')).toBe(3 * 1440 - 1);
    expect(wallMinutesOf('2028-02-29 12:00')).not.toBeNaN();
    for (const bad of [
      '2027-02-29 00:00',
      '2027-13-01 00:00',
      '2027-04-13',
      '2027-04-13T00:00',
      '2027-4-13 00:00',
    ])
      expect(wallMinutesOf(bad)).toBeNaN();
  });
});

describe('overlap', () => {
  const span = (from: number, to: number): Span => ({ from, to });

  it('treats both ends as included minutes', () => {
    expect(spansOverlap(span(480, 600), span(600, 660))).toBe(true);
    expect(spansOverlap(span(480, 600), span(601, 660))).toBe(false);
    expect(spansOverlap(span(0, 1439), span(300, 400))).toBe(true);
    expect(spansOverlap(span(300, 400), span(0, 1439))).toBe(true);
  });

  it('finds the first overlapping pair within a key, skipping rows without a span', () => {
    const rows = [
      { day: 1, s: span(0, 100) },
      { day: 2, s: span(50, 60) },
      { day: 1, s: null },
      { day: 2, s: span(200, 300) },
      { day: 1, s: span(100, 200) },
    ];
    expect(
      firstOverlap(
        rows,
        (r) => r.s,
        (r) => r.day,
      ),
    ).toEqual([0, 4]);
    expect(firstOverlap(rows, (r) => r.s)).toEqual([0, 1]);
    expect(
      firstOverlap(
        rows.slice(0, 4),
        (r) => r.s,
        (r) => r.day,
      ),
    ).toBeNull();
    expect(firstOverlap([], (r: { s: Span }) => r.s)).toBeNull();
  });
});
