import type { AppConfig, IdName, PageTitle, PageType, PriceOption, Province } from '@ev/shared';
import { useQuery } from '@tanstack/react-query';
import { api } from './api.ts';

/** Reference data several screens choose from: the scoped cluster, site and group dropdowns, provinces. */

const dropdownQuery = (filters: Record<string, readonly string[]>) =>
  new URLSearchParams([
    ['mode', 'dropdown'],
    ...Object.entries(filters).flatMap(([key, values]) => values.map((value) => [key, value])),
  ]);

/** The clusters the user may see. */
export function useMerchantDropdown() {
  return useQuery({
    queryKey: ['merchant', 'dropdown'],
    queryFn: () => api<{ merchants: IdName[] }>('/merchant?mode=dropdown').then((body) => body.merchants),
    staleTime: 0,
  });
}

/** The sites the user may see, narrowed to the chosen clusters when there are any. */
export function useLandlordDropdown(merchantIds: readonly string[] = []) {
  return useQuery({
    queryKey: ['landlord', 'dropdown', ...merchantIds],
    queryFn: () =>
      api<{ landlords: IdName[] }>(`/landlord?${dropdownQuery({ merchantId: merchantIds })}`).then(
        (body) => body.landlords,
      ),
    staleTime: 0,
  });
}

/** The groups the user may see: `GET /api/party?mode=dropdown` → `{ partys }`. */
export function usePartyDropdown() {
  return useQuery({
    queryKey: ['party', 'dropdown'],
    queryFn: () => api<{ partys: IdName[] }>('/party?mode=dropdown').then((body) => body.partys),
    staleTime: 0,
  });
}

/** Every price plan, active or not (a connector may still use a retired one): `GET /api/price?mode=dropdown`. */
export function usePriceDropdown() {
  return useQuery({
    queryKey: ['price', 'dropdown'],
    queryFn: () => api<{ prices: PriceOption[] }>('/price?mode=dropdown').then((body) => body.prices),
    staleTime: 0,
  });
}

/**
 * Every page of a type as `{ id, titleEn, titleTh }`: the Title filters of the tutorial, terms and privacy
 * lists (`GET /api/page?type&mode=dropdown`).
 */
export function usePageDropdown(type: PageType) {
  return useQuery({
    queryKey: ['page', 'dropdown', type],
    queryFn: () => api<{ pages: PageTitle[] }>(`/page?type=${type}&mode=dropdown`).then((body) => body.pages),
    staleTime: 0,
  });
}

export function useProvinces() {
  return useQuery({
    queryKey: ['province'],
    queryFn: () => api<{ provinces: Province[] }>('/province').then((body) => body.provinces),
    staleTime: Number.POSITIVE_INFINITY,
  });
}

/** Select options from a dropdown answer; `value` is a string, as in the URL. */
export const idNameOptions = (items: IdName[] | undefined) =>
  (items ?? []).map((item) => ({ value: String(item.id), label: item.nameEn }));

/** Select options for a form field that holds the id as a number (a record's foreign key). */
export const idNameFieldOptions = (items: IdName[] | undefined) =>
  (items ?? []).map((item) => ({ value: item.id, label: item.nameEn }));

/** The server's public settings (the map's tile source). */
export function useAppConfig() {
  return useQuery({
    queryKey: ['app-config'],
    queryFn: () => api<AppConfig>('/app-config'),
    staleTime: Number.POSITIVE_INFINITY,
  });
}
