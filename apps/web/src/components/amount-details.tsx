import { InfoCircleOutlined } from '@ant-design/icons';
import { Button, Tooltip, type TooltipProps } from 'antd';
import type { ReactNode } from 'react';
import './amount-details.css';

/** The px around an amount's text in AmountDetails: the small text button's padding and border, the gap and the icon. */
export const AMOUNT_DETAILS_CHROME = 16 + 8 + 14;

/**
 * An amount in a list whose making-up can be read: an info icon beside it, and hovering or focusing it shows
 * `details` (the booking's total and its breakdown, a payment's discount and points).
 */
export function AmountDetails({
  text,
  label,
  details,
  placement,
  maxWidth,
}: {
  text: string;
  /** What a screen reader says: the amount and what the tooltip holds. */
  label: string;
  details: ReactNode;
  placement?: TooltipProps['placement'];
  maxWidth?: number;
}) {
  return (
    <Tooltip
      title={details}
      placement={placement}
      styles={maxWidth ? { container: { maxWidth } } : undefined}
    >
      <Button type="text" size="small" className="amount-details" aria-label={label}>
        {text}
        <InfoCircleOutlined aria-hidden />
      </Button>
    </Tooltip>
  );
}
