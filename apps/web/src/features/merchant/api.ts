import type { IdName, Merchant, MerchantForm, Province } from '@ev/shared';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../lib/api.ts';

export const merchantPath = (id: number | string) => `/merchant/${id}`;

export function useMerchantDropdown() {
  return useQuery({
    queryKey: ['merchant', 'dropdown'],
    queryFn: () => api<{ merchants: IdName[] }>('/merchant?mode=dropdown').then((body) => body.merchants),
    staleTime: 0,
  });
}

/** Sites for the Site Name filter, narrowed to the chosen clusters when there are any. */
export function useLandlordDropdown(merchantIds: readonly string[]) {
  const query = new URLSearchParams([['mode', 'dropdown'], ...merchantIds.map((id) => ['merchantId', id])]);
  return useQuery({
    queryKey: ['landlord', 'dropdown', ...merchantIds],
    queryFn: () => api<{ landlords: IdName[] }>(`/landlord?${query}`).then((body) => body.landlords),
  });
}

export function useProvinces() {
  return useQuery({
    queryKey: ['province'],
    queryFn: () => api<{ provinces: Province[] }>('/province').then((body) => body.provinces),
    staleTime: Number.POSITIVE_INFINITY,
  });
}

export function useMerchant(id: string | undefined) {
  return useQuery({
    // An unknown or out-of-scope id shows the not-found page instead.
    meta: { handledStatuses: [404] },
    queryKey: ['merchant', 'detail', id],
    queryFn: () => api<{ merchant: Merchant }>(merchantPath(id ?? '')).then((body) => body.merchant),
    enabled: id !== undefined,
    // The form takes its initial values once: never from an older copy.
    gcTime: 0,
  });
}

export function saveMerchant(id: string | undefined, body: MerchantForm) {
  return id === undefined
    ? api('/merchant', { method: 'POST', body })
    : api(merchantPath(id), { method: 'PATCH', body });
}
