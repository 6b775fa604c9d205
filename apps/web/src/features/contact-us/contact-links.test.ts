import { describe, expect, it } from 'vitest';
import { socialHref } from './contact-links.ts';

describe('socialHref', () => {
  it('links a web address as it is', () => {
    expect(socialHref('facebook', 'https://www.facebook.com/evct')).toBe('https://www.facebook.com/evct');
    expect(socialHref('line', ' http://lin.ee/abc ')).toBe('http://lin.ee/abc');
  });

  it('links a bare name to its profile', () => {
    expect(socialHref('facebook', '@evct.page')).toBe('https://www.facebook.com/evct.page');
    expect(socialHref('instagram', 'evct')).toBe('https://www.instagram.com/evct');
    expect(socialHref('line', '@evct')).toBe('https://line.me/R/ti/p/%40evct');
  });

  it('never links another scheme as typed', () => {
    expect(socialHref('facebook', 'javascript:alert(1)')).toBe(
      'https://www.facebook.com/javascript%3Aalert(1)',
    );
  });
});
