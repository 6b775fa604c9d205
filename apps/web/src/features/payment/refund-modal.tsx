import { type PaymentItem, paymentMethodLabel, refundBody } from '@ev/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Alert, Descriptions, Form, type FormRule } from 'antd';
import { ModalForm } from '../../components/form/modal-form.tsx';
import { NumberInput } from '../../components/form/number-input.tsx';
import { LIST_QUERY_KEY } from '../../components/list/use-list-query.ts';
import { api } from '../../lib/api.ts';
import { bahtText, formatThaiDateTime } from '../../lib/format.ts';
import { notify } from '../../lib/notify.ts';
import { zodValidator } from '../../lib/zod-rule.ts';

interface RefundValues {
  amount: number | null;
}

/** The refund's rule: a number (section 5), more than 0, at most what was paid (the server's own limits). */
function amountRules(payment: PaymentItem): FormRule[] {
  const schema = zodValidator(refundBody.shape.amount);
  return [
    {
      validator: async (_rule, value: unknown) => {
        await schema(value);
        if (typeof value === 'number' && value > payment.amount)
          throw new Error(`must be at most the ${bahtText(payment.amount)} THB paid`);
      },
    },
  ];
}

/** Refund a payment (`POST /api/payment/{id}/refund`): the amount, the payment amount by default. */
export function RefundModal({ payment, onClose }: { payment: PaymentItem; onClose: () => void }) {
  const [form] = Form.useForm<RefundValues>();
  const queryClient = useQueryClient();
  const refund = useMutation({
    mutationFn: (amount: number) =>
      api<{ message?: string }>(`/payment/${payment.id}/refund`, { method: 'POST', body: { amount } }),
    onSuccess: (answer) => {
      notify('success', answer?.message || 'Refunded successfully!');
      onClose();
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: [LIST_QUERY_KEY] }),
  });
  return (
    <ModalForm<RefundValues>
      name="refund"
      title={`Refund ${payment.invoiceNo}`}
      form={form}
      saving={refund.isPending}
      initialValues={{ amount: payment.amount }}
      onSubmit={(values) => refund.mutate(values.amount as number)}
      onClose={onClose}
    >
      <Alert
        type="info"
        showIcon
        style={{ marginBottom: 16 }}
        title="No payment provider is connected"
        description="The refund is recorded with a credit note for manual settlement: pay the money back by hand (bank transfer or the card terminal)."
      />
      <Descriptions
        size="small"
        column={{ xs: 1, md: 2 }}
        style={{ marginBottom: 16 }}
        items={[
          { key: 'booking', label: 'Booking', children: `#${payment.bookingId}` },
          { key: 'date', label: 'Paid', children: formatThaiDateTime(payment.createdAt) },
          { key: 'method', label: 'Method', children: paymentMethodLabel(payment.method) },
          { key: 'amount', label: 'Amount paid', children: `${bahtText(payment.amount)} THB` },
        ]}
      />
      <Form.Item label="Amount" name="amount" required rules={amountRules(payment)}>
        <NumberInput inputMode="decimal" suffix="THB" autoFocus />
      </Form.Item>
    </ModalForm>
  );
}
