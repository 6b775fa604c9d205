import {
  allowed,
  BUSINESS_HOURS_TYPE_LABELS,
  BUSINESS_HOURS_TYPES,
  can,
  type Landlord,
  type LandlordForm,
  landlordBody,
  PHASES,
  phasesValue,
  phasesVoltageIssue,
  voltageValue,
} from '@ev/shared';
import { Col, Form, Input, Select } from 'antd';
import { lazy, Suspense } from 'react';
import { useParams } from 'react-router';
import { FormSection, HALF, ProvinceSelect, TEXT_AREA } from '../../components/form/fields.tsx';
import { MaxPowerField } from '../../components/form/max-power-field.tsx';
import { NumberInput } from '../../components/form/number-input.tsx';
import { recordId, saveRecord, useRecord } from '../../components/form/record.ts';
import { SettingForm } from '../../components/form/setting-form.tsx';
import { HistoryButton } from '../../components/history-button.tsx';
import { ForbiddenResult, NotFoundResult } from '../../components/not-found-result.tsx';
import { idNameFieldOptions, useMerchantDropdown } from '../../lib/reference.ts';
import { useRole } from '../../lib/session.ts';
import { optionalZodRule, zodRule } from '../../lib/zod-rule.ts';
import { BusinessHoursField } from './business-hours-field.tsx';
import { LiveLoadCard } from './live-load-card.tsx';

// Leaflet (~40 KB compressed) loads with the map, after the form has shown.
const MapPicker = lazy(() =>
  import('../../components/form/map-picker.tsx').then((m) => ({ default: m.MapPicker })),
);

const shape = landlordBody.shape;
const rule = (field: Exclude<keyof typeof shape, 'merchantId'>) => [zodRule(shape[field])];
/** Required on this form for the roles that choose the cluster. */
const MERCHANT_RULE = [zodRule(shape.merchantId.unwrap())];
const HOURS_TYPES = BUSINESS_HOURS_TYPES.map((value) => ({
  value,
  label: BUSINESS_HOURS_TYPE_LABELS[value],
}));
const PARTNER_USER_TYPES = [{ value: 'ruejai', label: 'ruejai' }];
const PHASE_OPTIONS = PHASES.map((value) => ({
  value,
  label: value === 1 ? '1 (single-phase)' : '3 (three-phase)',
}));

/** Phases and voltage go together: the one left empty beside the other says so (the server's rule). */
const togetherRule =
  (field: 'phases' | 'voltage') =>
  ({ getFieldValue }: { getFieldValue: (name: string) => unknown }) => ({
    validator: () => {
      const issue = phasesVoltageIssue({
        phases: getFieldValue('phases') as number | null | undefined,
        voltage: getFieldValue('voltage') as number | null | undefined,
      });
      return issue?.path === field ? Promise.reject(new Error(issue.message)) : Promise.resolve();
    },
  });
/** Optional numbers: empty is fine (none), a typed one must pass the shared schema. */
const PHASES_RULES = [optionalZodRule(phasesValue), togetherRule('phases')];
const VOLTAGE_RULES = [optionalZodRule(voltageValue), togetherRule('voltage')];

/** /landlord/new and /landlord/{id}; a new id starts a new form. */
export function LandlordSettingPage() {
  const { id } = useParams();
  return <LandlordSetting key={id} id={recordId(id)} />;
}

function initialValues(record: Landlord | undefined): Partial<LandlordForm> {
  if (!record) return { businessHoursType: '24H', businessHours: [] };
  const { id: _id, merchantNameEn: _name, internal: _internal, active: _active, ...fields } = record;
  return {
    ...fields,
    partnerUserType: fields.partnerUserType === 'ruejai' ? 'ruejai' : null,
    phases: fields.phases === 1 || fields.phases === 3 ? fields.phases : null,
  };
}

function LandlordSetting({ id }: { id: string | undefined }) {
  const [form] = Form.useForm<LandlordForm>();
  const role = useRole();
  const site = useRecord<Landlord>('/landlord', 'landlord', id);
  const choosesCluster = allowed(role, 'siteClusterField');
  const merchants = useMerchantDropdown();
  const readOnly = !can(role, id === undefined ? 'landlord.create' : 'landlord.update');
  const hoursType = Form.useWatch('businessHoursType', form);

  if (id === undefined && readOnly) return <ForbiddenResult />;
  if (id !== undefined && site.isError) return <NotFoundResult />;
  const record = site.data;
  return (
    <SettingForm<LandlordForm>
      title="Site Setting"
      extra={<HistoryButton entity="landlord" id={id} />}
      listPath="/landlord"
      form={form}
      loading={id !== undefined && !record}
      initialValues={initialValues(record)}
      readOnly={readOnly}
      save={(values) =>
        saveRecord('/landlord', id, {
          ...values,
          businessHours: values.businessHoursType === 'period' ? (values.businessHours ?? []) : [],
          // Empty is no limit: sent as null, so a cleared field clears the stored value.
          maxPowerKw: values.maxPowerKw ?? null,
          phases: values.phases ?? null,
          voltage: values.voltage ?? null,
        })
      }
    >
      {/* A site with a limit (as saved) shows its load first: what an operator opens it to watch. */}
      {record?.maxPowerKw != null && <LiveLoadCard landlordId={record.id} />}
      <FormSection>
        <Col {...HALF}>
          <Form.Item label="Site ID">
            <Input
              value={record ? String(record.id) : ''}
              placeholder="Auto-generated"
              maxLength={50}
              disabled
            />
          </Form.Item>
        </Col>
        <Col {...HALF}>
          {choosesCluster ? (
            <Form.Item label="Cluster Name" name="merchantId" required rules={MERCHANT_RULE}>
              <Select
                showSearch={{ optionFilterProp: 'label' }}
                disabled={id !== undefined}
                loading={merchants.isLoading}
                placeholder="Choose the cluster"
                options={idNameFieldOptions(merchants.data)}
              />
            </Form.Item>
          ) : (
            record && (
              <Form.Item label="Cluster Name">
                <Input value={record.merchantNameEn} disabled />
              </Form.Item>
            )
          )}
        </Col>
        <Col {...HALF}>
          <Form.Item label="Site Name (EN)" name="nameEn" required rules={rule('nameEn')}>
            <Input maxLength={255} />
          </Form.Item>
        </Col>
        <Col {...HALF}>
          <Form.Item label="Site Name (TH)" name="nameTh" required rules={rule('nameTh')}>
            <Input maxLength={255} />
          </Form.Item>
        </Col>
        <Col {...HALF}>
          <Form.Item label="Latitude" name="latitude" required rules={rule('latitude')}>
            <NumberInput step={0.000001} />
          </Form.Item>
        </Col>
        <Col {...HALF}>
          <Form.Item label="Longitude" name="longitude" required rules={rule('longitude')}>
            <NumberInput step={0.000001} />
          </Form.Item>
        </Col>
        <Col span={24} style={{ marginBottom: 24 }}>
          <Suspense fallback={<div className="map-picker-loading" style={{ height: 320 }} />}>
            <MapPicker disabled={readOnly} />
          </Suspense>
        </Col>
        <Col {...HALF}>
          <Form.Item
            label="Business Hours"
            name="businessHoursType"
            required
            rules={rule('businessHoursType')}
          >
            <Select options={HOURS_TYPES} />
          </Form.Item>
        </Col>
        {hoursType === 'period' && (
          <Col span={24}>
            <BusinessHoursField disabled={readOnly} />
          </Col>
        )}
      </FormSection>
      <FormSection title="EVLP">
        <Col {...HALF}>
          <Form.Item label="MEA ID" name="meaId" rules={rule('meaId')}>
            <Input maxLength={255} />
          </Form.Item>
        </Col>
        <Col {...HALF}>
          <Form.Item label="PEA ID" name="peaId" rules={rule('peaId')}>
            <Input maxLength={255} />
          </Form.Item>
        </Col>
      </FormSection>
      <FormSection title="Partner">
        <Col {...HALF}>
          <Form.Item label="Partner Project ID" name="partnerProjectId" rules={rule('partnerProjectId')}>
            <Input maxLength={255} />
          </Form.Item>
        </Col>
        <Col {...HALF}>
          <Form.Item label="Partner User Type" name="partnerUserType">
            <Select allowClear options={PARTNER_USER_TYPES} />
          </Form.Item>
        </Col>
      </FormSection>
      <FormSection title="Other Infomation">
        <Col {...HALF}>
          <Form.Item label="Description (EN)" name="descEn" rules={rule('descEn')}>
            <Input.TextArea {...TEXT_AREA} />
          </Form.Item>
        </Col>
        <Col {...HALF}>
          <Form.Item label="Description (TH)" name="descTh" rules={rule('descTh')}>
            <Input.TextArea {...TEXT_AREA} />
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
          <Form.Item label="Tel" name="tel" rules={rule('tel')}>
            <Input maxLength={13} />
          </Form.Item>
        </Col>
      </FormSection>
      <FormSection title="Power">
        <Col {...HALF}>
          <MaxPowerField extra="Empty: no limit. Shared among the site's charging sessions." />
        </Col>
        <Col {...HALF}>
          <Form.Item
            label="Phases"
            name="phases"
            rules={PHASES_RULES}
            dependencies={['voltage']}
            extra="With Voltage, AC chargers are limited in amperes. Both or neither."
          >
            <Select allowClear placeholder="None" options={PHASE_OPTIONS} />
          </Form.Item>
        </Col>
        <Col {...HALF}>
          <Form.Item
            label="Voltage (V)"
            name="voltage"
            rules={VOLTAGE_RULES}
            dependencies={['phases']}
            extra="Per phase: 230 V in Thailand."
          >
            <NumberInput step={1} maxLength={4} inputMode="numeric" suffix="V" placeholder="None" />
          </Form.Item>
        </Col>
      </FormSection>
    </SettingForm>
  );
}
