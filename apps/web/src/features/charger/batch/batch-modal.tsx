import { BATCH_MESSAGES, type BatchConfiguration, type BatchKind } from '@ev/shared';
import { Button, Flex, Form, Input, Modal, Progress, Typography } from 'antd';
import { useModalWidth } from '../../../components/modal-width.ts';
import { notifyCallError } from '../../../lib/notify.ts';
import { batchPath } from './batch-progress.ts';
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
  const width = useModalWidth('medium');
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
          <Button key="close" type="primary" disabled={running} onClick={onClose}>
            Close
          </Button>,
        ];

  return (
    <Modal
      open
      title={BATCH_TITLES[kind]}
      width={width}
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
            percent={total ? Math.floor((done / total) * 100) : phase === 'finished' ? 100 : 0}
            status={phase === 'stopped' ? 'exception' : phase === 'finished' ? 'success' : 'active'}
            showInfo={false}
          />
          <ResultTags counts={progress.counts} />
        </Flex>
      )}
    </Modal>
  );
}
