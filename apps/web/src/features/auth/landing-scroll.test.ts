import { describe, expect, it } from 'vitest';
import { AGREE_THRESHOLD_PX, canShowAgreement } from './landing-scroll.ts';

describe('canShowAgreement', () => {
  it('is false at the top of a long text', () => {
    expect(canShowAgreement({ scrollTop: 0, clientHeight: 700, scrollHeight: 3000 })).toBe(false);
  });

  it('turns true within 200 px of the end', () => {
    expect(canShowAgreement({ scrollTop: 2099, clientHeight: 700, scrollHeight: 3000 })).toBe(false);
    expect(canShowAgreement({ scrollTop: 2100, clientHeight: 700, scrollHeight: 3000 })).toBe(true);
    expect(canShowAgreement({ scrollTop: 2300, clientHeight: 700, scrollHeight: 3000 })).toBe(true);
    expect(AGREE_THRESHOLD_PX).toBe(200);
  });

  it('is true at once when the text fits in the box', () => {
    expect(canShowAgreement({ scrollTop: 0, clientHeight: 700, scrollHeight: 700 })).toBe(true);
    expect(canShowAgreement({ scrollTop: 0, clientHeight: 700, scrollHeight: 850 })).toBe(true);
  });

  it('tolerates fractional scroll positions of zoomed pages', () => {
    expect(canShowAgreement({ scrollTop: 2099.6, clientHeight: 700.4, scrollHeight: 3000 })).toBe(true);
  });
});
