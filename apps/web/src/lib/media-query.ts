import { useCallback, useSyncExternalStore } from 'react';

/**
 * Whether the CSS media query matches, following every change while the app is open (a resized window, a
 * system setting switched). False where there is no window to ask.
 */
export function useMediaQuery(query: string): boolean {
  const subscribe = useCallback(
    (onChange: () => void) => {
      const list = window.matchMedia(query);
      list.addEventListener('change', onChange);
      return () => list.removeEventListener('change', onChange);
    },
    [query],
  );
  return useSyncExternalStore(
    subscribe,
    () => window.matchMedia(query).matches,
    () => false,
  );
}
