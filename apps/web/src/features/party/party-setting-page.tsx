import { type Party, type PartyForm, partyBody } from '@ev/shared';
import { Col, Form, Input, Row, Select } from 'antd';
import { useParams } from 'react-router';
import { HALF } from '../../components/form/fields.tsx';
import { recordId, saveRecord, useRecord } from '../../components/form/record.ts';
import { SettingForm } from '../../components/form/setting-form.tsx';
import { HistoryButton } from '../../components/history-button.tsx';
import { NotFoundResult } from '../../components/not-found-result.tsx';
import { idNameFieldOptions, useLandlordDropdown } from '../../lib/reference.ts';
import { zodRule } from '../../lib/zod-rule.ts';

const rule = (field: keyof typeof partyBody.shape) => [zodRule(partyBody.shape[field])];

/** /party/new and /party/{id}; a new id starts a new form. */
export function PartySettingPage() {
  const { id } = useParams();
  return <PartySetting key={id} id={recordId(id)} />;
}

function PartySetting({ id }: { id: string | undefined }) {
  const [form] = Form.useForm<PartyForm>();
  const group = useRecord<Party>('/party', 'party', id);
  const landlords = useLandlordDropdown();

  if (id !== undefined && group.isError) return <NotFoundResult />;
  const record = group.data;
  // A group's sites are fixed once it exists; they show by name even if the dropdown no longer lists them.
  const siteOptions = record
    ? record.landlordIds.map((value, index) => ({
        value,
        label: record.landlordNameEns[index] ?? String(value),
      }))
    : idNameFieldOptions(landlords.data);
  return (
    <SettingForm<PartyForm>
      title="Group Setting"
      extra={<HistoryButton entity="party" id={id} />}
      listPath="/party"
      form={form}
      loading={id !== undefined && !record}
      initialValues={
        record
          ? { nameEn: record.nameEn, nameTh: record.nameTh, landlordIds: record.landlordIds }
          : { landlordIds: [] }
      }
      save={(values) => saveRecord('/party', id, values)}
    >
      <Row gutter={16}>
        <Col {...HALF}>
          <Form.Item label="Group Name (EN)" name="nameEn" required rules={rule('nameEn')}>
            <Input maxLength={255} />
          </Form.Item>
        </Col>
        <Col {...HALF}>
          <Form.Item label="Group Name (TH)" name="nameTh" required rules={rule('nameTh')}>
            <Input maxLength={255} />
          </Form.Item>
        </Col>
        <Col span={24}>
          <Form.Item label="Site Name" name="landlordIds" required rules={rule('landlordIds')}>
            <Select
              mode="multiple"
              allowClear
              optionFilterProp="label"
              disabled={id !== undefined}
              loading={landlords.isLoading}
              placeholder="Choose the group's sites"
              options={siteOptions}
            />
          </Form.Item>
        </Col>
      </Row>
    </SettingForm>
  );
}
