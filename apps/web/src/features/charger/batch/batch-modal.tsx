import { BATCH_MESSAGES, type BatchConfiguration, type BatchKind } from '@ev/shared';
import { Button, Flex, Form, Input, Progress, Typography } from 'antd';
import { AppModal } from '../../../components/app-modal.tsx';
import { notifyCallError } from '../../../lib/notify.ts';
import { batchPath, progressPercent } from './batch-progress.ts';
import { ConfigRowsField, type ConfigurationRow } from './config-rows-field.tsx';
import { ResultTags } from './result-tags.tsx';
import { BATCH_TITLES, type BatchPhase, downloadJobCsv, useBatchRun } from './use-batch-run.ts';

const TOKEN_RULES = [{ required: true, whitespace: true, message: BATCH_MESSAGES.token }];

interface BatchValues {
  token: string;
  configurations?: ConfigurationRow[];
}

const pairs = (rows: ConfigurationRow[] = []): BatchConfiguration[] =>
  rows.map((row) => ({ key: (row.key ?? '').trim(), value: row.value ?? '' }));

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

/**
 * Hard Reset All / Config All (section 2.10): asks for the batch token (and Config All's key/value pairs),
 * then follows the run as 'n / total' with the results so far. It cannot be closed while running.
 */
export function BatchModal({ kind, onClose }: { kind: BatchKind; onClose: () => void }) {
  const [form] = Form.useForm<BatchValues>();
  const { phase, progress, run } = useBatchRun(kind);
  const done = progress.updates.length;
  const total = progress.total;
  const running = phase === 'running';
  const jobId = progress.jobId;

  const footer =
    phase === 'form'
      ? [
          <Button key="cancel" onClick={onClose}>
            Cancel
          </Button>,
          <Button key="run" type="primary" danger={kind === 'hard-reset'} onClick={() => form.submit()}>
            Run
          </Button>,
        ]
      : [
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
          <Button
            key={running ? 'close-running' : 'close'}
            type="primary"
            disabled={running}
            onClick={onClose}
          >
            Close
          </Button>,
        ];

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
      <Form<BatchValues>
        form={form}
        name={`batch-${kind}`}
        layout="vertical"
        initialValues={{
          token: '',
          configurations: kind === 'config' ? [{ key: '', value: '' }] : undefined,
        }}
        onFinish={(values) => void run(batchPath(kind, values.token, pairs(values.configurations)))}
        hidden={phase !== 'form'}
      >
        <Typography.Paragraph type="secondary">
          {kind === 'hard-reset'
            ? 'Every charger restarts at once; sessions in progress stop.'
            : 'Every charger receives these configuration keys.'}
        </Typography.Paragraph>
        <Form.Item label="Token" name="token" required rules={TOKEN_RULES}>
          <Input.Password autoComplete="off" maxLength={500} />
        </Form.Item>
        {kind === 'config' && (
          <Form.Item label="Configurations" required>
            <ConfigRowsField />
          </Form.Item>
        )}
      </Form>
      {phase !== 'form' && (
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
      )}
    </AppModal>
  );
}
