import { type IdName, MERCHANT_MESSAGES, type MerchantListItem } from '@ev/shared';
import { Button, Flex, Form, Select, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table/interface';
import { useState } from 'react';
import { ListPage } from '../../components/list/list-page.tsx';
import { useOpenSetting } from '../../components/list/list-return.ts';
import { ActiveSwitch, DeleteButton } from '../../components/list/row-actions.tsx';
import { merchantPath, useLandlordDropdown, useMerchantDropdown } from './api.ts';

const FILTERS = { merchantId: 'many', landlordId: 'many', internal: 'one', active: 'one' } as const;

const AREA_TYPES = [
  { value: '', label: 'Any' },
  { value: 'true', label: 'Internal Used' },
  { value: 'false', label: 'Public Used' },
];
const STATUSES = [
  { value: '', label: 'Any' },
  { value: 'true', label: 'Active' },
  { value: 'false', label: 'Inactive' },
];

const options = (items: IdName[] | undefined) =>
  (items ?? []).map((item) => ({ value: String(item.id), label: item.nameEn }));
const FIELD = { style: { minWidth: 220, flex: '1 1 220px', marginBottom: 0 } };

function ClusterFilters() {
  const form = Form.useFormInstance();
  const merchantIds: string[] = Form.useWatch('merchantId', form) ?? [];
  const merchants = useMerchantDropdown();
  const landlords = useLandlordDropdown(merchantIds);
  const multi = {
    mode: 'multiple',
    allowClear: true,
    optionFilterProp: 'label',
    maxTagCount: 'responsive',
  } as const;
  return (
    <>
      <Form.Item label="Cluster Name" name="merchantId" {...FIELD}>
        <Select {...multi} placeholder="All clusters" options={options(merchants.data)} />
      </Form.Item>
      <Form.Item label="Site Name" name="landlordId" {...FIELD}>
        <Select {...multi} placeholder="All sites" options={options(landlords.data)} />
      </Form.Item>
      <Form.Item label="Area Type" name="internal" {...FIELD}>
        <Select options={AREA_TYPES} />
      </Form.Item>
      <Form.Item label="Status" name="active" {...FIELD}>
        <Select options={STATUSES} />
      </Form.Item>
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

export function MerchantListPage() {
  const openSetting = useOpenSetting();
  const [expanded, setExpanded] = useState<readonly number[]>([]);

  const columns: ColumnsType<MerchantListItem> = [
    { title: 'Cluster ID', dataIndex: 'id', key: 'id', sorter: true, width: 120 },
    { title: 'Cluster Name', dataIndex: 'nameEn', key: 'nameEn', sorter: true },
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
      render: (_, row) => <ActiveSwitch path={merchantPath(row.id)} name={row.nameEn} active={row.active} />,
    },
    {
      title: 'Action',
      key: 'action',
      render: (_, row) => (
        <Flex gap={4}>
          <Button type="link" size="small" onClick={() => openSetting(merchantPath(row.id))}>
            Edit
          </Button>
          {!row.active && <DeleteButton path={merchantPath(row.id)} name={row.nameEn} />}
        </Flex>
      ),
    },
  ];

  return (
    <ListPage<MerchantListItem, typeof FILTERS>
      title="Cluster"
      endpoint="/merchant"
      itemsKey="merchants"
      filterSpec={FILTERS}
      filters={<ClusterFilters />}
      exportSpec={{ fileName: 'Merchant', notFoundMessage: MERCHANT_MESSAGES.notFound }}
      actions={
        <Button type="primary" onClick={() => openSetting(merchantPath('new'))}>
          New Cluster
        </Button>
      }
      columns={columns}
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
