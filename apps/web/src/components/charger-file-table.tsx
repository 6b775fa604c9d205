import { type ChargerFile, fileSizeText } from '@ev/shared';
import { Button, Flex, Table, type TableColumnsType, Tooltip, Typography } from 'antd';
import type { ReactNode } from 'react';
import { apiDownload } from '../lib/api.ts';
import { formatThaiDateTime } from '../lib/format.ts';
import { notifyCallError } from '../lib/notify.ts';
import { saveBlob } from './save-file.ts';

/** Saves a firmware or diagnostics file (`GET /api/charger-file/{id}/download`) under its name. */
export function downloadChargerFile(file: ChargerFile): Promise<void> {
  return apiDownload(`/charger-file/${file.id}/download`)
    .then(({ blob, fileName }) => saveBlob(blob, fileName ?? file.name))
    .catch((error) => notifyCallError(error, undefined));
}

/**
 * Firmware or diagnostics files with their Download (issue 32): name, size, when; with `details` also the
 * version, the SHA-256 (shortened, whole in a tooltip) and who uploaded it. `actions` adds buttons to a row.
 */
export function ChargerFileTable({
  files,
  loading,
  emptyText,
  testId,
  details = false,
  actions,
}: {
  files: ChargerFile[];
  loading: boolean;
  emptyText: string;
  testId: string;
  details?: boolean;
  actions?: (file: ChargerFile) => ReactNode;
}) {
  const columns: TableColumnsType<ChargerFile> = [
    { title: 'File', dataIndex: 'name', key: 'name', ellipsis: true },
    ...(details ? [{ title: 'Version', dataIndex: 'version', key: 'version', width: 110 }] : []),
    { title: 'Size', dataIndex: 'size', key: 'size', width: 100, render: fileSizeText },
    ...(details
      ? [
          {
            title: 'SHA-256',
            dataIndex: 'sha256',
            key: 'sha256',
            width: 150,
            render: (sha: string) => (
              <Tooltip title={sha}>
                <Typography.Text code>{sha.slice(0, 12)}…</Typography.Text>
              </Tooltip>
            ),
          },
        ]
      : []),
    {
      title: 'Uploaded',
      dataIndex: 'createdAt',
      key: 'createdAt',
      width: 160,
      render: (at: string) => formatThaiDateTime(at),
    },
    ...(details
      ? [
          {
            title: 'By',
            dataIndex: 'createdByEmail',
            key: 'createdByEmail',
            ellipsis: true,
            render: (email: string | null) => email ?? '-',
          },
        ]
      : []),
    {
      title: 'Action',
      key: 'action',
      width: actions ? 190 : 120,
      render: (_, file) => (
        <Flex gap={4}>
          <Button
            size="small"
            onClick={() => void downloadChargerFile(file)}
            aria-label={`Download ${file.name}`}
          >
            Download
          </Button>
          {actions?.(file)}
        </Flex>
      ),
    },
  ];
  return (
    <Table<ChargerFile>
      size="small"
      rowKey="id"
      pagination={false}
      dataSource={files}
      loading={loading}
      locale={{ emptyText }}
      data-testid={testId}
      columns={columns}
    />
  );
}
