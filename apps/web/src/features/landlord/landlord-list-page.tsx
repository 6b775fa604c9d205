import {
  allowed,
  BUSINESS_HOURS_TYPE_LABELS,
  BUSINESS_HOURS_TYPES,
  type BusinessHoursType,
  can,
  LANDLORD_MESSAGES,
  type LandlordListItem,
} from '@ev/shared';
import { Button, Flex, Form } from 'antd';
import type { ColumnsType } from 'antd/es/table/interface';
import {
  ANY,
  AREA_TYPE_OPTIONS,
  MultiFilter,
  OneFilter,
  STATUS_OPTIONS,
} from '../../components/list/filter-fields.tsx';
import { ListPage } from '../../components/list/list-page.tsx';
import { useOpenSetting } from '../../components/list/list-return.ts';
import { ActiveSwitch, DeleteButton } from '../../components/list/row-actions.tsx';
import { useLandlordDropdown, useMerchantDropdown } from '../../lib/reference.ts';
import { useRole } from '../../lib/session.ts';

const FILTERS = {
  merchantId: 'many',
  landlordId: 'many',
  businessHoursType: 'one',
  internal: 'one',
  active: 'one',
} as const;
const HOURS_OPTIONS = [
  ANY,
  ...BUSINESS_HOURS_TYPES.map((value) => ({ value, label: BUSINESS_HOURS_TYPE_LABELS[value] })),
];
const landlordPath = (id: number | string) => `/landlord/${id}`;

function SiteFilters({ clusterFilter }: { clusterFilter: boolean }) {
  const merchantIds: string[] = Form.useWatch('merchantId', Form.useFormInstance()) ?? [];
  const merchants = useMerchantDropdown();
  const landlords = useLandlordDropdown(merchantIds);
  return (
    <>
      {clusterFilter && (
        <MultiFilter
          label="Cluster Name"
          name="merchantId"
          placeholder="All clusters"
          items={merchants.data}
        />
      )}
      <MultiFilter label="Site Name" name="landlordId" placeholder="All sites" items={landlords.data} />
      <OneFilter label="Business Hour" name="businessHoursType" options={HOURS_OPTIONS} />
      <OneFilter label="Area Type" name="internal" options={AREA_TYPE_OPTIONS} />
      <OneFilter label="Status" name="active" options={STATUS_OPTIONS} />
    </>
  );
}

export function LandlordListPage() {
  const role = useRole();
  const openSetting = useOpenSetting();
  const clusterColumns = allowed(role, 'siteClusterField');
  const newAndDelete = allowed(role, 'siteNewAndDelete');
  const canSwitch = can(role, 'landlord.update');

  const columns: ColumnsType<LandlordListItem> = [
    ...(clusterColumns
      ? ([
          { title: 'Cluster ID', dataIndex: 'merchantId', key: 'merchantId', sorter: true, width: 110 },
          { title: 'Cluster Name', dataIndex: 'merchantNameEn', key: 'merchantNameEn', sorter: true },
        ] satisfies ColumnsType<LandlordListItem>)
      : []),
    { title: 'Site ID', dataIndex: 'id', key: 'id', sorter: true, width: 90 },
    { title: 'Site Name', dataIndex: 'nameEn', key: 'nameEn', sorter: true },
    {
      title: 'Address',
      dataIndex: 'addrEn',
      key: 'addrEn',
      width: 280,
      ellipsis: true,
      render: (addr) => addr ?? '-',
    },
    {
      title: 'Business hour',
      dataIndex: 'businessHoursType',
      key: 'businessHoursType',
      sorter: true,
      render: (type: BusinessHoursType) => BUSINESS_HOURS_TYPE_LABELS[type],
    },
    {
      title: 'Area type',
      dataIndex: 'internal',
      key: 'internal',
      sorter: true,
      render: (internal: boolean) => (internal ? 'Internal Used' : 'Public Used'),
    },
    {
      title: 'Inactive/Active',
      dataIndex: 'active',
      key: 'active',
      sorter: true,
      render: (_, row) => (
        <ActiveSwitch
          path={landlordPath(row.id)}
          name={row.nameEn}
          active={row.active}
          disabled={!canSwitch}
        />
      ),
    },
    {
      title: 'Action',
      key: 'action',
      render: (_, row) => (
        <Flex gap={4}>
          <Button type="link" size="small" onClick={() => openSetting(landlordPath(row.id))}>
            View
          </Button>
          {newAndDelete && !row.active && <DeleteButton path={landlordPath(row.id)} name={row.nameEn} />}
        </Flex>
      ),
    },
  ];

  return (
    <ListPage<LandlordListItem, typeof FILTERS>
      title="Site"
      endpoint="/landlord"
      itemsKey="landlords"
      filterSpec={FILTERS}
      filters={<SiteFilters clusterFilter={clusterColumns} />}
      exportSpec={{ fileName: 'Landlord', notFoundMessage: LANDLORD_MESSAGES.notFound }}
      actions={
        newAndDelete && (
          <Button type="primary" onClick={() => openSetting(landlordPath('new'))}>
            New Site
          </Button>
        )
      }
      columns={columns}
      rowKey="id"
    />
  );
}
