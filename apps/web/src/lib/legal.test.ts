import { describe, expect, it } from 'vitest';
import { opensWithTitle } from './legal.ts';

describe('opensWithTitle', () => {
  it('sees the title as the first heading of the text', () => {
    expect(opensWithTitle('<h2>Terms and Conditions</h2><p>…</p>', 'Terms and Conditions')).toBe(true);
    expect(
      opensWithTitle('  <h1 class="x"><strong>ข้อกำหนด  และเงื่อนไข</strong></h1>', 'ข้อกำหนด และเงื่อนไข'),
    ).toBe(true);
  });

  it('is false for another heading, a later heading or no heading', () => {
    expect(opensWithTitle('<h2>1. Service</h2>', 'Terms and Conditions')).toBe(false);
    expect(opensWithTitle('<p>Intro</p><h2>Terms and Conditions</h2>', 'Terms and Conditions')).toBe(false);
    expect(opensWithTitle('<p>Terms and Conditions</p>', 'Terms and Conditions')).toBe(false);
    expect(opensWithTitle('<h2></h2>', '')).toBe(false);
  });
});
