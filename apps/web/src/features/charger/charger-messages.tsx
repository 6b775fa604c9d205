import { ArrowDownOutlined, ArrowUpOutlined, DownloadOutlined } from '@ant-design/icons';
import {
  type ChargerMessage,
  can,
  LIST_PAGE_SIZE,
  MESSAGE_DIRECTIONS,
  type MessageDirection,
  type MessageDownload,
  type MessageKind,
  OCPP_ACTIONS,
} from '@ev/shared';
import { Alert, Button, Col, DatePicker, Flex, Select, Space, Switch, Tag, Tooltip, Typography } from 'antd';
import type { Dayjs } from 'dayjs';
import { useState } from 'react';
import { FormSection } from '../../components/form/fields.tsx';
import { TAG_CHROME } from '../../components/list/content-width.ts';
import { EMPTY_TEXT, FittedTable, rangeText } from '../../components/list/data-table.tsx';
import type { ListColumns } from '../../components/list/fit-columns.ts';
import { useRole } from '../../lib/session.ts';
import { ChargerConnections } from './charger-connections.tsx';
import './charger-messages.css';
import { downloadMessages, useMessageLog } from './message-api.ts';
import { formatLogTime, payloadPreview, prettyPayload } from './message-format.ts';

const KIND_COLORS: Record<MessageKind, string> = {
  call: 'blue',
  result: 'green',
  error: 'red',
  malformed: 'orange',
};
const DIRECTION_TEXT: Record<MessageDirection, string> = { in: 'From the charger', out: 'To the charger' };

function Direction({ direction }: { direction: MessageDirection }) {
  return (
    <Tooltip title={DIRECTION_TEXT[direction]}>
      <span data-direction={direction} style={{ whiteSpace: 'nowrap' }}>
        {direction === 'in' ? (
          <ArrowDownOutlined style={{ color: '#389e0d' }} />
        ) : (
          <ArrowUpOutlined style={{ color: '#1677ff' }} />
        )}{' '}
        {direction === 'in' ? 'In' : 'Out'}
      </span>
    </Tooltip>
  );
}

/**
 * Time, direction, kind and action always show; with less room the message id gives way, then the protocol.
 * The payload's one line takes the rest, cut with '…' and a tooltip; the row opens to the whole of it.
 */
const COLUMNS: ListColumns<ChargerMessage> = [
  { title: 'Time', dataIndex: 'at', key: 'at', kind: 'date', render: (at: string) => formatLogTime(at) },
  {
    title: 'Dir.',
    dataIndex: 'direction',
    key: 'direction',
    width: 72,
    render: (direction: MessageDirection) => <Direction direction={direction} />,
  },
  {
    title: 'Kind',
    dataIndex: 'kind',
    key: 'kind',
    kind: 'label',
    textOf: (message) => message.kind,
    chrome: TAG_CHROME,
    render: (kind: MessageKind) => <Tag color={KIND_COLORS[kind]}>{kind}</Tag>,
  },
  {
    title: 'Action',
    dataIndex: 'action',
    key: 'action',
    kind: 'code',
    render: (action: string | null) => action ?? '-',
  },
  {
    title: 'Message Id',
    dataIndex: 'messageId',
    key: 'messageId',
    minWidth: 120,
    priority: 2,
    render: (id: string) => id || '-',
  },
  { title: 'Protocol', dataIndex: 'protocol', key: 'protocol', kind: 'code', priority: 3 },
  {
    title: 'Payload',
    dataIndex: 'payload',
    key: 'payload',
    minWidth: 200,
    render: (payload: unknown) => payloadPreview(payload),
  },
];

interface Filters {
  action?: string;
  direction?: MessageDirection;
  range?: [Dayjs | null, Dayjs | null] | null;
}

/** The filters as the API's query: action, direction, createdAfter, createdBefore. */
function filterQueryOf(filters: Filters): string {
  const query = new URLSearchParams();
  if (filters.action) query.set('action', filters.action);
  if (filters.direction) query.set('direction', filters.direction);
  const [from, to] = filters.range ?? [];
  if (from) query.set('createdAfter', from.toISOString());
  if (to) query.set('createdBefore', to.toISOString());
  return query.toString();
}

/** An Enter in a filter must not submit the charger's form around this section (its Save). */
const keepEnter = (event: React.KeyboardEvent) => {
  if (event.key === 'Enter' && event.target instanceof HTMLInputElement) event.preventDefault();
};

/**
 * What the charger said (issue 32): every OCPP frame both ways, filtered by action, direction and time, a page
 * at a time, each row opening to its payload; Live adds new frames as they come; the matching log downloads
 * as CSV or JSON lines. Below, its connections. For the roles with `charger.messages`.
 */
export function ChargerMessages({ chargerId }: { chargerId: string }) {
  const role = useRole();
  const [filters, setFilters] = useState<Filters>({});
  const [paging, setPaging] = useState({ page: 1, size: LIST_PAGE_SIZE });
  const [live, setLive] = useState(false);
  const [busy, setBusy] = useState<MessageDownload | null>(null);
  const filterQuery = filterQueryOf(filters);
  const log = useMessageLog(chargerId, filterQuery, paging, live);
  if (!can(role, 'charger.messages')) return null;
  const filter = (change: Partial<Filters>) => {
    setFilters((was) => ({ ...was, ...change }));
    setPaging((was) => ({ ...was, page: 1 }));
  };
  const download = (mode: MessageDownload) => {
    setBusy(mode);
    void downloadMessages(chargerId, filterQuery, mode).finally(() => setBusy(null));
  };
  return (
    <FormSection title="Messages">
      <Col span={24}>
        {/* biome-ignore lint/a11y/noStaticElementInteractions: only stops Enter from saving the charger */}
        <div onKeyDown={keepEnter} data-testid="charger-messages" style={{ marginBottom: 24 }}>
          <Flex wrap gap="small" align="center" style={{ marginBottom: 12 }}>
            <Select
              allowClear
              showSearch
              aria-label="Action"
              placeholder="All actions"
              style={{ width: 240 }}
              value={filters.action}
              onChange={(action?: string) => filter({ action })}
              options={OCPP_ACTIONS.map((value) => ({ value, label: value }))}
            />
            <Select
              allowClear
              aria-label="Direction"
              placeholder="Both directions"
              style={{ width: 180 }}
              value={filters.direction}
              onChange={(direction?: MessageDirection) => filter({ direction })}
              options={MESSAGE_DIRECTIONS.map((value) => ({ value, label: DIRECTION_TEXT[value] }))}
            />
            <DatePicker.RangePicker
              showTime
              allowEmpty={[true, true]}
              aria-label="Time"
              placeholder={['From', 'To']}
              value={filters.range ?? null}
              onChange={(range) => filter({ range })}
            />
            <Space style={{ marginLeft: 'auto' }} wrap>
              <Switch checked={live} onChange={setLive} aria-label="Live" />
              <Typography.Text>Live</Typography.Text>
              <Button icon={<DownloadOutlined />} loading={busy === 'csv'} onClick={() => download('csv')}>
                CSV
              </Button>
              <Button
                icon={<DownloadOutlined />}
                loading={busy === 'jsonl'}
                onClick={() => download('jsonl')}
              >
                JSON lines
              </Button>
            </Space>
          </Flex>
          {log.fresh > 0 && (
            <Alert
              type="info"
              showIcon
              style={{ marginBottom: 12 }}
              title={`${log.fresh.toLocaleString('en')} new message${log.fresh === 1 ? '' : 's'} since the first page`}
              action={
                <Button size="small" onClick={() => setPaging((was) => ({ ...was, page: 1 }))}>
                  Show newest
                </Button>
              }
              data-testid="fresh-messages"
            />
          )}
          <div data-testid="message-log">
            <FittedTable<ChargerMessage>
              rowKey="id"
              size="small"
              columns={COLUMNS}
              dataSource={log.rows}
              loading={log.loading}
              locale={{ emptyText: EMPTY_TEXT }}
              onRow={(row) =>
                log.tailIds.has(row.id) ? { className: 'message-new', 'data-new': 'true' } : {}
              }
              expandable={{
                expandedRowRender: (row) => (
                  <pre className="message-payload" data-testid={`payload-${row.id}`}>
                    {prettyPayload(row.payload)}
                  </pre>
                ),
              }}
              pagination={{
                current: paging.page,
                pageSize: paging.size,
                total: log.total,
                size: 'small',
                showSizeChanger: true,
                showQuickJumper: true,
                showTotal: rangeText,
                onChange: (page, size) => setPaging({ page, size }),
              }}
            />
          </div>
          <ChargerConnections chargerId={chargerId} live={live} />
        </div>
      </Col>
    </FormSection>
  );
}
