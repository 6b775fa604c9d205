import { theme } from 'antd';
import { useLayoutEffect, useRef, useState } from 'react';
import {
  bangkokTime,
  kwText,
  kwTicks,
  type LoadPoint,
  linear,
  linePath,
  loadSummary,
  noReadings,
  timeTicks,
} from './load-chart-scale.ts';

/**
 * A site's power over time against its limit: a line over an area, a dashed horizontal limit line, kW ticks
 * on the left and Bangkok clock times (24 h) below. Plain SVG, no chart library (docs/decisions.md, issue 34):
 * the one chart of its screen, a few hundred bytes of code. It takes the width of its container.
 */
export interface LoadChartProps {
  /** One point per minute, oldest first. */
  points: readonly LoadPoint[];
  /** The horizontal limit line, kW; null draws none. */
  limitKw: number | null;
  height?: number;
}

const MARGIN = { top: 20, right: 16, bottom: 28, left: 52 };
const MINUTE = 60_000;
/** The room a time label takes (HH:mm at 12 px) with a gap wide enough to read them apart. */
const LABEL_ROOM = 90;
const TIME_STEPS = [5, 10, 15, 20, 30];
export const NO_READINGS = 'No power readings in the last hour';

/** The width of the element, following it as the window or layout changes. */
function useWidth(fallback: number) {
  const ref = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(fallback);
  useLayoutEffect(() => {
    const element = ref.current;
    if (!element) return;
    const measure = () => setWidth(Math.max(element.clientWidth, 200));
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    return () => observer.disconnect();
  }, []);
  return [ref, width] as const;
}

export function LoadChart({ points, limitKw, height = 240 }: LoadChartProps) {
  const { token } = theme.useToken();
  const [ref, width] = useWidth(640);
  const innerWidth = width - MARGIN.left - MARGIN.right;
  const innerHeight = height - MARGIN.top - MARGIN.bottom;
  const empty = noReadings(points);

  const last = points.length > 0 ? Date.parse(points.at(-1)!.at) : Date.now();
  const first = points.length > 1 ? Date.parse(points[0]!.at) : last - 59 * MINUTE;
  const x = linear([first, last], [MARGIN.left, MARGIN.left + innerWidth]);
  const peak = Math.max(0, ...points.map((point) => point.kw));
  const yTicks = kwTicks(Math.max(peak, limitKw ?? 0) * 1.1);
  const y = linear([0, yTicks.at(-1)!], [MARGIN.top + innerHeight, MARGIN.top]);
  const every = TIME_STEPS.find((minutes) => (innerWidth / 60) * minutes >= LABEL_ROOM) ?? 30;
  const xTicks = timeTicks(first, last, every);

  const line = points.map((point) => ({ x: x(Date.parse(point.at)), y: y(point.kw) }));
  const path = linePath(line);
  const bottom = y(0);
  const area =
    line.length > 1
      ? `${path} L${line.at(-1)!.x.toFixed(2)} ${bottom.toFixed(2)} L${line[0]!.x.toFixed(2)} ${bottom.toFixed(2)} Z`
      : '';
  const text = { fontSize: 12, fill: token.colorTextSecondary };
  const limitY = limitKw === null ? null : y(limitKw);

  return (
    <div ref={ref} className="load-chart" style={{ width: '100%' }}>
      <svg
        role="img"
        aria-label={loadSummary(points, limitKw)}
        width={width}
        height={height}
        viewBox={`0 0 ${width} ${height}`}
        style={{ display: 'block', fontFamily: 'inherit' }}
        data-testid="load-chart"
      >
        <text x={MARGIN.left - 8} y={MARGIN.top - 8} textAnchor="end" {...text}>
          kW
        </text>
        {yTicks.map((tick) => (
          <g key={`y${tick}`}>
            <line
              x1={MARGIN.left}
              x2={MARGIN.left + innerWidth}
              y1={y(tick)}
              y2={y(tick)}
              stroke={token.colorBorderSecondary}
            />
            <text x={MARGIN.left - 8} y={y(tick)} dy="0.32em" textAnchor="end" {...text}>
              {kwText(tick)}
            </text>
          </g>
        ))}
        {xTicks.map((tick) => (
          <g key={`x${tick}`}>
            <line x1={x(tick)} x2={x(tick)} y1={bottom} y2={bottom + 4} stroke={token.colorBorder} />
            <text x={x(tick)} y={bottom + 18} textAnchor="middle" {...text}>
              {bangkokTime(tick)}
            </text>
          </g>
        ))}
        <line
          x1={MARGIN.left}
          x2={MARGIN.left + innerWidth}
          y1={bottom}
          y2={bottom}
          stroke={token.colorBorder}
        />
        {!empty && (
          <>
            {area && <path d={area} fill={token.colorPrimary} fillOpacity={0.12} stroke="none" />}
            <path
              d={path}
              fill="none"
              stroke={token.colorPrimary}
              strokeWidth={2}
              strokeLinejoin="round"
              data-testid="load-chart-line"
            />
            {line.length > 0 && (
              <circle cx={line.at(-1)!.x} cy={line.at(-1)!.y} r={3.5} fill={token.colorPrimary} />
            )}
          </>
        )}
        {limitKw !== null && limitY !== null && (
          <g data-testid="load-chart-limit">
            <line
              x1={MARGIN.left}
              x2={MARGIN.left + innerWidth}
              y1={limitY}
              y2={limitY}
              stroke={token.colorError}
              strokeWidth={1.5}
              strokeDasharray="6 4"
            />
            {/* At the hour's start, where the line is least likely; a halo keeps it legible over the area. */}
            <text
              x={MARGIN.left + 6}
              y={limitY - 6}
              textAnchor="start"
              fontSize={12}
              fill={token.colorError}
              stroke={token.colorBgContainer}
              strokeWidth={3}
              paintOrder="stroke"
            >
              Limit {kwText(limitKw)} kW
            </text>
          </g>
        )}
        {empty && (
          <text
            x={MARGIN.left + innerWidth / 2}
            y={MARGIN.top + innerHeight / 2}
            textAnchor="middle"
            fontSize={14}
            fill={token.colorTextTertiary}
          >
            {NO_READINGS}
          </text>
        )}
      </svg>
    </div>
  );
}
