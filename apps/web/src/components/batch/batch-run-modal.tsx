import type { BatchKind } from '@ev/shared';
import { Button, Flex, Progress, Typography } from 'antd';
import type { ReactNode } from 'react';
import { notifyCallError } from '../../lib/notify.ts';
import { AppModal } from '../app-modal.tsx';
import { type BatchProgress, progressPercent } from './batch-progress.ts';
import { ResultTags } from './result-tags.tsx';
import { BATCH_TITLES, type BatchPhase, downloadJobCsv } from './use-batch-run.ts';

/**
 * The bar is drawn from the same count as 'n / total', at once: antd's track eases its width over 0.3 s,
 * which showed '142 / 142' beside a bar still filling.
 */
const TRACK_STYLE = { track: { transition: 'none' } } as const;

const PHASE_TEXT: Record<Exclude<BatchPhase, 'form'>, string> = {
  running: 'Sending to every charger…',
  finished: 'Finished: the results were downloaded as CSV.',
  stopped: 'Stopped.',
};

/** A batch run under way or ended: 'n / total', the bar, the results so far (Hard Reset All, Config All, firmware). */
function BatchRunView({ phase, progress }: { phase: Exclude<BatchPhase, 'form'>; progress: BatchProgress }) {
  const done = progress.updates.length;
  const total = progress.total;
  return (
    <Flex vertical gap={12} data-testid="batch-progress">
      <Typography.Text>
        {phase === 'stopped' && progress.error ? `Stopped: ${progress.error}` : PHASE_TEXT[phase]}
      </Typography.Text>
      <Typography.Title level={3} style={{ margin: 0 }} aria-label="Progress">
        {done} / {total ?? '…'}
      </Typography.Title>
      <Progress
        percent={progressPercent(done, total, phase === 'finished')}
        styles={TRACK_STYLE}
        status={phase === 'stopped' ? 'exception' : phase === 'finished' ? 'success' : 'active'}
        showInfo={false}
      />
      <ResultTags counts={progress.counts} />
    </Flex>
  );
}

/** The footer once a run started: Download CSV when it ended with a job, and Close (disabled while it runs). */
function batchRunFooter(phase: BatchPhase, jobId: number | null, kind: BatchKind, onClose: () => void) {
  const running = phase === 'running';
  return [
    phase !== 'running' && jobId !== null && (
      <Button
        key="csv"
        onClick={() => downloadJobCsv(jobId, kind).catch((error) => notifyCallError(error, undefined))}
      >
        Download CSV
      </Button>
    ),
    // A new button when the run ends (its own key), drawn enabled at once: the disabled one would fade
    // into the enabled colours over antd's 0.2 s transition, looking disabled after the end.
    <Button key={running ? 'close-running' : 'close'} type="primary" disabled={running} onClick={onClose}>
      Close
    </Button>,
  ];
}

/**
 * A batch command's dialog: its form (`children`, hidden by the caller once the run starts) with Cancel and
 * Run, then the run as 'n / total' with the results so far, Download CSV and Close. It cannot be closed while
 * running.
 */
export function BatchRunModal({
  kind,
  phase,
  progress,
  danger,
  onRun,
  onClose,
  children,
}: {
  kind: BatchKind;
  phase: BatchPhase;
  progress: BatchProgress;
  /** Run drawn as a dangerous action (chargers restart). */
  danger: boolean;
  onRun: () => void;
  onClose: () => void;
  children: ReactNode;
}) {
  const running = phase === 'running';
  const footer =
    phase === 'form'
      ? [
          <Button key="cancel" onClick={onClose}>
            Cancel
          </Button>,
          <Button key="run" type="primary" danger={danger} onClick={onRun}>
            Run
          </Button>,
        ]
      : batchRunFooter(phase, progress.jobId, kind, onClose);
  return (
    <AppModal
      open
      title={BATCH_TITLES[kind]}
      closable={!running}
      keyboard={!running}
      maskClosable={false}
      onCancel={() => !running && onClose()}
      footer={footer}
    >
      {children}
      {phase !== 'form' && <BatchRunView phase={phase} progress={progress} />}
    </AppModal>
  );
}
