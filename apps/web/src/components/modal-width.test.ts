import { describe, expect, it } from 'vitest';
import { DEFAULT_MODAL_SIZE, modalWidth } from './modal-width.ts';

describe('modalWidth', () => {
  it('uses the narrow widths on screens up to 1000 px', () => {
    expect(modalWidth('70%/40%', 1000)).toBe('70%');
    expect(modalWidth('85%/50%', 390)).toBe('85%');
    expect(modalWidth('95%/65%', 1000)).toBe('95%');
  });

  it('uses the wide widths above 1000 px', () => {
    expect(modalWidth('70%/40%', 1001)).toBe('40%');
    expect(modalWidth('85%/50%', 1440)).toBe('50%');
    expect(modalWidth('95%/65%', 1920)).toBe('65%');
  });

  it("defaults to document 2's 95% / 65%", () => {
    expect(modalWidth(DEFAULT_MODAL_SIZE, 1000)).toBe('95%');
    expect(modalWidth(DEFAULT_MODAL_SIZE, 1440)).toBe('65%');
  });
});
