import type { Promotion, PromotionType } from '@ev/shared';
import { Form, Tooltip } from 'antd';
import { useParams } from 'react-router';
import { actionColumn, activeColumn, NewButton } from '../../components/list/columns.tsx';
import { MultiFilter, OneFilter, STATUS_OPTIONS, TextFilter } from '../../components/list/filter-fields.tsx';
import type { ListColumns } from '../../components/list/fit-columns.ts';
import { ListPage } from '../../components/list/list-page.tsx';
import { NotFoundResult } from '../../components/not-found-result.tsx';
import { areaTypeText, formatThaiDateTime } from '../../lib/format.ts';
import { useLandlordDropdown, useMerchantDropdown } from '../../lib/reference.ts';
import { benefitText, PROMOTION_SCREENS, promotionType } from './promotion-format.ts';

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

/** What the Site Name cell says: 'All sites', the one site, or how many. */
const namesText = (names: string[]) =>
  names.length === 0 ? 'All sites' : names.length === 1 ? names[0]! : `${names.length} sites`;

/** Names in a tooltip behind their count. */
function Names({ names }: { names: string[] }) {
  if (names.length === 0) return <span>{namesText(names)}</span>;
  return (
    <Tooltip title={names.join(', ')}>
      <span className="list-cell-text" style={{ cursor: 'help', textDecoration: 'underline dotted' }}>
        {namesText(names)}
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
    { title: 'Code', dataIndex: 'code', key: 'code', sorter: true, kind: 'code', fixed: 'left' },
    { title: 'Name', dataIndex: 'nameEn', key: 'nameEn', sorter: true, priority: 1 },
    {
      title: type === 'point' ? 'Point' : type === 'discount' ? 'Discount' : 'Gives',
      key: 'benefit',
      kind: 'label',
      priority: 2,
      render: (_, promotion) => benefitText(promotion),
    },
  ];
  if (type === 'discount') {
    columns.push({
      title: 'Area type',
      dataIndex: 'internal',
      key: 'internal',
      kind: 'label',
      priority: 5,
      render: (internal: boolean) => areaTypeText(internal),
    });
  }
  if (type !== 'point') {
    columns.push({
      title: 'Site Name',
      dataIndex: 'landlordNameEns',
      key: 'landlordNameEns',
      textOf: (promotion) => namesText(promotion.landlordNameEns),
      priority: 6,
      render: (names: string[]) => <Names names={names} />,
    });
  }
  columns.push(
    {
      title: 'Start',
      dataIndex: 'validFrom',
      key: 'validFrom',
      sorter: true,
      kind: 'date',
      priority: 3,
      render: (at: string) => formatThaiDateTime(at),
    },
    {
      title: 'End',
      dataIndex: 'validTo',
      key: 'validTo',
      sorter: true,
      kind: 'date',
      priority: 4,
      render: (at: string) => formatThaiDateTime(at),
    },
    {
      title: 'Codes left',
      key: 'codeLeft',
      kind: 'number',
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
      kind: 'label',
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
