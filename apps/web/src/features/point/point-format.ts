import type { PointRate, PointStatus } from '@ev/shared';
import dayjs, { type Dayjs } from 'dayjs';
import customParseFormat from 'dayjs/plugin/customParseFormat';
import { bangkokWallClock } from '../../components/form/instant-field.ts';
import { formatThaiDateTime } from '../../lib/format.ts';

dayjs.extend(customParseFormat);

const AMOUNT = new Intl.NumberFormat('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });

/** A rate's number as the list shows it: thousands separators and 2 decimals ('1,234.50'). */
export const formatAmount = (value: number) => AMOUNT.format(value);

/** The earn rate: so many baht paid earn so many points ('25.00 THB → 1.00 point(s)'). */
export const earnText = (card: Pick<PointRate, 'fromBaht' | 'toPoint'>) =>
  `${formatAmount(card.fromBaht)} THB → ${formatAmount(card.toPoint)} point(s)`;

/** The redeem rate: so many points are worth so many baht ('100.00 point(s) → 10.00 THB'). */
export const redeemText = (card: Pick<PointRate, 'fromPoint' | 'toBaht'>) =>
  `${formatAmount(card.fromPoint)} point(s) → ${formatAmount(card.toBaht)} THB`;

/** The card's name in labels and the delete confirmation: its start ('rate card of 01/12/2569 00:00'). */
export const cardName = (card: Pick<PointRate, 'validFrom'>) =>
  `rate card of ${formatThaiDateTime(card.validFrom)}`;

/** The Status tag of each status: the card in force, those to come, and the read-only history. */
export const STATUS_TAGS: Record<PointStatus, { label: string; color: string }> = {
  active: { label: 'Active', color: 'green' },
  pending: { label: 'Pending', color: 'blue' },
  past: { label: 'Past', color: 'default' },
};

/** A number field's text while typing: thousands separators in the whole part, the decimals as typed. */
export function amountFormatter(value: number | string | undefined): string {
  if (value === undefined || value === '') return '';
  const [whole = '', decimals] = String(value).split('.');
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return decimals === undefined ? grouped : `${grouped}.${decimals}`;
}

/** A number field's value from its text: the separators dropped. */
export const amountParser = (text: string | undefined) => (text ?? '').replace(/,/g, '');

/**
 * Today in Bangkok as the picker holds dates: the picker shows an instant's Bangkok wall clock
 * (bangkokInstantField), whatever the browser's zone.
 */
export const bangkokToday = (now = Date.now()) =>
  dayjs(bangkokWallClock(new Date(now).toISOString()), 'YYYY-MM-DD HH:mm', true).startOf('day');

/** The picker's earlier days, before today in Bangkok, are disabled. */
export const isEarlierDay = (day: Dayjs, now = Date.now()) => day.isBefore(bangkokToday(now), 'day');

/**
 * An Effective Date the server would refuse: before the current minute. The picker has no seconds, so the
 * current minute itself is taken (the server allows a minute's grace); a card starting then is in force at once.
 */
export const isPastMinute = (iso: string, now = Date.now()) =>
  Date.parse(iso) < Math.floor(now / 60_000) * 60_000;
