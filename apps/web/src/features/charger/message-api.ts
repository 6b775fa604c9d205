import type {
  ChargerConnectionListResponse,
  ChargerMessage,
  ChargerMessageListResponse,
  MessageDownload,
} from '@ev/shared';
import { CHARGER_MESSAGE_TEXT } from '@ev/shared';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { saveBlob } from '../../components/save-file.ts';
import { ApiError, api, apiDownload } from '../../lib/api.ts';
import { notify, notifyCallError } from '../../lib/notify.ts';

/** How often the live tail asks for new frames. */
export const LIVE_POLL_MS = 1000;

const base = (chargerId: string) => `/charger/${encodeURIComponent(chargerId)}`;
const messages = (chargerId: string, query: string) =>
  api<ChargerMessageListResponse>(`${base(chargerId)}/message?${query}`);

export interface Paging {
  page: number;
  size: number;
}

interface Tail {
  /** The page it was gathered on top of (filters, paging, that page's load): stale once that changes. */
  on: string;
  /** Frames newer than the page's, newest first (page 1). */
  rows: ChargerMessage[];
  /** How many matched, of which `rows` are the newest. */
  total: number;
}

/**
 * A page of a charger's message log, newest first (`GET /api/charger/{id}/message`), and with `live` its tail:
 * every LIVE_POLL_MS the frames after the newest one shown (`afterId`). On page 1 they come on top of the page;
 * on a later page they are only counted (`fresh`), for the user to go back to the newest.
 */
export function useMessageLog(chargerId: string, filterQuery: string, paging: Paging, live: boolean) {
  const pageQuery = `${filterQuery}${filterQuery ? '&' : ''}page=${paging.page}&size=${paging.size}`;
  const page = useQuery({
    queryKey: ['charger', 'messages', chargerId, pageQuery],
    queryFn: () => messages(chargerId, pageQuery),
    placeholderData: keepPreviousData,
    staleTime: 0,
    refetchOnWindowFocus: false,
  });
  const on = `${pageQuery}@${page.dataUpdatedAt}`;
  const [tail, setTail] = useState<Tail>({ on: '', rows: [], total: 0 });
  /** The newest id on page 1 (its load, then the tail's): where the tail goes on from. */
  const newest = useRef<number | null>(null);
  useEffect(() => {
    if (!page.data || page.isPlaceholderData || paging.page !== 1) return;
    newest.current = page.data.messages[0]?.id ?? 0;
  }, [page.data, page.isPlaceholderData, paging.page]);

  const refetch = page.refetch;
  useEffect(() => {
    if (!live) return;
    let busy = false;
    let stopped = false;
    const poll = async () => {
      const after = newest.current;
      if (busy || after === null) return;
      busy = true;
      try {
        const first = paging.page === 1;
        const answer = await messages(
          chargerId,
          `${filterQuery}${filterQuery ? '&' : ''}afterId=${after}&size=${first ? paging.size : 1}`,
        );
        if (stopped) return;
        if (!first) {
          setTail({ on, rows: [], total: answer.total });
        } else if (answer.total > answer.messages.length) {
          // More than a page came at once: the page itself, anew.
          await refetch();
        } else if (answer.messages.length > 0) {
          newest.current = answer.messages[0]?.id ?? after;
          setTail((was) => ({
            on,
            rows: [...answer.messages, ...(was.on === on ? was.rows : [])],
            total: (was.on === on ? was.total : 0) + answer.total,
          }));
        }
      } catch {
        // The next poll tries again (a failed call already told the user).
      } finally {
        busy = false;
      }
    };
    const timer = setInterval(() => void poll(), LIVE_POLL_MS);
    return () => {
      stopped = true;
      clearInterval(timer);
    };
  }, [live, chargerId, filterQuery, paging.page, paging.size, on, refetch]);

  const current = tail.on === on ? tail : { rows: [], total: 0 };
  const loaded = page.data?.messages ?? [];
  const first = paging.page === 1;
  const rows = first ? [...current.rows, ...loaded].slice(0, paging.size) : loaded;
  return {
    rows,
    total: (page.data?.total ?? 0) + (first ? current.total : 0),
    /** Ids of the rows the tail brought (shown marked). */
    tailIds: new Set(first ? current.rows.map((row) => row.id) : []),
    /** On a later page: how many frames came since page 1 was shown. */
    fresh: first ? 0 : current.total,
    loading: page.isFetching && page.isPlaceholderData,
    error: page.error,
  };
}

/** A page of the charger's connections (`GET /api/charger/{id}/connection`), reloaded while `live`. */
export function useConnections(chargerId: string, paging: Paging, live: boolean) {
  return useQuery({
    queryKey: ['charger', 'connections', chargerId, paging.page, paging.size],
    queryFn: () =>
      api<ChargerConnectionListResponse>(
        `${base(chargerId)}/connection?page=${paging.page}&size=${paging.size}`,
      ),
    placeholderData: keepPreviousData,
    staleTime: 0,
    refetchInterval: live ? 3 * LIVE_POLL_MS : false,
  });
}

/** Downloads the matching log (`mode=csv|jsonl`) under the server's file name; a warning when nothing matches. */
export async function downloadMessages(chargerId: string, filterQuery: string, mode: MessageDownload) {
  try {
    const query = `${filterQuery}${filterQuery ? '&' : ''}mode=${mode}`;
    const { blob, fileName } = await apiDownload(`${base(chargerId)}/message?${query}`);
    saveBlob(blob, fileName ?? `messages_${chargerId}_${Date.now()}.${mode}`);
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) notify('warning', CHARGER_MESSAGE_TEXT.notFound);
    else notifyCallError(error, undefined);
  }
}
