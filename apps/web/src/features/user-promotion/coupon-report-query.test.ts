import { describe, expect, it } from 'vitest';
import { couponReportQuery } from './coupon-report-query.ts';

describe('the Coupon&point Report query', () => {
  it('leaves out empty filters', () => {
    expect(couponReportQuery({}).toString()).toBe('');
    expect(
      couponReportQuery({
        firstName: '',
        code: '   ',
        merchantId: [],
        landlordId: [],
        createdAfter: '',
      }).toString(),
    ).toBe('');
  });

  it('trims text, repeats the id lists and sends the day edges as given', () => {
    const query = couponReportQuery({
      firstName: ' Somchai ',
      tel: '081',
      code: ' green50 ',
      merchantId: ['1', '2'],
      landlordId: ['7'],
      createdAfter: '2026-11-01T00:00:00.000+07:00',
      createdBefore: '2026-11-30T23:59:59.999+07:00',
    });
    expect(query.get('firstName')).toBe('Somchai');
    expect(query.get('tel')).toBe('081');
    expect(query.get('code')).toBe('green50');
    expect(query.getAll('merchantId')).toEqual(['1', '2']);
    expect(query.getAll('landlordId')).toEqual(['7']);
    expect(query.get('createdAfter')).toBe('2026-11-01T00:00:00.000+07:00');
    expect(query.get('createdBefore')).toBe('2026-11-30T23:59:59.999+07:00');
    expect(query.has('lastName')).toBe(false);
    expect(query.has('email')).toBe(false);
  });
});
