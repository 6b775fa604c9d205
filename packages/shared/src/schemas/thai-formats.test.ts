import { describe, expect, it } from 'vitest';
import { landlordBody } from './landlord.ts';
import { merchantBody } from './merchant.ts';
import {
  isThaiPhone,
  isThaiTaxId,
  optionalTaxId,
  optionalTel,
  THAI_FORMAT_MESSAGES,
  thaiTaxIdCheckDigit,
} from './thai-formats.ts';

const firstMessage = (result: { success: boolean; error?: { issues: { message: string }[] } }) =>
  result.success ? undefined : result.error?.issues[0]?.message;

describe('Thai tax ID check digit', () => {
  it('computes (11 - sum of d_i x (14 - i) mod 11) mod 10 over the first 12 digits', () => {
    // 0105537012340: 0*13 + 1*12 + 0*11 + 5*10 + 5*9 + 3*8 + 7*7 + 0*6 + 1*5 + 2*4 + 3*3 + 4*2 = 210;
    // 210 mod 11 = 1; (11 - 1) mod 10 = 0.
    expect(thaiTaxIdCheckDigit('010553701234')).toBe(0);
    // 1234567890121: sum 352, mod 11 = 0, (11 - 0) mod 10 = 1.
    expect(thaiTaxIdCheckDigit('123456789012')).toBe(1);
    // sum mod 11 = 1 gives 10 mod 10 = 0 (above); sum mod 11 = 10 gives 1: 3100600445635 ends in 5.
    expect(thaiTaxIdCheckDigit('310060044563')).toBe(5);
  });

  it('accepts real-looking IDs and refuses every other last digit', () => {
    for (const id of ['0105537012340', '1234567890121', '3100600445635', '0994000165501']) {
      expect(isThaiTaxId(id), id).toBe(true);
      for (let digit = 0; digit <= 9; digit += 1) {
        const other = `${id.slice(0, 12)}${digit}`;
        if (other !== id) expect(isThaiTaxId(other), other).toBe(false);
      }
    }
  });

  it('refuses anything but 13 digits', () => {
    for (const value of [
      '',
      '010553701234',
      '01055370123400',
      '0105-537012340',
      '010553701234O',
      '０１０５５３７０１２３４０',
    ]) {
      expect(isThaiTaxId(value), value).toBe(false);
    }
  });
});

describe('optionalTaxId', () => {
  it('keeps a valid ID as typed (trimmed) and clears an empty one', () => {
    expect(optionalTaxId.parse(' 0105537012340 ')).toBe('0105537012340');
    expect(optionalTaxId.parse('')).toBeNull();
    expect(optionalTaxId.parse('   ')).toBeNull();
    expect(optionalTaxId.parse(null)).toBeNull();
    expect(optionalTaxId.parse(undefined)).toBeNull();
  });

  it('says what is wrong: not 13 digits, a wrong check digit, too long', () => {
    expect(firstMessage(optionalTaxId.safeParse('abc-😀-ไทย'))).toBe(THAI_FORMAT_MESSAGES.taxIdDigits);
    expect(firstMessage(optionalTaxId.safeParse('010553701234'))).toBe(THAI_FORMAT_MESSAGES.taxIdDigits);
    expect(firstMessage(optionalTaxId.safeParse('0105537012341'))).toBe(THAI_FORMAT_MESSAGES.taxIdCheckDigit);
    expect(firstMessage(optionalTaxId.safeParse('01055370123400'))).toBe(
      'Please enter no more than 13 characters.',
    );
  });
});

describe('optionalTel', () => {
  it('takes Thai numbers with optional dashes and spaces, stored as typed', () => {
    for (const tel of [
      '02-123-4567',
      '021234567',
      '081 234 5678',
      '0812345678',
      '081-234-5678',
      '053-221-456',
      '+6621234567',
      '+66812345678',
      '+66 812345678',
      '+66-2-1234567',
    ]) {
      expect(isThaiPhone(tel), tel).toBe(true);
      expect(optionalTel.parse(` ${tel} `)).toBe(tel);
    }
    expect(optionalTel.parse('')).toBeNull();
  });

  it("refuses other characters, with the characters' message", () => {
    for (const tel of [
      'abc-😀-ไทย',
      '02.123.4567',
      '(02)1234567',
      '02--1234567',
      '-021234567',
      '021234567-',
      '+1 2345678',
      '๐๒๑๒๓๔๕๖๗',
    ]) {
      expect(firstMessage(optionalTel.safeParse(tel)), tel).toBe(THAI_FORMAT_MESSAGES.telCharacters);
    }
  });

  it('refuses a wrong count of digits or a missing 0, with the digits message', () => {
    for (const tel of [
      '02-123-456',
      '08-1234-56789',
      '1129',
      '212345678',
      '+66021234567',
      '+6621234',
      '+660812345678',
    ]) {
      expect(firstMessage(optionalTel.safeParse(tel)), tel).toBe(THAI_FORMAT_MESSAGES.telDigits);
    }
  });

  it('keeps the spec limit of 13 characters first', () => {
    expect(firstMessage(optionalTel.safeParse('081 - 234 - 5678'))).toBe(
      'Please enter no more than 13 characters.',
    );
  });
});

describe('the cluster and site bodies', () => {
  const cluster = { nameEn: 'North', nameTh: 'เหนือ', internal: false };
  const site = {
    merchantId: 1,
    nameEn: 'Nimman',
    nameTh: 'นิมมาน',
    latitude: 18.8,
    longitude: 98.97,
    businessHoursType: '24H',
  };

  it("check the cluster's Tax ID and Tel and the site's Tel", () => {
    expect(merchantBody.safeParse({ ...cluster, taxId: '0105537012340', tel: '053-221-456' }).success).toBe(
      true,
    );
    const bad = merchantBody.safeParse({ ...cluster, taxId: '0105537012341', tel: 'abc-😀-ไทย' });
    expect(bad.success).toBe(false);
    expect(bad.error?.issues.map((issue) => [issue.path.join('.'), issue.message])).toEqual([
      ['taxId', THAI_FORMAT_MESSAGES.taxIdCheckDigit],
      ['tel', THAI_FORMAT_MESSAGES.telCharacters],
    ]);
    expect(landlordBody.safeParse({ ...site, tel: '081 234 5678' }).success).toBe(true);
    expect(firstMessage(landlordBody.safeParse({ ...site, tel: '12345' }))).toBe(
      THAI_FORMAT_MESSAGES.telDigits,
    );
  });
});
