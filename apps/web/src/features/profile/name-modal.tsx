import { NAME_MAX, type SelfUser, updateNameBody } from '@ev/shared';
import { Form, Input, Modal } from 'antd';
import { useState } from 'react';
import { useDiscardConfirm } from '../../components/discard-confirm.ts';
import { useModalWidth } from '../../components/modal-width.ts';
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
  const [dirty, setDirty] = useState(false);
  const width = useModalWidth('small');
  const confirmDiscard = useDiscardConfirm();
  const save = useUpdateName();

  const cancel = () => (dirty ? confirmDiscard(onClose) : onClose());
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
    <Modal
      open
      title="Edit Name-Surname"
      width={width}
      okText="Save"
      onOk={() => form.submit()}
      onCancel={cancel}
      okButtonProps={{ loading: save.isPending, disabled: save.isPending }}
      cancelButtonProps={{ disabled: save.isPending }}
    >
      <Form<NameValues>
        form={form}
        layout="vertical"
        initialValues={{ firstName: user.firstName, lastName: user.lastName }}
        onValuesChange={() => setDirty(true)}
        onFinish={submit}
        disabled={save.isPending}
      >
        <Form.Item label="Name" name="firstName" rules={[zodRule(updateNameBody.shape.firstName)]}>
          <Input maxLength={NAME_MAX} autoComplete="given-name" autoFocus />
        </Form.Item>
        <Form.Item label="Surname" name="lastName" rules={[zodRule(updateNameBody.shape.lastName)]}>
          <Input maxLength={NAME_MAX} autoComplete="family-name" />
        </Form.Item>
      </Form>
    </Modal>
  );
}
