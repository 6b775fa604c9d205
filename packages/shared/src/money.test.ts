import { describe, expect, it } from 'vitest';
import { fromSatang, toSatang } from './money.ts';

describe('toSatang', () => {
  it.each([
    ['0', 0],
    ['12', 1200],
    ['12.5', 1250],
    ['12.50', 1250],
    ['0.05', 5],
    ['-3.05', -305],
    [' 7.1 ', 710],
    ['1234567890.99', 123456789099],
    [12.5, 1250],
    [12.34, 1234],
    [-0.07, -7],
    [-0, 0],
  ] as const)('%o baht is %i satang', (baht, satang) => {
    expect(toSatang(baht)).toBe(satang);
  });

  it.each([
    1.234,
    '1.234',
    'abc',
    '',
    '1,000',
    '1e3',
    '12.',
    '.5',
    '--1',
    'NaN',
    Number.NaN,
    Number.POSITIVE_INFINITY,
  ])('rejects %o', (value) => {
    expect(() => toSatang(value)).toThrow(RangeError);
  });

  it('rejects an amount beyond safe integers', () => {
    expect(() => toSatang('99999999999999999999')).toThrow(RangeError);
  });
});

describe('fromSatang', () => {
  it.each([
    [0, '0.00'],
    [5, '0.05'],
    [1250, '12.50'],
    [-305, '-3.05'],
    [123456789099, '1234567890.99'],
  ])('%i satang is %s', (satang, text) => {
    expect(fromSatang(satang)).toBe(text);
  });

  it('rejects a fraction of a satang', () => {
    expect(() => fromSatang(1.5)).toThrow(RangeError);
  });

  it('round-trips with toSatang', () => {
    for (const satang of [0, 1, 9, 10, 99, 100, 101, 1999, -1, -100, -12345, 987654321]) {
      expect(toSatang(fromSatang(satang))).toBe(satang);
    }
    for (const text of ['0.00', '0.01', '10.10', '-7.25', '5000000.00']) {
      expect(fromSatang(toSatang(text))).toBe(text);
    }
  });
});
