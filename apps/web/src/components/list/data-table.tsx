import { LIST_PAGE_SIZE } from '@ev/shared';
import { Table, type TableProps } from 'antd';
import type { ColumnsType, SorterResult } from 'antd/es/table/interface';
import type { FilterSpec, ListState } from './use-list-state.ts';

export const EMPTY_TEXT = 'No Data yet!';
export const rangeText = (total: number, [from, to]: [number, number]) => `${from}-${to} of ${total}`;

interface DataTableProps<T, S extends FilterSpec> {
  state: ListState<S>;
  columns: ColumnsType<T>;
  items: T[];
  total: number;
  loading: boolean;
  rowKey: keyof T & string;
  expandable?: TableProps<T>['expandable'];
  /** 'middle' packs a wide list's columns closer. */
  size?: TableProps<T>['size'];
}

/**
 * The server-paged table: page and size from the URL, quick jumper, size changer, `from-to of total`.
 * A column with `sorter: true` sorts on the server by its `key`.
 */
export function DataTable<T extends object, S extends FilterSpec>({
  state,
  columns,
  items,
  total,
  loading,
  rowKey,
  expandable,
  size,
}: DataTableProps<T, S>) {
  const sortedColumns = columns.map((column) =>
    column.sorter && column.key !== undefined
      ? {
          ...column,
          sortOrder:
            column.key === state.sort
              ? state.order === 'asc'
                ? ('ascend' as const)
                : ('descend' as const)
              : null,
        }
      : column,
  );

  const onChange: TableProps<T>['onChange'] = (pagination, _filters, sorter, { action }) => {
    const single = (Array.isArray(sorter) ? sorter[0] : sorter) as SorterResult<T> | undefined;
    const order = single?.order === 'ascend' ? 'asc' : single?.order === 'descend' ? 'desc' : undefined;
    state.setPaging({
      // A new sort starts again from the first page.
      page: action === 'sort' ? 1 : (pagination.current ?? 1),
      size: pagination.pageSize ?? LIST_PAGE_SIZE,
      sort: order ? String(single?.columnKey) : undefined,
      order,
    });
  };

  return (
    <Table<T>
      rowKey={rowKey}
      columns={sortedColumns}
      dataSource={items}
      loading={loading}
      expandable={expandable}
      size={size}
      onChange={onChange}
      locale={{ emptyText: EMPTY_TEXT }}
      scroll={{ x: 'max-content' }}
      pagination={{
        current: state.page,
        pageSize: state.size,
        total,
        size: 'small',
        showQuickJumper: true,
        showSizeChanger: true,
        showTotal: rangeText,
      }}
    />
  );
}
