import { describe, expect, it } from 'vitest';
import { modalWidth } from './modal-width.ts';

describe('modalWidth', () => {
  it('uses the narrow widths on screens up to 1000 px', () => {
    expect(modalWidth('small', 1000)).toBe('70%');
    expect(modalWidth('medium', 390)).toBe('85%');
    expect(modalWidth('large', 1000)).toBe('95%');
  });

  it('uses the wide widths above 1000 px', () => {
    expect(modalWidth('small', 1001)).toBe('40%');
    expect(modalWidth('medium', 1440)).toBe('50%');
    expect(modalWidth('large', 1920)).toBe('65%');
  });
});
