import { LIST_PAGE_SIZE } from '@ev/shared';
import { Flex, Table, type TableProps, Tooltip } from 'antd';
import type { ColumnType, SorterResult } from 'antd/es/table/interface';
import { useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { ColumnsControl } from './columns-control.tsx';
import { canvasTextWidth, contentSizeOf, type TextWidth } from './content-width.ts';
import {
  type ColumnChoice,
  EXPAND_COLUMN_WIDTH,
  fitColumns,
  type ListColumn,
  type ListColumns,
} from './fit-columns.ts';
import './list.css';
import type { FilterSpec, ListState } from './use-list-state.ts';

export const EMPTY_TEXT = 'No Data yet!';
export const rangeText = (total: number, [from, to]: [number, number]) => `${from}-${to} of ${total}`;

/** One line of a cell's text: '…' where it does not fit, and then the whole text in a tooltip. */
export function CellText({ text }: { text: string }) {
  const ref = useRef<HTMLSpanElement>(null);
  const [open, setOpen] = useState(false);
  const cut = () => !!ref.current && ref.current.scrollWidth > ref.current.clientWidth;
  return (
    <Tooltip title={text} open={open} onOpenChange={(next) => setOpen(next && cut())}>
      <span ref={ref} className="list-cell-text">
        {text}
      </span>
    </Tooltip>
  );
}

/**
 * The antd column of a list column at the width it has in this table. The text a column renders (a string or
 * number) holds one line, cut with '…' and a tooltip; anything else is clipped at the column's edge
 * (list.css) rather than widen it or reach into the next one.
 */
function tableColumn<T>(column: ListColumn<T>): ColumnType<T> {
  const {
    priority: _priority,
    compactWidth: _compactWidth,
    kind,
    textOf: _textOf,
    chrome: _chrome,
    ...antd
  } = column;
  const render = antd.render;
  // What the column holds, on its header and cells: the browser tests check each kind's rule by it.
  const marked = { 'data-kind': kind ?? (typeof column.width === 'number' ? 'fixed' : 'text') };
  return {
    ...antd,
    onHeaderCell: () => marked as ReturnType<NonNullable<ColumnType<T>['onHeaderCell']>>,
    onCell: () => marked as ReturnType<NonNullable<ColumnType<T>['onCell']>>,
    render: (value: unknown, row: T, index: number) => {
      const shown = render ? render(value, row, index) : value;
      return typeof shown === 'string' || typeof shown === 'number' ? (
        <CellText text={String(shown)} />
      ) : (
        (shown as ReturnType<NonNullable<ColumnType<T>['render']>>)
      );
    },
  };
}

/** The width of an element, measured before the browser paints and again whenever it changes. */
function useWidth() {
  const ref = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState<number>();
  useLayoutEffect(() => {
    const element = ref.current;
    if (!element) return;
    setWidth(element.clientWidth);
    const observer = new ResizeObserver(() => setWidth(element.clientWidth));
    observer.observe(element);
    return () => observer.disconnect();
  }, []);
  return [ref, width] as const;
}

/**
 * A measure of texts in the table's font, taken from the table's element once it is in the page, and taken
 * again when a web font (Sarabun) has loaded: until then the browser draws, and the canvas measures, another.
 */
function useTextWidth(element: React.RefObject<HTMLElement | null>): TextWidth | undefined {
  const [fonts, setFonts] = useState(0);
  const [family, setFamily] = useState<string>();
  useLayoutEffect(() => {
    if (element.current) setFamily(getComputedStyle(element.current).fontFamily);
  }, [element]);
  useEffect(() => {
    const loaded = () => setFonts((count) => count + 1);
    document.fonts?.addEventListener('loadingdone', loaded);
    return () => document.fonts?.removeEventListener('loadingdone', loaded);
  }, []);
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new measure once fonts have loaded
  return useMemo(() => (family ? canvasTextWidth(family) : undefined), [family, fonts]);
}

export type FittedTableProps<T> = Omit<TableProps<T>, 'columns' | 'scroll' | 'tableLayout'> & {
  columns: ListColumns<T>;
  /** The user's choice of columns, and the Columns control above the table to make it. */
  columnChoice?: { choice: ColumnChoice; onChoice: (choice: ColumnChoice) => void };
};

/**
 * A table that fits its room: the columns that do not fit give way by priority (fit-columns.ts), unless the
 * user brought them back with the Columns control; the text columns share what the others leave and cut long
 * values with '…' and a tooltip, so a long value never pushes a column out of view. A table that needs more
 * than its room scrolls sideways, the row's id or name pinned left and its actions right where they cover
 * nothing for good. A phone gets small cells and rows that scroll the same way; its pager keeps the size
 * changer and quick jumper.
 */
export function FittedTable<T extends object>({
  columns,
  expandable,
  size,
  columnChoice,
  ...props
}: FittedTableProps<T>) {
  const [ref, room] = useWidth();
  const textWidth = useTextWidth(ref);
  const rows = props.dataSource;
  const sizeOf = useMemo(
    () =>
      textWidth &&
      contentSizeOf(rows ?? [], textWidth, (compact) => ({
        // Small and middle cells have 8 px sides, large ones 16; a sortable header's arrows take 16 px.
        padding: compact || size === 'small' || size === 'middle' ? 16 : 32,
        sorter: 16,
      })),
    [rows, textWidth, size],
  );
  const expandWidth = (compact: boolean) =>
    compact ? EXPAND_COLUMN_WIDTH.compactWidth : EXPAND_COLUMN_WIDTH.width;
  const fit = fitColumns(
    columns,
    room,
    (compact) => (expandable ? expandWidth(compact) : 0),
    columnChoice?.choice,
    sizeOf,
  );
  return (
    <div ref={ref} className="list-table">
      {columnChoice && (
        <Flex justify="end" className="list-columns-bar">
          <ColumnsControl columns={columns} fit={fit} {...columnChoice} />
        </Flex>
      )}
      <Table<T>
        {...props}
        size={fit.compact ? 'small' : size}
        columns={fit.columns.map(tableColumn)}
        expandable={expandable && { columnWidth: expandWidth(fit.compact), ...expandable }}
        tableLayout="fixed"
        scroll={{ x: fit.width }}
        // 'Click to sort …' on the sort arrows only: over the whole title it sat on the filter bar's buttons
        // (Search, Export, New …) for as long as the pointer rested on a header it had just sorted.
        showSorterTooltip={{ target: 'sorter-icon' }}
      />
    </div>
  );
}

interface DataTableProps<T, S extends FilterSpec> {
  state: ListState<S>;
  columns: ListColumns<T>;
  items: T[];
  total: number;
  loading: boolean;
  rowKey: keyof T & string;
  expandable?: TableProps<T>['expandable'];
  /** 'middle' packs a wide list's columns closer. */
  size?: TableProps<T>['size'];
  columnChoice?: FittedTableProps<T>['columnChoice'];
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
  columnChoice,
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
    <FittedTable<T>
      rowKey={rowKey}
      columns={sortedColumns}
      dataSource={items}
      loading={loading}
      expandable={expandable}
      size={size}
      columnChoice={columnChoice}
      onChange={onChange}
      locale={{ emptyText: EMPTY_TEXT }}
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
