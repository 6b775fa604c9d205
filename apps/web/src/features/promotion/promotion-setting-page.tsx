import { DownloadOutlined } from '@ant-design/icons';
import {
  allowed,
  PROMOTION_CODE_ALPHABET,
  PROMOTION_CODE_MAX,
  PROMOTION_MESSAGES,
  type Promotion,
  type PromotionType,
  promotionBody,
  promotionCodesCsv,
  promotionCsvName,
} from '@ev/shared';
import { Button, Col, DatePicker, Flex, Form, Input, Radio, Row, Select, Typography } from 'antd';
import { useEffect, useMemo, useState } from 'react';
import { useParams } from 'react-router';
import { HALF } from '../../components/form/fields.tsx';
import { bangkokInstantField } from '../../components/form/instant-field.ts';
import { NumberInput } from '../../components/form/number-input.tsx';
import { recordId, useRecord } from '../../components/form/record.ts';
import { SettingForm } from '../../components/form/setting-form.tsx';
import { HistoryButton } from '../../components/history-button.tsx';
import { NotFoundResult } from '../../components/not-found-result.tsx';
import { saveBlob } from '../../components/save-file.ts';
import { ApiError, api, apiDownload } from '../../lib/api.ts';
import { notify, notifyCallError } from '../../lib/notify.ts';
import { idNameFieldOptions, useLandlordDropdown, useMerchantDropdown } from '../../lib/reference.ts';
import { useRole } from '../../lib/session.ts';
import { optionalZodRule, zodRule } from '../../lib/zod-rule.ts';
import { PROMOTION_SCREENS, promotionType } from './promotion-format.ts';

/** The form's values: the body's fields as the controls hold them. */
interface PromotionValues {
  code?: string;
  nameEn?: string;
  nameTh?: string;
  internal?: boolean;
  expose?: boolean;
  merchantIds?: number[];
  landlordIds?: number[];
  validFrom?: string;
  validTo?: string;
  discountPercent?: number | null;
  discountBaht?: number | null;
  point?: number | null;
  count?: number;
  total?: number | null;
}

const shape = promotionBody.shape;
const rule = (field: keyof typeof shape) => [zodRule(shape[field])];
/** A field that may stay empty: checked only once given. */
const optionalRule = (field: keyof typeof shape) => [optionalZodRule(shape[field])];
const required = (message: string) => [{ required: true, message }];

/** A suffix as the server draws them. */
const exampleSuffix = () =>
  Array.from(crypto.getRandomValues(new Uint8Array(8)), (byte) => PROMOTION_CODE_ALPHABET[byte & 31]).join(
    '',
  );

/** The body the API takes for this type: the fields the type does not use are left out. */
function bodyOf(type: PromotionType, values: PromotionValues) {
  return {
    type,
    code: values.code,
    nameEn: values.nameEn,
    nameTh: values.nameTh,
    internal: values.internal,
    ...(type === 'landlord' ? {} : { expose: values.expose }),
    merchantIds: values.internal ? (values.merchantIds ?? []) : [],
    landlordIds: values.internal ? (values.landlordIds ?? []) : [],
    validFrom: values.validFrom,
    validTo: values.validTo,
    ...(type === 'discount'
      ? { discountPercent: values.discountPercent, discountBaht: values.discountBaht }
      : {}),
    ...(type === 'point' ? { point: values.point } : {}),
    count: values.count,
    total: values.total ?? null,
  };
}

/** /promotion/{type}/new and /promotion/{type}/{id} (document 3, sections 2 to 5). */
export function PromotionSettingPage() {
  const params = useParams();
  const type = promotionType(params.type);
  if (!type) return <NotFoundResult />;
  return <PromotionSetting key={`${type}/${params.id}`} type={type} id={recordId(params.id)} />;
}

function PromotionSetting({ type, id }: { type: PromotionType; id: string | undefined }) {
  const [form] = Form.useForm<PromotionValues>();
  const record = useRecord<Promotion>('/promotion', 'promotion', id);
  const role = useRole();
  const internal = Form.useWatch('internal', form);
  const merchantIds: number[] = Form.useWatch('merchantIds', form) ?? [];
  const merchantIdsKey = merchantIds.join();
  const code = Form.useWatch('code', form) ?? '';
  const count = Form.useWatch('count', form);
  const merchants = useMerchantDropdown();
  const landlords = useLandlordDropdown(merchantIds.map(String));
  const [suffix] = useState(exampleSuffix);
  const screen = PROMOTION_SCREENS[type];
  const listPath = `/promotion/${type}`;

  const promotion = record.data;
  // The sites narrow to the chosen clusters: a chosen site of a cluster taken away goes too.
  useEffect(() => {
    if (id !== undefined || merchantIdsKey === '' || !landlords.data) return;
    const inClusters = new Set(landlords.data.map((site) => site.id));
    const kept = (form.getFieldValue('landlordIds') as number[] | undefined) ?? [];
    if (kept.some((site) => !inClusters.has(site)))
      form.setFieldsValue({ landlordIds: kept.filter((site) => inClusters.has(site)) });
  }, [form, id, merchantIdsKey, landlords.data]);
  // Once created, only the names, homepage and point may change (section 2).
  const fixed = id !== undefined;
  const initialValues = useMemo<PromotionValues>(
    () =>
      promotion
        ? {
            code: promotion.code,
            nameEn: promotion.nameEn,
            nameTh: promotion.nameTh,
            internal: promotion.internal,
            expose: promotion.expose,
            merchantIds: promotion.merchantIds,
            landlordIds: promotion.landlordIds,
            validFrom: promotion.validFrom,
            validTo: promotion.validTo,
            discountPercent: promotion.discountPercent,
            discountBaht: promotion.discountBaht,
            point: promotion.point,
            count: promotion.count,
            total: promotion.total,
          }
        : {
            // Section 4: a private station code is for its sites, a point code for everyone.
            internal: type === 'landlord' ? true : type === 'point' ? false : undefined,
            expose: type === 'landlord' ? false : undefined,
            merchantIds: [],
            landlordIds: [],
            count: 1,
          },
    [promotion, type],
  );
  if (id !== undefined && record.isError) return <NotFoundResult />;

  // A promotion's sites show by name even if the dropdown no longer lists them.
  const siteOptions =
    fixed && promotion
      ? promotion.landlordIds.map((value, index) => ({
          value,
          label: promotion.landlordNameEns[index] ?? '',
        }))
      : idNameFieldOptions(landlords.data);
  const clusterOptions =
    fixed && promotion
      ? promotion.merchantIds.map((value, index) => ({
          value,
          label: promotion.merchantNameEns[index] ?? '',
        }))
      : idNameFieldOptions(merchants.data);

  const save = async (values: PromotionValues) => {
    const body = bodyOf(type, values);
    if (id !== undefined) return api(`/promotion/${id}`, { method: 'PATCH', body });
    const created = await api<{ id: number; codes?: string[] }>('/promotion', { method: 'POST', body });
    if (created.codes) {
      // The codes as the server made them, saved as `{code}.csv` (the same file as Download codes).
      const csv = promotionCodesCsv(created.codes.map((each) => [each, 0, body.total ?? null] as const));
      saveBlob(new Blob([csv], { type: 'text/csv' }), promotionCsvName(body.code ?? 'codes'));
    }
    return created;
  };
  const onSaveError = (error: unknown) => {
    if (!(error instanceof ApiError) || error.status !== 409) return false;
    notify('warning', PROMOTION_MESSAGES.codeUsed);
    return true;
  };

  const canDownload = fixed && allowed(role, 'promotionDownloadCodes') && (promotion?.count ?? 0) > 1;
  const download = async () => {
    try {
      const { blob, fileName } = await apiDownload(`/promotion/${id}/code`);
      saveBlob(blob, fileName ?? promotionCsvName(promotion?.code ?? 'codes'));
      notify('success', 'Codes downloading has been started.');
    } catch (error) {
      notifyCallError(error, undefined);
    }
  };

  const selected = internal === true;
  return (
    <SettingForm<PromotionValues>
      title={screen.setting}
      listPath={listPath}
      form={form}
      loading={id !== undefined && !promotion}
      initialValues={initialValues}
      save={save}
      onSaveError={onSaveError}
      extra={
        <Flex gap={8} wrap>
          <HistoryButton entity="promotion" id={id} />
          {canDownload && (
            <Button icon={<DownloadOutlined />} onClick={() => void download()}>
              Download codes
            </Button>
          )}
        </Flex>
      }
    >
      <Row gutter={16}>
        <Col {...HALF}>
          <Form.Item
            label="Code"
            name="code"
            required
            rules={rule('code')}
            extra={
              code ? (
                <span data-testid="example-code">
                  Example:{' '}
                  <Typography.Text code>{(count ?? 1) > 1 ? `${code}${suffix}` : code}</Typography.Text>
                </span>
              ) : undefined
            }
          >
            <Input maxLength={PROMOTION_CODE_MAX} disabled={fixed} />
          </Form.Item>
        </Col>
        <Col xs={12} md={6}>
          <Form.Item label="Number of code" name="count" required rules={rule('count')}>
            <NumberInput inputMode="numeric" disabled={fixed} />
          </Form.Item>
        </Col>
        <Col xs={12} md={6}>
          <Form.Item
            label="Usage per code"
            name="total"
            rules={optionalRule('total')}
            tooltip="Empty: no limit per code"
          >
            <NumberInput inputMode="numeric" placeholder="No limit" disabled={fixed} />
          </Form.Item>
        </Col>
        <Col {...HALF}>
          <Form.Item label="Promotion Name (EN)" name="nameEn" required rules={rule('nameEn')}>
            <Input maxLength={255} />
          </Form.Item>
        </Col>
        <Col {...HALF}>
          <Form.Item label="Promotion Name (TH)" name="nameTh" required rules={rule('nameTh')}>
            <Input maxLength={255} />
          </Form.Item>
        </Col>
        <Col {...HALF}>
          <Form.Item label="Area type" name="internal" required rules={required(PROMOTION_MESSAGES.internal)}>
            <Radio.Group
              disabled={fixed || type !== 'discount'}
              onChange={(event) => {
                // Clusters and sites only for selected landlords: cleared otherwise (section 4).
                if (!event.target.value) form.setFieldsValue({ merchantIds: [], landlordIds: [] });
              }}
              options={[
                { value: true, label: 'Selected landlords' },
                { value: false, label: 'Public' },
              ]}
            />
          </Form.Item>
        </Col>
        {type !== 'landlord' && (
          <Col {...HALF}>
            <Form.Item label="Homepage" name="expose" required rules={required(PROMOTION_MESSAGES.expose)}>
              <Radio.Group
                options={[
                  { value: true, label: 'Show' },
                  { value: false, label: 'Hide' },
                ]}
              />
            </Form.Item>
          </Col>
        )}
        <Col {...HALF}>
          <Form.Item label="Cluster Name" name="merchantIds">
            <Select
              mode="multiple"
              allowClear
              optionFilterProp="label"
              disabled={fixed || !selected}
              loading={merchants.isLoading}
              placeholder={selected ? 'All clusters' : 'Only for selected landlords'}
              options={clusterOptions}
            />
          </Form.Item>
        </Col>
        <Col {...HALF}>
          <Form.Item
            label="Site Name"
            name="landlordIds"
            required={selected}
            rules={selected ? required(PROMOTION_MESSAGES.landlordIds) : []}
          >
            <Select
              mode="multiple"
              allowClear
              optionFilterProp="label"
              disabled={fixed || !selected}
              loading={landlords.isLoading}
              placeholder={selected ? 'Choose the sites' : 'Only for selected landlords'}
              options={siteOptions}
            />
          </Form.Item>
        </Col>
        <Col {...HALF}>
          <Form.Item
            label="Start Date"
            name="validFrom"
            required
            rules={required(PROMOTION_MESSAGES.validFrom)}
            {...bangkokInstantField}
          >
            <DatePicker
              showTime={{ format: 'HH:mm' }}
              format="YYYY-MM-DD HH:mm"
              style={{ width: '100%' }}
              disabled={fixed}
            />
          </Form.Item>
        </Col>
        <Col {...HALF}>
          <Form.Item
            label="End Date"
            name="validTo"
            required
            dependencies={['validFrom']}
            rules={[
              ...required(PROMOTION_MESSAGES.validTo),
              ({ getFieldValue }) => ({
                validator: (_rule, value: string | undefined) => {
                  const from = getFieldValue('validFrom') as string | undefined;
                  return !value || !from || Date.parse(value) > Date.parse(from)
                    ? Promise.resolve()
                    : Promise.reject(new Error(PROMOTION_MESSAGES.validRange));
                },
              }),
            ]}
            {...bangkokInstantField}
          >
            <DatePicker
              showTime={{ format: 'HH:mm' }}
              format="YYYY-MM-DD HH:mm"
              style={{ width: '100%' }}
              disabled={fixed}
            />
          </Form.Item>
        </Col>
        {type === 'discount' && (
          <>
            <Col xs={12} md={6}>
              <Form.Item label="Discount (%)" name="discountPercent" required rules={rule('discountPercent')}>
                <NumberInput inputMode="decimal" disabled={fixed} />
              </Form.Item>
            </Col>
            <Col xs={12} md={6}>
              <Form.Item
                label="Discount (THB)"
                name="discountBaht"
                required
                rules={rule('discountBaht')}
                tooltip="The most a code takes off; with 0 % it is the amount taken off"
              >
                <NumberInput inputMode="decimal" disabled={fixed} />
              </Form.Item>
            </Col>
          </>
        )}
        {type === 'point' && (
          <Col xs={12} md={6}>
            <Form.Item label="Point" name="point" required rules={rule('point')}>
              <NumberInput inputMode="numeric" />
            </Form.Item>
          </Col>
        )}
      </Row>
    </SettingForm>
  );
}
