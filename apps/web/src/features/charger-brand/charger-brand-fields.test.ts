import { describe, expect, it } from 'vitest';
import { formatKw, kwFormatter, kwParser } from './charger-brand-fields.ts';

describe('kW display', () => {
  it('shows thousands separators, 2 decimals and kW in the list', () => {
    expect(formatKw(1234567.5)).toBe('1,234,567.50 kW');
    expect(formatKw(7.4)).toBe('7.40 kW');
  });

  it('groups the whole part while typing and keeps the decimals as typed', () => {
    expect(kwFormatter(1234567.5)).toBe('1,234,567.5');
    expect(kwFormatter('1234.')).toBe('1,234.');
    expect(kwFormatter(undefined)).toBe('');
    expect(kwParser('1,234,567.5')).toBe('1234567.5');
  });
});
