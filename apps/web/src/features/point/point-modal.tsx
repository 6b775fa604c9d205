import { POINT_LABELS, POINT_MESSAGES, type PointBody, type PointRate, pointBody } from '@ev/shared';
import { Col, DatePicker, Form, type FormRule } from 'antd';
import type { ReactNode } from 'react';
import { FormSection, HALF } from '../../components/form/fields.tsx';
import { bangkokInstantField } from '../../components/form/instant-field.ts';
import { ModalForm } from '../../components/form/modal-form.tsx';
import { NumberInput } from '../../components/form/number-input.tsx';
import { zodRule } from '../../lib/zod-rule.ts';
import { useSavePoint } from './api.ts';
import { amountFormatter, amountParser, isEarlierDay, isPastMinute } from './point-format.ts';

type NumberField = 'fromBaht' | 'toPoint' | 'fromPoint' | 'toBaht';

/** The server's rules and messages: required, 0 or more (a divider more than 0), 2 decimals, 7 characters. */
const rule = (field: keyof typeof pointBody.shape) => [zodRule(pointBody.shape[field])];

/** The server refuses a start before the current minute: said on the field before the save. */
const notPast: FormRule = {
  validator: (_rule, value: string | undefined) =>
    value && isPastMinute(value)
      ? Promise.reject(new Error(POINT_MESSAGES.validFromPast))
      : Promise.resolve(),
};

/**
 * One number of the card, with thousands separators while typing. No bounds, precision or length limit on
 * the input: a negative number, a third decimal or an eighth character is kept as typed and refused with the
 * server's message.
 */
function AmountField({ name, autoFocus = false }: { name: NumberField; autoFocus?: boolean }) {
  return (
    <Col {...HALF}>
      <Form.Item label={POINT_LABELS[name]} name={name} required rules={rule(name)}>
        <NumberInput<number>
          formatter={amountFormatter}
          parser={(text) => amountParser(text) as unknown as number}
          inputMode="decimal"
          autoFocus={autoFocus}
        />
      </Form.Item>
    </Col>
  );
}

/** A pair of the card under its title, named for screen readers and tests ('Earn', 'Redeem'). */
function RatePair({ name, title, children }: { name: string; title: string; children: ReactNode }) {
  return (
    // biome-ignore lint/a11y/useSemanticElements: a fieldset would bring its own border and legend into antd's grid
    <div role="group" aria-label={name}>
      <FormSection title={title}>{children}</FormSection>
    </div>
  );
}

interface PointModalProps {
  /** The pending card to edit; none for New. */
  card: PointRate | undefined;
  onClose: () => void;
}

/**
 * New Rate Card / Edit Rate Card (document 3, Point setup): the earn rate (baht paid → points earned), the
 * redeem rate (points → baht) and the Effective Date, a Bangkok date and time from today on.
 */
export function PointModal({ card, onClose }: PointModalProps) {
  const [form] = Form.useForm<PointBody>();
  const { save, saving } = useSavePoint(form, card?.id, onClose);
  const initialValues: Partial<PointBody> = card
    ? {
        fromBaht: card.fromBaht,
        toPoint: card.toPoint,
        fromPoint: card.fromPoint,
        toBaht: card.toBaht,
        validFrom: card.validFrom,
      }
    : {};

  return (
    <ModalForm<PointBody>
      name="point"
      title={card ? 'Edit Rate Card' : 'New Rate Card'}
      form={form}
      saving={saving}
      initialValues={initialValues}
      onSubmit={save}
      onClose={onClose}
    >
      <RatePair name="Earn" title="Earn: Baht → Point">
        <AmountField name="fromBaht" autoFocus />
        <AmountField name="toPoint" />
      </RatePair>
      <RatePair name="Redeem" title="Redeem: Point → Baht">
        <AmountField name="fromPoint" />
        <AmountField name="toBaht" />
      </RatePair>
      <FormSection>
        <Col {...HALF}>
          <Form.Item
            label={POINT_LABELS.validFrom}
            name="validFrom"
            required
            rules={[...rule('validFrom'), notPast]}
            {...bangkokInstantField}
          >
            <DatePicker
              showTime={{ format: 'HH:mm' }}
              format="YYYY-MM-DD HH:mm"
              disabledDate={(day) => isEarlierDay(day)}
              style={{ width: '100%' }}
            />
          </Form.Item>
        </Col>
      </FormSection>
    </ModalForm>
  );
}
