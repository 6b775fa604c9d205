import {
  allowed,
  BUSINESS_HOURS_TYPE_LABELS,
  BUSINESS_HOURS_TYPES,
  type BusinessHoursType,
  can,
  LANDLORD_MESSAGES,
  type LandlordListItem,
} from '@ev/shared';
import { Form } from 'antd';
import { actionColumn, activeColumn, areaTypeColumn, NewButton } from '../../components/list/columns.tsx';
import {
  ANY,
  AREA_TYPE_OPTIONS,
  MultiFilter,
  OneFilter,
  STATUS_OPTIONS,
} from '../../components/list/filter-fields.tsx';
import type { ListColumns } from '../../components/list/fit-columns.ts';
import { ListPage } from '../../components/list/list-page.tsx';
import { useLandlordDropdown, useMerchantDropdown } from '../../lib/reference.ts';
import { useRole } from '../../lib/session.ts';

const ENDPOINT = '/landlord';
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

/**
 * The columns a role sees (document 1, section 6): the cluster's only for admin and callcenter. The site's
 * name always shows; with less room the address goes first, then the cluster's id, the business hour, the
 * area type, the cluster's name and the site's id.
 */
function columnsFor(role: string | null): ListColumns<LandlordListItem> {
  const cluster: ListColumns<LandlordListItem> = [
    {
      title: 'Cluster ID',
      dataIndex: 'merchantId',
      key: 'merchantId',
      sorter: true,
      kind: 'id',
      priority: 5,
    },
    {
      title: 'Cluster Name',
      dataIndex: 'merchantNameEn',
      key: 'merchantNameEn',
      sorter: true,
      priority: 2,
    },
  ];
  return [
    ...(allowed(role, 'siteClusterField') ? cluster : []),
    { title: 'Site ID', dataIndex: 'id', key: 'id', sorter: true, kind: 'id', priority: 1 },
    { title: 'Site Name', dataIndex: 'nameEn', key: 'nameEn', sorter: true },
    {
      title: 'Address',
      dataIndex: 'addrEn',
      key: 'addrEn',
      priority: 6,
      render: (address: string | null) => address ?? '-',
    },
    {
      title: 'Business hour',
      dataIndex: 'businessHoursType',
      key: 'businessHoursType',
      sorter: true,
      kind: 'label',
      priority: 4,
      render: (type: BusinessHoursType) => BUSINESS_HOURS_TYPE_LABELS[type],
    },
    areaTypeColumn(3),
    activeColumn(ENDPOINT, !can(role, 'landlord.update')),
    actionColumn(ENDPOINT, { open: 'View', canDelete: allowed(role, 'siteNewAndDelete') }),
  ];
}

export function LandlordListPage() {
  const role = useRole();
  return (
    <ListPage<LandlordListItem, typeof FILTERS>
      title="Site"
      endpoint={ENDPOINT}
      itemsKey="landlords"
      filterSpec={FILTERS}
      filters={<SiteFilters clusterFilter={allowed(role, 'siteClusterField')} />}
      exportSpec={{ fileName: 'Landlord', notFoundMessage: LANDLORD_MESSAGES.notFound }}
      actions={allowed(role, 'siteNewAndDelete') && <NewButton endpoint={ENDPOINT} label="New Site" />}
      columns={columnsFor(role)}
      rowKey="id"
    />
  );
}
