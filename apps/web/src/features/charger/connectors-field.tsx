import { PlusOutlined } from '@ant-design/icons';
import { CHARGER_MESSAGES, type Charger, connectorBody } from '@ev/shared';
import { Button, Card, Col, Flex, Form, Input, Row, Select, Typography } from 'antd';
import { RemoveRowButton } from '../../components/form/fields.tsx';
import { NumberInput } from '../../components/form/number-input.tsx';
import { usePriceDropdown } from '../../lib/reference.ts';
import { zodRule, zodValidator } from '../../lib/zod-rule.ts';
import { useConnectorTypes } from './api.ts';
import type { ConnectorRowValues } from './charger-form.ts';
import { priceLabel } from './charger-format.ts';
import { StatusTag } from './status-tag.tsx';

const shape = connectorBody.shape;
type Field = Exclude<keyof typeof shape, 'judjodId'>;
const rule = (field: Field) => [zodRule(shape[field])];
/** Judjod Id is optional: only a typed number is checked. */
const JUDJOD_RULES = [
  {
    validator: (_rule: unknown, value: unknown) =>
      value == null ? Promise.resolve() : zodValidator(shape.judjodId)(value),
  },
];
/** Connector ids are the connectors' global keys: no two rows of the form may share one. */
const UNIQUE_IDS = [
  {
    validator: (_rule: unknown, rows: ConnectorRowValues[] | undefined) => {
      const ids = (rows ?? []).map((row) => row?.id).filter((id) => typeof id === 'number');
      return new Set(ids).size === ids.length
        ? Promise.resolve()
        : Promise.reject(new Error(CHARGER_MESSAGES.connectorIdsUnique));
    },
  },
];
/** Three fields a line on wide screens (nine in all, in the spec's order), two on tablets, one on phones. */
const THIRD = { xs: 24, md: 12, xl: 8 };
const MAX_CONNECTORS = 50;

function ConnectorCard({
  name,
  index,
  saved,
  disabled,
  onRemove,
}: {
  name: number;
  index: number;
  /** The connector as saved, for its live status; none for a row added in this edit. */
  saved: Charger['connectors'][number] | undefined;
  disabled: boolean;
  onRemove: () => void;
}) {
  const isNew: boolean = Form.useWatch(['connectors', name, 'isNew']) === true;
  const types = useConnectorTypes();
  const prices = usePriceDropdown();
  return (
    <Card
      size="small"
      data-testid="connector-row"
      title={
        <Flex gap={8} align="center" wrap>
          <span>Connector {index + 1}</span>
          {saved && <StatusTag status={saved.status} errorCode={saved.errorCode} />}
          {saved && (
            <Typography.Text type="secondary" style={{ fontWeight: 'normal' }}>
              OCPP connector #{saved.ocppConnectorId}
            </Typography.Text>
          )}
          {isNew && <Typography.Text type="success">New</Typography.Text>}
        </Flex>
      }
      extra={
        // Only a row added in this edit can go: the server keeps every saved connector (section 4).
        isNew && !disabled && <RemoveRowButton label={`Remove connector ${index + 1}`} onClick={onRemove} />
      }
    >
      <Form.Item name={[name, 'isNew']} hidden>
        <Input />
      </Form.Item>
      <Row gutter={16}>
        <Col {...THIRD}>
          <Form.Item label="Connector Id" name={[name, 'id']} required rules={rule('id')}>
            <NumberInput maxLength={10} inputMode="numeric" disabled={!isNew} />
          </Form.Item>
        </Col>
        <Col {...THIRD}>
          <Form.Item label="Token" name={[name, 'token']} required rules={rule('token')}>
            <Input maxLength={255} />
          </Form.Item>
        </Col>
        <Col {...THIRD}>
          <Form.Item label="Connector Name (EN)" name={[name, 'nameEn']} required rules={rule('nameEn')}>
            <Input maxLength={255} />
          </Form.Item>
        </Col>
        <Col {...THIRD}>
          <Form.Item label="Connector Name (TH)" name={[name, 'nameTh']} required rules={rule('nameTh')}>
            <Input maxLength={255} />
          </Form.Item>
        </Col>
        <Col {...THIRD}>
          <Form.Item
            label="Connector Type"
            name={[name, 'connectorTypeId']}
            required
            rules={rule('connectorTypeId')}
          >
            <Select
              loading={types.isLoading}
              placeholder="Select a connector type"
              options={(types.data ?? []).map((type) => ({ value: type.id, label: type.name }))}
            />
          </Form.Item>
        </Col>
        <Col {...THIRD}>
          <Form.Item label="Judjod Id" name={[name, 'judjodId']} rules={JUDJOD_RULES}>
            <NumberInput maxLength={10} inputMode="numeric" placeholder="None" />
          </Form.Item>
        </Col>
        <Col {...THIRD}>
          <Form.Item label="Charging Speed" name={[name, 'maxPowerKw']} required rules={rule('maxPowerKw')}>
            <NumberInput step={0.01} maxLength={10} inputMode="decimal" suffix="kW" />
          </Form.Item>
        </Col>
        <Col {...THIRD}>
          <Form.Item label="Old QR" name={[name, 'oldQr']} rules={rule('oldQr')}>
            <Input maxLength={255} placeholder="None: the QR code holds the token" />
          </Form.Item>
        </Col>
        <Col {...THIRD}>
          <Form.Item label="Price" name={[name, 'priceId']} required rules={rule('priceId')}>
            <Select
              showSearch={{ optionFilterProp: 'label' }}
              loading={prices.isLoading}
              placeholder="Select a price plan"
              options={(prices.data ?? []).map((price) => ({ value: price.id, label: priceLabel(price) }))}
            />
          </Form.Item>
        </Col>
      </Row>
    </Card>
  );
}

/** The charger's connectors: saved ones keep their id and cannot be removed; new ones can (section 4). */
export function ConnectorsField({ record, disabled }: { record: Charger | undefined; disabled: boolean }) {
  const savedById = new Map(record?.connectors.map((connector) => [connector.id, connector]));
  const form = Form.useFormInstance();
  return (
    <Form.List name="connectors" rules={UNIQUE_IDS}>
      {(rows, { add, remove }, { errors }) => (
        <Flex vertical gap={12} style={{ marginBottom: 24 }} data-testid="connectors">
          {rows.length === 0 && <Typography.Text type="secondary">No connectors yet.</Typography.Text>}
          {rows.map((row, index) => {
            const values = form.getFieldValue(['connectors', row.name]) as ConnectorRowValues | undefined;
            return (
              <ConnectorCard
                key={row.key}
                name={row.name}
                index={index}
                saved={values?.isNew ? undefined : savedById.get(values?.id ?? -1)}
                disabled={disabled}
                onRemove={() => remove(row.name)}
              />
            );
          })}
          <Form.ErrorList errors={errors} />
          {!disabled && rows.length < MAX_CONNECTORS && (
            <Button
              type="dashed"
              icon={<PlusOutlined />}
              onClick={() => add({ isNew: true } satisfies ConnectorRowValues)}
              style={{ alignSelf: 'start' }}
            >
              Add Connector
            </Button>
          )}
        </Flex>
      )}
    </Form.List>
  );
}
