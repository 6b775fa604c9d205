import type { DashboardResponse, StatisticsResponse } from '@ev/shared';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api } from '../../lib/api.ts';

/**
 * How often the dashboard is read again: connectors change state within seconds, the figures within a
 * session's minutes; 15 s keeps 'Now' current at one small call per open screen. React Query's interval does
 * not run while the tab is hidden (refetchIntervalInBackground is off), as the live load's does not, and
 * reads again at once when the tab shows.
 */
export const DASHBOARD_REFRESH_MS = 15_000;

export function useDashboard() {
  return useQuery({
    queryKey: ['/dashboard'],
    queryFn: ({ signal }) => api<DashboardResponse>('/dashboard', { signal }),
    refetchInterval: DASHBOARD_REFRESH_MS,
    refetchOnWindowFocus: true,
    staleTime: 0,
    // The screen says it itself; a notice every 15 s would bury it.
    meta: { silent: true },
  });
}

/** `GET /api/statistics` with the screen's query; the last figures stay while new ones load. */
export function useStatistics(query: string) {
  return useQuery({
    queryKey: ['/statistics', query],
    queryFn: ({ signal }) => api<StatisticsResponse>(`/statistics?${query}`, { signal }),
    placeholderData: keepPreviousData,
  });
}
