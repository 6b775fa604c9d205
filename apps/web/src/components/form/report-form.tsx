import { LoadingOutlined } from '@ant-design/icons';
import { allowed, PAYMENT_METHOD_LABELS, PAYMENT_METHODS } from '@ev/shared';
import {
  Button,
  Card,
  DatePicker,
  Flex,
  Form,
  type FormInstance,
  Input,
  Select,
  Spin,
  Typography,
} from 'antd';
import { type ReactNode, useState } from 'react';
import { ApiError, apiDownload } from '../../lib/api.ts';
import { notify, notifyCallError } from '../../lib/notify.ts';
import { idNameOptions, useLandlordDropdown, useMerchantDropdown } from '../../lib/reference.ts';
import { useRole } from '../../lib/session.ts';
import { DAY_FORMAT, dayField } from '../list/date-filter.tsx';
import { saveBlob } from '../save-file.ts';

/** A From or To day of a report: sent as the start or the end of the Bangkok day (document 3, report dates). */
export function ReportDayField({
  label,
  name,
  edge,
}: {
  label: string;
  name: string;
  edge: 'start' | 'end';
}) {
  return (
    <Form.Item label={label} name={name} {...dayField(edge)}>
      <DatePicker format={DAY_FORMAT} placeholder={label} style={{ width: '100%' }} />
    </Form.Item>
  );
}

const onlyDigits = (value: string | undefined) => value?.replace(/\D/g, '');

/** A text filter of a report; `digits` keeps only digits (an id). */
export function ReportTextField({
  label,
  name,
  digits = false,
}: {
  label: string;
  name: string;
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

/** A repeated id filter of a report (clusters, sites), searchable by name. */
export function ReportIdsField({
  label,
  name,
  placeholder,
  options,
  loading,
}: {
  label: string;
  name: string;
  placeholder: string;
  options: { value: string; label: string }[];
  loading?: boolean;
}) {
  return (
    <Form.Item label={label} name={name}>
      <Select
        mode="multiple"
        allowClear
        optionFilterProp="label"
        maxTagCount="responsive"
        placeholder={placeholder}
        loading={loading}
        options={options}
      />
    </Form.Item>
  );
}

/** The Booking Report's Payment Method: 'Any Payment Method' (sent as nothing), then the methods. */
const METHOD_OPTIONS = [
  { value: '', label: 'Any Payment Method' },
  ...PAYMENT_METHODS.map((value) => ({ value, label: PAYMENT_METHOD_LABELS[value] })),
];

export function ReportPaymentMethodField({ name = 'paymentMethod' }: { name?: string }) {
  return (
    <Form.Item label="Payment Method" name={name}>
      <Select options={METHOD_OPTIONS} />
    </Form.Item>
  );
}

/**
 * The Booking Report's Cluster Name and Site Name (`merchantId`, `landlordId`), each shown to the roles its
 * field rule names; the sites narrow to the chosen clusters. Used inside a report's Form (Booking Report,
 * Statistics).
 */
export function ReportPlaceFields() {
  const role = useRole();
  const form = Form.useFormInstance();
  const clusterField = allowed(role, 'bookingReportClusterFilter');
  const siteField = allowed(role, 'bookingReportSiteFilter');
  const merchantIds: string[] = Form.useWatch('merchantId', form) ?? [];
  const merchants = useMerchantDropdown();
  const landlords = useLandlordDropdown(clusterField ? merchantIds : []);
  return (
    <>
      {clusterField && (
        <ReportIdsField
          label="Cluster Name"
          name="merchantId"
          placeholder="All clusters"
          options={idNameOptions(merchants.data)}
        />
      )}
      {siteField && (
        <ReportIdsField
          label="Site Name"
          name="landlordId"
          placeholder="All sites"
          options={idNameOptions(landlords.data)}
        />
      )}
    </>
  );
}

interface ReportFormProps<T> {
  title: string;
  /** The form's name (prefixes its fields' ids). */
  name: string;
  form: FormInstance<T>;
  initialValues: T;
  /** The report call, e.g. '/report/booking'. */
  endpoint: string;
  /** The query the values lead to (empty filters left out). */
  query: (values: T) => URLSearchParams;
  /** The file's name when the server names none. */
  fallbackFileName: () => string;
  /** Shown when nothing matches (404). */
  notFoundMessage: string;
  children: ReactNode;
}

/**
 * A report screen (Booking Report, Coupon&point Report): its filters, Search downloads the spreadsheet under
 * the server's file name (a 404 shows `notFoundMessage`), Clear Data empties the form. While the report is
 * prepared the form is disabled and says so.
 */
export function ReportForm<T>({
  title,
  name,
  form,
  initialValues,
  endpoint,
  query,
  fallbackFileName,
  notFoundMessage,
  children,
}: ReportFormProps<T>) {
  const [busy, setBusy] = useState(false);
  const download = async (values: T) => {
    setBusy(true);
    try {
      const search = query(values).toString();
      const { blob, fileName } = await apiDownload(`${endpoint}${search ? `?${search}` : ''}`);
      saveBlob(blob, fileName ?? fallbackFileName());
    } catch (error) {
      if (error instanceof ApiError && error.status === 404) notify('warning', notFoundMessage);
      else notifyCallError(error, undefined);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Card
      title={
        <Typography.Title level={4} style={{ margin: 0 }}>
          {title}
        </Typography.Title>
      }
    >
      <Form<T>
        form={form}
        name={name}
        layout="vertical"
        initialValues={initialValues as never}
        onFinish={(values) => void download(values)}
        disabled={busy}
      >
        <div className="list-filter-fields">{children}</div>
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
