/** The Coupon&point Report form as the fields hold it: text, id lists, ISO instants ('' when empty). */
export interface CouponReportValues {
  firstName?: string;
  lastName?: string;
  email?: string;
  tel?: string;
  code?: string;
  merchantId?: string[];
  landlordId?: string[];
  createdAfter?: string;
  createdBefore?: string;
}

const SINGLE = ['firstName', 'lastName', 'email', 'tel', 'code', 'createdAfter', 'createdBefore'] as const;

/**
 * The query of `GET /api/report/user-promotion`: empty filters are left out (section 5), text is trimmed and
 * the id lists repeat their key. The Redeem Dates are the start and end of their Bangkok day (dayField).
 */
export function couponReportQuery(values: CouponReportValues): URLSearchParams {
  const query = new URLSearchParams();
  for (const key of SINGLE) {
    const value = values[key]?.trim();
    if (value) query.set(key, value);
  }
  for (const key of ['merchantId', 'landlordId'] as const) {
    for (const id of values[key] ?? []) query.append(key, id);
  }
  return query;
}
