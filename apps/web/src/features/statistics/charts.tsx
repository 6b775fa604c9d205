import { Card, Empty, Flex, Typography } from 'antd';
import type { ReactNode } from 'react';
import {
  Bar,
  BarChart,
  CartesianGrid,
  Cell,
  ComposedChart,
  Legend,
  Line,
  Pie,
  PieChart,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from 'recharts';
import { axisText, countText, percentText, thbText, unitText } from './stat-format.ts';
import type { dailyPoints, hourPoints, Slice, StatisticsChart, sitePoints } from './stat-series.ts';

/**
 * The screens' charts, drawn with Recharts (SVG, docs/decisions.md, issue 35). Each has a name and a summary
 * for screen readers (`role="img"`, `aria-label`), Recharts' keyboard layer (arrow keys move the tooltip), and
 * a table or list beside it with the same figures, so colour is never the only carrier.
 */
const AXIS = { fontSize: 12, fill: '#595959' };
const GRID = '#f0f0f0';
const ENERGY = '#0072B2';
const REVENUE = '#D55E00';
const SESSIONS = '#009E73';
/** The hover band behind a period: light, so the bars stay the darkest thing. */
const CURSOR = { fill: 'rgba(0, 0, 0, 0.04)' };

/** The card a screen opens with: its title as the other screens set it, and what the screen puts beside it. */
export function ScreenCard({
  title,
  extra,
  children,
}: {
  title: string;
  extra?: ReactNode;
  children: ReactNode;
}) {
  return (
    <Card
      size="small"
      title={
        <Typography.Title level={4} style={{ margin: 0 }}>
          {title}
        </Typography.Title>
      }
      extra={extra}
    >
      {children}
    </Card>
  );
}

/** The frame every chart sits in: its accessible name, its height, and the empty state without data. */
export function ChartFrame({
  label,
  height,
  empty,
  emptyText = 'No data for this period',
  children,
}: {
  label: string;
  height: number;
  empty: boolean;
  emptyText?: string;
  children: ReactNode;
}) {
  if (empty) {
    return (
      <Flex align="center" justify="center" style={{ height }} data-testid="chart-empty">
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={emptyText} />
      </Flex>
    );
  }
  return (
    <div role="img" aria-label={label} style={{ width: '100%', height }} className="stat-chart">
      <ResponsiveContainer width="100%" height="100%">
        {children as never}
      </ResponsiveContainer>
    </div>
  );
}

/** Tooltip values: each series' value in the chart's unit. */
const tooltipIn = (unit: string) => (value: unknown) =>
  unitText(typeof value === 'number' ? value : null, unit);

/** The statistics' chart: a bar per period, a colour per split key, stacked where the measure adds up. */
export function StatisticsBarChart({
  chart,
  label,
  height,
}: {
  chart: StatisticsChart;
  label: string;
  height: number;
}) {
  return (
    <ChartFrame label={label} height={height} empty={chart.points.length === 0}>
      <BarChart data={chart.points} margin={{ top: 8, right: 8, bottom: 0, left: 0 }}>
        <CartesianGrid stroke={GRID} vertical={false} />
        <XAxis dataKey="label" tick={AXIS} minTickGap={8} />
        <YAxis tick={AXIS} tickFormatter={axisText} width={52} />
        <Tooltip formatter={tooltipIn(chart.unit)} cursor={CURSOR} />
        {chart.series.length > 1 && <Legend wrapperStyle={{ fontSize: 12 }} />}
        {chart.series.map((series) => (
          <Bar
            key={series.dataKey}
            dataKey={series.dataKey}
            name={series.label}
            fill={series.colour}
            stackId={chart.stacked ? 'split' : undefined}
            stroke="#fff"
            strokeWidth={chart.stacked && chart.series.length > 1 ? 1 : 0}
            maxBarSize={48}
            isAnimationActive={false}
          />
        ))}
      </BarChart>
    </ChartFrame>
  );
}

/** The last 30 days: energy as bars (kWh, left axis), revenue as a line (THB, right axis). */
export function DailyChart({ points, height }: { points: ReturnType<typeof dailyPoints>; height: number }) {
  const energy = points.reduce((sum, point) => sum + point.kwh, 0);
  const revenue = points.reduce((sum, point) => sum + point.revenue, 0);
  const label = `Energy and revenue per day over the last 30 days: ${unitText(energy, 'kWh')} and ${thbText(revenue)} in all.`;
  return (
    <ChartFrame label={label} height={height} empty={points.every((p) => p.kwh === 0 && p.revenue === 0)}>
      <ComposedChart data={points} margin={{ top: 8, right: 0, bottom: 0, left: 0 }}>
        <CartesianGrid stroke={GRID} vertical={false} />
        <XAxis dataKey="label" tick={AXIS} minTickGap={12} />
        <YAxis yAxisId="kwh" tick={AXIS} tickFormatter={axisText} width={48} />
        <YAxis yAxisId="thb" orientation="right" tick={AXIS} tickFormatter={axisText} width={52} />
        <Tooltip
          cursor={CURSOR}
          formatter={(value, name) => [
            unitText(typeof value === 'number' ? value : null, name === 'Revenue' ? 'THB' : 'kWh'),
            name,
          ]}
        />
        <Legend wrapperStyle={{ fontSize: 12 }} />
        <Bar yAxisId="kwh" dataKey="kwh" name="Energy" fill={ENERGY} isAnimationActive={false} />
        <Line
          yAxisId="thb"
          dataKey="revenue"
          name="Revenue"
          stroke={REVENUE}
          strokeWidth={2}
          dot={false}
          isAnimationActive={false}
        />
      </ComposedChart>
    </ChartFrame>
  );
}

/** Sessions of the last 30 days by the hour they started (Bangkok). */
export function HourChart({ points, height }: { points: ReturnType<typeof hourPoints>; height: number }) {
  const busiest = points.reduce((best, point) => (point.sessions > best.sessions ? point : best), points[0]!);
  const label = `Sessions by hour of day over the last 30 days; the busiest hour is ${busiest.label}:00 with ${countText(busiest.sessions)} sessions.`;
  return (
    <ChartFrame label={label} height={height} empty={points.every((point) => point.sessions === 0)}>
      <BarChart data={points} margin={{ top: 8, right: 8, bottom: 0, left: 0 }}>
        <CartesianGrid stroke={GRID} vertical={false} />
        <XAxis dataKey="label" tick={AXIS} interval="preserveStartEnd" minTickGap={4} />
        <YAxis tick={AXIS} tickFormatter={axisText} width={40} allowDecimals={false} />
        <Tooltip
          formatter={(value) => [countText(Number(value)), 'Sessions']}
          labelFormatter={(l) => `${l}:00`}
        />
        <Bar dataKey="sessions" name="Sessions" fill={SESSIONS} isAnimationActive={false} />
      </BarChart>
    </ChartFrame>
  );
}

/** A donut of slices with the list of them beside it (label, count, and `extra` per slice). */
export function DonutChart<S extends Slice>({
  slices,
  label,
  height,
  extra,
  testId,
  emptyText,
}: {
  slices: S[];
  label: string;
  height: number;
  extra?: (slice: S) => string;
  testId?: string;
  /** Said across the card when every slice is 0. */
  emptyText: string;
}) {
  const shown = slices.filter((slice) => slice.value > 0);
  if (shown.length === 0) {
    return (
      <div data-testid={testId}>
        <ChartFrame label={label} height={height} empty emptyText={emptyText}>
          {null}
        </ChartFrame>
      </div>
    );
  }
  return (
    <Flex gap={16} align="center" wrap data-testid={testId}>
      <div style={{ width: height, flex: 'none' }}>
        <ChartFrame label={label} height={height} empty={false}>
          <PieChart>
            <Pie
              data={shown}
              dataKey="value"
              nameKey="label"
              innerRadius="55%"
              outerRadius="95%"
              stroke="#fff"
              isAnimationActive={false}
            >
              {shown.map((slice) => (
                <Cell key={slice.key} fill={slice.colour} />
              ))}
            </Pie>
            <Tooltip formatter={(value) => countText(Number(value))} />
          </PieChart>
        </ChartFrame>
      </div>
      <ul className="stat-legend">
        {slices.map((slice) => (
          <li key={slice.key}>
            <span className="stat-swatch" style={{ background: slice.colour }} aria-hidden />
            <span className="stat-legend-label">{slice.label}</span>
            <Typography.Text strong className="stat-legend-value">
              {countText(slice.value)}
            </Typography.Text>
            {extra && <Typography.Text type="secondary">{extra(slice)}</Typography.Text>}
          </li>
        ))}
      </ul>
    </Flex>
  );
}

/** A site's name on one line, cut to `chars` with '…'; the whole name in its title (hover, screen readers). */
function NameTick({
  x,
  y,
  payload,
  chars,
}: {
  x?: number;
  y?: number;
  payload?: { value: unknown };
  chars: number;
}) {
  const name = String(payload?.value ?? '');
  const shown = name.length > chars ? `${name.slice(0, chars - 1)}…` : name;
  return (
    <text x={x} y={y} dy={4} textAnchor="end" fontSize={12} fill={AXIS.fill}>
      <title>{name}</title>
      {shown}
    </text>
  );
}

/** The share at the end of its bar, also for a site at 0 (a bar of no width). */
function ShareLabel({
  x,
  y,
  width,
  height,
  value,
}: {
  x?: unknown;
  y?: unknown;
  width?: unknown;
  height?: unknown;
  value?: unknown;
}) {
  const left = Number(x ?? 0) + Number(width ?? 0) + 4;
  const middle = Number(y ?? 0) + Number(height ?? 0) / 2;
  return (
    <text x={left} y={middle} dy={4} fontSize={12} fill="#262626">
      {percentText(Number(value ?? 0) / 100)}
    </text>
  );
}

/** Sites by utilisation: a horizontal bar per site, its name on the left (cut to fit), the share at its end. */
export function SitesChart({
  points,
  label,
  colour,
  nameWidth,
}: {
  points: ReturnType<typeof sitePoints>;
  label: string;
  colour: string;
  nameWidth: number;
}) {
  const height = Math.max(points.length, 1) * 28 + 32;
  const max = Math.max(...points.map((point) => point.percent), 1);
  // About 6.5 px a character at 12 px.
  const chars = Math.floor(nameWidth / 6.5);
  return (
    <ChartFrame label={label} height={height} empty={points.length === 0} emptyText="No sites">
      <BarChart data={points} layout="vertical" margin={{ top: 0, right: 52, bottom: 0, left: 0 }}>
        <CartesianGrid stroke={GRID} horizontal={false} />
        <XAxis type="number" tick={AXIS} domain={[0, Math.ceil(max)]} tickFormatter={(v) => `${v}%`} />
        <YAxis
          type="category"
          dataKey="name"
          width={nameWidth}
          interval={0}
          tick={(props: object) => <NameTick {...props} chars={chars} />}
        />
        <Tooltip formatter={(value) => [percentText(Number(value) / 100), 'Utilisation']} cursor={CURSOR} />
        <Bar
          dataKey="percent"
          name="Utilisation"
          fill={colour}
          maxBarSize={18}
          isAnimationActive={false}
          label={(props: object) => <ShareLabel {...props} />}
        />
      </BarChart>
    </ChartFrame>
  );
}
