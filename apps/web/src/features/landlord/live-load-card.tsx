import type { PowerSessionItem, SitePower } from '@ev/shared';
import { useQuery } from '@tanstack/react-query';
import { Alert, Card, Flex, Grid, Skeleton, Statistic, Table, Tag, Tooltip, Typography } from 'antd';
import { Link } from 'react-router';
import { LoadChart } from '../../components/load-chart.tsx';
import { bangkokTime, kwText } from '../../components/load-chart-scale.ts';
import { ApiError, api } from '../../lib/api.ts';
import { formatThaiDateTime } from '../../lib/format.ts';
import { powerTags } from './power-status.ts';

/**
 * How often the live load is read again: allowances change within 2 s of an event and the chart has a point a
 * minute, so 5 s shows a change about as soon as the server has made it, at one small query per open screen
 * (paused while the tab is hidden). docs/decisions.md.
 */
export const LIVE_LOAD_REFRESH_MS = 5_000;

/** `GET /api/landlord/:id/power`, read again every 5 s while the screen shows. */
export function useSitePower(landlordId: number) {
  return useQuery({
    queryKey: ['/landlord', 'power', landlordId],
    queryFn: ({ signal }) => api<SitePower>(`/landlord/${landlordId}/power`, { signal }),
    refetchInterval: LIVE_LOAD_REFRESH_MS,
    staleTime: 0,
    // The card says it itself: a notice every 5 s would bury the screen.
    meta: { silent: true },
  });
}

const kw2 = new Intl.NumberFormat('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });

const connectorText = (row: PowerSessionItem) => `${row.connectorNameEn} (#${row.ocppConnectorId})`;

function StatusTags({ row }: { row: PowerSessionItem }) {
  return (
    <Flex gap={4} wrap>
      {powerTags(row).map((tag) => (
        <Tooltip key={tag.text} title={tag.tooltip}>
          {/* Focusable, so the explanation reaches keyboard users too. */}
          <Tag color={tag.color} tabIndex={0} style={{ marginInlineEnd: 0, cursor: 'help' }}>
            {tag.text}
          </Tag>
        </Tooltip>
      ))}
    </Flex>
  );
}

const kwColumns = [
  {
    title: 'Allowance (kW)',
    dataIndex: 'allowanceKw',
    key: 'allowanceKw',
    align: 'right' as const,
    render: (allowanceKw: number) => kw2.format(allowanceKw),
  },
  {
    title: 'Drawing (kW)',
    dataIndex: 'powerKw',
    key: 'powerKw',
    align: 'right' as const,
    render: (powerKw: number | null) => (powerKw === null ? '-' : kw2.format(powerKw)),
  },
];

/**
 * The sessions' columns: charger, connector, started, allowance, drawing, status. On a phone the connector
 * and the status go under the charger and the start time gives way, so the two numbers fit beside it without
 * scrolling.
 */
function columns(phone: boolean) {
  if (phone) {
    return [
      {
        title: 'Charger',
        key: 'charger',
        render: (_: unknown, row: PowerSessionItem) => (
          <Flex vertical gap={2} align="start">
            <Link to={`/charger/${encodeURIComponent(row.chargerId)}`}>{row.chargerNameEn}</Link>
            <Typography.Text type="secondary">{connectorText(row)}</Typography.Text>
            <StatusTags row={row} />
          </Flex>
        ),
      },
      ...kwColumns,
    ];
  }
  return [
    {
      title: 'Charger',
      key: 'charger',
      render: (_: unknown, row: PowerSessionItem) => (
        <Link to={`/charger/${encodeURIComponent(row.chargerId)}`}>{row.chargerNameEn}</Link>
      ),
    },
    {
      title: 'Connector',
      key: 'connector',
      render: (_: unknown, row: PowerSessionItem) => connectorText(row),
    },
    {
      title: 'Started',
      dataIndex: 'startedAt',
      key: 'startedAt',
      render: (startedAt: string) => formatThaiDateTime(startedAt),
    },
    ...kwColumns,
    {
      title: 'Status',
      key: 'status',
      render: (_: unknown, row: PowerSessionItem) => <StatusTags row={row} />,
    },
  ];
}

/**
 * The Live load of a site with a limit (issue 34 §1): its power over the last hour against the limit, and
 * each active session's allowance now.
 */
export function LiveLoadCard({ landlordId }: { landlordId: number }) {
  const power = useSitePower(landlordId);
  // Unknown before the first measure: the wide table, as on most screens.
  const phone = Grid.useBreakpoint().sm === false;
  const data = power.data;
  const now = data?.points.at(-1)?.kw ?? 0;
  const waiting = data?.sessions.filter((session) => session.waiting).length ?? 0;
  // Four figures on one or two lines of a phone.
  const statisticStyles = phone ? { content: { fontSize: 18 } } : undefined;
  return (
    <Card
      title="Live load"
      size="small"
      style={{ marginBottom: 24 }}
      data-testid="live-load"
      extra={
        power.dataUpdatedAt > 0 && (
          <Typography.Text type="secondary">Updated {bangkokTime(power.dataUpdatedAt)}</Typography.Text>
        )
      }
    >
      {power.isError && (
        <Alert
          type="warning"
          showIcon
          style={{ marginBottom: 16 }}
          title="The live load could not be read"
          description={power.error instanceof ApiError ? `Code: ${power.error.message}` : undefined}
        />
      )}
      {!data && power.isPending && (
        // About the card's height once loaded, so the form below does not jump when it comes.
        <div style={{ minHeight: 480 }}>
          <Skeleton active paragraph={{ rows: 8 }} />
        </div>
      )}
      {data && (
        <>
          <Flex gap={phone ? 20 : 32} wrap style={{ marginBottom: 12 }}>
            <Statistic title="Now" value={kwText(now)} suffix="kW" styles={statisticStyles} />
            <Statistic
              styles={statisticStyles}
              title="Limit"
              value={data.maxPowerKw === null ? 'None' : kwText(data.maxPowerKw)}
              suffix={data.maxPowerKw === null ? undefined : 'kW'}
            />
            <Statistic
              styles={statisticStyles}
              title="Sessions"
              value={data.sessions.length}
              suffix={waiting > 0 ? `(${waiting} waiting)` : undefined}
            />
            {data.phases !== null && data.voltage !== null && (
              <Statistic
                styles={statisticStyles}
                title="Supply"
                value={`${data.phases} × ${data.voltage}`}
                suffix="V"
              />
            )}
          </Flex>
          <LoadChart points={data.points} limitKw={data.maxPowerKw} />
          <Typography.Title level={5} style={{ marginTop: 16 }}>
            Active sessions
          </Typography.Title>
          <Table<PowerSessionItem>
            size="small"
            rowKey="connectorId"
            pagination={false}
            scroll={phone ? undefined : { x: 'max-content' }}
            dataSource={data.sessions}
            columns={columns(phone)}
            locale={{ emptyText: 'No active sessions' }}
            data-testid="live-load-sessions"
          />
        </>
      )}
    </Card>
  );
}
