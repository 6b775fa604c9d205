import type { Page, PageSummary } from '@ev/shared';
import { useQueryClient } from '@tanstack/react-query';
import { Button, Tag } from 'antd';
import { useMemo, useState } from 'react';
import { fetchRecord } from '../../components/form/record.ts';
import { callbackActionColumn } from '../../components/list/columns.tsx';
import { TAG_CHROME } from '../../components/list/content-width.ts';
import { OneFilter, SearchFilter } from '../../components/list/filter-fields.tsx';
import type { ListColumns } from '../../components/list/fit-columns.ts';
import { ListPage } from '../../components/list/list-page.tsx';
import { formatThaiDate } from '../../lib/format.ts';
import type { LegalType } from '../../lib/legal.ts';
import { usePageDropdown } from '../../lib/reference.ts';
import { LegalPageModal } from './legal-page-modal.tsx';

const ENDPOINT = '/page';
const FILTERS = { id: 'one', active: 'one' } as const;

/** Published is the page's `active` flag (document 3, section 4). */
const STATUS_OPTIONS = [
  { value: '', label: 'Any Status' },
  { value: 'true', label: 'Published' },
  { value: 'false', label: 'Draft' },
];

const SCREENS: Record<LegalType, { title: string; newLabel: string }> = {
  terms: { title: 'Term&Condition', newLabel: 'New Term&Condition' },
  privacy: { title: 'Privacy Policy', newLabel: 'New Policy' },
};

function LegalFilters({ type }: { type: LegalType }) {
  const titles = usePageDropdown(type);
  const options = (titles.data ?? []).map((page) => ({
    value: String(page.id),
    label: `${page.titleEn} / ${page.titleTh}`,
  }));
  return (
    <>
      <SearchFilter
        label="Title (EN/TH)"
        name="id"
        placeholder="All titles"
        options={options}
        loading={titles.isLoading}
      />
      <OneFilter label="Status" name="active" options={STATUS_OPTIONS} />
    </>
  );
}

/** Title (EN) always shows; with less room the update date goes first, then Title (TH). */
function columnsFor(edit: (page: PageSummary) => void): ListColumns<PageSummary> {
  return [
    { title: 'Title (EN)', dataIndex: 'titleEn', key: 'titleEn', sorter: true },
    { title: 'Title (TH)', dataIndex: 'titleTh', key: 'titleTh', sorter: true, priority: 1 },
    {
      title: 'Update Date',
      dataIndex: 'updatedAt',
      key: 'updatedAt',
      sorter: true,
      kind: 'date',
      priority: 2,
      render: (updatedAt: string) => formatThaiDate(updatedAt),
    },
    {
      title: 'Status',
      dataIndex: 'active',
      key: 'active',
      sorter: true,
      fixed: 'right',
      kind: 'label',
      textOf: (page) => (page.active ? 'Published' : 'Draft'),
      chrome: TAG_CHROME,
      render: (active: boolean) =>
        active ? <Tag color="green">Published</Tag> : <Tag color="default">Draft</Tag>,
    },
    callbackActionColumn<PageSummary>(ENDPOINT, { onOpen: edit, nameOf: (page) => page.titleEn }),
  ];
}

/**
 * Term&Condition (/term-condition) and Privacy Policy (/privacy-policy): one list per type. New and Edit open
 * the modal; Edit first reads the page's details (the list rows carry none).
 */
export function LegalListPage({ type }: { type: LegalType }) {
  const queryClient = useQueryClient();
  const [editing, setEditing] = useState<Page | 'new' | null>(null);
  const screen = SCREENS[type];
  const columns = useMemo(
    () =>
      columnsFor((row) => {
        queryClient
          .fetchQuery({
            queryKey: ['page', 'detail', row.id],
            queryFn: () => fetchRecord<Page>(ENDPOINT, 'page', row.id),
            staleTime: 0,
          })
          .then(setEditing)
          // The query cache has told the user.
          .catch(() => undefined);
      }),
    [queryClient],
  );
  return (
    <>
      <ListPage<PageSummary, typeof FILTERS>
        title={screen.title}
        endpoint={ENDPOINT}
        baseQuery={`type=${type}`}
        itemsKey="pages"
        filterSpec={FILTERS}
        filters={<LegalFilters type={type} />}
        actions={
          <Button type="primary" onClick={() => setEditing('new')}>
            {screen.newLabel}
          </Button>
        }
        columns={columns}
        rowKey="id"
      />
      {editing && (
        <LegalPageModal
          type={type}
          page={editing === 'new' ? undefined : editing}
          onClose={() => setEditing(null)}
        />
      )}
    </>
  );
}

/** The two screens are two components, so going from one to the other starts afresh (filters, modal). */
export const TermsListPage = () => <LegalListPage type="terms" />;
export const PrivacyListPage = () => <LegalListPage type="privacy" />;
