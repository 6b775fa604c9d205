import type { PointRate } from '@ev/shared';
import dayjs from 'dayjs';
import { describe, expect, it } from 'vitest';
import { nextStartDelay } from './api.ts';
import {
  amountFormatter,
  amountParser,
  cardName,
  earnText,
  isEarlierDay,
  isPastMinute,
  redeemText,
} from './point-format.ts';

describe('the rate cards as the list shows them', () => {
  it('reads the rates with thousands separators and 2 decimals', () => {
    expect(earnText({ fromBaht: 25, toPoint: 1 })).toBe('25.00 THB → 1.00 point(s)');
    expect(earnText({ fromBaht: 1234.5, toPoint: 0.25 })).toBe('1,234.50 THB → 0.25 point(s)');
    expect(redeemText({ fromPoint: 9999999, toBaht: 10 })).toBe('9,999,999.00 point(s) → 10.00 THB');
  });

  it('names a card by its start in Thai date and Bangkok time', () => {
    expect(cardName({ validFrom: '2026-11-30T17:00:00.000Z' })).toBe('rate card of 01/12/2569 00:00');
  });
});

describe('the number fields', () => {
  it('group the whole part while typing and keep the decimals as typed', () => {
    expect(amountFormatter(1234567)).toBe('1,234,567');
    expect(amountFormatter('1234.')).toBe('1,234.');
    expect(amountFormatter('9999.999')).toBe('9,999.999');
    expect(amountFormatter(undefined)).toBe('');
    expect(amountParser('1,234,567.5')).toBe('1234567.5');
  });
});

describe('the Effective Date', () => {
  // 2026-11-26 00:30 in Bangkok: still the 25th in UTC.
  const now = Date.parse('2026-11-25T17:30:00Z');

  it('disables the days before today in Bangkok', () => {
    expect(isEarlierDay(dayjs('2026-11-25 23:59', 'YYYY-MM-DD HH:mm'), now)).toBe(true);
    expect(isEarlierDay(dayjs('2026-11-26 00:00', 'YYYY-MM-DD HH:mm'), now)).toBe(false);
    expect(isEarlierDay(dayjs('2027-01-01 00:00', 'YYYY-MM-DD HH:mm'), now)).toBe(false);
  });

  it('takes the current minute, not the one before', () => {
    const at = Date.parse('2026-11-26T10:15:59Z');
    expect(isPastMinute('2026-11-26T17:15:00+07:00', at)).toBe(false);
    expect(isPastMinute('2026-11-26T17:14:00+07:00', at)).toBe(true);
    expect(isPastMinute('2026-11-26T17:16:00+07:00', at)).toBe(false);
  });
});

describe('the list reloads when a pending card comes into force', () => {
  const card = (validFrom: string, status: PointRate['status']): PointRate => ({
    id: 1,
    fromBaht: 1,
    toPoint: 1,
    fromPoint: 1,
    toBaht: 1,
    validFrom,
    status,
  });
  const now = Date.parse('2026-11-26T10:00:00Z');

  it('just after the soonest pending start', () => {
    const points = [
      card('2026-11-20T00:00:00Z', 'active'),
      card('2026-11-26T10:00:30Z', 'pending'),
      card('2026-11-26T11:00:00Z', 'pending'),
    ];
    expect(nextStartDelay(points, now)).toBe(31_000);
  });

  it('not at all without a pending card, a while later for one far off, soon for one due', () => {
    expect(nextStartDelay([card('2026-11-20T00:00:00Z', 'active')], now)).toBe(false);
    expect(nextStartDelay(undefined, now)).toBe(false);
    expect(nextStartDelay([card('2027-01-01T00:00:00Z', 'pending')], now)).toBe(3_600_000);
    expect(nextStartDelay([card('2026-11-26T09:59:00Z', 'pending')], now)).toBe(2000);
  });
});
