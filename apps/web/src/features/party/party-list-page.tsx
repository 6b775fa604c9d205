import type { Party } from '@ev/shared';
import { Button, Flex, Tooltip } from 'antd';
import type { ColumnsType } from 'antd/es/table/interface';
import { MultiFilter, OneFilter, STATUS_OPTIONS } from '../../components/list/filter-fields.tsx';
import { ListPage } from '../../components/list/list-page.tsx';
import { useOpenSetting } from '../../components/list/list-return.ts';
import { ActiveSwitch, DeleteButton } from '../../components/list/row-actions.tsx';
import { useLandlordDropdown } from '../../lib/reference.ts';

const FILTERS = { landlordId: 'many', active: 'one' } as const;
/** Document 3 names this filter's first option 'Any Status'. */
const GROUP_STATUS_OPTIONS = [{ value: '', label: 'Any Status' }, ...STATUS_OPTIONS.slice(1)];
const partyPath = (id: number | string) => `/party/${id}`;

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

export function PartyListPage() {
  const openSetting = useOpenSetting();
  const columns: ColumnsType<Party> = [
    { title: 'Name', dataIndex: 'nameEn', key: 'nameEn', sorter: true },
    {
      title: 'Site Name',
      dataIndex: 'landlordNameEns',
      key: 'landlordNameEns',
      render: (names: string[]) => <SiteCount names={names} />,
    },
    {
      title: 'Inactive/Active',
      dataIndex: 'active',
      key: 'active',
      sorter: true,
      render: (_, row) => <ActiveSwitch path={partyPath(row.id)} name={row.nameEn} active={row.active} />,
    },
    {
      title: 'Action',
      key: 'action',
      render: (_, row) => (
        <Flex gap={4}>
          <Button type="link" size="small" onClick={() => openSetting(partyPath(row.id))}>
            View
          </Button>
          {!row.active && <DeleteButton path={partyPath(row.id)} name={row.nameEn} />}
        </Flex>
      ),
    },
  ];

  return (
    <ListPage<Party, typeof FILTERS>
      title="Group"
      endpoint="/party"
      itemsKey="partys"
      filterSpec={FILTERS}
      filters={<GroupFilters />}
      actions={
        <Button type="primary" onClick={() => openSetting(partyPath('new'))}>
          New Group
        </Button>
      }
      columns={columns}
      rowKey="id"
    />
  );
}
