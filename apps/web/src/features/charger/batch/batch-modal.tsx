import { BATCH_MESSAGES, type BatchConfiguration, type BatchKind } from '@ev/shared';
import { Form, Input, Typography } from 'antd';
import { batchPath } from '../../../components/batch/batch-progress.ts';
import { BatchRunModal } from '../../../components/batch/batch-run-modal.tsx';
import { useBatchRun } from '../../../components/batch/use-batch-run.ts';
import { ConfigRowsField, type ConfigurationRow } from './config-rows-field.tsx';

const TOKEN_RULES = [{ required: true, whitespace: true, message: BATCH_MESSAGES.token }];

interface BatchValues {
  token: string;
  configurations?: ConfigurationRow[];
}

const KIND_TEXT: Partial<Record<BatchKind, string>> = {
  'hard-reset': 'Every charger restarts at once; sessions in progress stop.',
  config: 'Every charger receives these configuration keys.',
  'local-list':
    "Every charger receives its local authorization list: the members' id tags valid there, so they can start while it is offline.",
};

const pairs = (rows: ConfigurationRow[] = []): BatchConfiguration[] =>
  rows.map((row) => ({ key: (row.key ?? '').trim(), value: row.value ?? '' }));

/**
 * Hard Reset All / Config All (section 2.10) / Send Local List All (issue 32): asks for the batch token (and Config All's key/value pairs),
 * then follows the run as 'n / total' with the results so far. It cannot be closed while running.
 */
export function BatchModal({ kind, onClose }: { kind: BatchKind; onClose: () => void }) {
  const [form] = Form.useForm<BatchValues>();
  const { phase, progress, run } = useBatchRun(kind);
  return (
    <BatchRunModal
      kind={kind}
      phase={phase}
      progress={progress}
      danger={kind === 'hard-reset'}
      onRun={() => form.submit()}
      onClose={onClose}
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
        <Typography.Paragraph type="secondary">{KIND_TEXT[kind]}</Typography.Paragraph>
        <Form.Item label="Token" name="token" required rules={TOKEN_RULES}>
          <Input.Password autoComplete="off" maxLength={500} />
        </Form.Item>
        {kind === 'config' && (
          <Form.Item label="Configurations" required>
            <ConfigRowsField />
          </Form.Item>
        )}
      </Form>
    </BatchRunModal>
  );
}
