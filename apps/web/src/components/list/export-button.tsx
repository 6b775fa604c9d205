import { DownloadOutlined } from '@ant-design/icons';
import { Button } from 'antd';
import { useState } from 'react';
import { ApiError, apiDownload } from '../../lib/api.ts';
import { notify, notifyCallError } from '../../lib/notify.ts';
import { saveBlob } from '../save-file.ts';

export interface ExportSpec {
  /** The file's name before `_{timestamp}.xlsx`, used when the server names none: 'Merchant'. */
  fileName: string;
  /** Shown when nothing matches (404): 'No matched merchant found'. */
  notFoundMessage: string;
}

/**
 * Export: the list's endpoint with `mode=xlsx` and the same filters, saved under the server's file name.
 * `mode: null` calls an export endpoint of its own as it is (`/statistics/export`).
 */
export function ExportButton({
  endpoint,
  filterQuery,
  spec,
  mode = 'xlsx',
}: {
  endpoint: string;
  filterQuery: string;
  spec: ExportSpec;
  mode?: 'xlsx' | null;
}) {
  const [busy, setBusy] = useState(false);
  const run = async () => {
    setBusy(true);
    try {
      const query = new URLSearchParams(filterQuery);
      if (mode) query.set('mode', mode);
      const { blob, fileName } = await apiDownload(`${endpoint}?${query}`);
      saveBlob(blob, fileName ?? `${spec.fileName}_${Date.now()}.xlsx`);
    } catch (error) {
      if (error instanceof ApiError && error.status === 404) notify('warning', spec.notFoundMessage);
      else notifyCallError(error, undefined);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Button icon={<DownloadOutlined />} loading={busy} onClick={() => void run()}>
      Export
    </Button>
  );
}
