import { can, type PointRate, type PointStatus } from '@ev/shared';
import { Button, Card, Flex, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useColumnChoice } from '../../components/list/column-choice.ts';
import { LINK_CHROME, TAG_CHROME } from '../../components/list/content-width.ts';
import { EMPTY_TEXT, FittedTable } from '../../components/list/data-table.tsx';
import type { ListColumns } from '../../components/list/fit-columns.ts';
import { DeleteButton } from '../../components/list/row-actions.tsx';
import { formatThaiDateTime } from '../../lib/format.ts';
import { useRole } from '../../lib/session.ts';
import { POINT_ENDPOINT, usePoints } from './api.ts';
import { cardName, earnText, redeemText, STATUS_TAGS } from './point-format.ts';
import { PointModal } from './point-modal.tsx';

const TITLE = 'Point Setup';

/** The modal shown: none, New, or Edit of a pending card. */
type Editing = { card: PointRate | undefined } | null;

/**
 * The Effective Date and the actions always show; with less room the redeem rate goes first, then the earn
 * rate, then the status. The rates are text columns cut with '…' and a tooltip when very long.
 */
function columnsFor(canWrite: boolean, edit: (card: PointRate) => void): ListColumns<PointRate> {
  const columns: ListColumns<PointRate> = [
    { title: 'Earn', key: 'earn', priority: 2, render: (_, card) => earnText(card) },
    { title: 'Redeem', key: 'redeem', priority: 3, render: (_, card) => redeemText(card) },
    {
      title: 'Effective Date',
      dataIndex: 'validFrom',
      key: 'validFrom',
      kind: 'date',
      render: (at: string) => formatThaiDateTime(at),
    },
    {
      title: 'Status',
      dataIndex: 'status',
      key: 'status',
      kind: 'label',
      textOf: (card) => STATUS_TAGS[card.status].label,
      chrome: TAG_CHROME,
      priority: 1,
      render: (status: PointStatus) => (
        <Tag color={STATUS_TAGS[status].color}>{STATUS_TAGS[status].label}</Tag>
      ),
    },
  ];
  if (!canWrite) return columns;
  columns.push({
    title: 'Action',
    key: 'action',
    fixed: 'right',
    kind: 'label',
    textOf: (card) => (card.status === 'pending' ? ['Edit', 'Delete'] : []),
    chrome: LINK_CHROME,
    // Only a pending card changes or goes: the active one is in force, the past ones are the history the
    // points earned so far were counted by (the server refuses both with a 409).
    render: (_, card) =>
      card.status === 'pending' && (
        <Flex gap={4} wrap={false}>
          <Button type="link" size="small" aria-label={`Edit ${cardName(card)}`} onClick={() => edit(card)}>
            Edit
          </Button>
          <DeleteButton path={`${POINT_ENDPOINT}/${card.id}`} name={cardName(card)} />
        </Flex>
      ),
  });
  return columns;
}

/**
 * /point-setup (document 3): the green-point earn and redeem rate cards, all of them in the server's order
 * (the Active one, the Pending ones by start, the Past ones latest first), with New, and Edit and Delete on
 * the Pending ones.
 */
export function PointSetupPage() {
  const role = useRole();
  const canWrite = can(role, 'point.write');
  const points = usePoints();
  const [editing, setEditing] = useState<Editing>(null);
  const [columnChoice, setColumnChoice] = useColumnChoice(TITLE);

  return (
    <Card
      title={
        <Typography.Title level={4} style={{ margin: 0 }}>
          {TITLE}
        </Typography.Title>
      }
      extra={
        canWrite && (
          <Button type="primary" onClick={() => setEditing({ card: undefined })}>
            New
          </Button>
        )
      }
    >
      <FittedTable<PointRate>
        rowKey="id"
        size="middle"
        columns={columnsFor(canWrite, (card) => setEditing({ card }))}
        columnChoice={{ choice: columnChoice, onChoice: setColumnChoice }}
        dataSource={points.data ?? []}
        loading={points.isPending}
        locale={{ emptyText: EMPTY_TEXT }}
        pagination={false}
      />
      {editing && <PointModal card={editing.card} onClose={() => setEditing(null)} />}
    </Card>
  );
}
