import { BOOKING_STATUS_LABELS, BOOKING_STATUSES } from '@ev/shared';
import { ANY } from '../../components/list/filter-fields.tsx';

/** The Status filter: Any, then the statuses by their labels ('stopped' reads Unpaid). */
export const STATUS_OPTIONS = [
  ANY,
  ...BOOKING_STATUSES.map((value) => ({ value, label: BOOKING_STATUS_LABELS[value] })),
];
