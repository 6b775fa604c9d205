import { LoadingOutlined } from '@ant-design/icons';
import {
  allowed,
  BOOKING_MESSAGES,
  PAYMENT_METHOD_LABELS,
  PAYMENT_METHODS,
  REPORT_STYLE_LABELS,
} from '@ev/shared';
import { Button, Card, DatePicker, Flex, Form, Input, Radio, Select, Spin, Typography } from 'antd';
import { useState } from 'react';
import { DAY_FORMAT, dayField } from '../../components/list/date-filter.tsx';
import { saveBlob } from '../../components/save-file.ts';
import { ApiError, apiDownload } from '../../lib/api.ts';
import { notify, notifyCallError } from '../../lib/notify.ts';
import { idNameOptions, useLandlordDropdown, useMerchantDropdown } from '../../lib/reference.ts';
import { useRole } from '../../lib/session.ts';
import { type ReportValues, reportQuery } from './report-query.ts';

const METHOD_OPTIONS = [
  { value: '', label: 'Any Payment Method' },
  ...PAYMENT_METHODS.map((value) => ({ value, label: PAYMENT_METHOD_LABELS[value] })),
];
const INITIAL: ReportValues = { paymentMethod: '', merchantId: [], landlordId: [], style: 'processed' };
const onlyDigits = (value: string | undefined) => value?.replace(/\D/g, '');

function DayField({ label, name, edge }: { label: string; name: keyof ReportValues; edge: 'start' | 'end' }) {
  return (
    <Form.Item label={label} name={name} {...dayField(edge)}>
      <DatePicker format={DAY_FORMAT} placeholder={label} style={{ width: '100%' }} />
    </Form.Item>
  );
}

function TextField({
  label,
  name,
  digits = false,
}: {
  label: string;
  name: keyof ReportValues;
  digits?: boolean;
}) {
  return (
    <Form.Item label={label} name={name} normalize={digits ? onlyDigits : undefined}>
      <Input
        allowClear
        maxLength={digits ? 10 : 255}
        inputMode={digits ? 'numeric' : undefined}
        placeholder={label}
      />
    </Form.Item>
  );
}

/**
 * /booking-report (document 3, section 2): the filters of the report, Search downloads it as a spreadsheet
 * (Booking-Report_{timestamp}.xlsx), Clear Data empties the form. Cluster, Site and the Raw style by role.
 */
export function BookingReportPage() {
  const role = useRole();
  const [form] = Form.useForm<ReportValues>();
  const [busy, setBusy] = useState(false);
  const merchantIds = Form.useWatch('merchantId', form) ?? [];
  const clusterField = allowed(role, 'bookingReportClusterFilter');
  const siteField = allowed(role, 'bookingReportSiteFilter');
  const merchants = useMerchantDropdown();
  const landlords = useLandlordDropdown(clusterField ? merchantIds : []);
  const styles = allowed(role, 'bookingReportRawStyle')
    ? (['processed', 'raw'] as const)
    : (['processed'] as const);

  const download = async (values: ReportValues) => {
    setBusy(true);
    try {
      const { blob, fileName } = await apiDownload(`/report/booking?${reportQuery(values)}`);
      saveBlob(blob, fileName ?? `Booking-Report_${Date.now()}.xlsx`);
    } catch (error) {
      if (error instanceof ApiError && error.status === 404)
        notify('warning', BOOKING_MESSAGES.reportNotFound);
      else notifyCallError(error, undefined);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Card
      title={
        <Typography.Title level={4} style={{ margin: 0 }}>
          Booking Report
        </Typography.Title>
      }
    >
      <Form<ReportValues>
        form={form}
        name="booking-report"
        layout="vertical"
        initialValues={INITIAL}
        onFinish={(values) => void download(values)}
        disabled={busy}
      >
        <div className="list-filter-fields">
          <TextField label="Charger Id" name="chargerId" />
          <TextField label="Connector Id" name="connectorId" digits />
          <TextField label="Name" name="firstName" />
          <TextField label="Surname" name="lastName" />
          <TextField label="Email" name="email" />
          <TextField label="Mobile Number" name="tel" />
          {clusterField && (
            <Form.Item label="Cluster Name" name="merchantId">
              <Select
                mode="multiple"
                allowClear
                optionFilterProp="label"
                maxTagCount="responsive"
                placeholder="All clusters"
                options={idNameOptions(merchants.data)}
              />
            </Form.Item>
          )}
          {siteField && (
            <Form.Item label="Site Name" name="landlordId">
              <Select
                mode="multiple"
                allowClear
                optionFilterProp="label"
                maxTagCount="responsive"
                placeholder="All sites"
                options={idNameOptions(landlords.data)}
              />
            </Form.Item>
          )}
          <Form.Item label="Payment Method" name="paymentMethod">
            <Select options={METHOD_OPTIONS} />
          </Form.Item>
          <DayField label="Service Date From" name="createdAfter" edge="start" />
          <DayField label="Service Date To" name="createdBefore" edge="end" />
          <DayField label="Payment Date From" name="paymentAfter" edge="start" />
          <DayField label="Payment Date To" name="paymentBefore" edge="end" />
          <Form.Item label="Style" name="style">
            <Radio.Group
              optionType="button"
              options={styles.map((value) => ({ value, label: REPORT_STYLE_LABELS[value] }))}
            />
          </Form.Item>
        </div>
        <Flex gap={8} wrap justify="end" align="center">
          {busy && (
            <Flex gap={8} align="center" role="status">
              <Spin size="small" />
              <Typography.Text type="secondary">Preparing the report…</Typography.Text>
            </Flex>
          )}
          {/* Not `loading`: after a report answered within a few milliseconds, antd 6.6's Button sometimes kept
              its spinner, and stayed unclickable, though busy was false (seen in Chromium). The form's
              `disabled` already blocks a second Search. */}
          <Button type="primary" htmlType="submit" icon={busy ? <LoadingOutlined /> : undefined}>
            Search
          </Button>
          <Button onClick={() => form.resetFields()}>Clear Data</Button>
        </Flex>
      </Form>
    </Card>
  );
}
