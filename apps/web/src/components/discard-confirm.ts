import { App } from 'antd';
import { useCallback } from 'react';

export const LEAVE_WARNING = 'Changes will not be saved. Do you want to proceed ?';

/** Cancelling an edit dialog with changes asks first; `discard` runs only when the user proceeds. */
export function useDiscardConfirm() {
  const { modal } = App.useApp();
  return useCallback(
    (discard: () => void) => {
      modal.confirm({ title: 'Discard changes', content: LEAVE_WARNING, onOk: discard, centered: true });
    },
    [modal],
  );
}
