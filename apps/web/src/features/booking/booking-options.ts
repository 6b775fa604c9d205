import { BOOKING_STATUS_LABELS, BOOKING_STATUSES, PAYMENT_METHOD_LABELS, PAYMENT_METHODS } from '@ev/shared';
import { ANY } from '../../components/list/filter-fields.tsx';

/** The Payment Method filter: Any, then the methods by their labels. */
export const METHOD_OPTIONS = [
  ANY,
  ...PAYMENT_METHODS.map((value) => ({ value, label: PAYMENT_METHOD_LABELS[value] })),
];

/** The Status filter: Any, then the statuses by their labels ('stopped' reads Unpaid). */
export const STATUS_OPTIONS = [
  ANY,
  ...BOOKING_STATUSES.map((value) => ({ value, label: BOOKING_STATUS_LABELS[value] })),
];

/**
 * The width of a Payment Method column: its longest label, 'Credit / Debit Card', whole in the lists' 14 px
 * font with the cells' 8 px sides (a label of a known set is never cut; the browser tests measure it).
 */
export const METHOD_WIDTH = 140;
