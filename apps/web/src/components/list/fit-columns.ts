import type { ColumnType } from 'antd/es/table/interface';

/**
 * A list's column: antd's, plus what the list kit fits a table to its room with (FittedTable).
 * - With a `width`, a column of known size (ids, tags, dates, the switch, the actions). Without one, a text
 *   column: the text columns share the room the others leave in proportion to their `minWidth`
 *   (TEXT_MIN_WIDTH when not given), each at least that wide; in a compact table at least TEXT_MIN_WIDTH.
 * - `priority`: the column may give way when the table has too little room, the highest number first.
 *   A column without one always shows: the name that identifies the row, the switch and the actions.
 * - `compactWidth`: the width of a column of known size in a compact table (a phone).
 * - `fixed`: 'left' for the id or name that identifies a row, 'right' for the switch and the actions: they stay
 *   in view while a table too wide for its room scrolls sideways (only as far as they cover nothing for good).
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

/**
 * What the user chose in a list's Columns control, by column key: true keeps a column that would give way,
 * false hides one that would show. A column not named is placed automatically; only columns that may give
 * way (with a `priority`) can be chosen.
 */
export type ColumnChoice = Readonly<Record<string, boolean>>;

/** The key a column is chosen and remembered by. */
export const columnKey = <T>(column: ListColumn<T>): string => String(column.key ?? column.dataIndex ?? '');

/** A column the user may hide or bring back: one that may give way. The others always show. */
export const isOptional = <T>(column: ListColumn<T>): boolean => column.priority !== undefined;

export interface Fit<T> {
  /** The columns shown, in their order, each with its width in px (and pinned only where it covers nothing). */
  columns: Array<ListColumn<T> & { width: number }>;
  /** The columns not shown: given way for room, or hidden by the user. */
  hidden: ListColumns<T>;
  /** The width the shown columns need (`scroll.x`): the table is as wide as its room, or this if wider. */
  width: number;
  compact: boolean;
}

/**
 * Which pinned columns stay pinned in a table that scrolls sideways. A pinned column stays in view while the
 * others pass beneath it, so the pins may take only so much: the room they leave must hold the widest column
 * that scrolls, whole, or that column could never be read. Pins are let go until it does: those on the right
 * first (the actions then scroll with the row), from the inside out, then those on the left, from the inside.
 */
function keptPins<T>(shown: ListColumns<T>, room: number, widthOf: (column: ListColumn<T>) => number) {
  const left = shown.filter((column) => column.fixed === 'left' || column.fixed === true);
  const right = shown.filter((column) => column.fixed === 'right');
  const kept = new Set([...left, ...right]);
  const fits = () => {
    let pinned = 0;
    let widest = 0;
    for (const column of shown) {
      if (kept.has(column)) pinned += widthOf(column);
      else widest = Math.max(widest, widthOf(column));
    }
    return room - pinned >= widest;
  };
  for (const column of [...right, ...left.reverse()]) {
    if (fits()) break;
    kept.delete(column);
  }
  return kept;
}

/**
 * The columns that fit in `room` px (undefined: not measured yet, all of them). The user's `choice` comes
 * first: a column they hid is out, one they brought back stays. While the others need more, the column of the
 * highest priority number gives way (of two alike, the one further right); a column without a priority never
 * does, so a table narrower still scrolls sideways rather than lose its name, with its pinned columns (the
 * id or name on the left, the actions on the right) pinned only where they cover nothing for good (keptPins).
 * `extra`: the width of columns outside `columns` (the expand column), compact or not.
 */
export function fitColumns<T>(
  columns: ListColumns<T>,
  room: number | undefined,
  extra: (compact: boolean) => number = () => 0,
  choice: ColumnChoice = {},
): Fit<T> {
  const compact = room !== undefined && room < COMPACT_BELOW;
  const chosen = (column: ListColumn<T>) => (isOptional(column) ? choice[columnKey(column)] : undefined);
  const shown = columns.filter((column) => chosen(column) !== false);
  const need = () => shown.reduce((sum, column) => sum + columnWidth(column, compact), extra(compact));
  if (room !== undefined) {
    const givingWay = shown
      .map((column, index) => ({ column, index, priority: column.priority }))
      .filter(
        (entry): entry is typeof entry & { priority: number } =>
          entry.priority !== undefined && chosen(entry.column) !== true,
      )
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
  const pins =
    room !== undefined && width > room
      ? keptPins(shown, room - extra(compact), (column) => columnWidth(column, compact))
      : null;
  return {
    columns: shown.map((column) => {
      const least = columnWidth(column, compact);
      const grown = texts.includes(column) ? least + Math.floor((spare * least) / textNeed) : least;
      const unpinned = pins !== null && column.fixed !== undefined && !pins.has(column);
      return { ...column, width: grown, ...(unpinned ? { fixed: undefined } : {}) };
    }),
    hidden: columns.filter((column) => !shown.includes(column)),
    width,
    compact,
  };
}
