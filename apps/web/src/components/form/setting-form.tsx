import { Button, Card, Flex, Form, type FormInstance, Skeleton, Typography } from 'antd';
import { createContext, type ReactNode, useCallback, useContext, useRef, useState } from 'react';
import { notifyCallError } from '../../lib/notify.ts';
import { useBackToList } from '../list/list-return.ts';
import { useSuccessPopup } from '../success-popup.ts';
import { useLeaveWarning } from './leave-warning.ts';
import { withoutFieldPrefix } from './server-message.ts';

interface SettingFormProps<T> {
  title: string;
  /** Where Cancel and a successful save return to, with the list's search state. */
  listPath: string;
  form: FormInstance<T>;
  /** The record is still loading: a skeleton instead of the form. */
  loading?: boolean;
  initialValues?: Partial<T>;
  /** The save call; a rejection keeps the user on the form, dirty again. */
  save: (values: T) => Promise<unknown>;
  /** A role that may only look: fields disabled, no Save, Cancel reads Back. */
  readOnly?: boolean;
  /** Actions in the card's header, right (e.g. the tutorial's Preview). */
  extra?: ReactNode;
  /** A failed save the page tells of itself (true: no generic error notice), e.g. a 409 with its own notice. */
  onSaveError?: (error: unknown) => boolean;
  children: ReactNode;
}

const MarkDirty = createContext<() => void>(() => {});

/**
 * For controls that set fields themselves (`form.setFieldsValue`, which the form does not count as an edit),
 * e.g. the map picker: call the returned function after such a change.
 */
export const useMarkDirty = () => useContext(MarkDirty);

/**
 * The setting page of the form kit: dirty on any edit, a leave warning while dirty, Save disabled while
 * saving, the success popup, then back to the list with its filters, page and sort.
 */
export function SettingForm<T>({
  title,
  listPath,
  form,
  loading = false,
  initialValues,
  save,
  readOnly = false,
  extra,
  onSaveError,
  children,
}: SettingFormProps<T>) {
  const dirtyRef = useRef(false);
  const markDirty = useCallback(() => {
    dirtyRef.current = true;
  }, []);
  const [saving, setSaving] = useState(false);
  const showSuccess = useSuccessPopup();
  const backToList = useBackToList(listPath);
  useLeaveWarning(dirtyRef);

  const submit = async (values: T) => {
    // Clean while saving, so the return to the list is not held up by the leave warning.
    dirtyRef.current = false;
    setSaving(true);
    try {
      await save(values);
    } catch (error) {
      dirtyRef.current = true;
      setSaving(false);
      if (!onSaveError?.(error)) notifyCallError(withoutFieldPrefix(error), undefined);
      return;
    }
    await showSuccess();
    setSaving(false);
    backToList();
  };

  return (
    <Card
      title={
        <Typography.Title level={4} style={{ margin: 0 }}>
          {title}
        </Typography.Title>
      }
      extra={extra}
    >
      {loading ? (
        <Skeleton active />
      ) : (
        <Form<T>
          form={form}
          layout="vertical"
          initialValues={initialValues}
          onValuesChange={markDirty}
          onFinish={(values) => void submit(values)}
          disabled={readOnly}
          className="setting-form"
        >
          <MarkDirty.Provider value={markDirty}>{children}</MarkDirty.Provider>
          <Flex gap={8} justify="end">
            <Button onClick={backToList} disabled={saving && !readOnly}>
              {readOnly ? 'Back' : 'Cancel'}
            </Button>
            {!readOnly && (
              <Button type="primary" htmlType="submit" loading={saving} disabled={saving}>
                Save
              </Button>
            )}
          </Flex>
        </Form>
      )}
    </Card>
  );
}
