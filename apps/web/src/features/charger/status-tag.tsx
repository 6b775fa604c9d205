import { Tag, Tooltip } from 'antd';
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
