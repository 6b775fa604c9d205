import { describe, expect, it } from 'vitest';
import { formatCallCenter, phoneDigits } from './contact-us.ts';

describe('formatCallCenter', () => {
  it('groups digits 1-2, 3-5 and 6 on with dashes', () => {
    expect(formatCallCenter('0212345678')).toBe('02-123-45678');
    expect(formatCallCenter('02-123-45678')).toBe('02-123-45678');
    expect(formatCallCenter('081 234 5678')).toBe('08-123-45678');
  });

  it('keeps digits past the tenth in the last group, and shows - when empty', () => {
    expect(formatCallCenter('021234567899')).toBe('02-123-4567899');
    expect(formatCallCenter('0212')).toBe('02-12');
    expect(formatCallCenter(null)).toBe('-');
    expect(formatCallCenter('')).toBe('-');
  });

  it('reads only the digits', () => {
    expect(phoneDigits(' 02-123 45678 ')).toBe('0212345678');
  });
});
