import type { BookingItem } from '@ev/shared';
import { AmountDetails } from '../../components/amount-details.tsx';
import { bahtText } from '../../lib/format.ts';
import { breakdown } from './booking-format.ts';

/** The breakdown: one line a part, what it counted beneath, overrides marked with '*'. */
function Breakdown({ booking }: { booking: BookingItem }) {
  const lines = breakdown(booking);
  return (
    <table className="booking-breakdown" data-testid={`breakdown-${booking.id}`}>
      <tbody>
        {lines.map((line) => (
          <tr key={line.label} className={line.label === 'Total' ? 'booking-breakdown-total' : undefined}>
            <th scope="row">
              {line.label}
              {line.override && ' *'}
            </th>
            <td>
              {line.amount}
              {line.details.map((detail) => (
                <div key={detail} className="booking-breakdown-detail">
                  {detail}
                </div>
              ))}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** The total's text in the list, '≈ ' while it still grows. */
export const totalText = (booking: Pick<BookingItem, 'live' | 'totalAmount'>) =>
  `${booking.live ? '≈ ' : ''}${bahtText(booking.totalAmount)}`;
/** The total owed, THB with 2 decimals; hovering or focusing it shows how it was made up. */
export function TotalAmount({ booking }: { booking: BookingItem }) {
  return (
    <AmountDetails
      text={totalText(booking)}
      label={`Total ${bahtText(booking.totalAmount)} THB, show the breakdown`}
      details={<Breakdown booking={booking} />}
      placement="left"
      maxWidth={360}
    />
  );
}
