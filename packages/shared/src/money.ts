/**
 * Money travels as baht with at most 2 decimals on the wire and is `numeric(12,2)` in the database.
 * In code it is an integer number of satang, so sums never drift.
 */
export type Satang = number;

const BAHT_PATTERN = /^(-)?(\d+)(?:\.(\d{1,2}))?$/;

/** Parses a baht amount ("12.5", 12.5, "-3.05") into integer satang; throws on anything else. */
export function toSatang(baht: string | number): Satang {
  // String() gives a number's shortest exact decimal form: 12.5 -> "12.5", 1.234 -> "1.234" (refused).
  // toFixed(2) would round it silently to 1.23.
  const text = typeof baht === 'number' ? String(baht) : baht.trim();
  const match = BAHT_PATTERN.exec(text);
  if (!match) throw new RangeError(`Not a baht amount: ${String(baht)}`);
  const [, sign, whole, fraction = ''] = match;
  const satang = Number(whole) * 100 + Number(fraction.padEnd(2, '0'));
  if (!Number.isSafeInteger(satang)) throw new RangeError(`Amount out of range: ${String(baht)}`);
  return sign && satang !== 0 ? -satang : satang;
}

/** Formats integer satang as a `numeric` string with 2 decimals ("1234.50"). */
export function fromSatang(satang: Satang): string {
  if (!Number.isInteger(satang)) throw new RangeError(`Satang must be an integer: ${satang}`);
  const sign = satang < 0 ? '-' : '';
  const abs = Math.abs(satang);
  return `${sign}${Math.trunc(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

/** Baht for display, Thai locale, 2 decimals ("1,234.50"). */
export function formatBaht(satang: Satang): string {
  return (satang / 100).toLocaleString('th-TH', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
}
