import { LoadingOutlined } from '@ant-design/icons';
import { COUPON_REPORT_FILE_NAME, USER_PROMOTION_MESSAGES } from '@ev/shared';
import { Button, Card, DatePicker, Flex, Form, Input, Select, Spin, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { DAY_FORMAT, dayField } from '../../components/list/date-filter.tsx';
import { saveBlob } from '../../components/save-file.ts';
import { ApiError, apiDownload } from '../../lib/api.ts';
import { notify, notifyCallError } from '../../lib/notify.ts';
import { idNameOptions, useLandlordDropdown, useMerchantDropdown } from '../../lib/reference.ts';
import { type CouponReportValues, couponReportQuery } from './coupon-report-query.ts';

const INITIAL: CouponReportValues = { merchantId: [], landlordId: [] };

/** The Booking Report's fields (booking-report-page.tsx), over this form's values. */
function DayField({
  label,
  name,
  edge,
}: {
  label: string;
  name: keyof CouponReportValues;
  edge: 'start' | 'end';
}) {
  return (
    <Form.Item label={label} name={name} {...dayField(edge)}>
      <DatePicker format={DAY_FORMAT} placeholder={label} style={{ width: '100%' }} />
    </Form.Item>
  );
}

function TextField({ label, name }: { label: string; name: keyof CouponReportValues }) {
  return (
    <Form.Item label={label} name={name}>
      <Input allowClear maxLength={255} placeholder={label} />
    </Form.Item>
  );
}

function IdsField({
  label,
  name,
  placeholder,
  options,
  loading,
}: {
  label: string;
  name: 'merchantId' | 'landlordId';
  placeholder: string;
  options: { value: string; label: string }[];
  loading: boolean;
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

/**
 * /user-promotion-report (document 3, Coupon&point Report; the menu's Discount Report): the report's filters,
 * Search downloads Coupon-Point-Report_{timestamp}.xlsx (every redemption of every type), Clear Data empties
 * the form. Admin and marketting only, both with the Cluster Name field; the sites narrow to the chosen
 * clusters, and a chosen site of a cluster taken away goes (it would match nothing).
 */
export function CouponReportPage() {
  const [form] = Form.useForm<CouponReportValues>();
  const [busy, setBusy] = useState(false);
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

  const download = async (values: CouponReportValues) => {
    setBusy(true);
    try {
      const query = couponReportQuery(values).toString();
      const { blob, fileName } = await apiDownload(`/report/user-promotion${query ? `?${query}` : ''}`);
      saveBlob(blob, fileName ?? `${COUPON_REPORT_FILE_NAME}_${Date.now()}.xlsx`);
    } catch (error) {
      if (error instanceof ApiError && error.status === 404)
        notify('warning', USER_PROMOTION_MESSAGES.reportNotFound);
      else notifyCallError(error, undefined);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Card
      title={
        <Typography.Title level={4} style={{ margin: 0 }}>
          Coupon&amp;point Report
        </Typography.Title>
      }
    >
      <Form<CouponReportValues>
        form={form}
        name="coupon-report"
        layout="vertical"
        initialValues={INITIAL}
        onFinish={(values) => void download(values)}
        disabled={busy}
      >
        <div className="list-filter-fields">
          <TextField label="Name" name="firstName" />
          <TextField label="Surname" name="lastName" />
          <TextField label="Email" name="email" />
          <TextField label="Mobile Number" name="tel" />
          <TextField label="Code" name="code" />
          <IdsField
            label="Cluster Name"
            name="merchantId"
            placeholder="All clusters"
            options={idNameOptions(merchants.data)}
            loading={merchants.isPending}
          />
          <IdsField
            label="Site Name"
            name="landlordId"
            placeholder="All sites"
            options={idNameOptions(landlords.data)}
            loading={landlords.isPending}
          />
          <DayField label="Redeem Date From" name="createdAfter" edge="start" />
          <DayField label="Redeem Date To" name="createdBefore" edge="end" />
        </div>
        <Flex gap={8} wrap justify="end" align="center">
          {busy && (
            <Flex gap={8} align="center" role="status">
              <Spin size="small" />
              <Typography.Text type="secondary">Preparing the report…</Typography.Text>
            </Flex>
          )}
          {/* Not `loading`: see the Booking Report (antd 6.6's Button sometimes kept its spinner). */}
          <Button type="primary" htmlType="submit" icon={busy ? <LoadingOutlined /> : undefined}>
            Search
          </Button>
          <Button onClick={() => form.resetFields()}>Clear Data</Button>
        </Flex>
      </Form>
    </Card>
  );
}
