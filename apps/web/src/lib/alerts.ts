import { type AlertItem, type AlertListResponse, parseSse } from '@ev/shared';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { ApiError, api, apiFetch } from './api.ts';

/**
 * The signed-in user's alerts (issue 36): the bell in the header and the /alerts screen share these calls.
 * Every alerts query's key starts with ALERTS_QUERY_KEY, so one invalidation refreshes the bell.
 */
export const ALERTS_QUERY_KEY = 'alerts';
/** How many of the latest alerts the bell lists. */
export const BELL_SIZE = 8;

/** `GET /api/alerts?page=1&size=8`: the latest alerts and how many are unread. */
export function useBellAlerts(enabled = true) {
  return useQuery({
    queryKey: [ALERTS_QUERY_KEY, 'bell'],
    queryFn: ({ signal }) => api<AlertListResponse>(`/alerts?page=1&size=${BELL_SIZE}`, { signal }),
    enabled,
    staleTime: 0,
    // The bell is on every screen: a failed call must not raise a notice on each of them (the stream's
    // reconnect and the next screen try again).
    meta: { silent: true },
  });
}

/** `POST /api/alerts/read`: these alerts, or all of the user's, read. */
export const markAlertsRead = (body: { ids: number[] } | { all: true }) =>
  api('/alerts/read', { method: 'POST', body });

/** The wait before the stream is opened again: 1 s, 2 s, 4 s … at most 30 s. */
export const reconnectDelay = (attempt: number) => Math.min(30_000, 1000 * 2 ** Math.min(attempt, 5));

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        resolve();
      },
      { once: true },
    );
  });
}

export interface AlertStreamHandlers {
  /** An `alert` event: an alert fired or resolved. */
  onAlert: (alert: AlertItem) => void;
  /**
   * The stream is open (again): what fired before it was, or while it was down, is for the caller to read
   * (a first fetch that raced the stream's start included).
   */
  onOpen?: () => void;
}

/**
 * Listens to `GET /api/alerts/stream` while `token` is set (the session's: a new sign-in opens a new stream,
 * Log Out closes it). The token goes in the X-ACCESS-TOKEN header as on every call (lib/sse.ts), never in the
 * URL, where proxies and access logs would keep it: so the stream is a fetch, not an EventSource, and opens
 * again by itself after a drop, waiting longer after each failure in a row. A 401 signs out (lib/api.ts) and
 * a 403 or 404 (a server without the stream) stops it until the next sign-in.
 */
export function useAlertStream(token: string | null, handlers: AlertStreamHandlers) {
  const latest = useRef(handlers);
  latest.current = handlers;
  useEffect(() => {
    if (!token) return;
    const controller = new AbortController();
    const { signal } = controller;
    void (async () => {
      let failures = 0;
      while (!signal.aborted) {
        try {
          const response = await apiFetch('/alerts/stream', { accept: 'text/event-stream', token, signal });
          if (!response.body) throw new ApiError(response.status, `HTTP ${response.status}`);
          failures = 0;
          latest.current.onOpen?.();
          for await (const event of parseSse(response.body)) {
            if (event.event !== 'alert') continue;
            try {
              latest.current.onAlert(JSON.parse(event.data) as AlertItem);
            } catch {
              /* a malformed event is skipped */
            }
          }
        } catch (error) {
          if (signal.aborted) return;
          if (error instanceof ApiError && [401, 403, 404].includes(error.status)) return;
          failures++;
        }
        // The server ended the stream (a restart, a proxy's timeout) or it failed: open it again.
        await sleep(reconnectDelay(failures), signal);
      }
    })();
    return () => controller.abort();
  }, [token]);
}
