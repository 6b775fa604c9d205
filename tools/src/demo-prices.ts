import type { DemoPlaces, DemoTx } from './demo-data.ts';

/** Demo six price plans with weekday and dated overrides (issue 4). Returns a summary fragment for the start banner, or '' when it loads nothing. */
export async function loadDemoPrices(_tx: DemoTx, _places: DemoPlaces): Promise<string> {
  return '';
}
