import {
  allowed,
  type Charger,
  type ChargerPowerProfile,
  can,
  chargerBody,
  OCPP_PROTOCOL_LABELS,
  OCPP_PROTOCOL_SETTINGS,
} from '@ev/shared';
import { Checkbox, Col, Form, Input, Select } from 'antd';
import { useParams } from 'react-router';
import { FormSection, HALF } from '../../components/form/fields.tsx';
import { MaxPowerField } from '../../components/form/max-power-field.tsx';
import { recordId, saveRecord, useRecordAnswer } from '../../components/form/record.ts';
import { SettingForm } from '../../components/form/setting-form.tsx';
import { HistoryButton } from '../../components/history-button.tsx';
import { ForbiddenResult, NotFoundResult } from '../../components/not-found-result.tsx';
import { idNameFieldOptions, useLandlordDropdown, useMerchantDropdown } from '../../lib/reference.ts';
import { useRole } from '../../lib/session.ts';
import { zodRule, zodValidator } from '../../lib/zod-rule.ts';
import { useBrandDropdown } from './api.ts';
import { ChargerFilesSection } from './charger-files-section.tsx';
import { type ChargerValues, chargerBodyOf, initialChargerValues } from './charger-form.ts';
import { brandLabel } from './charger-format.ts';
import { ChargerMessages } from './charger-messages.tsx';
import { ChargerOperations } from './charger-operations.tsx';
import { ConnectionInfo } from './connection-info.tsx';
import { ConnectorsField } from './connectors-field.tsx';

const ENDPOINT = '/charger';
const shape = chargerBody.shape;
const rule = (field: 'id' | 'nameEn' | 'nameTh' | 'chargerBrandId') => [zodRule(shape[field])];
const SITE_RULES = [zodRule(shape.landlordId.unwrap())];
/** Optional: an empty field keeps the password (or sets none); a typed one must be 16-40 printable characters. */
const PASSWORD_RULES = [
  {
    validator: (_rule: unknown, value: unknown) =>
      value ? zodValidator(shape.ocppPassword)(value) : Promise.resolve(),
  },
];

/** /charger/new and /charger/{id}; a new id starts a new form. */
export function ChargerSettingPage() {
  const { id } = useParams();
  return <ChargerSetting key={id} id={recordId(id)} />;
}

/** A place the role does not choose, shown read-only on an existing charger (nothing on a new one). */
function SeenPlace({ label, name }: { label: string; name: string | undefined }) {
  const id = `charger-${label.toLowerCase().replace(' ', '-')}`;
  if (name === undefined) return null;
  return (
    <Form.Item label={label} htmlFor={id}>
      <Input id={id} value={name} disabled />
    </Form.Item>
  );
}

function passwordPlaceholder(record: Charger | undefined) {
  if (!record) return 'Optional: 16 to 40 characters';
  return record.hasOcppPassword
    ? 'A password is set: leave empty to keep it'
    : 'No password is set: leave empty for none';
}

function ChargerSetting({ id }: { id: string | undefined }) {
  const [form] = Form.useForm<ChargerValues>();
  const role = useRole();
  const answer = useRecordAnswer<{ charger: Charger; powerProfile?: ChargerPowerProfile | null }>(
    ENDPOINT,
    id,
  );
  const place = {
    cluster: allowed(role, 'chargerFormClusterField'),
    site: allowed(role, 'chargerFormSiteField'),
  };
  const readOnly = !can(role, 'charger.write');
  const merchantId = Form.useWatch('merchantId', form);
  const removePassword = Form.useWatch('removeOcppPassword', form) === true;
  const merchants = useMerchantDropdown();
  const sites = useLandlordDropdown(place.cluster && merchantId ? [String(merchantId)] : []);
  const brands = useBrandDropdown();

  if (id === undefined && readOnly) return <ForbiddenResult />;
  if (id !== undefined && answer.isError) return <NotFoundResult />;
  const record = answer.data?.charger;
  return (
    <SettingForm<ChargerValues>
      title="Charger Setting"
      extra={<HistoryButton entity="charger" id={id} />}
      listPath={ENDPOINT}
      form={form}
      loading={id !== undefined && !record}
      initialValues={initialChargerValues(record)}
      readOnly={readOnly}
      save={(values) => saveRecord(ENDPOINT, id, chargerBodyOf(values, place))}
    >
      {record && <ConnectionInfo charger={record} powerProfile={answer.data?.powerProfile} />}
      {record && <ChargerOperations charger={record} />}
      {record && <ChargerFilesSection charger={record} />}
      {/* Beside the operations: what the charger answers shows as it comes (Live). */}
      {record && <ChargerMessages chargerId={record.id} />}
      <FormSection>
        <Col {...HALF}>
          <Form.Item
            label="Charger Id"
            name="id"
            required
            rules={rule('id')}
            extra={
              id === undefined
                ? "The charger's OCPP identity: letters, digits, '.', '_', '-', '~'."
                : undefined
            }
          >
            <Input maxLength={48} disabled={id !== undefined} />
          </Form.Item>
        </Col>
        <Col {...HALF}>
          <Form.Item label="Charger Brand" name="chargerBrandId" required rules={rule('chargerBrandId')}>
            <Select
              showSearch={{ optionFilterProp: 'label' }}
              loading={brands.isLoading}
              placeholder="Select a charger brand"
              options={(brands.data ?? []).map((brand) => ({ value: brand.id, label: brandLabel(brand) }))}
            />
          </Form.Item>
        </Col>
        <Col {...HALF}>
          <Form.Item label="Charger Name (EN)" name="nameEn" required rules={rule('nameEn')}>
            <Input maxLength={255} />
          </Form.Item>
        </Col>
        <Col {...HALF}>
          <Form.Item label="Charger Name (TH)" name="nameTh" required rules={rule('nameTh')}>
            <Input maxLength={255} />
          </Form.Item>
        </Col>
        <Col {...HALF}>
          {place.cluster ? (
            <Form.Item label="Cluster Name" name="merchantId">
              <Select
                allowClear
                showSearch={{ optionFilterProp: 'label' }}
                loading={merchants.isLoading}
                placeholder="Any cluster: narrows the sites"
                options={idNameFieldOptions(merchants.data)}
                // Another cluster: the chosen site may not be in it.
                onChange={() => form.setFieldValue('landlordId', undefined)}
              />
            </Form.Item>
          ) : (
            <SeenPlace label="Cluster Name" name={record?.merchantNameEn} />
          )}
        </Col>
        <Col {...HALF}>
          {place.site ? (
            <Form.Item label="Site Name" name="landlordId" required rules={SITE_RULES}>
              <Select
                showSearch={{ optionFilterProp: 'label' }}
                loading={sites.isLoading}
                placeholder="Select a site"
                options={idNameFieldOptions(sites.data)}
              />
            </Form.Item>
          ) : (
            <SeenPlace label="Site Name" name={record?.landlordNameEn} />
          )}
        </Col>
      </FormSection>
      <FormSection title="OCPP">
        <Col {...HALF}>
          <Form.Item
            label="Protocol"
            name="ocppProtocol"
            extra="Automatic speaks the newest version the charger offers (OCPP 2.0.1, else 1.6J); a version accepts only that one."
          >
            <Select
              options={OCPP_PROTOCOL_SETTINGS.map((value) => ({ value, label: OCPP_PROTOCOL_LABELS[value] }))}
            />
          </Form.Item>
        </Col>
        <Col {...HALF}>
          <Form.Item
            label="OCPP Password"
            name="ocppPassword"
            rules={PASSWORD_RULES}
            extra="The charger signs in with its id and this password (HTTP Basic, OCPP security profile 1)."
          >
            <Input.Password
              maxLength={40}
              autoComplete="new-password"
              placeholder={passwordPlaceholder(record)}
              disabled={removePassword}
            />
          </Form.Item>
        </Col>
        {record?.hasOcppPassword && (
          <Col {...HALF}>
            <Form.Item label=" " name="removeOcppPassword" valuePropName="checked">
              <Checkbox>Remove password (the charger may connect without one)</Checkbox>
            </Form.Item>
          </Col>
        )}
      </FormSection>
      <FormSection title="Power">
        <Col {...HALF}>
          <MaxPowerField extra="Empty: no limit of its own. Caps its share of the site's limit." />
        </Col>
      </FormSection>
      <FormSection title="Connectors">
        <Col span={24}>
          <ConnectorsField record={record} disabled={readOnly} />
        </Col>
      </FormSection>
    </SettingForm>
  );
}
