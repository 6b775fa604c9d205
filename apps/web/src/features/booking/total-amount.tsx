import { InfoCircleOutlined } from '@ant-design/icons';
import type { BookingItem } from '@ev/shared';
import { Button, Tooltip } from 'antd';
import { bahtText, breakdown } from './booking-format.ts';

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

/** The total owed, THB with 2 decimals; hovering or focusing it shows how it was made up. */
export function TotalAmount({ booking }: { booking: BookingItem }) {
  return (
    <Tooltip
      title={<Breakdown booking={booking} />}
      placement="left"
      styles={{ container: { maxWidth: 360 } }}
    >
      <Button
        type="text"
        size="small"
        className="booking-total"
        aria-label={`Total ${bahtText(booking.totalAmount)} THB, show the breakdown`}
      >
        {booking.live && '≈ '}
        {bahtText(booking.totalAmount)}
        <InfoCircleOutlined aria-hidden />
      </Button>
    </Tooltip>
  );
}
