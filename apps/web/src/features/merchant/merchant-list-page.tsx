import { MERCHANT_MESSAGES, type MerchantListItem } from '@ev/shared';
import { Button, Flex, Form, Typography } from 'antd';
import { useState } from 'react';
import { actionColumn, activeColumn, areaTypeColumn, NewButton } from '../../components/list/columns.tsx';
import {
  AREA_TYPE_OPTIONS,
  MultiFilter,
  OneFilter,
  STATUS_OPTIONS,
} from '../../components/list/filter-fields.tsx';
import type { ListColumns } from '../../components/list/fit-columns.ts';
import { ListPage } from '../../components/list/list-page.tsx';
import { ActiveSwitch, DeleteButton } from '../../components/list/row-actions.tsx';
import { useLandlordDropdown, useMerchantDropdown } from '../../lib/reference.ts';

const FILTERS = { merchantId: 'many', landlordId: 'many', internal: 'one', active: 'one' } as const;
const ENDPOINT = '/merchant';

function ClusterFilters() {
  const merchantIds: string[] = Form.useWatch('merchantId', Form.useFormInstance()) ?? [];
  const merchants = useMerchantDropdown();
  const landlords = useLandlordDropdown(merchantIds);
  return (
    <>
      <MultiFilter label="Cluster Name" name="merchantId" placeholder="All clusters" items={merchants.data} />
      <MultiFilter label="Site Name" name="landlordId" placeholder="All sites" items={landlords.data} />
      <OneFilter label="Area Type" name="internal" options={AREA_TYPE_OPTIONS} />
      <OneFilter label="Status" name="active" options={STATUS_OPTIONS} />
    </>
  );
}

function SiteRows({ cluster }: { cluster: MerchantListItem }) {
  return (
    <Flex vertical gap={8} style={{ paddingInlineStart: 24 }}>
      <Typography.Text strong>Site Name ({cluster.landlords.length})</Typography.Text>
      {cluster.landlords.map((site) => (
        <Flex key={site.id} gap={16} align="center" data-testid="site-row">
          <span style={{ minWidth: 320 }}>{site.nameEn}</span>
          <ActiveSwitch path={`/landlord/${site.id}`} name={site.nameEn} active={site.active} />
          {!site.active && <DeleteButton path={`/landlord/${site.id}`} name={site.nameEn} iconOnly />}
        </Flex>
      ))}
    </Flex>
  );
}

/** The cluster's name always shows; with less room the area type goes first, then the id. */
const COLUMNS: ListColumns<MerchantListItem> = [
  { title: 'Cluster ID', dataIndex: 'id', key: 'id', sorter: true, kind: 'id', priority: 1 },
  { title: 'Cluster Name', dataIndex: 'nameEn', key: 'nameEn', sorter: true },
  areaTypeColumn(2),
  activeColumn(ENDPOINT),
  actionColumn(ENDPOINT, { open: 'Edit' }),
];

export function MerchantListPage() {
  const [expanded, setExpanded] = useState<readonly number[]>([]);

  return (
    <ListPage<MerchantListItem, typeof FILTERS>
      title="Cluster"
      endpoint={ENDPOINT}
      itemsKey="merchants"
      filterSpec={FILTERS}
      filters={<ClusterFilters />}
      exportSpec={{ fileName: 'Merchant', notFoundMessage: MERCHANT_MESSAGES.notFound }}
      actions={<NewButton endpoint={ENDPOINT} label="New Cluster" />}
      columns={COLUMNS}
      rowKey="id"
      expandable={(items) => {
        const all = items.length > 0 && items.every((item) => expanded.includes(item.id));
        return {
          expandedRowKeys: expanded,
          onExpandedRowsChange: (keys) => setExpanded(keys as number[]),
          expandedRowRender: (row) => <SiteRows cluster={row} />,
          columnTitle: (
            <Button
              type="text"
              size="small"
              aria-label={all ? 'Collapse all' : 'Expand all'}
              onClick={() => setExpanded(all ? [] : items.map((item) => item.id))}
            >
              {all ? '−' : '+'}
            </Button>
          ),
        };
      }}
    />
  );
}
