import { type ChargerBrandOption, formatBaht, type PriceOption, toSatang } from '@ev/shared';
import { formatKw } from '../../lib/format.ts';

/** The status tag's colour (document 2, section 4); null for a value outside the list, shown as '-'. */
export function statusColor(status: string): 'green' | 'orange' | 'red' | null {
  switch (status) {
    case 'AVAILABLE':
      return 'green';
    case 'PREPARING':
    case 'CHARGING':
    case 'PAUSED':
    case 'FINISHING':
      return 'orange';
    case 'UNKNOWN':
    case 'UNAVAILABLE':
    case 'FAULTED':
      return 'red';
    default:
      return null;
  }
}

/** The OCPP error code worth showing beside a status: none when fine ('NoError') or not reported yet. */
export const shownErrorCode = (errorCode: string | null) =>
  errorCode && errorCode !== 'NoError' ? errorCode : null;

/** A brand as the filter, the column and the form show it: its name with its minimum power. */
export const brandLabel = (brand: Pick<ChargerBrandOption, 'name' | 'minPowerKw'>) =>
  `${brand.name} (${formatKw(brand.minPowerKw)})`;

/** A price plan in the connector's select: its description and the rates it charges, so plans tell apart. */
export function priceLabel(price: PriceOption): string {
  const baht = (amount: number) => formatBaht(toSatang(amount));
  const rates = [
    price.bahtPerKwh > 0 && `${baht(price.bahtPerKwh)} Baht/kWh`,
    price.bahtPerHour > 0 && `${baht(price.bahtPerHour)} Baht/hr`,
    price.bahtPerHour > 0 && price.calculateMethod === 'BAHT_MIN' && 'billed per minute',
  ].filter(Boolean);
  return `${price.descEn} (${rates.length > 0 ? rates.join(', ') : 'free'})`;
}
