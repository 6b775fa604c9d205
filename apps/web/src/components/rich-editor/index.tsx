import { ConfigProvider, Form, Skeleton } from 'antd';
import { lazy, Suspense } from 'react';

/** The props of the rich text editor: antd Form.Item compatible (value / onChange / id / status). */
export interface RichEditorProps {
  value?: string;
  onChange?: (html: string) => void;
  id?: string;
  placeholder?: string;
  disabled?: boolean;
  height?: number | string;
  'aria-label'?: string;
  status?: 'error';
}

// SunEditor's JS and CSS load only on screens that edit: the rest of the app never carries them.
const SunEditorField = lazy(() => import('./sun-editor.tsx'));

export const DEFAULT_EDITOR_HEIGHT = 320;
/** About the toolbar and status bar around the contents area, so the page does not jump when it loads. */
const TOOLBAR_HEIGHT = 100;

/** The back office's rich text editor (SunEditor 3), loaded on first use. */
export function RichEditor(props: RichEditorProps) {
  const height = props.height ?? DEFAULT_EDITOR_HEIGHT;
  // Inside a Form.Item, its validation status (antd passes it by context, not as a prop).
  const { status: itemStatus } = Form.Item.useStatus();
  const status = props.status ?? (itemStatus === 'error' ? 'error' : undefined);
  // A disabled Form (a role that may only look) disables its fields by context too.
  const { componentDisabled } = ConfigProvider.useConfig();
  const disabled = props.disabled ?? componentDisabled ?? false;
  return (
    <Suspense
      fallback={
        <div
          // Inline: this shows before the editor's style sheets have loaded.
          style={{
            height:
              typeof height === 'number' ? height + TOOLBAR_HEIGHT : `calc(${height} + ${TOOLBAR_HEIGHT}px)`,
            border: '1px solid #d9d9d9',
            borderRadius: 8,
            padding: 8,
            boxSizing: 'border-box',
            background: '#fff',
          }}
          aria-busy="true"
        >
          <Skeleton.Input active block size="small" />
        </div>
      }
    >
      <SunEditorField {...props} height={height} status={status} disabled={disabled} />
    </Suspense>
  );
}
