import { CheckCircleOutlined } from '@ant-design/icons';
import { changePasswordValue, currentPasswordValue, PASSWORD_MAX, PASSWORD_MESSAGES } from '@ev/shared';
import { Form, Input, Modal, Typography } from 'antd';
import { useState } from 'react';
import { useDiscardConfirm } from '../../components/discard-confirm.ts';
import { useModalWidth } from '../../components/modal-width.ts';
import { ApiError } from '../../lib/api.ts';
import { notify } from '../../lib/notify.ts';
import { zodRule } from '../../lib/zod-rule.ts';
import { useChangePassword, WRONG_CURRENT_PASSWORD } from './api.ts';

interface PasswordValues {
  currentPass: string;
  pass: string;
  confirm: string;
}

interface PasswordModalProps {
  onClose: () => void;
  /** Called after a successful save, once the modal is closed. */
  onSaved: () => void;
}

/** Mounted only while open, so every opening starts empty. */
export function PasswordModal({ onClose, onSaved }: PasswordModalProps) {
  const [form] = Form.useForm<PasswordValues>();
  const [dirty, setDirty] = useState(false);
  const width = useModalWidth('medium');
  const confirmDiscard = useDiscardConfirm();
  const save = useChangePassword();
  const pass = Form.useWatch('pass', form);
  const confirm = Form.useWatch('confirm', form);
  const matching = Boolean(pass) && pass === confirm;

  const cancel = () => (dirty ? confirmDiscard(onClose) : onClose());
  const submit = ({ currentPass, pass: newPass }: PasswordValues) =>
    save.mutate(
      { currentPass, pass: newPass },
      {
        onSuccess: () => {
          onClose();
          onSaved();
        },
        onError: (error) => {
          if (error instanceof ApiError && error.message === WRONG_CURRENT_PASSWORD) {
            notify('error', 'Failed !', 'Enter a valid password and try again.');
          }
        },
      },
    );

  return (
    <Modal
      open
      title="Change Password"
      width={width}
      okText="Save"
      onOk={() => form.submit()}
      onCancel={cancel}
      okButtonProps={{ loading: save.isPending, disabled: save.isPending }}
      cancelButtonProps={{ disabled: save.isPending }}
    >
      <Form<PasswordValues>
        form={form}
        layout="vertical"
        initialValues={{ currentPass: '', pass: '', confirm: '' }}
        onValuesChange={() => setDirty(true)}
        onFinish={submit}
        disabled={save.isPending}
      >
        <Form.Item label="Current" name="currentPass" required rules={[zodRule(currentPasswordValue)]}>
          <Input.Password maxLength={PASSWORD_MAX} autoComplete="current-password" autoFocus />
        </Form.Item>
        <Form.Item label="New password" name="pass" required rules={[zodRule(changePasswordValue)]}>
          <Input.Password maxLength={PASSWORD_MAX} autoComplete="new-password" />
        </Form.Item>
        <Form.Item
          label="Confirm new password"
          name="confirm"
          required
          dependencies={['pass']}
          extra={
            matching ? (
              <Typography.Text type="success">
                <CheckCircleOutlined /> Passwords match
              </Typography.Text>
            ) : undefined
          }
          rules={[
            { required: true, message: PASSWORD_MESSAGES.confirmRequired },
            ({ getFieldValue }) => ({
              validator: (_rule, value: string | undefined) =>
                !value || value === getFieldValue('pass')
                  ? Promise.resolve()
                  : Promise.reject(new Error(PASSWORD_MESSAGES.changeConfirm)),
            }),
          ]}
        >
          <Input.Password maxLength={PASSWORD_MAX} autoComplete="new-password" />
        </Form.Item>
      </Form>
    </Modal>
  );
}
