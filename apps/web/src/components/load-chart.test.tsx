import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { LoadChart, NO_READINGS } from './load-chart.tsx';

const MINUTE = 60_000;
const start = Date.parse('2026-05-01T07:00:00Z');
const hour = (kw: (minute: number) => number) =>
  Array.from({ length: 60 }, (_, minute) => ({
    at: new Date(start + minute * MINUTE).toISOString(),
    kw: kw(minute),
  }));

describe('LoadChart', () => {
  it('draws the line, the limit line and Bangkok times, and names itself for screen readers', () => {
    const html = renderToStaticMarkup(<LoadChart points={hour((minute) => minute)} limitKw={50} />);
    expect(html).toContain('role="img"');
    expect(html).toContain(
      'aria-label="Site power over the last hour: now 59 kW of a 50 kW limit (118%); peak 59 kW at 14:59."',
    );
    expect(html).toContain('data-testid="load-chart-line"');
    expect(html).toContain('data-testid="load-chart-limit"');
    expect(html).toContain('Limit 50 kW');
    expect(html).toContain('>14:00<');
    expect(html).toContain('>14:50<');
    expect(html).not.toContain(NO_READINGS);
  });

  it('shows its empty state, still with the limit, when the hour has no readings', () => {
    const html = renderToStaticMarkup(<LoadChart points={hour(() => 0)} limitKw={100} />);
    expect(html).toContain(NO_READINGS);
    expect(html).toContain('data-testid="load-chart-limit"');
    expect(html).not.toContain('data-testid="load-chart-line"');
    expect(renderToStaticMarkup(<LoadChart points={[]} limitKw={null} />)).toContain(NO_READINGS);
  });
});
