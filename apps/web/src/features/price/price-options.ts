import {
  CALCULATE_METHOD_LABELS,
  CALCULATE_METHODS,
  formatBaht,
  PRICE_METHOD_LABELS,
  PRICE_METHODS,
  toSatang,
} from '@ev/shared';

/** The select options of the price screens: the wire value, its screen label. */
export const METHOD_OPTIONS = PRICE_METHODS.map((value) => ({ value, label: PRICE_METHOD_LABELS[value] }));
export const CALCULATE_METHOD_OPTIONS = CALCULATE_METHODS.map((value) => ({
  value,
  label: CALCULATE_METHOD_LABELS[value],
}));

/** An amount as the list shows it: Thai-locale digits, 2 decimals ("1,234.50"). */
export const baht = (amount: number) => formatBaht(toSatang(amount));
