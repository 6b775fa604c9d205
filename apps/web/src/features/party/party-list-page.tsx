import type { Party } from '@ev/shared';
import { Tooltip } from 'antd';
import { actionColumn, activeColumn, NewButton } from '../../components/list/columns.tsx';
import { MultiFilter, OneFilter, STATUS_OPTIONS } from '../../components/list/filter-fields.tsx';
import type { ListColumns } from '../../components/list/fit-columns.ts';
import { ListPage } from '../../components/list/list-page.tsx';
import { useLandlordDropdown } from '../../lib/reference.ts';

const ENDPOINT = '/party';
const FILTERS = { landlordId: 'many', active: 'one' } as const;
/** Document 3 names this filter's first option 'Any Status'. */
const GROUP_STATUS_OPTIONS = [{ value: '', label: 'Any Status' }, ...STATUS_OPTIONS.slice(1)];

function GroupFilters() {
  const landlords = useLandlordDropdown();
  return (
    <>
      <MultiFilter label="Site Name" name="landlordId" placeholder="All sites" items={landlords.data} />
      <OneFilter label="Status" name="active" options={GROUP_STATUS_OPTIONS} />
    </>
  );
}

/** 'n landlord(s)', the names in a tooltip. */
function SiteCount({ names }: { names: string[] }) {
  return (
    <Tooltip
      title={
        <ul style={{ margin: 0, paddingInlineStart: 16 }}>
          {names.map((name) => (
            <li key={name}>{name}</li>
          ))}
        </ul>
      }
    >
      <span style={{ cursor: 'help', textDecoration: 'underline dotted' }}>{names.length} landlord(s)</span>
    </Tooltip>
  );
}

/** The group's name always shows; with less room its sites' count goes. */
const COLUMNS: ListColumns<Party> = [
  { title: 'Name', dataIndex: 'nameEn', key: 'nameEn', sorter: true },
  {
    title: 'Site Name',
    dataIndex: 'landlordNameEns',
    key: 'landlordNameEns',
    kind: 'label',
    textOf: (party) => `${party.landlordNameEns.length} landlord(s)`,
    priority: 1,
    render: (names: string[]) => <SiteCount names={names} />,
  },
  activeColumn(ENDPOINT),
  actionColumn(ENDPOINT, { open: 'View' }),
];

export function PartyListPage() {
  return (
    <ListPage<Party, typeof FILTERS>
      title="Group"
      endpoint={ENDPOINT}
      itemsKey="partys"
      filterSpec={FILTERS}
      filters={<GroupFilters />}
      actions={<NewButton endpoint={ENDPOINT} label="New Group" />}
      columns={COLUMNS}
      rowKey="id"
    />
  );
}
