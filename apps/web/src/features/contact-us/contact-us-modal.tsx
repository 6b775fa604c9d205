import {
  CONTACT_US_LIMITS,
  CONTACT_US_MESSAGES,
  type ContactUs,
  type ContactUsForm,
  contactUsBody,
} from '@ev/shared';
import { Col, Form, Input, Row } from 'antd';
import { HALF } from '../../components/form/fields.tsx';
import { ModalForm } from '../../components/form/modal-form.tsx';
import { zodRule } from '../../lib/zod-rule.ts';
import { useSaveContactUs } from './api.ts';

const rule = (field: keyof typeof contactUsBody.shape) => zodRule(contactUsBody.shape[field]);

interface ContactUsModalProps {
  contact: ContactUs;
  onClose: () => void;
  /** Called after a successful save, once the modal is closed. */
  onSaved: () => void;
}

/** The 'Note' dialog: the contact details to edit. Mounted only while open, so it starts from the saved data. */
export function ContactUsModal({ contact, onClose, onSaved }: ContactUsModalProps) {
  const [form] = Form.useForm<ContactUsForm>();
  const save = useSaveContactUs();

  const submit = (values: ContactUsForm) =>
    save.mutate(values, {
      onSuccess: () => {
        onClose();
        onSaved();
      },
    });

  return (
    <ModalForm<ContactUsForm>
      title="Note"
      form={form}
      saving={save.isPending}
      initialValues={contact}
      onSubmit={submit}
      onClose={onClose}
    >
      <Row gutter={16}>
        <Col {...HALF}>
          {/* Once saved, the support email and number can change but not go away (docs/decisions.md). */}
          <Form.Item
            label="Email Support"
            name="email"
            rules={[{ required: true, message: CONTACT_US_MESSAGES.email }, rule('email')]}
          >
            <Input maxLength={CONTACT_US_LIMITS.email} autoComplete="off" />
          </Form.Item>
        </Col>
        <Col {...HALF}>
          <Form.Item
            label="Call Center"
            name="phone"
            rules={[{ required: true, message: CONTACT_US_MESSAGES.phone }, rule('phone')]}
          >
            <Input maxLength={CONTACT_US_LIMITS.phone} inputMode="tel" autoComplete="off" />
          </Form.Item>
        </Col>
        <Col {...HALF}>
          <Form.Item label="Facebook" name="facebook" rules={[rule('facebook')]}>
            <Input maxLength={CONTACT_US_LIMITS.facebook} placeholder="Page address or name" />
          </Form.Item>
        </Col>
        <Col {...HALF}>
          <Form.Item label="Instagram" name="instagram" rules={[rule('instagram')]}>
            <Input maxLength={CONTACT_US_LIMITS.instagram} placeholder="Profile address or name" />
          </Form.Item>
        </Col>
        <Col {...HALF}>
          <Form.Item
            label="LINE"
            name="line"
            rules={[{ required: true, whitespace: true, message: CONTACT_US_MESSAGES.line }, rule('line')]}
          >
            <Input maxLength={CONTACT_US_LIMITS.line} placeholder="LINE ID, e.g. @evcharging" />
          </Form.Item>
        </Col>
        <Col span={24}>
          <Form.Item label="Address" name="address" rules={[rule('address')]}>
            <Input.TextArea maxLength={CONTACT_US_LIMITS.address} autoSize={{ minRows: 3, maxRows: 5 }} />
          </Form.Item>
        </Col>
        <Col {...HALF}>
          <Form.Item
            label="Minimum Version (Android)"
            name="minVersionAndroid"
            rules={[rule('minVersionAndroid')]}
          >
            <Input maxLength={CONTACT_US_LIMITS.minVersion} placeholder="e.g. 2.8.0" />
          </Form.Item>
        </Col>
        <Col {...HALF}>
          <Form.Item label="Minimum Version (iOS)" name="minVersionIOS" rules={[rule('minVersionIOS')]}>
            <Input maxLength={CONTACT_US_LIMITS.minVersion} placeholder="e.g. 2.8.0" />
          </Form.Item>
        </Col>
      </Row>
    </ModalForm>
  );
}
