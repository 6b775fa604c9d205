import {
  allowed,
  BOOKING_MESSAGES,
  PAYMENT_METHOD_LABELS,
  PAYMENT_METHODS,
  REPORT_STYLE_LABELS,
} from '@ev/shared';
import { Form, Radio, Select } from 'antd';
import {
  ReportDayField,
  ReportForm,
  ReportIdsField,
  ReportTextField,
} from '../../components/form/report-form.tsx';
import { idNameOptions, useLandlordDropdown, useMerchantDropdown } from '../../lib/reference.ts';
import { useRole } from '../../lib/session.ts';
import { type ReportValues, reportQuery } from './report-query.ts';

const METHOD_OPTIONS = [
  { value: '', label: 'Any Payment Method' },
  ...PAYMENT_METHODS.map((value) => ({ value, label: PAYMENT_METHOD_LABELS[value] })),
];
const INITIAL: ReportValues = { paymentMethod: '', merchantId: [], landlordId: [], style: 'processed' };

/**
 * /booking-report (document 3, section 2): the filters of the report, Search downloads it as a spreadsheet
 * (Booking-Report_{timestamp}.xlsx), Clear Data empties the form. Cluster, Site and the Raw style by role.
 */
export function BookingReportPage() {
  const role = useRole();
  const [form] = Form.useForm<ReportValues>();
  const merchantIds = Form.useWatch('merchantId', form) ?? [];
  const clusterField = allowed(role, 'bookingReportClusterFilter');
  const siteField = allowed(role, 'bookingReportSiteFilter');
  const merchants = useMerchantDropdown();
  const landlords = useLandlordDropdown(clusterField ? merchantIds : []);
  const styles = allowed(role, 'bookingReportRawStyle')
    ? (['processed', 'raw'] as const)
    : (['processed'] as const);

  return (
    <ReportForm<ReportValues>
      title="Booking Report"
      name="booking-report"
      form={form}
      initialValues={INITIAL}
      endpoint="/report/booking"
      query={reportQuery}
      fallbackFileName={() => `Booking-Report_${Date.now()}.xlsx`}
      notFoundMessage={BOOKING_MESSAGES.reportNotFound}
    >
      <ReportTextField label="Charger Id" name="chargerId" />
      <ReportTextField label="Connector Id" name="connectorId" digits />
      <ReportTextField label="Name" name="firstName" />
      <ReportTextField label="Surname" name="lastName" />
      <ReportTextField label="Email" name="email" />
      <ReportTextField label="Mobile Number" name="tel" />
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
      <Form.Item label="Payment Method" name="paymentMethod">
        <Select options={METHOD_OPTIONS} />
      </Form.Item>
      <ReportDayField label="Service Date From" name="createdAfter" edge="start" />
      <ReportDayField label="Service Date To" name="createdBefore" edge="end" />
      <ReportDayField label="Payment Date From" name="paymentAfter" edge="start" />
      <ReportDayField label="Payment Date To" name="paymentBefore" edge="end" />
      <Form.Item label="Style" name="style">
        <Radio.Group
          optionType="button"
          options={styles.map((value) => ({ value, label: REPORT_STYLE_LABELS[value] }))}
        />
      </Form.Item>
    </ReportForm>
  );
}
