import { describe, expect, it } from 'vitest';
import { formatThaiDate, formatThaiDateTime } from './dates.ts';

describe('formatThaiDate', () => {
  it('gives the Buddhist year, in Asia/Bangkok', () => {
    expect(formatThaiDate('2026-11-21T05:00:00Z')).toBe('21/11/2569');
    expect(formatThaiDate(new Date('2026-11-21T12:00:00+07:00'))).toBe('21/11/2569');
  });

  it('uses the Bangkok day, not the UTC one', () => {
    // 18:30 UTC on 20 November is 01:30 on 21 November in Bangkok (UTC+7).
    expect(formatThaiDate('2026-11-20T18:30:00Z')).toBe('21/11/2569');
    // 16:59 UTC on 31 December 2025 is still 2025 in Bangkok (23:59): year 2568.
    expect(formatThaiDate('2025-12-31T16:59:00Z')).toBe('31/12/2568');
  });

  it('accepts a timestamp number', () => {
    expect(formatThaiDate(Date.parse('2026-11-21T05:00:00Z'))).toBe('21/11/2569');
  });

  it("shows '-' for a missing or invalid value", () => {
    for (const value of [null, undefined, '', 'not a date', Number.NaN]) {
      expect(formatThaiDate(value as never)).toBe('-');
    }
  });
});

describe('formatThaiDateTime', () => {
  it('adds the 24-hour Bangkok time', () => {
    expect(formatThaiDateTime('2026-11-21T07:05:00Z')).toBe('21/11/2569 14:05');
    expect(formatThaiDateTime('2026-11-20T18:30:00Z')).toBe('21/11/2569 01:30');
    expect(formatThaiDateTime(null)).toBe('-');
  });
});
