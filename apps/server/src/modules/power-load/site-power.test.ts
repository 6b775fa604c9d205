import { describe, expect, it } from 'vitest';
import { sampleTime } from './power-samples.ts';
import { minutePoints, POINTS, windowStart } from './site-power.ts';

const MINUTE = 60_000;
const now = new Date('2026-11-21T10:00:30Z');
/** `m` minutes into the chart's window, plus `s` seconds. */
const t = (m: number, s = 0) => new Date(windowStart(now) + m * MINUTE + s * 1000);
const kwAt = (points: Array<{ kw: number }>, minute: number) => points[minute]?.kw;

describe('minutePoints', () => {
  it('has 60 points a minute apart, oldest first, the last the current minute', () => {
    const points = minutePoints(now, [], []);
    expect(points).toHaveLength(POINTS);
    expect(points[0]?.at).toBe('2026-11-21T09:01:00.000Z');
    expect(points.at(-1)?.at).toBe('2026-11-21T10:00:00.000Z');
    expect(points.every((p) => p.kw === 0)).toBe(true);
  });

  it("sums each connector's last sample in the minute", () => {
    const spans = [
      { connectorId: 1, from: t(0), to: null },
      { connectorId: 2, from: t(0), to: null },
    ];
    const points = minutePoints(
      now,
      [
        { connectorId: 1, at: t(10, 5), powerW: 5000 },
        { connectorId: 1, at: t(10, 50), powerW: 7400 },
        { connectorId: 2, at: t(10, 20), powerW: 11_123 },
      ],
      spans,
    );
    expect(kwAt(points, 9)).toBe(0);
    expect(kwAt(points, 10)).toBe(18.523);
  });

  it('carries a value forward while its session is on, not past its stop nor into the next session', () => {
    const points = minutePoints(
      now,
      [
        // Before the window: carried in.
        { connectorId: 1, at: new Date(windowStart(now) - 5 * MINUTE), powerW: 3000 },
        { connectorId: 1, at: t(20), powerW: 4000 },
        { connectorId: 2, at: t(5), powerW: 1000 },
        { connectorId: 3, at: t(30), powerW: 2000 },
      ],
      [
        { connectorId: 1, from: new Date(windowStart(now) - 10 * MINUTE), to: t(40, 10) },
        // Closed without a 0 sample (superseded at minute 15): its value stops there.
        { connectorId: 2, from: t(0), to: t(15) },
        { connectorId: 2, from: t(15), to: null },
        // No session known for it: its sample counts in its own minute only.
      ],
    );
    expect(kwAt(points, 0)).toBe(3 + 1 * 0);
    expect(kwAt(points, 5)).toBe(4);
    expect(kwAt(points, 15)).toBe(4);
    expect(kwAt(points, 16)).toBe(3);
    expect(kwAt(points, 20)).toBe(4);
    expect(kwAt(points, 30)).toBe(6);
    expect(kwAt(points, 31)).toBe(4);
    expect(kwAt(points, 40)).toBe(4);
    expect(kwAt(points, 41)).toBe(0);
  });

  it('drops at a session end that records 0', () => {
    const points = minutePoints(
      now,
      [
        { connectorId: 1, at: t(3), powerW: 22_000 },
        { connectorId: 1, at: t(7, 30), powerW: 0 },
      ],
      [{ connectorId: 1, from: t(2), to: t(7, 30) }],
    );
    expect(points.slice(2, 9).map((p) => p.kw)).toEqual([0, 22, 22, 22, 22, 0, 0]);
  });
});

describe('sampleTime', () => {
  it("takes the charger's time within the last hour, now for a future one, an hour ago for an older one", () => {
    expect(sampleTime(new Date('2026-11-21T09:30:00Z'), now).toISOString()).toBe('2026-11-21T09:30:00.000Z');
    expect(sampleTime(new Date('2026-11-21T10:03:00Z'), now)).toBe(now);
    expect(sampleTime(new Date('2026-11-21T07:00:00Z'), now).toISOString()).toBe('2026-11-21T09:00:30.000Z');
    expect(sampleTime(new Date(Number.NaN), now)).toBe(now);
  });
});
