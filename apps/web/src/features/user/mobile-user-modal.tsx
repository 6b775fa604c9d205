import {
  mobileUserBody,
  NAME_MAX,
  PARTNER_USER_TYPE_LABELS,
  PARTNER_USER_TYPES,
  type PartnerUserType,
  TEL_MAX,
  userEmail,
  userTel,
} from '@ev/shared';
import { Col, Form, Input, Row, Select, Switch } from 'antd';
import { HALF } from '../../components/form/fields.tsx';
import { ModalForm } from '../../components/form/modal-form.tsx';
import { zodRule } from '../../lib/zod-rule.ts';
import { type UserModalProps, useSaveUser } from './api.ts';
import { IdTagsSection } from './id-tags-section.tsx';

interface MobileValues {
  partnerUserType: PartnerUserType;
  email: string;
  emailVerified: boolean;
  firstName?: string;
  lastName?: string;
  tel?: string;
  telVerified: boolean;
  active: boolean;
}

const TYPE_OPTIONS = PARTNER_USER_TYPES.map((value) => ({ value, label: PARTNER_USER_TYPE_LABELS[value] }));
const VERIFIED = { checkedChildren: 'Verified', unCheckedChildren: 'Not Verified' };

/**
 * New Mobile User / Edit Mobile User. Mounted only while open; a new user's Active switch starts off. Edit also
 * lists the member's id tags (our own part, below the spec's fields: IdTagsSection).
 */
export function MobileUserModal({ user, onClose }: UserModalProps) {
  const [form] = Form.useForm<MobileValues>();
  const { save, saving } = useSaveUser(form, user?.id, onClose);

  const initialValues: MobileValues = user
    ? {
        partnerUserType: user.partnerUserType ?? 'mobile',
        email: user.email,
        emailVerified: user.emailVerified,
        firstName: user.firstName,
        lastName: user.lastName,
        tel: user.tel ?? '',
        telVerified: user.telVerified,
        active: user.active,
      }
    : { partnerUserType: 'mobile', email: '', emailVerified: false, telVerified: false, active: false };

  const submit = (values: MobileValues) =>
    save({
      type: 'mobile',
      partnerUserType: values.partnerUserType,
      email: values.email,
      emailVerified: values.emailVerified,
      firstName: values.firstName ?? '',
      lastName: values.lastName ?? '',
      tel: values.tel?.trim() || null,
      telVerified: values.telVerified,
      active: values.active,
    });

  return (
    <ModalForm<MobileValues>
      name="mobile-user"
      title={user ? 'Edit Mobile User' : 'New Mobile User'}
      form={form}
      saving={saving}
      initialValues={initialValues}
      onSubmit={submit}
      onClose={onClose}
      after={user ? <IdTagsSection userId={user.id} /> : undefined}
    >
      <Row gutter={16}>
        <Col {...HALF}>
          <Form.Item label="Type" name="partnerUserType">
            <Select options={TYPE_OPTIONS} />
          </Form.Item>
        </Col>
        <Col {...HALF}>
          <Form.Item label="Active" name="active" valuePropName="checked">
            <Switch checkedChildren="Available" unCheckedChildren="Locked" />
          </Form.Item>
        </Col>
        <Col {...HALF}>
          <Form.Item label="Email" name="email" required rules={[zodRule(userEmail)]}>
            <Input maxLength={255} autoComplete="off" autoFocus />
          </Form.Item>
        </Col>
        <Col {...HALF}>
          <Form.Item label="Verify Email" name="emailVerified" valuePropName="checked">
            <Switch {...VERIFIED} />
          </Form.Item>
        </Col>
        <Col {...HALF}>
          <Form.Item label="Name" name="firstName" rules={[zodRule(mobileUserBody.shape.firstName)]}>
            <Input maxLength={NAME_MAX} autoComplete="off" />
          </Form.Item>
        </Col>
        <Col {...HALF}>
          <Form.Item label="Surname" name="lastName" rules={[zodRule(mobileUserBody.shape.lastName)]}>
            <Input maxLength={NAME_MAX} autoComplete="off" />
          </Form.Item>
        </Col>
        <Col {...HALF}>
          <Form.Item label="Phone Number" name="tel" rules={[zodRule(userTel)]}>
            <Input maxLength={TEL_MAX} inputMode="tel" autoComplete="off" placeholder="0812345678" />
          </Form.Item>
        </Col>
        <Col {...HALF}>
          <Form.Item label="Verify Phone Number" name="telVerified" valuePropName="checked">
            <Switch {...VERIFIED} />
          </Form.Item>
        </Col>
      </Row>
    </ModalForm>
  );
}
