import type { AuditChange, AuditEntry } from '@ev/shared';
import { Descriptions, Table, type TableProps, Tooltip, Typography } from 'antd';
import { useRef, useState } from 'react';
import { useMediaQuery } from '../../lib/media-query.ts';
import { valueText } from './audit-format.ts';

/**
 * One value of a change on one line, cut with '…'; the whole of it (JSON pretty) in a tooltip when cut or
 * when it is JSON. A before is struck through in a muted red, an after green; empty and '[redacted]' are
 * shown as such, neither struck nor coloured.
 */
export function ChangeValue({ value, side }: { value: unknown; side: 'before' | 'after' | 'detail' }) {
  const ref = useRef<HTMLSpanElement>(null);
  const [open, setOpen] = useState(false);
  const text = valueText(value);
  const cut = () => !!ref.current && ref.current.scrollWidth > ref.current.clientWidth;
  const marked = text.kind === 'json' || text.kind === 'text';
  const className = ['audit-value', `audit-value-${text.kind}`, marked ? `audit-${side}` : '']
    .filter(Boolean)
    .join(' ');
  return (
    <Tooltip
      title={<pre className="audit-value-whole">{text.whole}</pre>}
      open={open}
      onOpenChange={(next) => setOpen(next && (text.kind === 'json' || cut()))}
      styles={{ root: { maxWidth: 560 } }}
    >
      <span ref={ref} className={className} data-side={side}>
        {text.line}
      </span>
    </Tooltip>
  );
}

const CHANGE_COLUMNS: TableProps<AuditChange>['columns'] = [
  {
    title: 'Field',
    dataIndex: 'field',
    key: 'field',
    width: '28%',
    render: (field: string) => (
      <Typography.Text code className="audit-field">
        {field}
      </Typography.Text>
    ),
  },
  {
    title: 'Before',
    dataIndex: 'before',
    key: 'before',
    render: (value: unknown) => <ChangeValue value={value} side="before" />,
  },
  {
    title: 'After',
    dataIndex: 'after',
    key: 'after',
    render: (value: unknown) => <ChangeValue value={value} side="after" />,
  },
];

/** A phone: a change per block (the field, then before and after), not three columns of a few letters. */
const NARROW = '(max-width: 575px)';

function StackedChanges({ changes }: { changes: AuditChange[] }) {
  return (
    <ul className="audit-changes audit-changes-stacked">
      {changes.map((change) => (
        <li key={change.field} className="audit-change">
          <Typography.Text code className="audit-field">
            {change.field}
          </Typography.Text>
          <div className="audit-change-pair">
            <span className="audit-change-label">Before</span>
            <ChangeValue value={change.before} side="before" />
            <span className="audit-change-label">After</span>
            <ChangeValue value={change.after} side="after" />
          </div>
        </li>
      ))}
    </ul>
  );
}

/** An entry opened: its field changes (before → after), and what else it says (a command's answer, a filter). */
export function AuditEntryDetails({ entry }: { entry: AuditEntry }) {
  const narrow = useMediaQuery(NARROW);
  const details = Object.entries(entry.details ?? {});
  return (
    <div className="audit-entry" data-testid={`audit-entry-${entry.id}`}>
      {entry.changes.length > 0 &&
        (narrow ? (
          <StackedChanges changes={entry.changes} />
        ) : (
          <Table<AuditChange>
            className="audit-changes"
            size="small"
            tableLayout="fixed"
            pagination={false}
            rowKey={(change) => change.field}
            rowClassName="audit-change"
            columns={CHANGE_COLUMNS}
            dataSource={entry.changes}
          />
        ))}
      {details.length > 0 && (
        <Descriptions
          className="audit-details"
          size="small"
          bordered
          column={1}
          title={entry.changes.length > 0 ? 'Details' : undefined}
          items={details.map(([key, value]) => ({
            key,
            label: key,
            children: <ChangeValue value={value} side="detail" />,
          }))}
        />
      )}
      {entry.changes.length === 0 && details.length === 0 && (
        <Typography.Text type="secondary">No field changed.</Typography.Text>
      )}
    </div>
  );
}
