import { HistoryOutlined } from '@ant-design/icons';
import { type AuditEntity, can } from '@ev/shared';
import { Button } from 'antd';
import { useNavigate } from 'react-router';
import { useRole } from '../lib/session.ts';

/** The audit log filtered to one record. */
export const historyPath = (entity: AuditEntity, id: string | number) =>
  `/audit-log?${new URLSearchParams({ entity, entityId: String(id) })}`;

/**
 * 'History' on a record's setting page or dialog: opens the audit log filtered to the record. Only for the
 * roles that may read the audit log (the admin), and only for a saved record. A page with unsaved edits asks
 * first, as any other way out of it does.
 */
export function HistoryButton({
  entity,
  id,
  size,
}: {
  entity: AuditEntity;
  id: string | number | undefined;
  size?: 'small' | 'middle';
}) {
  const role = useRole();
  const navigate = useNavigate();
  if (id === undefined || !can(role, 'audit.read')) return null;
  return (
    <Button icon={<HistoryOutlined />} size={size} onClick={() => navigate(historyPath(entity, id))}>
      History
    </Button>
  );
}
