import type { DemoPlaces, DemoTx } from './demo-data.ts';

/** Demo about 40 mobile users and 8 more admin users across all roles (issue 4). Returns a summary fragment for the start banner, or '' when it loads nothing. */
export async function loadDemoPeople(_tx: DemoTx, _places: DemoPlaces): Promise<string> {
  return '';
}
