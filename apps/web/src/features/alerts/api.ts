import type { AlertSetting, AlertSettingBody, AlertSubscription } from '@ev/shared';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../lib/api.ts';

export const SETTINGS_KEY = ['alert-settings'] as const;
export const SUBSCRIPTIONS_KEY = ['alert-subscriptions'] as const;

/** `GET /api/alert-settings` (admin): every condition's threshold, switch and webhook. */
export function useAlertSettings() {
  return useQuery({
    queryKey: SETTINGS_KEY,
    queryFn: ({ signal }) =>
      api<{ settings: AlertSetting[] }>('/alert-settings', { signal }).then((body) => body.settings),
    staleTime: 0,
    // The form takes its values once: never from an older copy.
    gcTime: 0,
  });
}

/** `PATCH /api/alert-settings/:condition`: the keys given change, the others keep their value. */
export const saveAlertSetting = (condition: string, body: AlertSettingBody) =>
  api<unknown>(`/alert-settings/${encodeURIComponent(condition)}`, { method: 'PATCH', body });

/** `GET /api/alert-subscriptions`: what the signed-in user hears about, in the app and by mail. */
export function useAlertSubscriptions() {
  return useQuery({
    queryKey: SUBSCRIPTIONS_KEY,
    queryFn: ({ signal }) =>
      api<{ subscriptions: AlertSubscription[] }>('/alert-subscriptions', { signal }).then(
        (body) => body.subscriptions,
      ),
    staleTime: 0,
    gcTime: 0,
  });
}

/** `PUT /api/alert-subscriptions`: the conditions given are set. */
export const saveAlertSubscriptions = (subscriptions: AlertSubscription[]) =>
  api<unknown>('/alert-subscriptions', { method: 'PUT', body: { subscriptions } });
