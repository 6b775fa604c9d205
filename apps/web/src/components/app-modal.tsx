import { Modal, type ModalProps } from 'antd';
import { DEFAULT_MODAL_SIZE, type ModalSize, useModalWidth } from './modal-width.ts';

export interface AppModalProps extends Omit<ModalProps, 'width'> {
  /** The spec's width pair (up to 1000 px / above); document 2's 95%/65% unless the spec names another. */
  size?: ModalSize;
}

/**
 * The app's modal: antd's Modal sized by the spec's widths, the only way a modal gets its width (no `width`
 * prop; app-modal.test.ts refuses antd's Modal, or a width of its own, anywhere else).
 */
export function AppModal({ size = DEFAULT_MODAL_SIZE, ...props }: AppModalProps) {
  const width = useModalWidth(size);
  return <Modal {...props} width={width} />;
}
