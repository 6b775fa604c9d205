import type { DemoPlaces, DemoTx } from './demo-data.ts';

/** Demo the support contact details (issue 4). Returns a summary fragment for the start banner, or '' when it loads nothing. */
export async function loadDemoContact(_tx: DemoTx, _places: DemoPlaces): Promise<string> {
  return '';
}
