import { describe, expect, it } from 'vitest';
import { overrideIssues, priceBody, rateRequired } from './price.ts';

const base = {
  descEn: ' Plan ',
  descTh: 'แผน',
  method: 'KW' as const,
  calculateMethod: 'BAHT_MIN' as const,
  bahtPerKwh: 7.15,
  bahtPerHour: 40,
  penaltyBahtPerMin: 0,
  penaltyDCFullBahtPerMin: 0,
  penaltyDCFullDelayMin: 0,
};

describe('priceBody', () => {
  it('couples KW: Baht/hr 0 and BAHT_HRS, on the plan and its rows; trims the descriptions', () => {
    const parsed = priceBody.parse({
      ...base,
      overrideWeekdays: [
        { dayOfWeek: 1, validTimeFrom: '00:00', validTimeTo: '06:00', bahtPerKwh: 4, bahtPerHour: 9 },
      ],
    });
    expect(parsed).toMatchObject({
      descEn: 'Plan',
      calculateMethod: 'BAHT_HRS',
      bahtPerKwh: 7.15,
      bahtPerHour: 0,
      overrideWeekdays: [{ bahtPerKwh: 4, bahtPerHour: 0 }],
      overrides: [],
    });
  });

  it('couples HOUR: Baht/kWh 0, the calculate method kept', () => {
    const parsed = priceBody.parse({
      ...base,
      method: 'HOUR',
      bahtPerKwh: undefined,
      overrides: [{ validFrom: '2027-04-13 00:00', validTo: '2027-04-15 23:59', bahtPerHour: 20 }],
    });
    expect(parsed).toMatchObject({
      calculateMethod: 'BAHT_MIN',
      bahtPerKwh: 0,
      bahtPerHour: 40,
      overrides: [{ bahtPerKwh: 0, bahtPerHour: 20 }],
    });
  });

  it('asks for what the method needs', () => {
    const issues = priceBody.safeParse({ ...base, method: 'HOUR', calculateMethod: null, bahtPerHour: null })
      .error?.issues;
    expect(issues?.map((issue) => [issue.path.join('.'), issue.message])).toEqual([
      ['calculateMethod', 'Calculate Method is required.'],
      ['bahtPerHour', 'Baht/hr is required.'],
    ]);
    expect(rateRequired('HOUR', 'bahtPerKwh')).toBe(false);
    expect(rateRequired('KW', 'bahtPerHour')).toBe(false);
    expect(rateRequired(undefined, 'bahtPerKwh')).toBe(true);
    expect(rateRequired(undefined, 'bahtPerHour')).toBe(true);
  });
});

describe('overrideIssues', () => {
  it('is empty for incomplete rows (their own fields report them) and for a valid night split', () => {
    expect(
      overrideIssues({ overrideWeekdays: [{}, { dayOfWeek: 1, validTimeFrom: '10:00' }], overrides: [{}] }),
    ).toEqual([]);
    expect(
      overrideIssues({
        overrideWeekdays: [
          { dayOfWeek: 6, validTimeFrom: '22:00', validTimeTo: '23:59' },
          { dayOfWeek: 7, validTimeFrom: '00:00', validTimeTo: '06:00' },
        ],
      }),
    ).toEqual([]);
  });

  it('names the row that ends too early and the later row of an overlap', () => {
    expect(
      overrideIssues({
        overrideWeekdays: [
          { dayOfWeek: 2, validTimeFrom: '09:00', validTimeTo: '08:00' },
          { dayOfWeek: 3, validTimeFrom: '08:00', validTimeTo: '12:00' },
          { dayOfWeek: 3, validTimeFrom: '12:00', validTimeTo: '13:00' },
        ],
        overrides: [
          { validFrom: '2027-01-01 00:00', validTo: '2027-01-31 23:59' },
          { validFrom: '2027-01-31 23:59', validTo: '2027-02-01 00:00' },
        ],
      }),
    ).toEqual([
      { path: ['overrideWeekdays', 0, 'validTimeTo'], message: 'Weekday override 1: To must be after From.' },
      {
        path: ['overrideWeekdays', 2, 'validTimeTo'],
        message: 'Weekday override 3 overlaps weekday override 2.',
      },
      { path: ['overrides', 1, 'validTo'], message: 'Dated override 2 overlaps dated override 1.' },
    ]);
  });
});
