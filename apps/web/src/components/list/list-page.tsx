import type { TableProps } from 'antd';
import { Button, Card, Flex, Form, Typography } from 'antd';
import { type ReactNode, useEffect, useRef } from 'react';
import { useColumnChoice } from './column-choice.ts';
import { DataTable } from './data-table.tsx';
import { ExportButton, type ExportSpec } from './export-button.tsx';
import type { ListColumns } from './fit-columns.ts';
import { type ListRefetch, useListQuery } from './use-list-query.ts';
import {
  type FilterSpec,
  type FilterValues,
  filterQueryOf,
  type ListState,
  useListState,
} from './use-list-state.ts';

export interface ListPageProps<T, S extends FilterSpec> {
  title: string;
  /** The list call, e.g. '/merchant': `GET /api{endpoint}?page&size&sort&order&{filters}`. */
  endpoint: string;
  /** The answer's array: `{ total, [itemsKey] }`. */
  itemsKey: string;
  /** Query parameters every list and export call carries, e.g. 'admin=false' (two screens, one endpoint). */
  baseQuery?: string;
  /** The filters' names and kinds; the `filters` fields use the same names. */
  filterSpec: S;
  /**
   * Filters that apply while the URL names none of them (the booking list's today, useTodayByDefault): the
   * fields show them from the first render, and the URL's taking them on overwrites nothing typed meanwhile.
   */
  defaultFilters?: FilterValues<S>;
  /** The filter fields (Form.Items named after `filterSpec`). */
  filters: ReactNode;
  /** Buttons after Search, Clear Data and Export (New ...). */
  actions?: ReactNode;
  exportSpec?: ExportSpec;
  /** The columns, with their widths and priorities (fit-columns.ts). */
  columns: ListColumns<T>;
  rowKey: keyof T & string;
  /** Row expansion, given the shown rows (for an expand-all toggle). */
  expandable?: (items: T[]) => TableProps<T>['expandable'];
  /** The table's density: 'middle' (the default), 'small' for a list with many columns. */
  size?: TableProps<T>['size'];
  /**
   * Reload the shown page every so many ms while the page is visible (live values such as statuses), or as
   * a function of the page last loaded (false: no reload).
   */
  refetchInterval?: ListRefetch<T>;
}

/** The fixed part of the query first, then the screen's own. */
const withBase = (base: string | undefined, query: string) =>
  base ? (query ? `${base}&${query}` : base) : query;

/** Every filter present: '' for a single filter ('Any'), [] for a multi-select. */
function formValues<S extends FilterSpec>(spec: S, filters: FilterValues<S>) {
  return Object.fromEntries(
    Object.entries(spec).map(([name, kind]) => [name, filters[name] ?? (kind === 'many' ? [] : '')]),
  );
}

/** The defaults, while the URL names none of their filters: then they apply. */
function pendingDefaults<S extends FilterSpec>(state: ListState<S>, defaults: FilterValues<S> | undefined) {
  const keys = Object.keys(defaults ?? {});
  return keys.length > 0 && keys.every((key) => state.filters[key] === undefined) ? defaults : undefined;
}

/** The filter bar: the fields, Search, Clear Data (reset and search again), Export, and the page's buttons. */
function FilterBar<S extends FilterSpec>({
  state,
  spec,
  defaults,
  endpoint,
  baseQuery,
  exportSpec,
  actions,
  children,
}: {
  state: ListState<S>;
  spec: S;
  defaults?: FilterValues<S>;
  endpoint: string;
  baseQuery?: string;
  exportSpec?: ExportSpec;
  actions?: ReactNode;
  children: ReactNode;
}) {
  const [form] = Form.useForm();
  // The filter query the bar's own search leads to: its fields already show it, and may have been edited
  // again since (typing right after Clear Data), so that URL change must not overwrite them.
  const ownSearch = useRef<string | null>(null);
  // The filter query the URL is about to take on with the defaults: the fields show them already.
  const awaitedDefaults = useRef<string | null>(null);
  const pending = pendingDefaults(state, defaults);
  const shown = pending ? { ...state.filters, ...pending } : state.filters;
  const search = (filters: FilterValues<S>) => {
    ownSearch.current = filterQueryOf(spec, filters);
    state.search(filters);
  };
  // Back/forward and the return from a setting page change the URL: the fields follow it.
  // biome-ignore lint/correctness/useExhaustiveDependencies: the filter query stands for the filters
  useEffect(() => {
    const own = ownSearch.current === state.filterQuery || awaitedDefaults.current === state.filterQuery;
    ownSearch.current = null;
    awaitedDefaults.current = pending ? filterQueryOf(spec, shown) : null;
    if (!own) form.setFieldsValue(formValues(spec, shown));
  }, [form, spec, state.filterQuery]);
  const clear = () => {
    form.setFieldsValue(formValues(spec, defaults ?? {}));
    search({});
  };
  return (
    <Form
      form={form}
      layout="vertical"
      initialValues={formValues(spec, shown)}
      onFinish={(values: FilterValues<S>) => search(values)}
      className="list-filter-bar"
    >
      <div className="list-filter-fields">{children}</div>
      <Flex gap={8} wrap justify="end">
        <Button type="primary" htmlType="submit">
          Search
        </Button>
        <Button onClick={clear}>Clear Data</Button>
        {exportSpec && (
          <ExportButton
            endpoint={endpoint}
            filterQuery={withBase(baseQuery, state.filterQuery)}
            spec={exportSpec}
          />
        )}
        {actions}
      </Flex>
    </Form>
  );
}

/** A list screen: a declaration of filters and columns over a server-paged table whose state is in the URL. */
export function ListPage<T extends object, S extends FilterSpec>(props: ListPageProps<T, S>) {
  const state = useListState(props.filterSpec);
  // Remembered per user and screen: the title names the screen (two screens may share an endpoint).
  const [columnChoice, setColumnChoice] = useColumnChoice(props.title);
  const list = useListQuery<T>(
    props.endpoint,
    props.itemsKey,
    withBase(props.baseQuery, state.listQuery),
    props.refetchInterval,
  );
  const items = list.data?.items ?? [];
  const total = list.data?.total ?? 0;

  // Deleting the last row of the last page leaves the page empty: step back to the new last page.
  useEffect(() => {
    if (!list.isPlaceholderData && items.length === 0 && total > 0 && state.page > 1) {
      state.setPaging({ ...state, page: Math.ceil(total / state.size) });
    }
  }, [items.length, total, state, list.isPlaceholderData]);

  return (
    <Card
      title={
        <Typography.Title level={4} style={{ margin: 0 }}>
          {props.title}
        </Typography.Title>
      }
    >
      <Flex vertical gap={16}>
        <FilterBar
          state={state}
          spec={props.filterSpec}
          defaults={props.defaultFilters}
          endpoint={props.endpoint}
          baseQuery={props.baseQuery}
          exportSpec={props.exportSpec}
          actions={props.actions}
        >
          {props.filters}
        </FilterBar>
        <DataTable<T, S>
          state={state}
          columns={props.columns}
          items={items}
          total={total}
          // A polled list spins only for what the user asked (another page, filter or sort), not each poll.
          loading={props.refetchInterval ? list.isPending || list.isPlaceholderData : list.isFetching}
          rowKey={props.rowKey}
          expandable={props.expandable?.(items)}
          size={props.size ?? 'middle'}
          columnChoice={{ choice: columnChoice, onChoice: setColumnChoice }}
        />
      </Flex>
    </Card>
  );
}
