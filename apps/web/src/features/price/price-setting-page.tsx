import {
  bahtAmount,
  calculateMethodField,
  can,
  PRICE_LABELS,
  type Price,
  type PriceForm,
  type PriceMethod,
  perMinuteRate,
  priceFields,
} from '@ev/shared';
import { Col, Form, type FormInstance, Input, Select } from 'antd';
import { useParams } from 'react-router';
import { FormSection, HALF } from '../../components/form/fields.tsx';
import { NumberInput } from '../../components/form/number-input.tsx';
import { recordId, saveRecord, useRecord } from '../../components/form/record.ts';
import { SettingForm } from '../../components/form/setting-form.tsx';
import { HistoryButton } from '../../components/history-button.tsx';
import { ForbiddenResult, NotFoundResult } from '../../components/not-found-result.tsx';
import { useRole } from '../../lib/session.ts';
import { zodRule } from '../../lib/zod-rule.ts';
import { CALCULATE_METHOD_OPTIONS, METHOD_OPTIONS } from './price-options.ts';
import { DatedOverridesField, WeekdayOverridesField } from './price-overrides-field.tsx';

const shape = priceFields.shape;
type Field =
  | 'descEn'
  | 'descTh'
  | 'method'
  | 'penaltyBahtPerMin'
  | 'penaltyDCFullBahtPerMin'
  | 'penaltyDCFullDelayMin';
const rule = (field: Field) => [zodRule(shape[field])];
const CALCULATE_RULES = [zodRule(calculateMethodField)];
const KWH_RULES = [zodRule(bahtAmount(PRICE_LABELS.bahtPerKwh))];
const HOUR_RULES = [zodRule(bahtAmount(PRICE_LABELS.bahtPerHour))];
/** Rates, fees and the delay side by side: a third each from md up. */
const THIRD = { xs: 24, md: 8 };
/**
 * Every numeric input: max length 10 (section 5), and nothing changes what was typed: no rounding (the schema
 * refuses a third decimal) and no `min` (antd would turn a typed -1 into 0 on blur; the rules say why instead).
 */
const NUMBER = { maxLength: 10, inputMode: 'decimal' as const };

/** /price/new and /price/{id}; a new id starts a new form. */
export function PriceSettingPage() {
  const { id } = useParams();
  return <PriceSetting key={id} id={recordId(id)} />;
}

function initialValues(record: Price | undefined): Partial<PriceForm> {
  if (!record) {
    return {
      penaltyBahtPerMin: 0,
      penaltyDCFullBahtPerMin: 0,
      penaltyDCFullDelayMin: 0,
      overrideWeekdays: [],
      overrides: [],
    };
  }
  const { id: _id, active: _active, ...fields } = record;
  return fields;
}

/**
 * The method's coupling (section 4) when the user picks it: HOUR zeroes Baht/kWh, KW zeroes Baht/hr and
 * forces BAHT_HRS, on the plan and on every override row. The fields are disabled by the render; their
 * errors go, since they now hold a value.
 */
function coupleMethod(form: FormInstance<PriceForm>, method: PriceMethod) {
  const zeroed = method === 'HOUR' ? 'bahtPerKwh' : 'bahtPerHour';
  const fields: Parameters<FormInstance<PriceForm>['setFields']>[0] = [
    { name: [zeroed], value: 0, errors: [] },
  ];
  if (method === 'KW') fields.push({ name: ['calculateMethod'], value: 'BAHT_HRS', errors: [] });
  for (const list of ['overrideWeekdays', 'overrides'] as const) {
    (form.getFieldValue(list) ?? []).forEach((_row: unknown, index: number) => {
      fields.push({ name: [list, index, zeroed], value: 0, errors: [] });
    });
  }
  form.setFields(fields);
}

function PriceSetting({ id }: { id: string | undefined }) {
  const [form] = Form.useForm<PriceForm>();
  const role = useRole();
  const price = useRecord<Price>('/price', 'price', id);
  const readOnly = !can(role, 'price.write');
  const method = Form.useWatch('method', form);
  const calculateMethod = Form.useWatch('calculateMethod', form);
  const bahtPerHour = Form.useWatch('bahtPerHour', form);

  if (id === undefined && readOnly) return <ForbiddenResult />;
  if (id !== undefined && price.isError) return <NotFoundResult />;
  const record = price.data;
  return (
    <SettingForm<PriceForm>
      title="Price Setting"
      extra={<HistoryButton entity="price" id={id} />}
      listPath="/price"
      form={form}
      loading={id !== undefined && !record}
      initialValues={initialValues(record)}
      readOnly={readOnly}
      save={(values) => saveRecord('/price', id, values)}
    >
      <FormSection>
        <Col {...HALF}>
          <Form.Item label="ID" htmlFor="priceId">
            <Input
              id="priceId"
              value={record ? String(record.id) : ''}
              placeholder="Auto-generated"
              disabled
            />
          </Form.Item>
        </Col>
        <Col {...HALF} />
        <Col {...HALF}>
          <Form.Item label="Description (EN)" name="descEn" required rules={rule('descEn')}>
            <Input maxLength={255} />
          </Form.Item>
        </Col>
        <Col {...HALF}>
          <Form.Item label="Description (TH)" name="descTh" required rules={rule('descTh')}>
            <Input maxLength={255} />
          </Form.Item>
        </Col>
      </FormSection>
      <FormSection title="Rates">
        <Col {...HALF}>
          <Form.Item label="Method" name="method" required rules={rule('method')}>
            <Select
              options={METHOD_OPTIONS}
              placeholder="Choose how the plan charges"
              onChange={(next: PriceMethod) => coupleMethod(form, next)}
            />
          </Form.Item>
        </Col>
        <Col {...HALF}>
          <Form.Item
            label="Calculate Method"
            name="calculateMethod"
            required={method !== 'KW'}
            rules={CALCULATE_RULES}
          >
            <Select options={CALCULATE_METHOD_OPTIONS} disabled={method === 'KW'} />
          </Form.Item>
        </Col>
        <Col {...THIRD}>
          <Form.Item label="Baht/kWh" name="bahtPerKwh" required={method !== 'HOUR'} rules={KWH_RULES}>
            <NumberInput {...NUMBER} disabled={method === 'HOUR'} />
          </Form.Item>
        </Col>
        <Col {...THIRD}>
          <Form.Item label="Baht/hr" name="bahtPerHour" required={method !== 'KW'} rules={HOUR_RULES}>
            <NumberInput {...NUMBER} disabled={method === 'KW'} />
          </Form.Item>
        </Col>
        {calculateMethod === 'BAHT_MIN' && method !== 'KW' && (
          <Col {...THIRD}>
            <Form.Item
              label="Baht/min (approx.)"
              htmlFor="perMinuteRate"
              tooltip="Baht/hr divided by 60, 3 decimals"
            >
              <Input id="perMinuteRate" value={perMinuteRate(bahtPerHour)} readOnly variant="filled" />
            </Form.Item>
          </Col>
        )}
      </FormSection>
      <FormSection title="Fees">
        <Col {...THIRD}>
          <Form.Item
            label={PRICE_LABELS.penaltyBahtPerMin}
            name="penaltyBahtPerMin"
            required
            rules={rule('penaltyBahtPerMin')}
          >
            <NumberInput {...NUMBER} />
          </Form.Item>
        </Col>
        <Col {...THIRD}>
          <Form.Item
            label={PRICE_LABELS.penaltyDCFullBahtPerMin}
            name="penaltyDCFullBahtPerMin"
            required
            rules={rule('penaltyDCFullBahtPerMin')}
          >
            <NumberInput {...NUMBER} />
          </Form.Item>
        </Col>
        <Col {...THIRD}>
          <Form.Item
            label={PRICE_LABELS.penaltyDCFullDelayMin}
            name="penaltyDCFullDelayMin"
            required
            rules={rule('penaltyDCFullDelayMin')}
          >
            <NumberInput {...NUMBER} />
          </Form.Item>
        </Col>
      </FormSection>
      <FormSection title="Weekday overrides">
        <Col span={24}>
          <WeekdayOverridesField method={method} disabled={readOnly} />
        </Col>
      </FormSection>
      <FormSection title="Dated overrides">
        <Col span={24}>
          <DatedOverridesField method={method} disabled={readOnly} />
        </Col>
      </FormSection>
    </SettingForm>
  );
}
