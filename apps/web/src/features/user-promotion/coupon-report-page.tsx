import { COUPON_REPORT_FILE_NAME, USER_PROMOTION_MESSAGES } from '@ev/shared';
import { Form } from 'antd';
import { useEffect } from 'react';
import {
  ReportDayField,
  ReportForm,
  ReportIdsField,
  ReportTextField,
} from '../../components/form/report-form.tsx';
import { idNameOptions, useLandlordDropdown, useMerchantDropdown } from '../../lib/reference.ts';
import { type CouponReportValues, couponReportQuery } from './coupon-report-query.ts';

const INITIAL: CouponReportValues = { merchantId: [], landlordId: [] };

/**
 * /user-promotion-report (document 3, Coupon&point Report; the menu's Discount Report): the report's filters,
 * Search downloads Coupon-Point-Report_{timestamp}.xlsx (every redemption of every type), Clear Data empties
 * the form. Admin and marketting only, both with the Cluster Name field; the sites narrow to the chosen
 * clusters, and a chosen site of a cluster taken away goes (it would match nothing).
 */
export function CouponReportPage() {
  const [form] = Form.useForm<CouponReportValues>();
  const merchantIds = Form.useWatch('merchantId', form) ?? [];
  const merchants = useMerchantDropdown();
  const landlords = useLandlordDropdown(merchantIds);

  useEffect(() => {
    if (!landlords.data) return;
    const offered = new Set(landlords.data.map((site) => String(site.id)));
    const chosen: string[] = form.getFieldValue('landlordId') ?? [];
    const kept = chosen.filter((id) => offered.has(id));
    if (kept.length !== chosen.length) form.setFieldValue('landlordId', kept);
  }, [form, landlords.data]);

  return (
    <ReportForm<CouponReportValues>
      title="Coupon&point Report"
      name="coupon-report"
      form={form}
      initialValues={INITIAL}
      endpoint="/report/user-promotion"
      query={couponReportQuery}
      fallbackFileName={() => `${COUPON_REPORT_FILE_NAME}_${Date.now()}.xlsx`}
      notFoundMessage={USER_PROMOTION_MESSAGES.reportNotFound}
    >
      <ReportTextField label="Name" name="firstName" />
      <ReportTextField label="Surname" name="lastName" />
      <ReportTextField label="Email" name="email" />
      <ReportTextField label="Mobile Number" name="tel" />
      <ReportTextField label="Code" name="code" />
      <ReportIdsField
        label="Cluster Name"
        name="merchantId"
        placeholder="All clusters"
        options={idNameOptions(merchants.data)}
        loading={merchants.isPending}
      />
      <ReportIdsField
        label="Site Name"
        name="landlordId"
        placeholder="All sites"
        options={idNameOptions(landlords.data)}
        loading={landlords.isPending}
      />
      <ReportDayField label="Redeem Date From" name="createdAfter" edge="start" />
      <ReportDayField label="Redeem Date To" name="createdBefore" edge="end" />
    </ReportForm>
  );
}
