import { App } from 'antd';
import { useCallback } from 'react';

export const LEAVE_WARNING = 'Changes will not be saved. Do you want to proceed ?';

/**
 * The answers of both questions about unsaved changes (the leave warning and 'Discard changes'): both ask
 * 'Do you want to proceed ?', so both answer Yes (proceed, the changes are lost) or No (stay and keep them).
 */
export const PROCEED_ANSWER = 'Yes';
export const STAY_ANSWER = 'No';

interface UnsavedChangesQuestion {
  title: string;
  content?: string;
  /** The user proceeds: the changes are given up. */
  onProceed: () => void;
  /** The user stays (No, Escape or the close button). */
  onStay?: () => void;
}

/** Asks a question about unsaved changes, with the app's one pair of answers. */
export function useUnsavedChangesConfirm() {
  const { modal } = App.useApp();
  return useCallback(
    ({ title, content, onProceed, onStay }: UnsavedChangesQuestion) => {
      modal.confirm({
        title,
        content,
        centered: true,
        okText: PROCEED_ANSWER,
        cancelText: STAY_ANSWER,
        onOk: onProceed,
        onCancel: onStay,
      });
    },
    [modal],
  );
}

/** Cancelling an edit dialog with changes asks first; `discard` runs only when the user proceeds. */
export function useDiscardConfirm() {
  const ask = useUnsavedChangesConfirm();
  return useCallback(
    (discard: () => void) => ask({ title: 'Discard changes', content: LEAVE_WARNING, onProceed: discard }),
    [ask],
  );
}
