import type { DemoPlaces, DemoTx } from './demo-data.ts';

/** Demo five charger brands (issue 4). Returns a summary fragment for the start banner, or '' when it loads nothing. */
export async function loadDemoBrands(_tx: DemoTx, _places: DemoPlaces): Promise<string> {
  return '';
}
