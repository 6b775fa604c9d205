import { ADMIN_ROLE_LABELS, type AdminRole, type AuditEntry } from '@ev/shared';
import { Button } from 'antd';
import { useState } from 'react';
import { Link } from 'react-router';
import { LINK_CHROME } from '../../components/list/content-width.ts';
import { DayFilter } from '../../components/list/date-filter.tsx';
import { OneFilter, TextFilter } from '../../components/list/filter-fields.tsx';
import type { ListColumns } from '../../components/list/fit-columns.ts';
import { ListPage } from '../../components/list/list-page.tsx';
import { formatThaiDateTime } from '../../lib/format.ts';
import { AuditEntryDetails } from './audit-changes.tsx';
import { ACTION_OPTIONS, actionLabel, ENTITY_OPTIONS, entityLabel, recordLink } from './audit-format.ts';
import { UserFilter } from './user-filter.tsx';
import './audit.css';

const ENDPOINT = '/audit-log';
const FILTERS = {
  userId: 'one',
  entity: 'one',
  entityId: 'one',
  action: 'one',
  from: 'one',
  to: 'one',
} as const;

/** Who acted: their email, or for a failed sign-in of an unknown address what was typed. */
function actorText(entry: AuditEntry): string {
  if (entry.userEmail) return entry.userEmail;
  const typed = entry.details?.email;
  return typeof typed === 'string' && typed !== '' ? typed : '-';
}

function AuditFilters() {
  return (
    <>
      <UserFilter />
      <OneFilter label="Entity" name="entity" options={ENTITY_OPTIONS} />
      <TextFilter label="Entity ID" name="entityId" />
      <OneFilter label="Action" name="action" options={ACTION_OPTIONS} />
      <DayFilter label="Date From" name="from" edge="start" />
      <DayFilter label="Date To" name="to" edge="end" />
    </>
  );
}

/**
 * The time and the action always show; with less room the IP goes first, then the role, the entity's id, the
 * entity and the user.
 */
const COLUMNS: ListColumns<AuditEntry> = [
  {
    title: 'Time',
    dataIndex: 'at',
    key: 'at',
    sorter: true,
    kind: 'date',
    render: (at: string) => formatThaiDateTime(at),
  },
  { title: 'User', key: 'user', priority: 1, render: (_, entry) => actorText(entry) },
  {
    title: 'Role',
    dataIndex: 'role',
    key: 'role',
    kind: 'label',
    priority: 4,
    render: (role: string | null) => (role ? (ADMIN_ROLE_LABELS[role as AdminRole] ?? role) : '-'),
  },
  {
    title: 'IP',
    dataIndex: 'ip',
    key: 'ip',
    kind: 'code',
    priority: 5,
    render: (ip: string | null) => ip ?? '-',
  },
  {
    title: 'Entity',
    dataIndex: 'entity',
    key: 'entity',
    kind: 'label',
    priority: 2,
    render: (entity: string) => entityLabel(entity),
  },
  {
    title: 'Entity ID',
    dataIndex: 'entityId',
    key: 'entityId',
    kind: 'code',
    priority: 3,
    textOf: (entry) => entry.entityId ?? '-',
    chrome: LINK_CHROME,
    render: (_, entry) => {
      if (entry.entityId === null) return '-';
      const link = recordLink(entry);
      return link ? (
        <Link to={link} aria-label={`Open ${entityLabel(entry.entity)} ${entry.entityId}`}>
          {entry.entityId}
        </Link>
      ) : (
        entry.entityId
      );
    },
  },
  {
    title: 'Action',
    dataIndex: 'action',
    key: 'action',
    kind: 'label',
    render: (action: string) => actionLabel(action),
  },
];

/** /audit-log (issue 36, admin only): who changed what and when; a row opens to its field changes. */
export function AuditLogPage() {
  const [expanded, setExpanded] = useState<readonly number[]>([]);
  return (
    <ListPage<AuditEntry, typeof FILTERS>
      title="Audit Log"
      endpoint={ENDPOINT}
      itemsKey="entries"
      filterSpec={FILTERS}
      filters={<AuditFilters />}
      exportSpec={{ fileName: 'AuditLog', notFoundMessage: 'No audit entries match' }}
      columns={COLUMNS}
      rowKey="id"
      size="small"
      expandable={(items) => {
        const all = items.length > 0 && items.every((item) => expanded.includes(item.id));
        return {
          expandedRowKeys: expanded,
          onExpandedRowsChange: (keys) => setExpanded(keys as number[]),
          expandedRowRender: (entry) => <AuditEntryDetails entry={entry} />,
          columnTitle: (
            <Button
              type="text"
              size="small"
              aria-label={all ? 'Collapse all' : 'Expand all'}
              onClick={() => setExpanded(all ? [] : items.map((item) => item.id))}
            >
              {all ? '−' : '+'}
            </Button>
          ),
        };
      }}
    />
  );
}
