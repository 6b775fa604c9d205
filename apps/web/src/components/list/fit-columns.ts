import type { ColumnType } from 'antd/es/table/interface';

/**
 * A list's column: antd's, plus what the list kit fits a table to its room with (FittedTable).
 * - With a `width`, a column of known size (ids, tags, dates, the switch, the actions). Without one, a text
 *   column: the text columns share the room the others leave in proportion to their `minWidth`
 *   (TEXT_MIN_WIDTH when not given), each at least that wide; in a compact table at least TEXT_MIN_WIDTH.
 * - `priority`: the column may give way when the table has too little room, the highest number first.
 *   A column without one always shows: the name that identifies the row, the switch and the actions.
 * - `compactWidth`: the width of a column of known size in a compact table (a phone).
 */
export type ListColumn<T> = ColumnType<T> & { priority?: number; compactWidth?: number };
export type ListColumns<T> = ListColumn<T>[];

/** The least width of a text column: a dozen characters before the '…'. */
export const TEXT_MIN_WIDTH = 100;
/** A table with less room than this (a phone) is compact: small cells and the columns' compact widths. */
export const COMPACT_BELOW = 480;
/** The width of the expand (+) column of a list whose rows open, and in a compact table. */
export const EXPAND_COLUMN_WIDTH = { width: 44, compactWidth: 34 };

const isText = <T>(column: ListColumn<T>) => typeof column.width !== 'number';

/** The width a column takes at least. */
export function columnWidth<T>(column: ListColumn<T>, compact: boolean): number {
  if (!isText(column)) return (compact && column.compactWidth) || (column.width as number);
  return compact ? TEXT_MIN_WIDTH : (column.minWidth ?? TEXT_MIN_WIDTH);
}

export interface Fit<T> {
  /** The columns shown, in their order, each with its width in px. */
  columns: Array<ListColumn<T> & { width: number }>;
  /** The width the shown columns need (`scroll.x`): the table is as wide as its room, or this if wider. */
  width: number;
  compact: boolean;
}

/**
 * The columns that fit in `room` px (undefined: not measured yet, all of them). While they need more, the
 * column of the highest priority number gives way (of two alike, the one further right); a column without a
 * priority never does, so a table narrower still scrolls sideways rather than lose its name.
 * `extra`: the width of columns outside `columns` (the expand column), compact or not.
 */
export function fitColumns<T>(
  columns: ListColumns<T>,
  room: number | undefined,
  extra: (compact: boolean) => number = () => 0,
): Fit<T> {
  const compact = room !== undefined && room < COMPACT_BELOW;
  const shown = [...columns];
  const need = () => shown.reduce((sum, column) => sum + columnWidth(column, compact), extra(compact));
  if (room !== undefined) {
    const givingWay = columns
      .map((column, index) => ({ column, index, priority: column.priority }))
      .filter((entry): entry is typeof entry & { priority: number } => entry.priority !== undefined)
      .sort((a, b) => b.priority - a.priority || b.index - a.index);
    for (const { column } of givingWay) {
      if (need() <= room) break;
      shown.splice(shown.indexOf(column), 1);
    }
  }
  // The text columns share what the others leave, in proportion to their least widths.
  const width = need();
  const texts = shown.filter(isText);
  const textNeed = texts.reduce((sum, column) => sum + columnWidth(column, compact), 0);
  const spare = room !== undefined && room > width ? room - width : 0;
  return {
    columns: shown.map((column) => {
      const least = columnWidth(column, compact);
      const grown = texts.includes(column) ? least + Math.floor((spare * least) / textNeed) : least;
      return { ...column, width: grown };
    }),
    width,
    compact,
  };
}
