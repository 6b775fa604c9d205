import { ArrowDownOutlined, ArrowUpOutlined, MinusOutlined } from '@ant-design/icons';
import type { DashboardResponse, DayFigures } from '@ev/shared';
import { Alert, Card, Empty, Flex, Grid, Skeleton, Statistic, Tag, Typography } from 'antd';
import { Link } from 'react-router';
import { ApiError } from '../../lib/api.ts';
import { formatThaiDateTime } from '../../lib/format.ts';
import { useDashboard } from './api.ts';
import { DailyChart, DonutChart, HourChart, ScreenCard, SitesChart } from './charts.tsx';
import {
  type Change,
  changeOf,
  changeText,
  countText,
  downForText,
  durationText,
  kwhText,
  percentText,
  thbText,
} from './stat-format.ts';
import {
  connectorSlices,
  dailyPoints,
  dashboardIsEmpty,
  hourPoints,
  methodSlices,
  sitePoints,
} from './stat-series.ts';
import './statistics.css';

const bangkokClock = new Intl.DateTimeFormat('th-TH', {
  timeZone: 'Asia/Bangkok',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
  hour12: false,
});

/** Today's figures against the usual, in the order of the issue. */
const TODAY: {
  title: string;
  value: (d: DayFigures) => number | null;
  text: (d: DayFigures) => string;
  judged: boolean;
}[] = [
  { title: 'Energy', value: (d) => d.energyWh, text: (d) => kwhText(d.energyWh), judged: true },
  { title: 'Revenue', value: (d) => d.revenue, text: (d) => thbText(d.revenue), judged: true },
  { title: 'Sessions', value: (d) => d.sessions, text: (d) => countText(d.sessions), judged: true },
  {
    title: 'Average session',
    value: (d) => d.averageSeconds,
    text: (d) => durationText(d.averageSeconds),
    judged: false,
  },
  {
    title: 'Plug-in success',
    value: (d) => d.successRate,
    text: (d) => percentText(d.successRate),
    judged: true,
  },
];

/** Up and down in words and an arrow; green and red (AA on white) where more is better. */
function ChangeLine({ change, usual, judged }: { change: Change | null; usual: string; judged: boolean }) {
  if (!change) return <Typography.Text type="secondary">Usual: {usual}</Typography.Text>;
  const colour =
    !judged || change.direction === 'same' ? undefined : change.direction === 'up' ? '#237804' : '#a8071a';
  const Icon =
    change.direction === 'up'
      ? ArrowUpOutlined
      : change.direction === 'down'
        ? ArrowDownOutlined
        : MinusOutlined;
  const word = change.direction === 'up' ? 'above' : change.direction === 'down' ? 'below' : 'as';
  return (
    <Flex vertical gap={0}>
      <Typography.Text style={{ color: colour }} aria-label={`${changeText(change)} ${word} usual`}>
        <Icon /> {changeText(change)}
      </Typography.Text>
      <Typography.Text type="secondary">Usual: {usual}</Typography.Text>
    </Flex>
  );
}

function TodayCards({ today, usual }: Pick<DashboardResponse, 'today' | 'usual'>) {
  return (
    <div className="stat-grid stat-today" data-testid="dashboard-today">
      {TODAY.map((figure) => (
        <Card key={figure.title} size="small">
          <Statistic title={figure.title} value={figure.text(today)} styles={{ content: { fontSize: 20 } }} />
          <ChangeLine
            change={changeOf(figure.value(today), figure.value(usual))}
            usual={figure.text(usual)}
            judged={figure.judged}
          />
        </Card>
      ))}
    </div>
  );
}

function DownList({ down, at }: { down: DashboardResponse['now']['down']; at: string }) {
  if (down.length === 0) {
    return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="Every charger is up" />;
  }
  return (
    <ol className="stat-down" data-testid="dashboard-down">
      {down.map((charger) => (
        <li key={charger.chargerId}>
          <Flex justify="space-between" gap={8} align="start">
            <Flex vertical gap={0} style={{ minWidth: 0 }}>
              <Link to={`/charger/${encodeURIComponent(charger.chargerId)}`} className="stat-ellipsis">
                {charger.nameEn}
              </Link>
              <Typography.Text type="secondary" ellipsis={{ tooltip: charger.landlordNameEn }}>
                {charger.landlordNameEn}
              </Typography.Text>
            </Flex>
            <Flex vertical gap={2} align="end" style={{ flex: 'none' }}>
              <Tag color={charger.state === 'Faulted' ? 'error' : 'default'} style={{ marginInlineEnd: 0 }}>
                {charger.state}
              </Tag>
              <Typography.Text
                type="secondary"
                title={charger.since ? `Since ${formatThaiDateTime(charger.since)}` : undefined}
              >
                {downForText(charger.since, at)}
              </Typography.Text>
            </Flex>
          </Flex>
        </li>
      ))}
    </ol>
  );
}

/** The 10 sites used most or least over the last 30 days. */
function SitesCard({
  which,
  sites,
  phone,
}: {
  which: 'top' | 'bottom';
  sites: DashboardResponse['sites']['top'];
  phone: boolean;
}) {
  const top = which === 'top';
  return (
    <div>
      <Card
        size="small"
        title={`${top ? 'Top' : 'Bottom'} 10 sites by utilisation`}
        style={{ height: '100%' }}
      >
        <SitesChart
          points={sitePoints(sites)}
          label={`The 10 sites ${top ? 'most' : 'least'} used over the last 30 days`}
          colour={top ? '#0072B2' : '#D55E00'}
          nameWidth={phone ? 110 : 150}
        />
      </Card>
    </div>
  );
}

/**
 * /dashboard (issue 35 §1): the caller's scope now (connectors by state, the chargers down longest, sessions
 * charging and bookings awaiting payment, read again every 15 s while the tab shows), today against the
 * usual, and the last 30 days in charts.
 */
export function DashboardPage() {
  const dashboard = useDashboard();
  return (
    <DashboardView
      data={dashboard.data}
      pending={dashboard.isPending}
      error={dashboard.isError ? dashboard.error : null}
    />
  );
}

/** The dashboard's figures as drawn (no call of its own, so a test can draw any answer). */
export function DashboardView({
  data,
  pending,
  error,
}: {
  data: DashboardResponse | undefined;
  pending: boolean;
  error: Error | null;
}) {
  const screens = Grid.useBreakpoint();
  const phone = screens.sm === false;
  const chartHeight = phone ? 220 : 280;
  return (
    <Flex vertical gap={16} className="stat-page">
      <ScreenCard
        title="Dashboard"
        extra={
          data && (
            <Typography.Text type="secondary" data-testid="dashboard-updated">
              Updated {bangkokClock.format(new Date(data.at))}
            </Typography.Text>
          )
        }
      >
        {error && (
          <Alert
            type="warning"
            showIcon
            style={{ marginBottom: 12 }}
            title="The dashboard could not be read"
            description={error instanceof ApiError ? error.message : undefined}
          />
        )}
        {!data && pending && <Skeleton active paragraph={{ rows: 10 }} />}
        {data && dashboardIsEmpty(data) && (
          <Empty
            data-testid="dashboard-empty"
            description="No data yet: no connectors, sessions or payments in your sites."
          />
        )}
        {data && !dashboardIsEmpty(data) && (
          <Typography.Text type="secondary">
            Figures of the sites you see; dates and hours in Bangkok time.
          </Typography.Text>
        )}
      </ScreenCard>

      {data && !dashboardIsEmpty(data) && (
        <>
          <section aria-labelledby="dashboard-now">
            <Typography.Title level={5} id="dashboard-now">
              Now
            </Typography.Title>
            <div className="stat-grid stat-now">
              <div>
                <Card size="small" title="Connectors" style={{ height: '100%' }}>
                  <DonutChart
                    testId="dashboard-connectors"
                    slices={connectorSlices(data.now.connectors)}
                    label="Connectors by state"
                    emptyText="No connectors"
                    height={phone ? 120 : 150}
                  />
                </Card>
              </div>
              <div>
                {/* Side by side on a phone, one over the other beside the donut on a wide screen. */}
                <Flex vertical={!phone} gap={12} style={{ height: '100%' }}>
                  <Card size="small" style={{ flex: 1 }}>
                    <Statistic title="Charging now" value={countText(data.now.charging)} />
                  </Card>
                  <Card size="small" style={{ flex: 1 }}>
                    <Statistic title="Awaiting payment" value={countText(data.now.awaitingPayment)} />
                  </Card>
                </Flex>
              </div>
              <div className="stat-narrow">
                <Card size="small" title="Chargers down longest" style={{ height: '100%' }}>
                  <DownList down={data.now.down} at={data.at} />
                </Card>
              </div>
            </div>
          </section>

          <section aria-labelledby="dashboard-today-title">
            <Typography.Title level={5} id="dashboard-today-title">
              Today{' '}
              <Typography.Text type="secondary" style={{ fontWeight: 'normal', fontSize: 13 }}>
                against this time of day on the same weekday, averaged over the last 4 weeks
              </Typography.Text>
            </Typography.Title>
            <TodayCards today={data.today} usual={data.usual} />
          </section>

          <section aria-labelledby="dashboard-days">
            <Typography.Title level={5} id="dashboard-days">
              Last 30 days
            </Typography.Title>
            <div className="stat-grid stat-days">
              <div className="stat-wide">
                <Card size="small" title="Energy (kWh) and revenue (THB) per day">
                  <DailyChart points={dailyPoints(data.daily)} height={chartHeight} />
                </Card>
              </div>
              <div className="stat-narrow">
                <Card size="small" title="Sessions by hour of day">
                  <HourChart points={hourPoints(data.byHour)} height={chartHeight} />
                </Card>
              </div>
              <div>
                <Card size="small" title="Payment methods" style={{ height: '100%' }}>
                  <DonutChart
                    testId="dashboard-methods"
                    slices={methodSlices(data.paymentMethods)}
                    label="Payments by method over the last 30 days"
                    emptyText="No payments in the last 30 days"
                    height={phone ? 120 : 150}
                    extra={(slice) => thbText(slice.amount)}
                  />
                </Card>
              </div>
              <SitesCard which="top" sites={data.sites.top} phone={phone} />
              <SitesCard which="bottom" sites={data.sites.bottom} phone={phone} />
            </div>
          </section>
        </>
      )}
    </Flex>
  );
}
