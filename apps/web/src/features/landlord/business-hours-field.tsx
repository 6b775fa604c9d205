import { PlusOutlined } from '@ant-design/icons';
import { businessHour, DAY_OF_WEEK_LABELS } from '@ev/shared';
import { Button, Flex, Form, Select } from 'antd';
import { RemoveRowButton } from '../../components/form/fields.tsx';
import { timeField } from '../../components/form/time-field.ts';
import { HhMmPicker } from '../../components/form/time-picker.tsx';
import { zodRule } from '../../lib/zod-rule.ts';

const DAYS = Object.entries(DAY_OF_WEEK_LABELS).map(([value, label]) => ({ value: Number(value), label }));
const rule = (field: keyof typeof businessHour.shape) => [zodRule(businessHour.shape[field])];

/** The opening periods of a site whose type is 'period': day, open and close time, added and removed. */
export function BusinessHoursField({ disabled }: { disabled: boolean }) {
  return (
    <Form.List name="businessHours">
      {(rows, { add, remove }) => (
        <Flex vertical gap={8} style={{ marginBottom: 24 }} data-testid="business-hours">
          {rows.length > 0 && (
            <Flex gap={8} aria-hidden className="business-hours-head">
              <span style={{ flex: '1 1 160px' }}>Day</span>
              <span style={{ flex: '1 1 120px' }}>Open time</span>
              <span style={{ flex: '1 1 120px' }}>Close time</span>
              {!disabled && <span style={{ width: 32 }} />}
            </Flex>
          )}
          {rows.map((row, index) => (
            <Flex key={row.key} gap={8} wrap align="start" data-testid="business-hour-row">
              <Form.Item
                name={[row.name, 'dayOfWeek']}
                rules={rule('dayOfWeek')}
                style={{ flex: '1 1 160px', marginBottom: 0 }}
              >
                <Select options={DAYS} placeholder="Day" aria-label={`Day ${index + 1}`} />
              </Form.Item>
              <Form.Item
                name={[row.name, 'openTime']}
                rules={rule('openTime')}
                {...timeField}
                style={{ flex: '1 1 120px', marginBottom: 0 }}
              >
                <HhMmPicker placeholder="Open" aria-label={`Open time ${index + 1}`} />
              </Form.Item>
              <Form.Item
                name={[row.name, 'closeTime']}
                rules={rule('closeTime')}
                {...timeField}
                style={{ flex: '1 1 120px', marginBottom: 0 }}
              >
                <HhMmPicker placeholder="Close" aria-label={`Close time ${index + 1}`} />
              </Form.Item>
              {!disabled && (
                <RemoveRowButton label={`Remove hours ${index + 1}`} onClick={() => remove(row.name)} />
              )}
            </Flex>
          ))}
          {!disabled && (
            <Button
              type="dashed"
              icon={<PlusOutlined />}
              onClick={() => add()}
              style={{ alignSelf: 'start' }}
            >
              Add hours
            </Button>
          )}
        </Flex>
      )}
    </Form.List>
  );
}
