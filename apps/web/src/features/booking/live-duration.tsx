import type { BookingItem } from '@ev/shared';
import { useSyncExternalStore } from 'react';
import { durationMs, formatDuration, isTicking } from './booking-format.ts';

/**
 * One clock for every ticking cell: a single interval runs while at least one cell listens, so a page of
 * charging rows re-renders once a second, together, and an idle page runs no timer at all.
 */
const listeners = new Set<() => void>();
let now = Date.now();
let timer: ReturnType<typeof setInterval> | null = null;

function subscribe(listener: () => void) {
  listeners.add(listener);
  if (!timer) {
    now = Date.now();
    timer = setInterval(() => {
      now = Date.now();
      for (const notify of listeners) notify();
    }, 1000);
  }
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0 && timer) {
      clearInterval(timer);
      timer = null;
    }
  };
}

const noSubscription = () => () => undefined;

/** Re-renders the caller every second while `ticking`. */
function useSecondClock(ticking: boolean): void {
  useSyncExternalStore(
    ticking ? subscribe : noSubscription,
    () => (ticking ? now : 0),
    () => 0,
  );
}

/** The booking's charging time (hh:mm:ss), counting up every second while it charges. */
export function LiveDuration({ booking }: { booking: Pick<BookingItem, 'startTime' | 'stopTime'> }) {
  const ticking = isTicking(booking);
  useSecondClock(ticking);
  return (
    <span data-ticking={ticking || undefined} style={{ fontVariantNumeric: 'tabular-nums' }}>
      {formatDuration(durationMs(booking, Date.now()))}
    </span>
  );
}
