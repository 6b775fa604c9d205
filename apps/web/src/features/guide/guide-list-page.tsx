import type { PageSummary } from '@ev/shared';
import { useMemo } from 'react';
import { activeColumn, callbackActionColumn, NewButton } from '../../components/list/columns.tsx';
import { SearchFilter } from '../../components/list/filter-fields.tsx';
import type { ListColumns } from '../../components/list/fit-columns.ts';
import { ListPage } from '../../components/list/list-page.tsx';
import { useOpenSetting } from '../../components/list/list-return.ts';
import { usePageDropdown } from '../../lib/reference.ts';

/** The API of every content page; the tutorials are its type guide. */
const API_ENDPOINT = '/page';
const LIST_PATH = '/guide';
const FILTERS = { id: 'one' } as const;

function GuideFilters() {
  const titles = usePageDropdown('guide');
  const options = (titles.data ?? []).map((page) => ({
    value: String(page.id),
    label: page.titleEn,
    search: `${page.titleEn} ${page.titleTh}`,
  }));
  return (
    <SearchFilter
      label="Tutorial Title"
      name="id"
      placeholder="All tutorials"
      options={options}
      loading={titles.isLoading}
    />
  );
}

/** Title (EN) always shows; with less room Title (TH) goes. */
function columnsFor(edit: (page: PageSummary) => void): ListColumns<PageSummary> {
  return [
    { title: 'Title (EN)', dataIndex: 'titleEn', key: 'titleEn', sorter: true },
    { title: 'Title (TH)', dataIndex: 'titleTh', key: 'titleTh', sorter: true, priority: 1 },
    activeColumn<PageSummary>(API_ENDPOINT),
    callbackActionColumn<PageSummary>(API_ENDPOINT, { onOpen: edit, nameOf: (page) => page.titleEn }),
  ];
}

/** Tutorials (/guide): Edit and New Tutorial open the tutorial form with the list's state. */
export function GuideListPage() {
  const openSetting = useOpenSetting();
  const columns = useMemo(() => columnsFor((page) => openSetting(`${LIST_PATH}/${page.id}`)), [openSetting]);
  return (
    <ListPage<PageSummary, typeof FILTERS>
      title="Tutorials"
      endpoint={API_ENDPOINT}
      baseQuery="type=guide"
      itemsKey="pages"
      filterSpec={FILTERS}
      filters={<GuideFilters />}
      actions={<NewButton endpoint={LIST_PATH} label="New Tutorial" />}
      columns={columns}
      rowKey="id"
    />
  );
}
