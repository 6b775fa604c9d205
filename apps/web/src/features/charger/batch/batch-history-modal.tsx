import { type BatchJob, LIST_PAGE_SIZE } from '@ev/shared';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Button, Table, Tag, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table/interface';
import { useState } from 'react';
import { AppModal } from '../../../components/app-modal.tsx';
import { EMPTY_TEXT, rangeText } from '../../../components/list/data-table.tsx';
import { api } from '../../../lib/api.ts';
import { formatThaiDateTime } from '../../../lib/format.ts';
import { notifyCallError } from '../../../lib/notify.ts';
import { ResultTags } from './result-tags.tsx';
import { BATCH_TITLES, downloadJobCsv } from './use-batch-run.ts';

const STATUS_COLORS: Record<BatchJob['status'], string> = {
  running: 'processing',
  finished: 'success',
  interrupted: 'error',
};

const COLUMNS: ColumnsType<BatchJob> = [
  {
    title: 'Started',
    dataIndex: 'startedAt',
    key: 'startedAt',
    render: (at: string) => formatThaiDateTime(at),
  },
  {
    title: 'Command',
    dataIndex: 'kind',
    key: 'kind',
    render: (kind: BatchJob['kind'], job) => (
      <>
        {BATCH_TITLES[kind]}
        {job.configurations?.map(({ key, value }) => (
          <Typography.Text key={key} type="secondary" style={{ display: 'block', fontSize: 12 }}>
            {key} = {value}
          </Typography.Text>
        ))}
      </>
    ),
  },
  {
    title: 'Status',
    dataIndex: 'status',
    key: 'status',
    render: (status: BatchJob['status']) => <Tag color={STATUS_COLORS[status]}>{status}</Tag>,
  },
  { title: 'Progress', key: 'progress', render: (_, job) => `${job.done} / ${job.total}` },
  { title: 'Results', key: 'counts', render: (_, job) => <ResultTags counts={job.counts} /> },
  { title: 'By', dataIndex: 'createdByEmail', key: 'createdByEmail', render: (email) => email ?? '-' },
  {
    title: 'Action',
    key: 'action',
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
      <Table<BatchJob>
        rowKey="id"
        size="small"
        columns={COLUMNS}
        dataSource={jobs.data?.jobs ?? []}
        loading={jobs.isFetching}
        locale={{ emptyText: EMPTY_TEXT }}
        scroll={{ x: 'max-content' }}
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
