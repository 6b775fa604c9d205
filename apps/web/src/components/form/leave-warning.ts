import { type RefObject, useCallback, useEffect, useRef } from 'react';
import { useBlocker } from 'react-router';
import { LEAVE_WARNING, useUnsavedChangesConfirm } from '../discard-confirm.ts';

/**
 * Asks 'Changes will not be saved. Do you want to proceed ?' before leaving while `dirty` holds: in-app
 * navigation through the router, reload and close through the browser. The setting forms and the screens that
 * hold unsaved changes of their own (Manage Tutorials' order) share it.
 */
export function useLeaveWarning(dirty: RefObject<boolean>) {
  const ask = useUnsavedChangesConfirm();
  const blocker = useBlocker(
    useCallback(
      ({ currentLocation, nextLocation }) =>
        dirty.current && currentLocation.pathname !== nextLocation.pathname,
      [dirty],
    ),
  );
  // One question per blocked navigation. The effect runs again whenever `blocker` or `ask` changes (a
  // dialog closing re-renders the app), and may still see the answered navigation as 'blocked' for a render:
  // it asks again only about a new one (each attempt has its own location object).
  const askedAbout = useRef<unknown>(null);
  useEffect(() => {
    if (blocker.state !== 'blocked' || askedAbout.current === blocker.location) return;
    askedAbout.current = blocker.location;
    ask({ title: LEAVE_WARNING, onProceed: () => blocker.proceed(), onStay: () => blocker.reset() });
  }, [blocker, ask]);
  useEffect(() => {
    const warn = (event: BeforeUnloadEvent) => {
      if (!dirty.current) return;
      event.preventDefault();
      event.returnValue = LEAVE_WARNING;
    };
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [dirty]);
}
