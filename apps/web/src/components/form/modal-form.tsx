import { Form, type FormInstance } from 'antd';
import { type ReactNode, useEffect, useRef, useState } from 'react';
import { AppModal } from '../app-modal.tsx';
import { useDiscardConfirm } from '../discard-confirm.ts';
import type { ModalSize } from '../modal-width.ts';

interface ModalFormProps<T> {
  title: string;
  /**
   * The form's name, which prefixes its fields' element ids. Give one when the page behind holds a form with
   * the same field names (a list's filters), so each label points at its own field.
   */
  name?: string;
  /** The spec's width pair; document 2's 95%/65% unless given. */
  size?: ModalSize;
  form: FormInstance<T>;
  /** True while the save call runs: Save shows a spinner, the fields and buttons are disabled. */
  saving: boolean;
  initialValues?: Partial<T>;
  onSubmit: (values: T) => void;
  onClose: () => void;
  children: ReactNode;
  /**
   * Shown below the form, outside it: a part that saves by itself (a member's id tags), whose Enter must not
   * submit the form and whose edits do not make it dirty.
   */
  after?: ReactNode;
}

/**
 * The edit dialog of the form kit: a vertical form with Save and Cancel; any edit makes it dirty, and
 * cancelling a dirty form asks 'Discard changes' first. Mount it only while open, so each opening starts
 * from its initial values.
 */
export function ModalForm<T>({
  title,
  name,
  size,
  form,
  saving,
  initialValues,
  onSubmit,
  onClose,
  children,
  after,
}: ModalFormProps<T>) {
  const [dirty, setDirty] = useState(false);
  const confirmDiscard = useDiscardConfirm();
  // Still open when a save ends: it failed, and the form counts as changed (document 1, section 4).
  const wasSaving = useRef(false);
  useEffect(() => {
    if (wasSaving.current && !saving) setDirty(true);
    wasSaving.current = saving;
  }, [saving]);
  const cancel = () => (dirty ? confirmDiscard(onClose) : onClose());
  return (
    <AppModal
      open
      title={title}
      size={size}
      okText="Save"
      onOk={() => form.submit()}
      onCancel={cancel}
      okButtonProps={{ loading: saving, disabled: saving }}
      cancelButtonProps={{ disabled: saving }}
    >
      <Form<T>
        form={form}
        name={name}
        layout="vertical"
        initialValues={initialValues}
        onValuesChange={() => setDirty(true)}
        onFinish={onSubmit}
        disabled={saving}
      >
        {children}
      </Form>
      {after}
    </AppModal>
  );
}
