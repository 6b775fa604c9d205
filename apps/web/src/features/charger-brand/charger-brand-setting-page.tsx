import { type ChargerBrand, type ChargerBrandForm, chargerBrandBody } from '@ev/shared';
import { Col, Form, Input, Row, Select } from 'antd';
import { useParams } from 'react-router';
import { HALF } from '../../components/form/fields.tsx';
import { NumberInput } from '../../components/form/number-input.tsx';
import { recordId, saveRecord, useRecord } from '../../components/form/record.ts';
import { SettingForm } from '../../components/form/setting-form.tsx';
import { HistoryButton } from '../../components/history-button.tsx';
import { NotFoundResult } from '../../components/not-found-result.tsx';
import { zodRule } from '../../lib/zod-rule.ts';
import { BrandFirmware } from './brand-firmware.tsx';
import { kwFormatter, kwParser, POWER_TYPE_OPTIONS } from './charger-brand-fields.ts';

const ENDPOINT = '/charger-brand';
const rule = (field: keyof typeof chargerBrandBody.shape) => [zodRule(chargerBrandBody.shape[field])];

/** /charger-brand/new and /charger-brand/{id}; a new id starts a new form. */
export function ChargerBrandSettingPage() {
  const { id } = useParams();
  return <ChargerBrandSetting key={id} id={recordId(id)} />;
}

function ChargerBrandSetting({ id }: { id: string | undefined }) {
  const [form] = Form.useForm<ChargerBrandForm>();
  const brand = useRecord<ChargerBrand>(ENDPOINT, 'chargerBrand', id);

  if (id !== undefined && brand.isError) return <NotFoundResult />;
  const record = brand.data;
  return (
    <SettingForm<ChargerBrandForm>
      title="Charger Brand Setting"
      extra={<HistoryButton entity="charger-brand" id={id} />}
      listPath={ENDPOINT}
      form={form}
      loading={id !== undefined && !record}
      initialValues={
        record ? { name: record.name, powerType: record.powerType, minPowerKw: record.minPowerKw } : {}
      }
      save={(values) => saveRecord(ENDPOINT, id, values)}
    >
      <Row gutter={16}>
        <Col {...HALF}>
          <Form.Item label="ID" htmlFor="charger-brand-id">
            <Input
              id="charger-brand-id"
              value={record ? String(record.id) : ''}
              placeholder="Auto-generated"
              disabled
            />
          </Form.Item>
        </Col>
        <Col {...HALF}>
          <Form.Item label="Name" name="name" required rules={rule('name')}>
            <Input maxLength={255} />
          </Form.Item>
        </Col>
        <Col {...HALF}>
          <Form.Item label="Power Type" name="powerType" required rules={rule('powerType')}>
            <Select options={POWER_TYPE_OPTIONS} placeholder="Select a power type" />
          </Form.Item>
        </Col>
        <Col {...HALF}>
          <Form.Item label="Min Power" name="minPowerKw" required rules={rule('minPowerKw')}>
            <NumberInput<number>
              step={0.01}
              maxLength={10}
              formatter={kwFormatter}
              parser={(text) => kwParser(text) as unknown as number}
              suffix="kW"
              inputMode="decimal"
            />
          </Form.Item>
        </Col>
      </Row>
      {record && <BrandFirmware brand={record} />}
    </SettingForm>
  );
}
