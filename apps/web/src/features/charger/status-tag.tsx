import { Tag, Tooltip } from 'antd';
import { formatThaiDateTime } from '../../lib/format.ts';
import { shownErrorCode, statusColor } from './charger-format.ts';

/** A connector's status as a coloured tag, its OCPP error code (if any) in a tooltip; '-' for other values. */
export function StatusTag({ status, errorCode }: { status: string; errorCode: string | null }) {
  const color = statusColor(status);
  if (!color) return <span>-</span>;
  const error = shownErrorCode(errorCode);
  const tag = (
    <Tag color={color} data-status={status}>
      {status}
      {error && ' ⚠'}
    </Tag>
  );
  return error ? <Tooltip title={`Error: ${error}`}>{tag}</Tooltip> : tag;
}

/** Whether the charger is connected over OCPP now: a green 'Online' or a grey 'Offline' tag. */
export function OnlineTag({ online }: { online: boolean }) {
  return online ? <Tag color="green">Online</Tag> : <Tag>Offline</Tag>;
}

/**
 * The charger's answer to the power sharing's profiles (issue 34; a refusal first, else the newest): green
 * when it accepted, blue while it has not answered, red otherwise (a charger that refused, did not answer or
 * is offline is counted at its full power), with when.
 */
export function ProfileTag({ status, at }: { status: string; at: string | null }) {
  const when = at ? ` (${formatThaiDateTime(at)})` : '';
  const [color, title] =
    status === 'Accepted'
      ? ['green', `The charger accepted its power profile${when}.`]
      : status === 'Pending'
        ? ['blue', `A power profile was sent${when}; the charger has not answered yet.`]
        : [
            'red',
            `The charger did not take its power profile (${status})${when}: the site counts it at its full power, so the other sessions stay under the limit.`,
          ];
  return (
    <Tooltip title={title}>
      <Tag color={color} tabIndex={0} data-profile-status={status}>
        {status}
      </Tag>
    </Tooltip>
  );
}
