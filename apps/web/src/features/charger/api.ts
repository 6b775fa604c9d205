import type { ChargerBrandOption, ConnectorType } from '@ev/shared';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../lib/api.ts';

/** Every brand (active or not, so a charger on a retired one still shows it): `GET /api/charger-brand?mode=dropdown`. */
export function useBrandDropdown() {
  return useQuery({
    queryKey: ['charger-brand', 'dropdown'],
    queryFn: () =>
      api<{ chargerBrands: ChargerBrandOption[] }>('/charger-brand?mode=dropdown').then(
        (body) => body.chargerBrands,
      ),
    staleTime: 0,
  });
}

/** The connector types (seeded, rarely changed): `GET /api/connector-type`. */
export function useConnectorTypes() {
  return useQuery({
    queryKey: ['connector-type'],
    queryFn: () =>
      api<{ connectorTypes: ConnectorType[] }>('/connector-type').then((body) => body.connectorTypes),
    staleTime: 5 * 60_000,
  });
}
