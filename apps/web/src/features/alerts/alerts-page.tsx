import { ALERT_CONDITION_LABELS, ALERT_CONDITIONS, type AlertItem } from '@ev/shared';
import { useQueryClient } from '@tanstack/react-query';
import { Button, Flex, Tag, Tooltip } from 'antd';
import { useCallback } from 'react';
import { useNavigate } from 'react-router';
import { LINK_CHROME, TAG_CHROME } from '../../components/list/content-width.ts';
import { ANY, OneFilter } from '../../components/list/filter-fields.tsx';
import type { ListColumns } from '../../components/list/fit-columns.ts';
import { ListPage } from '../../components/list/list-page.tsx';
import { LIST_QUERY_KEY } from '../../components/list/use-list-query.ts';
import { ALERTS_QUERY_KEY, markAlertsRead } from '../../lib/alerts.ts';
import { formatThaiDateTime } from '../../lib/format.ts';
import { notifyCallError } from '../../lib/notify.ts';
import { SubscriptionsCard } from './subscriptions-card.tsx';

const ENDPOINT = '/alerts';
const FILTERS = { open: 'one', condition: 'one', unread: 'one' } as const;
const STATE_OPTIONS = [ANY, { value: 'true', label: 'Open' }, { value: 'false', label: 'Resolved' }];
const READ_OPTIONS = [ANY, { value: 'true', label: 'Unread' }];
const CONDITION_OPTIONS = [
  ANY,
  ...ALERT_CONDITIONS.map((value) => ({ value, label: ALERT_CONDITION_LABELS[value] })),
];

function AlertFilters() {
  return (
    <>
      <OneFilter label="State" name="open" options={STATE_OPTIONS} />
      <OneFilter label="Condition" name="condition" options={CONDITION_OPTIONS} />
      <OneFilter label="Read" name="unread" options={READ_OPTIONS} />
    </>
  );
}

const conditionLabel = (alert: AlertItem) => ALERT_CONDITION_LABELS[alert.condition] ?? alert.condition;

/** The bell's and this list's data again (the bell's unread count moves with a read here). */
function useRefresh() {
  const queryClient = useQueryClient();
  return useCallback(async () => {
    await Promise.all([
      queryClient.invalidateQueries({ queryKey: [ALERTS_QUERY_KEY] }),
      queryClient.invalidateQueries({ queryKey: [LIST_QUERY_KEY, ENDPOINT] }),
    ]);
  }, [queryClient]);
}

function AlertState({ alert }: { alert: AlertItem }) {
  return (
    <Flex gap={4} wrap={false}>
      {alert.resolvedAt ? (
        <Tooltip title={`Resolved ${formatThaiDateTime(alert.resolvedAt)}`}>
          <Tag color="green">Resolved</Tag>
        </Tooltip>
      ) : (
        <Tag color="red">Open</Tag>
      )}
      {!alert.read && <Tag color="blue">New</Tag>}
    </Flex>
  );
}

function columnsFor(open: (alert: AlertItem) => void): ListColumns<AlertItem> {
  return [
    {
      title: 'Fired',
      dataIndex: 'firedAt',
      key: 'firedAt',
      sorter: true,
      kind: 'date',
      render: (at: string) => formatThaiDateTime(at),
    },
    {
      title: 'Condition',
      key: 'condition',
      kind: 'label',
      priority: 2,
      render: (_, alert) => conditionLabel(alert),
    },
    { title: 'Message', dataIndex: 'message', key: 'message' },
    {
      title: 'Since',
      dataIndex: 'startedAt',
      key: 'startedAt',
      sorter: true,
      kind: 'date',
      priority: 1,
      render: (at: string) => formatThaiDateTime(at),
    },
    {
      title: 'State',
      key: 'state',
      kind: 'label',
      textOf: (alert) => [alert.resolvedAt ? 'Resolved' : 'Open', ...(alert.read ? [] : ['New'])].join(' '),
      chrome: TAG_CHROME * 2,
      render: (_, alert) => <AlertState alert={alert} />,
    },
    {
      title: 'Action',
      key: 'action',
      fixed: 'right',
      kind: 'label',
      textOf: () => 'Open',
      chrome: LINK_CHROME,
      render: (_, alert) => (
        <Button
          type="link"
          size="small"
          disabled={!alert.link}
          aria-label={`Open ${alert.message}`}
          onClick={() => open(alert)}
        >
          Open
        </Button>
      ),
    },
  ];
}

/** /alerts (issue 36, every role): the user's alerts in their scope, and what they hear about. */
export function AlertsPage() {
  const navigate = useNavigate();
  const refresh = useRefresh();
  const open = (alert: AlertItem) => {
    if (!alert.read) void markAlertsRead({ ids: [alert.id] }).then(refresh, () => {});
    if (alert.link) navigate(alert.link);
  };
  const readAll = async () => {
    try {
      await markAlertsRead({ all: true });
      await refresh();
    } catch (error) {
      notifyCallError(error, undefined);
    }
  };
  return (
    <Flex vertical gap={16}>
      <ListPage<AlertItem, typeof FILTERS>
        title="Alerts"
        endpoint={ENDPOINT}
        itemsKey="alerts"
        filterSpec={FILTERS}
        filters={<AlertFilters />}
        actions={<Button onClick={() => void readAll()}>Mark all as read</Button>}
        columns={columnsFor(open)}
        rowKey="id"
      />
      <SubscriptionsCard />
    </Flex>
  );
}
