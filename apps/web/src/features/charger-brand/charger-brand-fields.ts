import { POWER_TYPES } from '@ev/shared';

/** The Power Type choices of the filter and the form. */
export const POWER_TYPE_OPTIONS = POWER_TYPES.map((value) => ({ value, label: value }));

export { formatKw } from '../../lib/format.ts';

/** The kW field's text while typing: thousands separators in the whole part, the decimals as typed. */
export function kwFormatter(value: number | string | undefined): string {
  if (value === undefined || value === '') return '';
  const [whole = '', decimals] = String(value).split('.');
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return decimals === undefined ? grouped : `${grouped}.${decimals}`;
}

/** The kW field's number from its text: the separators dropped. */
export const kwParser = (text: string | undefined) => (text ?? '').replace(/,/g, '');
