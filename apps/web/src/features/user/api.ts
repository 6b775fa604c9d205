import type { UserForm, UserListItem } from '@ev/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { FormInstance } from 'antd';
import { saveRecord } from '../../components/form/record.ts';
import { withoutFieldPrefix } from '../../components/form/server-message.ts';
import { LIST_QUERY_KEY } from '../../components/list/use-list-query.ts';
import { useSuccessPopup } from '../../components/success-popup.ts';
import { ApiError } from '../../lib/api.ts';
import { notifyCallError } from '../../lib/notify.ts';

/** What a user modal edits: nothing for New, the list's row for Edit (the row carries every field). */
export interface UserModalProps {
  user: UserListItem | undefined;
  onClose: () => void;
}

/**
 * Saves a user modal: POST /api/user (New) or PATCH /api/user/{id} (Edit). On success the modal closes, the
 * list reloads and the success popup shows; on failure the modal stays (editable again) with the server's
 * message, and a taken email is also marked on the field. A 502 means the user was saved but the invitation
 * mail was not sent: the modal closes and the list reloads, with the message.
 */
export function useSaveUser<V>(form: FormInstance<V>, id: number | undefined, onClose: () => void) {
  const queryClient = useQueryClient();
  const showSuccess = useSuccessPopup();
  const reloadLists = () => queryClient.invalidateQueries({ queryKey: [LIST_QUERY_KEY] });
  const mutation = useMutation({
    meta: { silent: true },
    mutationFn: (body: UserForm) => saveRecord('/user', id, body),
    onSuccess: async () => {
      onClose();
      await reloadLists();
      await showSuccess();
    },
    onError: (error) => {
      notifyCallError(withoutFieldPrefix(error), undefined);
      if (!(error instanceof ApiError)) return;
      if (error.status === 409) form.setFields([{ name: 'email' as never, errors: [error.message] }]);
      if (error.status === 502) {
        onClose();
        void reloadLists();
      }
    },
  });
  return { save: (body: UserForm) => mutation.mutate(body), saving: mutation.isPending };
}
