import { type BatchKind, batchCsvName } from '@ev/shared';
import { App } from 'antd';
import { useCallback, useEffect, useRef, useState } from 'react';
import { apiDownload } from '../../lib/api.ts';
import { notifyCallError, notifyError } from '../../lib/notify.ts';
import { apiEvents, type EventsRequest } from '../../lib/sse.ts';
import { saveBlob } from '../save-file.ts';
import { SUCCESS_POPUP_MS } from '../success-popup.ts';
import { applyBatchEvent, type BatchProgress, progressCsv, START } from './batch-progress.ts';

export type BatchPhase = 'form' | 'running' | 'finished' | 'stopped';

export const BATCH_TITLES: Record<BatchKind, string> = {
  'hard-reset': 'Hard Reset All',
  config: 'Config All',
  firmware: 'Firmware Update',
  'local-list': 'Send Local List All',
};

/** Downloads a job's per-charger results (`GET /api/charger/batch/jobs/{id}/csv`) under the server's name. */
export async function downloadJobCsv(jobId: number, kind: BatchKind) {
  const { blob, fileName } = await apiDownload(`/charger/batch/jobs/${jobId}/csv`);
  saveBlob(blob, fileName ?? batchCsvName(kind, new Date()));
}

/**
 * Runs one batch command (a GET, or a POST with its body) and follows its stream. A refusal (bad token, not configured) shows the generic
 * notice and returns to the form; an `error` event stops the run with the same notice; the end of the stream
 * shows the success message for 1.5 s and downloads the CSV of per-charger results.
 */
export function useBatchRun(kind: BatchKind) {
  const { message } = App.useApp();
  const [phase, setPhase] = useState<BatchPhase>('form');
  const [progress, setProgress] = useState<BatchProgress>(START);
  const abort = useRef<AbortController | null>(null);
  useEffect(() => () => abort.current?.abort(), []);

  const finish = useCallback(
    async (final: BatchProgress) => {
      void message.success(`${BATCH_TITLES[kind]} finished.`, SUCCESS_POPUP_MS / 1000);
      try {
        if (final.jobId !== null) await downloadJobCsv(final.jobId, kind);
        else saveBlob(new Blob([progressCsv(final)], { type: 'text/csv' }), batchCsvName(kind, new Date()));
      } catch (error) {
        notifyCallError(error, undefined);
      }
    },
    [kind, message],
  );

  const run = useCallback(
    async (path: string, request?: EventsRequest) => {
      const controller = new AbortController();
      abort.current = controller;
      let state = START;
      setProgress(state);
      setPhase('running');
      try {
        for await (const event of apiEvents(path, controller.signal, request)) {
          state = applyBatchEvent(state, event);
          setProgress(state);
          if (state.error !== null) break;
        }
      } catch (error) {
        if (controller.signal.aborted) return;
        // Refused before it started (bad token, not configured): the token can be typed again.
        if (state.total === null) {
          notifyCallError(error, undefined);
          return setPhase('form');
        }
        state = { ...state, error: error instanceof Error ? error.message : String(error) };
        setProgress(state);
      }
      if (state.error !== null) {
        notifyError(state.error);
        return setPhase('stopped');
      }
      setPhase('finished');
      await finish(state);
    },
    [finish],
  );

  return { phase, progress, run };
}
