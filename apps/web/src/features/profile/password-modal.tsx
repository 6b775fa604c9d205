import { CheckCircleOutlined } from '@ant-design/icons';
import { changePasswordValue, currentPasswordValue, PASSWORD_MAX, PASSWORD_MESSAGES } from '@ev/shared';
import { Form, Input, Typography } from 'antd';
import { ModalForm } from '../../components/form/modal-form.tsx';
import { ApiError } from '../../lib/api.ts';
import { notify } from '../../lib/notify.ts';
import { sameAsRules, zodRule } from '../../lib/zod-rule.ts';
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
  const save = useChangePassword();
  const pass = Form.useWatch('pass', form);
  const confirm = Form.useWatch('confirm', form);
  const matching = Boolean(pass) && pass === confirm;

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
    <ModalForm<PasswordValues>
      title="Change Password"
      size="85%/50%"
      form={form}
      saving={save.isPending}
      initialValues={{ currentPass: '', pass: '', confirm: '' }}
      onSubmit={submit}
      onClose={onClose}
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
        rules={sameAsRules('pass', PASSWORD_MESSAGES.confirmRequired, PASSWORD_MESSAGES.changeConfirm)}
      >
        <Input.Password maxLength={PASSWORD_MAX} autoComplete="new-password" />
      </Form.Item>
    </ModalForm>
  );
}
