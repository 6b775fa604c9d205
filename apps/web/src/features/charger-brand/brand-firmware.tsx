import { CloudUploadOutlined } from '@ant-design/icons';
import {
  CHARGER_FILE_MESSAGES,
  type ChargerBrand,
  type ChargerFile,
  FIRMWARE_MAX_BYTES,
  fileSizeText,
} from '@ev/shared';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Col, Flex, Input, Popconfirm, Progress, Space, Typography, Upload } from 'antd';
import { useState } from 'react';
import { ChargerFileTable } from '../../components/charger-file-table.tsx';
import { FormSection } from '../../components/form/fields.tsx';
import { api } from '../../lib/api.ts';
import { apiUpload } from '../../lib/api-upload.ts';
import { failureText, notifyNotDone } from '../../lib/not-done.tsx';
import { notify } from '../../lib/notify.ts';
import { FirmwareBatchModal } from './firmware-batch-modal.tsx';

/**
 * The brand's firmware (issue 32, admin): upload a file with its version (a progress bar while it goes), the
 * files with their SHA-256, delete one, and update every charger of the brand (a batch, as Hard Reset All).
 */
export function BrandFirmware({ brand }: { brand: ChargerBrand }) {
  const queryClient = useQueryClient();
  const [version, setVersion] = useState('');
  const [sent, setSent] = useState<number | null>(null);
  const [batch, setBatch] = useState(false);
  const queryKey = ['charger-file', 'firmware', brand.id];
  const files = useQuery({
    queryKey,
    queryFn: () =>
      api<{ files: ChargerFile[] }>(`/charger-file?kind=firmware&chargerBrandId=${brand.id}&size=100`).then(
        (body) => body.files,
      ),
    staleTime: 0,
  });
  const refresh = () => void queryClient.invalidateQueries({ queryKey: ['charger-file'] });

  const upload = async (file: File) => {
    if (file.size > FIRMWARE_MAX_BYTES)
      return notify('error', 'Failed!', CHARGER_FILE_MESSAGES.firmwareTooLarge);
    const body = new FormData();
    body.append('file', file, file.name);
    const query = new URLSearchParams({ version: version.trim(), chargerBrandId: String(brand.id) });
    setSent(0);
    try {
      const answer = await apiUpload<{ file: ChargerFile }>(`/charger-file?${query}`, body, setSent);
      notify(
        'success',
        'Firmware uploaded',
        `${answer.file.name} (${answer.file.version}), ${fileSizeText(answer.file.size)}`,
      );
      setVersion('');
      refresh();
    } catch (error) {
      notifyNotDone('The upload', error);
    } finally {
      setSent(null);
    }
  };

  const remove = useMutation({
    meta: { silent: true },
    mutationFn: (file: ChargerFile) => api(`/charger-file/${file.id}`, { method: 'DELETE' }),
    onSuccess: refresh,
    onError: (error) => notify('error', 'Failed!', failureText(error)),
  });
  return (
    <FormSection title="Firmware">
      <Col span={24}>
        <Space
          direction="vertical"
          size="middle"
          style={{ width: '100%', marginBottom: 24 }}
          data-testid="brand-firmware"
        >
          <Flex wrap gap="small" align="center">
            <Input
              aria-label="Firmware version"
              placeholder="Version, e.g. 2.1.0"
              maxLength={50}
              style={{ width: 220 }}
              value={version}
              onChange={(event) => setVersion(event.target.value)}
              // Enter here must not save the brand's form around it.
              onPressEnter={(event) => event.preventDefault()}
            />
            <Upload
              showUploadList={false}
              beforeUpload={(file) => {
                void upload(file);
                return false;
              }}
              disabled={sent !== null || version.trim() === ''}
            >
              <Button
                icon={<CloudUploadOutlined />}
                disabled={sent !== null || version.trim() === ''}
                loading={sent !== null}
              >
                Upload firmware
              </Button>
            </Upload>
            <Typography.Text type="secondary">At most {FIRMWARE_MAX_BYTES / 1024 / 1024} MB.</Typography.Text>
            <Button
              danger
              style={{ marginLeft: 'auto' }}
              disabled={(files.data ?? []).length === 0}
              onClick={() => setBatch(true)}
            >
              Update every charger of this brand
            </Button>
          </Flex>
          {sent !== null && (
            <Progress percent={Math.floor(sent * 100)} status="active" aria-label="Upload progress" />
          )}
          <ChargerFileTable
            files={files.data ?? []}
            loading={files.isFetching && !files.data}
            emptyText="No firmware uploaded for this brand"
            testId="brand-firmware-files"
            details
            actions={(file) => (
              <Popconfirm
                title={`Delete ${file.name}?`}
                okText="Delete"
                okButtonProps={{ danger: true }}
                onConfirm={() => remove.mutate(file)}
              >
                <Button size="small" danger aria-label={`Delete ${file.name}`}>
                  Delete
                </Button>
              </Popconfirm>
            )}
          />
        </Space>
        {batch && (
          <FirmwareBatchModal brand={brand} files={files.data ?? []} onClose={() => setBatch(false)} />
        )}
      </Col>
    </FormSection>
  );
}
