import { describe, expect, it } from 'vitest';
import { reportQuery } from './report-query.ts';

describe('the Booking Report query', () => {
  it('leaves out empty filters and says the style (Processed by default)', () => {
    expect(reportQuery({}).toString()).toBe('style=processed');
    expect(
      reportQuery({
        chargerId: '  ',
        firstName: '',
        merchantId: [],
        paymentMethod: '',
        style: 'raw',
      }).toString(),
    ).toBe('style=raw');
  });

  it('trims text, repeats the id lists and sends the day edges as given', () => {
    const query = reportQuery({
      chargerId: ' TH-MP-ASOK-04 ',
      connectorId: '10022',
      email: 'a@example.com',
      merchantId: ['1', '2'],
      landlordId: ['7'],
      paymentMethod: 'credit',
      createdAfter: '2026-11-01T00:00:00.000+07:00',
      createdBefore: '2026-11-30T23:59:59.999+07:00',
      paymentAfter: '2026-11-02T00:00:00.000+07:00',
    });
    expect(query.get('chargerId')).toBe('TH-MP-ASOK-04');
    expect(query.get('connectorId')).toBe('10022');
    expect(query.getAll('merchantId')).toEqual(['1', '2']);
    expect(query.getAll('landlordId')).toEqual(['7']);
    expect(query.get('createdAfter')).toBe('2026-11-01T00:00:00.000+07:00');
    expect(query.get('createdBefore')).toBe('2026-11-30T23:59:59.999+07:00');
    expect(query.get('paymentAfter')).toBe('2026-11-02T00:00:00.000+07:00');
    expect(query.has('paymentBefore')).toBe(false);
    expect(query.has('lastName')).toBe(false);
    expect(query.get('style')).toBe('processed');
  });
});
