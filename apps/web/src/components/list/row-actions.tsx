import { DeleteOutlined } from '@ant-design/icons';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { App, Button, Switch } from 'antd';
import { ApiError, api } from '../../lib/api.ts';
import { notify } from '../../lib/notify.ts';
import { SAVED_MESSAGE } from '../success-popup.ts';
import { LIST_QUERY_KEY } from './use-list-query.ts';

export const DELETED_MESSAGE = 'Deleted Successfully !';
export const USED_MESSAGE = "Can't delete already used item";

interface RowActionProps {
  /** The record's API path, e.g. `/merchant/3`. */
  path: string;
  /** The record's name: the accessible label and the delete confirmation. */
  name: string;
}

/** The list's Inactive/Active switch: saves `{ active }` at once, says so, and reloads the lists. */
export function ActiveSwitch({
  path,
  name,
  active,
  disabled = false,
}: RowActionProps & {
  active: boolean /** A role that may not change the record sees the state only. */;
  disabled?: boolean;
}) {
  const queryClient = useQueryClient();
  const save = useMutation({
    mutationFn: (next: boolean) => api(path, { method: 'PATCH', body: { active: next } }),
    onSuccess: async () => {
      notify('success', 'Success', SAVED_MESSAGE);
      await queryClient.invalidateQueries({ queryKey: [LIST_QUERY_KEY] });
    },
  });
  return (
    <Switch
      checked={active}
      loading={save.isPending}
      disabled={disabled}
      checkedChildren="Active"
      unCheckedChildren="Inactive"
      aria-label={`${name} active`}
      onChange={(next) => save.mutate(next)}
    />
  );
}

/** Delete after a confirmation; a 409 (the record is used) has its own message. Offer it on inactive rows only. */
export function DeleteButton({ path, name, iconOnly = false }: RowActionProps & { iconOnly?: boolean }) {
  const { modal } = App.useApp();
  const queryClient = useQueryClient();
  const remove = useMutation({
    meta: { handledStatuses: [409] },
    mutationFn: () => api(path, { method: 'DELETE' }),
    onSuccess: async () => {
      notify('success', DELETED_MESSAGE);
      await queryClient.invalidateQueries({ queryKey: [LIST_QUERY_KEY] });
    },
    onError: (error) => {
      // The spec's message; a server that says more (why this record can't go) is shown under it.
      if (error instanceof ApiError && error.status === 409) {
        notify('error', USED_MESSAGE, error.message === USED_MESSAGE ? undefined : error.message);
      }
    },
  });
  const confirm = () =>
    modal.confirm({
      title: `Delete ${name}?`,
      content: `Do you want to delete this ${name}?`,
      okText: 'Delete',
      okButtonProps: { danger: true },
      centered: true,
      onOk: () => remove.mutate(),
    });
  return (
    <Button
      type="link"
      danger
      size="small"
      icon={iconOnly ? <DeleteOutlined /> : undefined}
      aria-label={`Delete ${name}`}
      loading={remove.isPending}
      onClick={confirm}
    >
      {iconOnly ? null : 'Delete'}
    </Button>
  );
}
