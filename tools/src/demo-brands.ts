import { chargerBrands } from '@ev/server/db/schema/index';
import type { PowerType } from '@ev/shared';
import type { DemoPlaces, DemoTx } from './demo-data.ts';

/** Charger brands as the demo's chargers use them; `key` names them for later loaders. */
export const DEMO_BRANDS: ReadonlyArray<{
  key: string;
  name: string;
  powerType: PowerType;
  minPowerKw: string;
  active: boolean;
}> = [
  { key: 'abb-ac', name: 'ABB Terra AC W22', powerType: 'AC', minPowerKw: '22.00', active: true },
  { key: 'abb-dc', name: 'ABB Terra 184', powerType: 'DC', minPowerKw: '50.00', active: true },
  { key: 'delta-dc', name: 'Delta DC Wallbox', powerType: 'DC', minPowerKw: '25.00', active: true },
  { key: 'wallbox-ac', name: 'Wallbox Pulsar Plus', powerType: 'AC', minPowerKw: '7.40', active: true },
  // Retired from new sites: inactive, so the list offers its Delete.
  { key: 'kempower-dc', name: 'Kempower Satellite', powerType: 'DC', minPowerKw: '600.00', active: false },
];

/**
 * The demo brand whose chargers have no FirmwareManagement profile: simulated, they answer UpdateFirmware and
 * GetDiagnostics NotImplemented (shown as NotSupported), so staff see that answer too (simulator-fleet.ts).
 */
export const DEMO_BRAND_WITHOUT_FIRMWARE = 'Delta DC Wallbox';

/** Demo five charger brands (issue 4). Returns a summary fragment for the start banner, or '' when it loads nothing. */
export async function loadDemoBrands(tx: DemoTx, _places: DemoPlaces): Promise<string> {
  await tx.insert(chargerBrands).values(DEMO_BRANDS.map(({ key: _key, ...brand }) => brand));
  return `${DEMO_BRANDS.length} charger brands`;
}
