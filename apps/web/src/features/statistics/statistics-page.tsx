import {
  STAT_MAX_RANGE_DAYS,
  STAT_MEASURES,
  STAT_PERIODS,
  STAT_SPLITS,
  type StatisticsRow,
  type StatMeasure,
  type StatPeriod,
  type StatSplit,
} from '@ev/shared';
import { Alert, Button, Card, DatePicker, Flex, Form, Grid, Select, Table, Typography } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useMemo } from 'react';
import { useSearchParams } from 'react-router';
import {
  ReportPaymentMethodField,
  ReportPlaceFields,
  ReportTextField,
} from '../../components/form/report-form.tsx';
import { EMPTY_TEXT, FittedTable, rangeText } from '../../components/list/data-table.tsx';
import { DAY_FORMAT } from '../../components/list/date-filter.tsx';
import { ExportButton } from '../../components/list/export-button.tsx';
import type { ListColumns } from '../../components/list/fit-columns.ts';
import { ApiError } from '../../lib/api.ts';
import { useStatistics } from './api.ts';
import { ScreenCard, StatisticsBarChart } from './charts.tsx';
import { MEASURE_OPTIONS, MEASURES, periodText } from './stat-format.ts';
import {
  addDays,
  defaultRange,
  type StatisticsValues,
  searchOf,
  statisticsQuery,
  valuesOf,
} from './stat-query.ts';
import { CHART_TOP_KEYS, OTHER_KEY, periodsOf, statisticsChart } from './stat-series.ts';
import './statistics.css';

const PERIOD_LABELS: Record<StatPeriod, string> = { day: 'Day', week: 'Week', month: 'Month', year: 'Year' };
export const SPLIT_LABELS: Record<StatSplit, string> = {
  none: 'None',
  merchant: 'Cluster',
  landlord: 'Site',
  charger: 'Charger',
  connectorType: 'Connector type',
  paymentMethod: 'Payment method',
  promotion: 'Promotion',
};

/** The range as the picker holds it (two days) and as the form keeps it ('yyyy-mm-dd' twice). */
const rangeField = {
  getValueProps: (value: [string, string] | undefined) => ({
    value: value ? [dayjs(value[0], DAY_FORMAT), dayjs(value[1], DAY_FORMAT)] : undefined,
  }),
  normalize: (value: [Dayjs, Dayjs] | null) =>
    value ? [value[0].format(DAY_FORMAT), value[1].format(DAY_FORMAT)] : undefined,
};

const rangeRules = [
  { required: true, message: 'Range is required.' },
  {
    validator: (_: unknown, value: [string, string] | undefined) =>
      value && dayjs(value[1]).diff(dayjs(value[0]), 'day') + 1 > STAT_MAX_RANGE_DAYS
        ? Promise.reject(new Error(`The range must be at most ${STAT_MAX_RANGE_DAYS} days.`))
        : Promise.resolve(),
  },
];

function rangePresets(today: string): { label: string; value: [Dayjs, Dayjs] }[] {
  const day = (text: string) => dayjs(text, DAY_FORMAT);
  const [year, month] = today.split('-');
  return [
    { label: 'Last 7 days', value: [day(addDays(today, -6)), day(today)] },
    { label: 'Last 30 days', value: [day(addDays(today, -29)), day(today)] },
    { label: 'This month', value: [day(`${year}-${month}-01`), day(today)] },
    { label: 'Last 12 months', value: [day(addDays(today, -364)), day(today)] },
  ];
}

/**
 * The table: a row per split key and period, a column per measure. The split's name comes first, then the
 * period, both pinned left; on a phone the list kit lets the inner pin (the period) go first, so the name
 * that identifies the row stays in view.
 */
function tableColumns(values: StatisticsValues): ListColumns<StatisticsRow> {
  const columns: ListColumns<StatisticsRow> = [];
  if (values.split !== 'none') {
    columns.push({
      title: SPLIT_LABELS[values.split],
      key: 'label',
      kind: 'text',
      fixed: 'left',
      render: (_: unknown, row: StatisticsRow) => row.label ?? row.key ?? '-',
      textOf: (row: StatisticsRow) => row.label ?? row.key ?? '-',
    });
  }
  columns.push({
    title: PERIOD_LABELS[values.period],
    key: 'period',
    dataIndex: 'period',
    kind: 'date',
    fixed: 'left',
    render: (period: string) => periodText(period, values.period),
  });
  for (const measure of STAT_MEASURES) {
    const spec = MEASURES[measure];
    columns.push({
      title: spec.label,
      key: measure,
      kind: spec.kind,
      align: 'right',
      render: (_: unknown, row: StatisticsRow) => spec.text(row),
      textOf: (row: StatisticsRow) => spec.text(row),
    });
  }
  return columns;
}

const rowKey = (row: StatisticsRow) => `${row.period}|${row.key ?? ''}`;

/**
 * /statistics (issue 35 §2): a range of Bangkok days by day, week, month or year, split by a key, with the
 * Booking Report's filters; a chart of one measure and the table of every measure under it; Export downloads
 * the table as xlsx (`/api/statistics/export`, the same query). The choices live in the URL.
 */
export function StatisticsPage() {
  const [search, setSearch] = useSearchParams();
  const values = useMemo(() => valuesOf(search), [search]);
  const query = statisticsQuery(values).toString();
  const statistics = useStatistics(query);
  const [form] = Form.useForm<StatisticsValues>();
  const phone = Grid.useBreakpoint().sm === false;
  const data = statistics.data;
  const chart = useMemo(
    () =>
      statisticsChart(
        data?.rows ?? [],
        values.measure,
        values.period,
        periodsOf(values.range, values.period),
      ),
    [data, values.measure, values.period, values.range],
  );
  const rows = useMemo(
    () =>
      // A key's periods together, in order (the name is the first column).
      [...(data?.rows ?? [])].sort(
        (a, b) =>
          (a.label ?? '').localeCompare(b.label ?? '') ||
          (a.key ?? '').localeCompare(b.key ?? '') ||
          a.period.localeCompare(b.period),
      ),
    [data],
  );
  const today = defaultRange()[1];
  const measure = MEASURES[values.measure];
  const [first, last] = values.range;
  const chartLabel = `${measure.label} by ${values.period}${values.split === 'none' ? '' : ` and ${SPLIT_LABELS[values.split].toLowerCase()}`}, ${periodText(first, 'day')} to ${periodText(last, 'day')}`;

  const apply = (next: StatisticsValues) => setSearch(searchOf({ ...next, measure: values.measure }));
  const clear = () => {
    const defaults = valuesOf(new URLSearchParams());
    form.setFieldsValue(defaults);
    setSearch(searchOf(defaults));
  };

  return (
    <Flex vertical gap={16} className="stat-page">
      <ScreenCard title="Statistics">
        <Form<StatisticsValues>
          form={form}
          name="statistics"
          layout="vertical"
          initialValues={values}
          onFinish={apply}
        >
          <div className="list-filter-fields">
            <Form.Item label="Range" name="range" rules={rangeRules} {...rangeField}>
              <DatePicker.RangePicker
                format={DAY_FORMAT}
                allowClear={false}
                presets={rangePresets(today)}
                style={{ width: '100%' }}
                placeholder={['From', 'To']}
              />
            </Form.Item>
            <Form.Item label="Period" name="period">
              <Select options={STAT_PERIODS.map((value) => ({ value, label: PERIOD_LABELS[value] }))} />
            </Form.Item>
            <Form.Item label="Split by" name="split">
              <Select options={STAT_SPLITS.map((value) => ({ value, label: SPLIT_LABELS[value] }))} />
            </Form.Item>
            <ReportTextField label="Charger Id" name="chargerId" />
            <ReportTextField label="Connector Id" name="connectorId" digits />
            <ReportPlaceFields />
            <ReportPaymentMethodField />
          </div>
          <Flex gap={8} wrap justify="end" align="center">
            <Button type="primary" htmlType="submit">
              Search
            </Button>
            <Button onClick={clear}>Clear Data</Button>
            <ExportButton
              endpoint="/statistics/export"
              filterQuery={query}
              mode={null}
              spec={{ fileName: 'Statistics', notFoundMessage: 'No statistics for these filters' }}
            />
          </Flex>
        </Form>
      </ScreenCard>

      {statistics.isError && (
        <Alert
          type="warning"
          showIcon
          style={{ marginBottom: 12 }}
          title="The statistics could not be read"
          description={statistics.error instanceof ApiError ? statistics.error.message : undefined}
        />
      )}

      <Card
        size="small"
        title="Chart"
        extra={
          <Select<StatMeasure>
            aria-label="Measure"
            value={values.measure}
            options={MEASURE_OPTIONS}
            style={{ width: phone ? 170 : 200 }}
            onChange={(next) => {
              const changed = new URLSearchParams(search);
              changed.set('measure', next);
              setSearch(changed, { replace: true });
            }}
          />
        }
        loading={statistics.isPending}
      >
        <StatisticsBarChart chart={chart} label={chartLabel} height={phone ? 260 : 340} />
        {chart.series.length > 1 &&
          (chart.hidden > 0 || chart.series.some((s) => s.dataKey === OTHER_KEY)) && (
            <Typography.Text type="secondary" data-testid="chart-note">
              {chart.hidden > 0
                ? `The ${CHART_TOP_KEYS} highest of ${CHART_TOP_KEYS + chart.hidden}; the table has them all.`
                : `The ${CHART_TOP_KEYS - 1} largest, the rest as Other; the table has them all.`}
            </Typography.Text>
          )}
      </Card>

      <Card size="small" title="Table" loading={statistics.isPending}>
        <FittedTable<StatisticsRow>
          size="middle"
          rowKey={rowKey}
          dataSource={rows}
          columns={tableColumns(values)}
          locale={{ emptyText: EMPTY_TEXT }}
          pagination={{ showSizeChanger: true, showTotal: rangeText, defaultPageSize: 10 }}
          data-testid="statistics-table"
          summary={() =>
            data && rows.length > 0 ? (
              <Table.Summary.Row className="stat-total">
                {/* A cell per key column, so each is pinned with its column. */}
                <Table.Summary.Cell index={0}>Total</Table.Summary.Cell>
                {values.split !== 'none' && <Table.Summary.Cell index={1} />}
                {STAT_MEASURES.map((key, index) => (
                  <Table.Summary.Cell
                    key={key}
                    index={index + (values.split === 'none' ? 1 : 2)}
                    align="right"
                  >
                    {MEASURES[key].text(data.totals)}
                  </Table.Summary.Cell>
                ))}
              </Table.Summary.Row>
            ) : undefined
          }
        />
      </Card>
    </Flex>
  );
}
