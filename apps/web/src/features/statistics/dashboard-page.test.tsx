import type { DashboardResponse } from '@ev/shared';
import { renderToStaticMarkup } from 'react-dom/server';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import { DashboardView } from './dashboard-page.tsx';

const NONE = { Available: 0, Charging: 0, Faulted: 0, Unavailable: 0, Offline: 0, Other: 0 };
const DAY = { energyWh: 0, revenue: 0, sessions: 0, averageSeconds: null, successRate: null };
const EMPTY: DashboardResponse = {
  at: '2026-11-21T05:00:00.000Z',
  now: { connectors: NONE, down: [], charging: 0, awaitingPayment: 0 },
  today: DAY,
  usual: DAY,
  daily: [],
  byHour: [],
  paymentMethods: [],
  sites: { top: [], bottom: [] },
};

const draw = (data: DashboardResponse) =>
  renderToStaticMarkup(
    <MemoryRouter>
      <DashboardView data={data} pending={false} error={null} />
    </MemoryRouter>,
  );

describe('DashboardView', () => {
  it('says there is nothing yet, instead of empty charts, for a scope without data', () => {
    const html = draw(EMPTY);
    expect(html).toContain('data-testid="dashboard-empty"');
    expect(html).toContain('No data yet: no connectors, sessions or payments in your sites.');
    expect(html).not.toContain('Chargers down longest');
  });

  it('draws now, today against the usual, and links each charger down to its screen', () => {
    const html = draw({
      ...EMPTY,
      now: {
        connectors: { ...NONE, Available: 4, Faulted: 1, Offline: 2 },
        down: [
          {
            chargerId: 'TH MP/01',
            nameEn: 'Mall 01',
            landlordNameEn: 'Siam Square Parking B2',
            state: 'Faulted',
            since: '2026-11-21T01:40:00.000Z',
          },
        ],
        charging: 3,
        awaitingPayment: 2,
      },
      today: { energyWh: 120_000, revenue: 1500, sessions: 12, averageSeconds: 3900, successRate: 0.75 },
      usual: { energyWh: 100_000, revenue: 2000, sessions: 12, averageSeconds: 3600, successRate: null },
    });
    expect(html).toContain('href="/charger/TH%20MP%2F01"');
    expect(html).toContain('3 h 20 min');
    expect(html).toContain('120.00 kWh');
    expect(html).toContain('aria-label="+20.0% above usual"');
    expect(html).toContain('1,500.00 THB');
    expect(html).toContain('aria-label="-25.0% below usual"');
    expect(html).toContain('1 h 05 min');
    expect(html).toContain('75.0%');
    // Every state is listed in words beside the donut, with its count.
    for (const state of ['Available', 'Charging', 'Faulted', 'Unavailable', 'Offline'])
      expect(html).toContain(state);
    // Thirty days without sessions: the charts say so.
    expect(html).toContain('No data for this period');
  });
});
