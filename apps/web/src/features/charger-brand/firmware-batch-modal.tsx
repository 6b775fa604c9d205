import { BATCH_MESSAGES, type ChargerBrand, type ChargerFile } from '@ev/shared';
import { DatePicker, Form, Input, Select, Typography } from 'antd';
import { BatchRunModal } from '../../components/batch/batch-run-modal.tsx';
import { useBatchRun } from '../../components/batch/use-batch-run.ts';
import { bangkokInstantField } from '../../components/form/instant-field.ts';

const TOKEN_RULES = [{ required: true, whitespace: true, message: BATCH_MESSAGES.token }];
const FILE_RULES = [{ required: true, message: 'Choose a firmware file.' }];

interface FirmwareBatchValues {
  fileId: number;
  retrieveDate?: string;
  token: string;
}

/**
 * Firmware to every active charger of the brand (issue 32): a file (the newest of the brand's first), a
 * retrieve date (empty: now) and the batch token, then the run's progress as Hard Reset All shows it, and its
 * CSV. Each charger's steps show on its own screen.
 */
export function FirmwareBatchModal({
  brand,
  files,
  onClose,
}: {
  brand: ChargerBrand;
  files: ChargerFile[];
  onClose: () => void;
}) {
  const [form] = Form.useForm<FirmwareBatchValues>();
  const { phase, progress, run } = useBatchRun('firmware');
  return (
    <BatchRunModal
      kind={'firmware'}
      phase={phase}
      progress={progress}
      danger={true}
      onRun={() => form.submit()}
      onClose={onClose}
    >
      <Form<FirmwareBatchValues>
        form={form}
        name="batch-firmware"
        layout="vertical"
        initialValues={{ fileId: files[0]?.id, token: '' }}
        onFinish={(values) =>
          void run(`/charger-brand/${brand.id}/firmware`, {
            method: 'POST',
            body: {
              fileId: values.fileId,
              token: values.token,
              ...(values.retrieveDate ? { retrieveDate: values.retrieveDate } : {}),
            },
          })
        }
        hidden={phase !== 'form'}
      >
        <Typography.Paragraph type="secondary">
          Every active charger of {brand.name} downloads this firmware, installs it and restarts.
        </Typography.Paragraph>
        <Form.Item label="Firmware file" name="fileId" required rules={FILE_RULES}>
          <Select
            options={files.map((file) => ({
              value: file.id,
              label: `${file.name} (${file.version ?? '-'})`,
            }))}
          />
        </Form.Item>
        <Form.Item label="Retrieve date" name="retrieveDate" {...bangkokInstantField}>
          <DatePicker
            showTime={{ format: 'HH:mm' }}
            format="DD/MM/YYYY HH:mm"
            placeholder="Now"
            style={{ width: '100%' }}
          />
        </Form.Item>
        <Form.Item label="Token" name="token" required rules={TOKEN_RULES}>
          <Input.Password autoComplete="off" maxLength={500} />
        </Form.Item>
      </Form>
    </BatchRunModal>
  );
}
