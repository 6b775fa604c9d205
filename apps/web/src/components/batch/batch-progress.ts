import { type BatchKind, type BatchResult, batchCsv, batchUpdate } from '@ev/shared';
import type { SseEvent } from '../../lib/sse.ts';

/** Where a batch run is: chargers answered so far out of `total`, tallied by result. */
export interface BatchProgress {
  /** null until the `size` event. */
  total: number | null;
  /** The job's id (its CSV and its line in the history), from the `job` event. */
  jobId: number | null;
  updates: Array<{ id: string; result: BatchResult; at: string }>;
  counts: Partial<Record<BatchResult, number>>;
  /** The `error` event's message: the run stopped. */
  error: string | null;
}

export const START: BatchProgress = { total: null, jobId: null, updates: [], counts: {}, error: null };

const errorMessage = (data: string) => {
  try {
    const body = JSON.parse(data) as { message?: unknown };
    return typeof body.message === 'string' && body.message ? body.message : data;
  } catch {
    return data || 'Batch command failed';
  }
};

/** The progress after one event of the batch stream (section 4): size, job, one update per charger, error. */
export function applyBatchEvent(state: BatchProgress, event: SseEvent, at = new Date()): BatchProgress {
  switch (event.event) {
    case 'size': {
      const total = Number(event.data);
      return Number.isInteger(total) && total >= 0 ? { ...state, total } : state;
    }
    case 'job': {
      const id = (JSON.parse(event.data) as { id?: unknown }).id;
      return typeof id === 'number' ? { ...state, jobId: id } : state;
    }
    case 'update': {
      const update = batchUpdate.safeParse(JSON.parse(event.data));
      if (!update.success) return state;
      const { id, result } = update.data;
      return {
        ...state,
        updates: [...state.updates, { id, result, at: at.toISOString() }],
        counts: { ...state.counts, [result]: (state.counts[result] ?? 0) + 1 },
      };
    }
    case 'error':
      return { ...state, error: errorMessage(event.data) };
    default:
      return state;
  }
}

/**
 * The share of the chargers answered, in percent: the bar's width, from the same count as 'n / total' (not
 * rounded, so the bar stands where the count says). A run over no charger is full once finished.
 */
export function progressPercent(done: number, total: number | null, finished: boolean): number {
  if (total === null || total === 0) return finished ? 100 : 0;
  return Math.min(100, (done / total) * 100);
}

/**
 * The per-charger results as the browser saw them, in the server's CSV layout: the fallback download when
 * the stream named no job to fetch the file of.
 */
export function progressCsv(progress: BatchProgress): string {
  return batchCsv(progress.updates.map((update) => [update.id, update.result, '', update.at] as const));
}

/** The stream's path: the batch token (and Config All's pairs) in the query; the session goes in a header. */
export function batchPath(
  kind: BatchKind,
  token: string,
  configurations?: Array<{ key: string; value: string }>,
) {
  const query = new URLSearchParams({ token });
  if (kind === 'config') query.set('configurations', JSON.stringify(configurations ?? []));
  return `/charger/batch/${kind}?${query}`;
}
