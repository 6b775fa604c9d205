import { PlusOutlined } from '@ant-design/icons';
import { batchConfiguration, batchConfigurations, OCPP_CONFIGURATION_KEYS } from '@ev/shared';
import { AutoComplete, Button, Flex, Form, Input } from 'antd';
import { RemoveRowButton } from '../../../components/form/fields.tsx';
import { zodRule } from '../../../lib/zod-rule.ts';

const KEY_RULES = [zodRule(batchConfiguration.shape.key)];
const VALUE_RULES = [zodRule(batchConfiguration.shape.value)];
const CELL = { marginBottom: 0 };

/** What a standard key takes, as the value's placeholder; any other key is typed freely. */
const VALUE_HINTS = {
  integer: 'A whole number, e.g. 300',
  boolean: 'true or false',
  list: 'Comma-separated list',
};
const valueHint = (key: string | undefined) => {
  const known = OCPP_CONFIGURATION_KEYS.find((item) => item.key === key?.trim());
  return known ? VALUE_HINTS[known.type] : 'Value';
};

/** The standard keys matching what is typed (any part, any case). */
const keyOptions = (typed: string | undefined) =>
  OCPP_CONFIGURATION_KEYS.filter(({ key }) =>
    key.toLowerCase().includes((typed ?? '').trim().toLowerCase()),
  ).map(({ key }) => ({ value: key }));

/** The whole list's rules (at least one pair, each key once); each row's own rules sit on its fields. */
const LIST_RULES = [
  {
    validator: (_rule: unknown, rows: unknown) => {
      const result = batchConfigurations.safeParse(rows ?? []);
      const issue = result.success ? undefined : result.error.issues.find((found) => found.path.length === 0);
      return issue ? Promise.reject(new Error(issue.message)) : Promise.resolve();
    },
  },
];

export interface ConfigurationRow {
  key?: string;
  value?: string;
}

function ConfigRow({ name, index, onRemove }: { name: number; index: number; onRemove: () => void }) {
  const key: string | undefined = Form.useWatch(['configurations', name, 'key']);
  return (
    <Flex gap={8} align="start" data-testid="configuration-row">
      <Form.Item name={[name, 'key']} rules={KEY_RULES} style={{ flex: '1 1 50%', ...CELL }}>
        <AutoComplete
          options={keyOptions(key)}
          placeholder="Key"
          aria-label={`Key ${index + 1}`}
          maxLength={50}
        />
      </Form.Item>
      <Form.Item name={[name, 'value']} rules={VALUE_RULES} style={{ flex: '1 1 50%', ...CELL }}>
        <Input placeholder={valueHint(key)} aria-label={`Value ${index + 1}`} maxLength={500} />
      </Form.Item>
      <RemoveRowButton label={`Remove configuration ${index + 1}`} onClick={onRemove} />
    </Flex>
  );
}

/** Config All's key/value pairs: a standard OCPP key picked or any key typed, a value, added and removed. */
export function ConfigRowsField() {
  return (
    <Form.List name="configurations" rules={LIST_RULES}>
      {(rows, { add, remove }, { errors }) => (
        <Flex vertical gap={8}>
          {rows.map((row, index) => (
            <ConfigRow key={row.key} name={row.name} index={index} onRemove={() => remove(row.name)} />
          ))}
          <Button
            type="dashed"
            icon={<PlusOutlined />}
            onClick={() => add({ key: '', value: '' })}
            style={{ alignSelf: 'start' }}
          >
            Add configuration
          </Button>
          <Form.ErrorList errors={errors} />
        </Flex>
      )}
    </Form.List>
  );
}
