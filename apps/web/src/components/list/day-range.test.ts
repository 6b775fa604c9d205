import { describe, expect, it } from 'vitest';
import { bangkokDay, dayEnd, dayStart, todayRange } from './day-range.ts';

describe('Bangkok days', () => {
  it('names the Bangkok day of an instant, which starts at 17:00 UTC the day before', () => {
    expect(bangkokDay('2026-11-22T16:59:59.999Z')).toBe('2026-11-22');
    expect(bangkokDay('2026-11-22T17:00:00.000Z')).toBe('2026-11-23');
    expect(bangkokDay('2026-11-23T00:00:00.000+07:00')).toBe('2026-11-23');
    expect(bangkokDay('2026-11-23T23:59:59.999+07:00')).toBe('2026-11-23');
    expect(bangkokDay('not a date')).toBeNull();
  });

  it('sends From as the start and To as the end of the day, with the Bangkok offset', () => {
    expect(dayStart('2026-11-23')).toBe('2026-11-23T00:00:00.000+07:00');
    expect(dayEnd('2026-11-23')).toBe('2026-11-23T23:59:59.999+07:00');
    expect(new Date(dayStart('2026-11-23')).toISOString()).toBe('2026-11-22T17:00:00.000Z');
    expect(new Date(dayEnd('2026-11-23')).getTime() - new Date(dayStart('2026-11-23')).getTime()).toBe(
      86_400_000 - 1,
    );
    expect(() => dayStart('23/11/2026')).toThrow(RangeError);
  });

  it("today is the Bangkok day, not the browser's or UTC's", () => {
    // 20:00 UTC on the 22nd is 03:00 on the 23rd in Bangkok.
    expect(todayRange(Date.parse('2026-11-22T20:00:00Z'))).toEqual({
      from: '2026-11-23T00:00:00.000+07:00',
      to: '2026-11-23T23:59:59.999+07:00',
    });
  });
});
