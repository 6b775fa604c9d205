import { type ChargerConnection, LIST_PAGE_SIZE } from '@ev/shared';
import { Tag, Typography } from 'antd';
import { useState } from 'react';
import { TAG_CHROME } from '../../components/list/content-width.ts';
import { EMPTY_TEXT, FittedTable, rangeText } from '../../components/list/data-table.tsx';
import type { ListColumns } from '../../components/list/fit-columns.ts';
import { useConnections } from './message-api.ts';
import { connectionDuration, connectionEnd, formatLogTime } from './message-format.ts';

function State({ connection }: { connection: ChargerConnection }) {
  if (connection.refusedStatus !== null) return <Tag color="red">Refused</Tag>;
  return connection.disconnectedAt ? <Tag>Closed</Tag> : <Tag color="green">Open</Tag>;
}

/** When, how long, from where, and how it ended; the server process gives way first when room is short. */
const COLUMNS: ListColumns<ChargerConnection> = [
  {
    title: 'Connected At',
    dataIndex: 'connectedAt',
    key: 'connectedAt',
    kind: 'date',
    render: (at: string) => formatLogTime(at),
  },
  {
    title: 'State',
    key: 'state',
    kind: 'label',
    textOf: (connection) => (connection.refusedStatus !== null ? 'Refused' : 'Closed'),
    chrome: TAG_CHROME,
    render: (_, connection) => <State connection={connection} />,
  },
  {
    title: 'Disconnected At',
    dataIndex: 'disconnectedAt',
    key: 'disconnectedAt',
    kind: 'date',
    priority: 2,
    render: (at: string | null, connection) => (connection.refusedStatus !== null ? '-' : formatLogTime(at)),
  },
  {
    title: 'Duration',
    key: 'duration',
    kind: 'number',
    priority: 3,
    render: (_, connection) => connectionDuration(connection),
  },
  {
    title: 'Remote Address',
    dataIndex: 'remoteAddress',
    key: 'remoteAddress',
    kind: 'code',
    render: (address: string | null) => address ?? '-',
  },
  {
    title: 'Close Code and Reason',
    key: 'end',
    minWidth: 160,
    render: (_, connection) => connectionEnd(connection),
  },
  {
    title: 'Server Process',
    dataIndex: 'node',
    key: 'node',
    minWidth: 120,
    priority: 4,
    render: (node: string | null) => node ?? '-',
  },
];

/** The charger's connections and refused attempts, newest first; reloaded every few seconds while live. */
export function ChargerConnections({ chargerId, live }: { chargerId: string; live: boolean }) {
  const [paging, setPaging] = useState({ page: 1, size: LIST_PAGE_SIZE });
  const connections = useConnections(chargerId, paging, live);
  return (
    <div data-testid="charger-connections" style={{ marginTop: 16 }}>
      <Typography.Title level={5}>Connections</Typography.Title>
      <FittedTable<ChargerConnection>
        rowKey="id"
        size="small"
        columns={COLUMNS}
        dataSource={connections.data?.connections ?? []}
        loading={connections.isFetching && connections.isPlaceholderData}
        locale={{ emptyText: EMPTY_TEXT }}
        pagination={{
          current: paging.page,
          pageSize: paging.size,
          total: connections.data?.total ?? 0,
          size: 'small',
          showSizeChanger: true,
          showTotal: rangeText,
          onChange: (page, size) => setPaging({ page, size }),
        }}
      />
    </div>
  );
}
