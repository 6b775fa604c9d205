import { useSyncExternalStore } from 'react';

/** The spec's three modal widths: on screens up to 1000 px, otherwise. */
const WIDTHS = {
  small: { narrow: '70%', wide: '40%' },
  medium: { narrow: '85%', wide: '50%' },
  large: { narrow: '95%', wide: '65%' },
} as const;

export type ModalSize = keyof typeof WIDTHS;
export const NARROW_SCREEN_MAX = 1000;

export function modalWidth(size: ModalSize, viewportWidth: number): string {
  return widthFor(size, viewportWidth <= NARROW_SCREEN_MAX);
}

function widthFor(size: ModalSize, narrow: boolean): string {
  return narrow ? WIDTHS[size].narrow : WIDTHS[size].wide;
}

const QUERY = `(max-width: ${NARROW_SCREEN_MAX}px)`;

function subscribe(onChange: () => void) {
  const list = window.matchMedia(QUERY);
  list.addEventListener('change', onChange);
  return () => list.removeEventListener('change', onChange);
}

const isNarrow = () => window.matchMedia(QUERY).matches;

/** The width for a modal of this size, following the window as it is resized. */
export function useModalWidth(size: ModalSize): string {
  const narrow = useSyncExternalStore(subscribe, isNarrow, () => false);
  return widthFor(size, narrow);
}
