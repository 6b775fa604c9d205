import { NAME_MAX, type SelfUser, updateNameBody } from '@ev/shared';
import { Form, Input } from 'antd';
import { ModalForm } from '../../components/form/modal-form.tsx';
import { zodRule } from '../../lib/zod-rule.ts';
import { useUpdateName } from './api.ts';

interface NameValues {
  firstName: string;
  lastName: string;
}

interface NameModalProps {
  user: SelfUser;
  onClose: () => void;
  /** Called after a successful save, once the modal is closed. */
  onSaved: () => void;
}

/** Mounted only while open, so every opening starts from the saved name. */
export function NameModal({ user, onClose, onSaved }: NameModalProps) {
  const [form] = Form.useForm<NameValues>();
  const save = useUpdateName();

  const submit = (values: NameValues) =>
    save.mutate(
      { firstName: values.firstName.trim(), lastName: values.lastName.trim() },
      {
        onSuccess: () => {
          onClose();
          onSaved();
        },
      },
    );

  return (
    <ModalForm<NameValues>
      title="Edit Name-Surname"
      size="70%/40%"
      form={form}
      saving={save.isPending}
      initialValues={{ firstName: user.firstName, lastName: user.lastName }}
      onSubmit={submit}
      onClose={onClose}
    >
      <Form.Item label="Name" name="firstName" rules={[zodRule(updateNameBody.shape.firstName)]}>
        <Input maxLength={NAME_MAX} autoComplete="given-name" autoFocus />
      </Form.Item>
      <Form.Item label="Surname" name="lastName" rules={[zodRule(updateNameBody.shape.lastName)]}>
        <Input maxLength={NAME_MAX} autoComplete="family-name" />
      </Form.Item>
    </ModalForm>
  );
}
