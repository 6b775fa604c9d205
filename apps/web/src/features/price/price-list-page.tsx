import {
  CALCULATE_METHOD_LABELS,
  type CalculateMethod,
  PRICE_MESSAGES,
  PRICE_METHOD_LABELS,
  type PriceListItem,
  type PriceMethod,
} from '@ev/shared';
import { actionColumn, activeColumn, NewButton } from '../../components/list/columns.tsx';
import { ANY, OneFilter, TextFilter } from '../../components/list/filter-fields.tsx';
import type { ListColumns } from '../../components/list/fit-columns.ts';
import { ListPage } from '../../components/list/list-page.tsx';
import { baht, CALCULATE_METHOD_OPTIONS, METHOD_OPTIONS } from './price-options.ts';

const ENDPOINT = '/price';
const FILTERS = { desc: 'one', method: 'one', calculateMethod: 'one' } as const;

function PriceFilters() {
  return (
    <>
      <TextFilter label="Description" name="desc" placeholder="Description (EN or TH)" />
      <OneFilter label="Method" name="method" options={[ANY, ...METHOD_OPTIONS]} />
      <OneFilter
        label="Calculate Method"
        name="calculateMethod"
        options={[ANY, ...CALCULATE_METHOD_OPTIONS]}
      />
    </>
  );
}

const amountColumn = (title: string, key: 'bahtPerHour' | 'bahtPerKwh') => ({
  title,
  dataIndex: key,
  key,
  sorter: true,
  align: 'right' as const,
  kind: 'money' as const,
  render: (amount: number) => baht(amount),
});

/** The description always shows; with less room the calculate method goes first, then the method, the id and the amounts. */
const COLUMNS: ListColumns<PriceListItem> = [
  { title: 'ID', dataIndex: 'id', key: 'id', sorter: true, kind: 'id', priority: 3 },
  { title: 'Description', dataIndex: 'descEn', key: 'descEn', sorter: true },
  {
    title: 'Method',
    dataIndex: 'method',
    key: 'method',
    sorter: true,
    kind: 'label',
    priority: 4,
    render: (method: PriceMethod) => PRICE_METHOD_LABELS[method],
  },
  {
    title: 'Calculate Method',
    dataIndex: 'calculateMethod',
    key: 'calculateMethod',
    sorter: true,
    kind: 'label',
    priority: 5,
    render: (method: CalculateMethod) => CALCULATE_METHOD_LABELS[method],
  },
  { ...amountColumn('Baht/hr', 'bahtPerHour'), priority: 1 },
  { ...amountColumn('Baht/kWh', 'bahtPerKwh'), priority: 2 },
  activeColumn(ENDPOINT),
  actionColumn(ENDPOINT, { open: 'View' }),
];

/** /price (document 2, section 2.6): admin and marketting. */
export function PriceListPage() {
  return (
    <ListPage<PriceListItem, typeof FILTERS>
      title="Price"
      endpoint={ENDPOINT}
      itemsKey="prices"
      filterSpec={FILTERS}
      filters={<PriceFilters />}
      exportSpec={{ fileName: 'Price', notFoundMessage: PRICE_MESSAGES.notFound }}
      actions={<NewButton endpoint={ENDPOINT} label="New Price" />}
      columns={COLUMNS}
      rowKey="id"
    />
  );
}
