import type { Promotion, PromotionType } from '@ev/shared';
import { Form, Tooltip } from 'antd';
import { useParams } from 'react-router';
import { actionColumn, activeColumn, NewButton } from '../../components/list/columns.tsx';
import { MultiFilter, OneFilter, STATUS_OPTIONS, TextFilter } from '../../components/list/filter-fields.tsx';
import type { ListColumns } from '../../components/list/fit-columns.ts';
import { ListPage } from '../../components/list/list-page.tsx';
import { NotFoundResult } from '../../components/not-found-result.tsx';
import { formatThaiDateTime } from '../../lib/format.ts';
import { useLandlordDropdown, useMerchantDropdown } from '../../lib/reference.ts';
import { areaTypeText, benefitText, PROMOTION_SCREENS, promotionType } from './promotion-format.ts';

const FILTERS = {
  code: 'one',
  merchantId: 'many',
  landlordId: 'many',
  internal: 'one',
  expose: 'one',
  active: 'one',
} as const;

const AREA_OPTIONS = [
  { value: '', label: 'Any' },
  { value: 'true', label: 'Selected landlords' },
  { value: 'false', label: 'Public' },
];
const HOMEPAGE_OPTIONS = [
  { value: '', label: 'Any' },
  { value: 'true', label: 'Shown' },
  { value: 'false', label: 'Not shown' },
];

function PromotionFilters({ type }: { type: PromotionType }) {
  const merchantIds: string[] = Form.useWatch('merchantId', Form.useFormInstance()) ?? [];
  const merchants = useMerchantDropdown();
  const landlords = useLandlordDropdown(merchantIds);
  return (
    <>
      <TextFilter label="Code" name="code" />
      <MultiFilter label="Cluster Name" name="merchantId" placeholder="All clusters" items={merchants.data} />
      <MultiFilter label="Site Name" name="landlordId" placeholder="All sites" items={landlords.data} />
      {/* A point code is always public and a private station code always for its sites. */}
      {type === 'discount' && <OneFilter label="Area type" name="internal" options={AREA_OPTIONS} />}
      {type !== 'landlord' && <OneFilter label="Homepage" name="expose" options={HOMEPAGE_OPTIONS} />}
      <OneFilter label="Status" name="active" options={STATUS_OPTIONS} />
    </>
  );
}

/** Names in a tooltip behind their count. */
function Names({ names, none }: { names: string[]; none: string }) {
  if (names.length === 0) return <span>{none}</span>;
  return (
    <Tooltip title={names.join(', ')}>
      <span style={{ cursor: 'help', textDecoration: 'underline dotted' }}>
        {names.length === 1 ? names[0] : `${names.length} sites`}
      </span>
    </Tooltip>
  );
}

/**
 * The code (which the promotion is known by) always shows, with the switch and the actions; with less room
 * the homepage goes first, then the codes left, the sites, the area type, the dates, the benefit and the name.
 */
function columnsFor(type: PromotionType, pages: string): ListColumns<Promotion> {
  const columns: ListColumns<Promotion> = [
    { title: 'Code', dataIndex: 'code', key: 'code', sorter: true, minWidth: 120, fixed: 'left' },
    { title: 'Name', dataIndex: 'nameEn', key: 'nameEn', sorter: true, minWidth: 140, priority: 1 },
    {
      title: type === 'point' ? 'Point' : type === 'discount' ? 'Discount' : 'Gives',
      key: 'benefit',
      width: 150,
      priority: 2,
      render: (_, promotion) => benefitText(promotion),
    },
  ];
  if (type === 'discount') {
    columns.push({
      title: 'Area type',
      dataIndex: 'internal',
      key: 'internal',
      width: 140,
      priority: 5,
      render: (internal: boolean) => areaTypeText(internal),
    });
  }
  if (type !== 'point') {
    columns.push({
      title: 'Site Name',
      dataIndex: 'landlordNameEns',
      key: 'landlordNameEns',
      minWidth: 110,
      priority: 6,
      render: (names: string[]) => <Names names={names} none="All sites" />,
    });
  }
  columns.push(
    {
      title: 'Start',
      dataIndex: 'validFrom',
      key: 'validFrom',
      sorter: true,
      width: 132,
      priority: 3,
      render: (at: string) => formatThaiDateTime(at),
    },
    {
      title: 'End',
      dataIndex: 'validTo',
      key: 'validTo',
      sorter: true,
      width: 132,
      priority: 4,
      render: (at: string) => formatThaiDateTime(at),
    },
    {
      title: 'Codes left',
      key: 'codeLeft',
      width: 100,
      priority: 7,
      align: 'right',
      render: (_, promotion) => `${promotion.codeLeft} / ${promotion.codeCount}`,
    },
  );
  if (type !== 'landlord') {
    columns.push({
      title: 'Homepage',
      dataIndex: 'expose',
      key: 'expose',
      width: 100,
      priority: 8,
      render: (expose: boolean) => (expose ? 'Shown' : 'Not shown'),
    });
  }
  columns.push(activeColumn('/promotion'), actionColumn('/promotion', { open: 'View', pages }));
  return columns;
}

/** /promotion/{type}: the promotions of one type (document 3, section 2). */
export function PromotionListPage() {
  const type = promotionType(useParams().type);
  if (!type) return <NotFoundResult />;
  // A new type is a new screen: its own filters, paging and column choice.
  return <PromotionList key={type} type={type} />;
}

function PromotionList({ type }: { type: PromotionType }) {
  const pages = `/promotion/${type}`;
  return (
    <ListPage<Promotion, typeof FILTERS>
      title={PROMOTION_SCREENS[type].list}
      endpoint="/promotion"
      baseQuery={`type=${type}`}
      itemsKey="promotions"
      filterSpec={FILTERS}
      filters={<PromotionFilters type={type} />}
      actions={<NewButton endpoint={pages} label={PROMOTION_SCREENS[type].newLabel} />}
      columns={columnsFor(type, pages)}
      rowKey="id"
    />
  );
}
