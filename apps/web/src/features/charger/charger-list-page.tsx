import { allowed, CHARGER_MESSAGES, type Charger, can, protocolText } from '@ev/shared';
import { Form } from 'antd';
import { useState } from 'react';
import { actionColumn, activeColumn, NewButton } from '../../components/list/columns.tsx';
import { TAG_CHROME } from '../../components/list/content-width.ts';
import { MultiFilter, TextFilter } from '../../components/list/filter-fields.tsx';
import type { ListColumns } from '../../components/list/fit-columns.ts';
import { ListPage } from '../../components/list/list-page.tsx';
import { formatThaiDateTime } from '../../lib/format.ts';
import { useLandlordDropdown, useMerchantDropdown } from '../../lib/reference.ts';
import { useRole } from '../../lib/session.ts';
import { useBrandDropdown } from './api.ts';
import { BatchButtons } from './batch/batch-buttons.tsx';
import { brandLabel } from './charger-format.ts';
import { ConnectorRows } from './connector-rows.tsx';
import { OnlineTag } from './status-tag.tsx';

const ENDPOINT = '/charger';
const FILTERS = {
  merchantId: 'many',
  landlordId: 'many',
  id: 'one',
  name: 'one',
  chargerBrandId: 'many',
  connectorId: 'one',
  connectorName: 'one',
} as const;
/** Statuses change as chargers report them: the shown page is reloaded this often while visible. */
const LIVE_REFRESH_MS = 5000;

function ChargerFilters({ role }: { role: string | null }) {
  const merchantIds: string[] = Form.useWatch('merchantId', Form.useFormInstance()) ?? [];
  const merchants = useMerchantDropdown();
  const landlords = useLandlordDropdown(merchantIds);
  const brands = useBrandDropdown();
  const brandItems = brands.data?.map((brand) => ({ id: brand.id, nameEn: brandLabel(brand) }));
  return (
    <>
      {allowed(role, 'chargerClusterColumn') && (
        <MultiFilter
          label="Cluster Name"
          name="merchantId"
          placeholder="All clusters"
          items={merchants.data}
        />
      )}
      {allowed(role, 'chargerSiteColumn') && (
        <MultiFilter label="Site Name" name="landlordId" placeholder="All sites" items={landlords.data} />
      )}
      <TextFilter label="Charger Id" name="id" />
      <TextFilter label="Charger Name" name="name" />
      <MultiFilter
        label="Charger Brand"
        name="chargerBrandId"
        placeholder="All brands"
        items={brandItems}
        loading={brands.isLoading}
        selectAll
      />
      <TextFilter label="Connector Id" name="connectorId" digits />
      <TextFilter label="Connector Name" name="connectorName" />
    </>
  );
}

/**
 * The columns a role sees (document 2, section 6): cluster for admin and callcenter, site for most. One
 * line a charger, long names cut with '…'. The charger's name always shows; with less room the protocol goes
 * first, then the cluster, the last seen time, the brand, the site, the online tag and the charger's id.
 */
function columnsFor(role: string | null): ListColumns<Charger> {
  return [
    ...(allowed(role, 'chargerClusterColumn')
      ? [
          {
            title: 'Cluster Name',
            dataIndex: 'merchantNameEn',
            key: 'merchantNameEn',
            sorter: true,
            priority: 6,
          },
        ]
      : []),
    ...(allowed(role, 'chargerSiteColumn')
      ? [
          {
            title: 'Site Name',
            dataIndex: 'landlordNameEn',
            key: 'landlordNameEn',
            sorter: true,
            priority: 3,
          },
        ]
      : []),
    { title: 'Charger Id', dataIndex: 'id', key: 'id', sorter: true, kind: 'code', priority: 1 },
    { title: 'Charger Name', dataIndex: 'nameEn', key: 'nameEn', sorter: true },
    {
      title: 'Charger Brand',
      dataIndex: 'chargerBrandName',
      key: 'chargerBrandName',
      sorter: true,
      priority: 4,
      render: (name: string, row) => brandLabel({ name, minPowerKw: row.minPowerKw }),
    },
    {
      title: 'Online',
      dataIndex: 'online',
      key: 'online',
      kind: 'label',
      textOf: (charger) => (charger.online ? 'Online' : 'Offline'),
      chrome: TAG_CHROME,
      priority: 2,
      render: (online: boolean) => <OnlineTag online={online} />,
    },
    {
      // The protocol of its last connection (issue 33): a mixed fleet's chargers speak 1.6J or 2.0.1.
      title: 'Protocol',
      dataIndex: 'protocol',
      key: 'protocol',
      kind: 'label',
      textOf: (charger) => protocolText(charger.protocol),
      priority: 7,
      render: (protocol: string | null) => protocolText(protocol),
    },
    {
      title: 'Last Seen',
      dataIndex: 'lastSeenAt',
      key: 'lastSeenAt',
      kind: 'date',
      priority: 5,
      render: (at: string | null) => formatThaiDateTime(at),
    },
    activeColumn(ENDPOINT, !can(role, 'charger.write')),
    actionColumn(ENDPOINT, { open: 'View', canDelete: can(role, 'charger.write') }),
  ];
}

export function ChargerListPage() {
  const role = useRole();
  // Expanded rows stay open while the page reloads its statuses.
  const [expanded, setExpanded] = useState<readonly string[]>([]);
  return (
    <ListPage<Charger, typeof FILTERS>
      title="Charger"
      endpoint={ENDPOINT}
      itemsKey="chargers"
      filterSpec={FILTERS}
      filters={<ChargerFilters role={role} />}
      exportSpec={{ fileName: 'Charger', notFoundMessage: CHARGER_MESSAGES.notFound }}
      actions={
        <>
          {allowed(role, 'chargerBatchButtons') && <BatchButtons />}
          {can(role, 'charger.write') && <NewButton endpoint={ENDPOINT} label="New Charger" />}
        </>
      }
      columns={columnsFor(role)}
      rowKey="id"
      size="small"
      refetchInterval={LIVE_REFRESH_MS}
      expandable={() => ({
        expandedRowKeys: expanded,
        onExpandedRowsChange: (keys) => setExpanded(keys as string[]),
        expandedRowRender: (row) => <ConnectorRows charger={row} />,
      })}
    />
  );
}
