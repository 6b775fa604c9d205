import { allowed, BOOKING_MESSAGES, REPORT_STYLE_LABELS } from '@ev/shared';
import { Form, Radio } from 'antd';
import {
  ReportDayField,
  ReportForm,
  ReportPaymentMethodField,
  ReportPlaceFields,
  ReportTextField,
} from '../../components/form/report-form.tsx';
import { useRole } from '../../lib/session.ts';
import { type ReportValues, reportQuery } from './report-query.ts';

const INITIAL: ReportValues = { paymentMethod: '', merchantId: [], landlordId: [], style: 'processed' };

/**
 * /booking-report (document 3, section 2): the filters of the report, Search downloads it as a spreadsheet
 * (Booking-Report_{timestamp}.xlsx), Clear Data empties the form. Cluster, Site and the Raw style by role.
 */
export function BookingReportPage() {
  const role = useRole();
  const [form] = Form.useForm<ReportValues>();
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
      <ReportPlaceFields />
      <ReportPaymentMethodField />
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
