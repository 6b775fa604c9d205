/** How close to the end of the terms box the reader must scroll before the checkboxes appear. */
export const AGREE_THRESHOLD_PX = 200;

export interface ScrollBox {
  scrollTop: number;
  clientHeight: number;
  scrollHeight: number;
}

/**
 * True once the box is scrolled to within the threshold of its end. A text that fits in the box counts
 * as read at once: there is nothing to scroll. (The original's condition always passed; we fixed it.)
 */
export function canShowAgreement(box: ScrollBox, threshold = AGREE_THRESHOLD_PX): boolean {
  const remaining = box.scrollHeight - box.scrollTop - box.clientHeight;
  // Zoomed pages report sub-pixel positions; a fraction of a pixel past the threshold still counts.
  return remaining < threshold + 1;
}
