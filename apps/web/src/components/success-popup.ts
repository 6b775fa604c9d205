import { App } from 'antd';
import { useCallback } from 'react';

export const SUCCESS_TITLE = 'Success !';
export const SAVED_MESSAGE = 'Successfully saved data.';
export const SUCCESS_POPUP_MS = 1500;

/** The spec's success popup: shows 'Successfully saved data.' and resolves once it closed by itself. */
export function useSuccessPopup() {
  const { modal } = App.useApp();
  return useCallback(
    (content: string = SAVED_MESSAGE) =>
      new Promise<void>((resolve) => {
        const popup = modal.success({
          title: SUCCESS_TITLE,
          content,
          centered: true,
          footer: null,
          keyboard: false,
        });
        setTimeout(() => {
          popup.destroy();
          resolve();
        }, SUCCESS_POPUP_MS);
      }),
    [modal],
  );
}
