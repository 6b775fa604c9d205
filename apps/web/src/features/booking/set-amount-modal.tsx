import { type BookingItem, typedBaht } from '@ev/shared';
import { Col, Form, type FormRule, Row, Typography } from 'antd';
import { ModalForm } from '../../components/form/modal-form.tsx';
import { NumberInput } from '../../components/form/number-input.tsx';
import { bahtText } from '../../lib/format.ts';
import { zodRule, zodValidator } from '../../lib/zod-rule.ts';
import { useBookingAction } from './api.ts';
import {
  AMOUNT_PARTS,
  type AmountKey,
  type AmountValues,
  amountBody,
  amountValues,
  previewTotal,
} from './booking-format.ts';

const PART_LABELS: Record<AmountKey, string> = {
  priceByPower: 'By power',
  priceByDuration: 'By duration',
  priceByPenalty: 'By penalty',
};
const PART_RULES = [zodRule(typedBaht)];
/** The amount may stay empty (the total is then the sum of the parts); anything typed must be a number. */
const AMOUNT_RULES: FormRule[] = [
  {
    validator: (_rule, value: unknown) =>
      value === null || value === undefined || value === ''
        ? Promise.resolve()
        : zodValidator(typedBaht)(value),
  },
];
const NUMBER = { inputMode: 'decimal' as const, suffix: 'THB' };

/** The Total the form would make, as the staff types. */
function TotalPreview({ form }: { form: ReturnType<typeof Form.useForm<AmountValues>>[0] }) {
  const values = Form.useWatch([], form) as Partial<AmountValues> | undefined;
  const total = previewTotal(values ?? {});
  const fromAmount = typeof values?.amount === 'number';
  return (
    <Typography.Paragraph data-testid="amount-total" style={{ marginBottom: 0 }}>
      Total: <Typography.Text strong>{bahtText(total)} THB</Typography.Text>{' '}
      <Typography.Text type="secondary">
        {fromAmount ? '(the amount replaces the parts)' : '(the sum of the parts)'}
      </Typography.Text>
    </Typography.Paragraph>
  );
}

/**
 * Set amount (an Unpaid booking): the staff's total, or the three parts; each part starts as it stands and
 * shows what was computed. Mounted only while open.
 */
export function SetAmountModal({ booking, onClose }: { booking: BookingItem; onClose: () => void }) {
  const [form] = Form.useForm<AmountValues>();
  const save = useBookingAction(booking.id, 'set-amount');
  const submit = (values: AmountValues) => {
    const body = amountBody(booking, values);
    // Nothing changed: nothing to save (the API wants at least one field).
    if (Object.keys(body).length === 0) onClose();
    else save.mutate(body, { onSuccess: () => onClose() });
  };
  return (
    <ModalForm<AmountValues>
      name="set-amount"
      title={`Set amount of booking #${booking.id}`}
      form={form}
      saving={save.isPending}
      initialValues={amountValues(booking)}
      onSubmit={submit}
      onClose={onClose}
    >
      <Row gutter={16}>
        <Col span={24}>
          <Form.Item
            label="Amount"
            name="amount"
            rules={AMOUNT_RULES}
            extra="The total to charge; leave empty to charge the sum of the parts"
          >
            <NumberInput {...NUMBER} />
          </Form.Item>
        </Col>
        {AMOUNT_PARTS.map((key) => (
          <Col xs={24} md={8} key={key}>
            <Form.Item
              label={PART_LABELS[key]}
              name={key}
              required
              rules={PART_RULES}
              extra={`Computed ${bahtText(booking.computed[key])}`}
            >
              <NumberInput {...NUMBER} />
            </Form.Item>
          </Col>
        ))}
      </Row>
      <TotalPreview form={form} />
    </ModalForm>
  );
}
