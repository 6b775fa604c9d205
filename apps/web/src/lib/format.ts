import { ADMIN_ROLE_LABELS, type AdminRole, formatBaht } from '@ev/shared';

export { formatThaiDate, formatThaiDateTime } from '@ev/shared';

/** "First Last", or '-' when the user has no name yet. */
export function fullName(user: { firstName: string; lastName: string } | null | undefined): string {
  const name = [user?.firstName, user?.lastName]
    .map((part) => part?.trim())
    .filter(Boolean)
    .join(' ');
  return name || '-';
}

export function roleLabel(role: AdminRole | null | undefined): string {
  return role ? ADMIN_ROLE_LABELS[role] : '-';
}

const KW = new Intl.NumberFormat('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });

/** Kilowatts as the screens show them: thousands separators, 2 decimals and the unit ('1,250.50 kW'). */
export const formatKw = (kw: number) => `${KW.format(kw)} kW`;

/** A promotion's Area type in words: its sites only, or every site. */
export const areaTypeText = (internal: boolean) => (internal ? 'Selected landlords' : 'Public');

/** Baht as the screens show it: Thai-locale digits, 2 decimals ("1,234.50"). */
export const bahtText = (amount: number) => formatBaht(Math.round(amount * 100));

/** Points as a person counts them: '1,250 points', '1 point'. */
export const pointsText = (count: number) => `${count.toLocaleString('en')} point${count === 1 ? '' : 's'}`;
