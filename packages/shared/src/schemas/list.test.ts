import { describe, expect, it } from 'vitest';
import { landlordBody } from './landlord.ts';
import { booleanParam, idListParam, listQuery } from './list.ts';
import { merchantListQuery, merchantPatchBody } from './merchant.ts';
import { partyBody } from './party.ts';

describe('list query', () => {
  it('defaults to page 1 of 10 and bounds both', () => {
    expect(listQuery.parse({})).toEqual({ page: 1, size: 10 });
    expect(listQuery.parse({ page: '3', size: '100', sort: 'nameEn', order: 'desc' })).toEqual({
      page: 3,
      size: 100,
      sort: 'nameEn',
      order: 'desc',
    });
    for (const bad of [{ page: '0' }, { size: '0' }, { size: '101' }, { page: '1.5' }, { order: 'up' }]) {
      expect(listQuery.safeParse(bad).success, JSON.stringify(bad)).toBe(false);
    }
  });

  it('reads a repeated id filter and a single one as a number list', () => {
    expect(idListParam.parse(['1', '2'])).toEqual([1, 2]);
    expect(idListParam.parse('7')).toEqual([7]);
    expect(idListParam.parse(undefined)).toBeUndefined();
    expect(idListParam.safeParse(['1', 'x']).success).toBe(false);
    expect(idListParam.safeParse('-1').success).toBe(false);
  });

  it("reads booleans from 'true' and 'false' only", () => {
    expect(booleanParam.parse('true')).toBe(true);
    expect(booleanParam.parse('false')).toBe(false);
    expect(booleanParam.safeParse('1').success).toBe(false);
  });

  it('combines paging with the filters of a list', () => {
    expect(merchantListQuery.parse({ merchantId: '4', internal: 'false', mode: 'dropdown' })).toEqual({
      page: 1,
      size: 10,
      merchantId: [4],
      internal: false,
      mode: 'dropdown',
    });
  });
});

describe('form bodies', () => {
  it('takes a PATCH as the whole form or only { active }', () => {
    expect(merchantPatchBody.parse({ active: false })).toEqual({ active: false });
    const form = merchantPatchBody.parse({ nameEn: ' A ', nameTh: 'ก', internal: true, tel: '' });
    expect(form).toMatchObject({ nameEn: 'A', internal: true, tel: null, addrEn: null });
  });

  it('accepts business-hour rows with HH:mm times only', () => {
    const base = {
      nameEn: 'S',
      nameTh: 'ส',
      latitude: 13.69,
      longitude: 100.54,
      businessHoursType: 'period',
    };
    const row = (openTime: string) => ({
      ...base,
      businessHours: [{ dayOfWeek: 1, openTime, closeTime: '23:59' }],
    });
    expect(landlordBody.safeParse(row('00:00')).success).toBe(true);
    for (const bad of ['24:00', '8:00', '08:60', '08:00:00']) {
      expect(landlordBody.safeParse(row(bad)).success, bad).toBe(false);
    }
  });

  it('trims group names after the whitespace check', () => {
    expect(partyBody.parse({ nameEn: ' G ', nameTh: 'ก', landlordIds: [1] }).nameEn).toBe('G');
    const blank = partyBody.safeParse({ nameEn: '  ', nameTh: 'ก', landlordIds: [1] });
    expect(blank.error?.issues[0]?.message).toBe('Group Name (EN) is not whitespace');
  });
});
