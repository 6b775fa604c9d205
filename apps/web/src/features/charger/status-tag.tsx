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
 * The charger's answer to the safe default profile sent at boot on a limited site (issue 34): green when it
 * accepted, red otherwise (a charger that refused is counted at its full power), with when it answered.
 */
export function ProfileTag({ status, at }: { status: string; at: string | null }) {
  const accepted = status === 'Accepted';
  const when = at ? ` (${formatThaiDateTime(at)})` : '';
  const title = accepted
    ? `The charger accepted the safe default profile sent at boot${when}.`
    : `The charger did not take the safe default profile sent at boot${when}: the site counts it at its full power, so the other sessions stay under the limit.`;
  return (
    <Tooltip title={title}>
      <Tag color={accepted ? 'green' : 'red'} tabIndex={0} data-profile-status={status}>
        {status}
      </Tag>
    </Tooltip>
  );
}
