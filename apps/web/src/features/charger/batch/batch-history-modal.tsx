import { type BatchJob, LIST_PAGE_SIZE } from '@ev/shared';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Button, Tag, Typography } from 'antd';
import { useState } from 'react';
import { AppModal } from '../../../components/app-modal.tsx';
import { ResultTags } from '../../../components/batch/result-tags.tsx';
import { BATCH_TITLES, downloadJobCsv } from '../../../components/batch/use-batch-run.ts';
import { TAG_CHROME } from '../../../components/list/content-width.ts';
import { CellText, EMPTY_TEXT, FittedTable, rangeText } from '../../../components/list/data-table.tsx';
import type { ListColumns } from '../../../components/list/fit-columns.ts';
import { api } from '../../../lib/api.ts';
import { formatThaiDateTime } from '../../../lib/format.ts';
import { notifyCallError } from '../../../lib/notify.ts';

const STATUS_COLORS: Record<BatchJob['status'], string> = {
  running: 'processing',
  finished: 'success',
  interrupted: 'error',
};

/**
 * The run's start, command and Download CSV always show; with less room the progress goes first, then who
 * ran it, the results and the status. Long configurations and emails are cut with '…' and a tooltip.
 */
const COLUMNS: ListColumns<BatchJob> = [
  {
    title: 'Started',
    dataIndex: 'startedAt',
    key: 'startedAt',
    kind: 'date',
    render: (at: string) => formatThaiDateTime(at),
  },
  {
    title: 'Command',
    dataIndex: 'kind',
    key: 'kind',
    minWidth: 100,
    render: (kind: BatchJob['kind'], job) => (
      <>
        <CellText text={BATCH_TITLES[kind]} />
        {job.configurations?.map(({ key, value }) => (
          <Typography.Text key={key} type="secondary" style={{ fontSize: 12 }}>
            <CellText text={`${key} = ${value}`} />
          </Typography.Text>
        ))}
        {job.firmware && (
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            <CellText
              text={`${job.firmware.fileName ?? '(file deleted)'} ${job.firmware.version ?? ''} to ${job.firmware.brandName ?? '-'}`}
            />
          </Typography.Text>
        )}
      </>
    ),
  },
  {
    title: 'Status',
    dataIndex: 'status',
    key: 'status',
    kind: 'label',
    textOf: (job) => job.status,
    chrome: TAG_CHROME,
    priority: 2,
    render: (status: BatchJob['status']) => <Tag color={STATUS_COLORS[status]}>{status}</Tag>,
  },
  {
    title: 'Progress',
    key: 'progress',
    kind: 'number',
    priority: 5,
    render: (_, job) => `${job.done} / ${job.total}`,
  },
  {
    title: 'Results',
    key: 'counts',
    width: 196,
    priority: 3,
    render: (_, job) => <ResultTags counts={job.counts} />,
  },
  {
    title: 'By',
    dataIndex: 'createdByEmail',
    key: 'createdByEmail',
    minWidth: 176,
    priority: 4,
    render: (email: string | null) => email ?? '-',
  },
  {
    title: 'Action',
    key: 'action',
    fixed: 'right',
    width: 120,
    render: (_, job) => (
      <Button
        size="small"
        aria-label={`Download CSV of job ${job.id}`}
        onClick={() => downloadJobCsv(job.id, job.kind).catch((error) => notifyCallError(error, undefined))}
      >
        Download CSV
      </Button>
    ),
  },
];

/** The batch commands run so far, newest first (`GET /api/charger/batch/jobs`), each with its CSV. */
export function BatchHistoryModal({ onClose }: { onClose: () => void }) {
  const [paging, setPaging] = useState({ page: 1, size: LIST_PAGE_SIZE });
  const jobs = useQuery({
    queryKey: ['batch-jobs', paging.page, paging.size],
    queryFn: () =>
      api<{ total: number; jobs: BatchJob[] }>(`/charger/batch/jobs?page=${paging.page}&size=${paging.size}`),
    placeholderData: keepPreviousData,
    staleTime: 0,
  });
  return (
    <AppModal
      open
      title="Batch History"
      onCancel={onClose}
      footer={
        <Button type="primary" onClick={onClose}>
          Close
        </Button>
      }
    >
      <FittedTable<BatchJob>
        rowKey="id"
        size="small"
        columns={COLUMNS}
        dataSource={jobs.data?.jobs ?? []}
        loading={jobs.isFetching}
        locale={{ emptyText: EMPTY_TEXT }}
        pagination={{
          current: paging.page,
          pageSize: paging.size,
          total: jobs.data?.total ?? 0,
          size: 'small',
          showSizeChanger: true,
          showTotal: rangeText,
          onChange: (page, size) => setPaging({ page, size }),
        }}
      />
    </AppModal>
  );
}
