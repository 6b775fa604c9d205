import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { asTyped, NumberInput, type NumberInputProps } from './number-input.tsx';

describe('asTyped', () => {
  it('keeps the text while typing, even a half-typed number', () => {
    expect(asTyped('1', { userTyping: true, input: '1.' })).toBe('1.');
    expect(asTyped('1001', { userTyping: true, input: '1001' })).toBe('1001');
  });

  it("shows the number's own digits otherwise: no padding to the step, no rounding", () => {
    expect(asTyped('91', { userTyping: false, input: '91' })).toBe('91');
    expect(asTyped('12.345', { userTyping: false, input: '' })).toBe('12.345');
    expect(asTyped(-5, { userTyping: false, input: '' })).toBe('-5');
    expect(asTyped(undefined, { userTyping: false, input: '' })).toBe('');
  });
});

describe('NumberInput', () => {
  it('drops min, max and precision even when they come in a spread', () => {
    const clamping = { min: 1, max: 1000, precision: 0 } as unknown as NumberInputProps;
    const html = renderToStaticMarkup(<NumberInput {...clamping} value={1001} />);
    expect(html).toContain('value="1001"');
    expect(html).not.toContain('aria-valuemin');
    expect(html).not.toContain('aria-valuemax');
    // The same input with antd's bounds would mark the value out of range.
    expect(html).not.toContain('out-of-range');
  });

  it('shows a value with more decimals than the step as it is', () => {
    const html = renderToStaticMarkup(<NumberInput step={0.01} value={12.345} />);
    expect(html).toContain('value="12.345"');
  });
});
