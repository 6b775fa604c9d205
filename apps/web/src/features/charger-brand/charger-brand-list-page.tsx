import { CHARGER_BRAND_MESSAGES, type ChargerBrand } from '@ev/shared';
import { actionColumn, activeColumn, NewButton } from '../../components/list/columns.tsx';
import { ANY, OneFilter, TextFilter } from '../../components/list/filter-fields.tsx';
import type { ListColumns } from '../../components/list/fit-columns.ts';
import { ListPage } from '../../components/list/list-page.tsx';
import { formatKw, POWER_TYPE_OPTIONS } from './charger-brand-fields.ts';

const ENDPOINT = '/charger-brand';
const FILTERS = { name: 'one', powerType: 'one' } as const;

function BrandFilters() {
  return (
    <>
      <TextFilter label="Name" name="name" />
      <OneFilter label="Power Type" name="powerType" options={[ANY, ...POWER_TYPE_OPTIONS]} />
    </>
  );
}

/** The brand's name always shows; with less room the id goes first, then the power. */
const COLUMNS: ListColumns<ChargerBrand> = [
  { title: 'ID', dataIndex: 'id', key: 'id', sorter: true, kind: 'id', priority: 2 },
  { title: 'Name', dataIndex: 'name', key: 'name', sorter: true },
  { title: 'Power Type', dataIndex: 'powerType', key: 'powerType', sorter: true, kind: 'label', priority: 1 },
  {
    title: 'Min Power (kW)',
    dataIndex: 'minPowerKw',
    key: 'minPowerKw',
    sorter: true,
    align: 'right',
    kind: 'number',
    priority: 1,
    render: (kw: number) => formatKw(kw),
  },
  activeColumn(ENDPOINT),
  actionColumn(ENDPOINT, { open: 'View' }),
];

export function ChargerBrandListPage() {
  return (
    <ListPage<ChargerBrand, typeof FILTERS>
      title="Charger Brand"
      endpoint={ENDPOINT}
      itemsKey="chargerBrands"
      filterSpec={FILTERS}
      filters={<BrandFilters />}
      exportSpec={{ fileName: 'Charger-Brand', notFoundMessage: CHARGER_BRAND_MESSAGES.notFound }}
      actions={<NewButton endpoint={ENDPOINT} label="New Charger Brand" />}
      columns={COLUMNS}
      rowKey="id"
    />
  );
}
