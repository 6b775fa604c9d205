import { type Merchant, type MerchantForm, merchantBody } from '@ev/shared';
import { Col, Form, Input, Radio, Row } from 'antd';
import { useParams } from 'react-router';
import { HALF, ProvinceSelect, TEXT_AREA } from '../../components/form/fields.tsx';
import { recordId, saveRecord, useRecord } from '../../components/form/record.ts';
import { SettingForm } from '../../components/form/setting-form.tsx';
import { HistoryButton } from '../../components/history-button.tsx';
import { NotFoundResult } from '../../components/not-found-result.tsx';
import { zodRule } from '../../lib/zod-rule.ts';

const rule = (field: keyof typeof merchantBody.shape) => [zodRule(merchantBody.shape[field])];
const AREA_TYPES = [
  { value: false, label: 'Public Used' },
  { value: true, label: 'Internal Used' },
];

/** /merchant/new and /merchant/{id}; a new id starts a new form. */
export function MerchantSettingPage() {
  const { id } = useParams();
  return <MerchantSetting key={id} id={recordId(id)} />;
}

function MerchantSetting({ id }: { id: string | undefined }) {
  const [form] = Form.useForm<MerchantForm>();
  const merchant = useRecord<Merchant>('/merchant', 'merchant', id);

  if (id !== undefined && merchant.isError) return <NotFoundResult />;
  const record = merchant.data;
  return (
    <SettingForm<MerchantForm>
      title="Cluster Setting"
      extra={<HistoryButton entity="merchant" id={id} />}
      listPath="/merchant"
      form={form}
      loading={id !== undefined && !record}
      initialValues={
        record
          ? {
              nameEn: record.nameEn,
              nameTh: record.nameTh,
              internal: record.internal,
              addrEn: record.addrEn,
              addrTh: record.addrTh,
              provinceId: record.provinceId,
              taxId: record.taxId,
              tel: record.tel,
            }
          : { internal: false }
      }
      save={(values) => saveRecord('/merchant', id, values)}
    >
      <Row gutter={16}>
        <Col {...HALF}>
          <Form.Item label="Cluster ID">
            <Input value={record ? String(record.id) : ''} placeholder="Auto-generated" disabled />
          </Form.Item>
        </Col>
        <Col {...HALF}>
          <Form.Item label="Area Type" name="internal" required rules={rule('internal')}>
            <Radio.Group options={AREA_TYPES} />
          </Form.Item>
        </Col>
        <Col {...HALF}>
          <Form.Item label="Cluster Name (EN)" name="nameEn" required rules={rule('nameEn')}>
            <Input maxLength={255} />
          </Form.Item>
        </Col>
        <Col {...HALF}>
          <Form.Item label="Cluster Name (TH)" name="nameTh" required rules={rule('nameTh')}>
            <Input maxLength={50} />
          </Form.Item>
        </Col>
        <Col {...HALF}>
          <Form.Item label="Address (EN)" name="addrEn" rules={rule('addrEn')}>
            <Input.TextArea {...TEXT_AREA} />
          </Form.Item>
        </Col>
        <Col {...HALF}>
          <Form.Item label="Address (TH)" name="addrTh" rules={rule('addrTh')}>
            <Input.TextArea {...TEXT_AREA} />
          </Form.Item>
        </Col>
        <Col {...HALF}>
          <Form.Item label="Province" name="provinceId">
            <ProvinceSelect />
          </Form.Item>
        </Col>
        <Col {...HALF}>
          <Form.Item label="Taxpayer Identification No." name="taxId" rules={rule('taxId')}>
            <Input maxLength={13} />
          </Form.Item>
        </Col>
        <Col {...HALF}>
          <Form.Item label="Tel" name="tel" rules={rule('tel')}>
            <Input maxLength={13} />
          </Form.Item>
        </Col>
      </Row>
    </SettingForm>
  );
}
