import type { ReportStyle } from '@ev/shared';

/** The Booking Report form as the fields hold it: text, id lists, ISO instants ('' when empty), the style. */
export interface ReportValues {
  chargerId?: string;
  connectorId?: string;
  firstName?: string;
  lastName?: string;
  email?: string;
  tel?: string;
  merchantId?: string[];
  landlordId?: string[];
  paymentMethod?: string;
  createdAfter?: string;
  createdBefore?: string;
  paymentAfter?: string;
  paymentBefore?: string;
  style?: ReportStyle;
}

const SINGLE = [
  'chargerId',
  'connectorId',
  'firstName',
  'lastName',
  'email',
  'tel',
  'paymentMethod',
  'createdAfter',
  'createdBefore',
  'paymentAfter',
  'paymentBefore',
] as const;

/**
 * The query of `GET /api/report/booking`: empty filters are left out (section 5), text is trimmed, the id
 * lists repeat their key, and the style is always said (Processed unless Raw was chosen).
 */
export function reportQuery(values: ReportValues): URLSearchParams {
  const query = new URLSearchParams();
  for (const key of SINGLE) {
    const value = values[key]?.trim();
    if (value) query.set(key, value);
  }
  for (const key of ['merchantId', 'landlordId'] as const) {
    for (const id of values[key] ?? []) query.append(key, id);
  }
  query.set('style', values.style ?? 'processed');
  return query;
}
