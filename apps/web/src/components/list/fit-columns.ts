import type { ColumnType } from 'antd/es/table/interface';

/**
 * What a column holds, which decides how much room it gets (FittedTable measures its header and the values on
 * the page, content-width.ts):
 * - 'id', 'code', 'money', 'date', 'number', 'label' (a short label of a known set: a status, a method) are
 *   never cut: the column is as wide as its header and its widest value on the page. An 'id' of numbers fits 7
 *   digits at least (a network with a million bookings).
 * - 'text' (names, e-mails, site and charger names, addresses) takes the room the others leave, in proportion
 *   to its content, and is cut with '…' and a tooltip only when it must: first the longest values, above
 *   ~24 characters.
 */
export type ColumnKind = 'id' | 'code' | 'money' | 'date' | 'number' | 'label' | 'text';

/**
 * A list's column: antd's, plus what the list kit fits a table to its room with (FittedTable).
 * - `kind`: what it holds (ColumnKind). A column with a `width` and no kind has that size whatever it shows
 *   (the switch); a column with neither is 'text'.
 * - `textOf`: the texts a cell shows when its render draws something other than a string (a link, a tag,
 *   buttons side by side), measured to size the column; `chrome`: the px drawn around each of them (a small
 *   link button's padding, a tag's border, padding and margin).
 * - `priority`: the column may give way when the table has too little room, the highest number first.
 *   A column without one always shows: the name that identifies the row, the switch and the actions.
 * - `compactWidth`: the width of a column of fixed size in a compact table (a phone).
 * - `minWidth`: a text column's least width when nothing was measured (unit tests, before the first render).
 * - `fixed`: 'left' for the id or name that identifies a row, 'right' for the switch and the actions: they stay
 *   in view while a table too wide for its room scrolls sideways (only as far as they cover nothing for good).
 */
export type ListColumn<T> = ColumnType<T> & {
  kind?: ColumnKind;
  // A method, so that a list's columns stay assignable as antd's are (bivariant in the row).
  textOf?(row: T): string | readonly string[];
  chrome?: number;
  priority?: number;
  compactWidth?: number;
};
export type ListColumns<T> = ListColumn<T>[];

/** The least width of a text column: a dozen characters before the '…'. */
export const TEXT_MIN_WIDTH = 100;
/** A table with less room than this (a phone) is compact: small cells and the columns' compact widths. */
export const COMPACT_BELOW = 480;
/** The width of the expand (+) column of a list whose rows open, and in a compact table. */
export const EXPAND_COLUMN_WIDTH = { width: 44, compactWidth: 34 };

/** A column that shares the room the others leave. */
export const isText = <T>(column: ListColumn<T>) =>
  column.kind === 'text' || (column.kind === undefined && typeof column.width !== 'number');

/**
 * The room a column needs: `least` to show (a text column's values cut down to ~24 characters, any other
 * whole), `want` to show every value of the page whole.
 */
export interface ColumnSize {
  least: number;
  want: number;
}
export type SizeOf<T> = (column: ListColumn<T>, compact: boolean) => ColumnSize;

/** The sizes the columns declare, nothing measured: a fixed width, or a text column's least width. */
export function declaredSize<T>(column: ListColumn<T>, compact: boolean): ColumnSize {
  if (!isText(column) && typeof column.width === 'number') {
    const width = (compact && column.compactWidth) || column.width;
    return { least: width, want: width };
  }
  const least = compact ? TEXT_MIN_WIDTH : (column.minWidth ?? TEXT_MIN_WIDTH);
  return { least, want: least };
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
 * The widths of the text columns in `room` px, given their sizes: each its `want` while they all fit (and a
 * share of what is left over in proportion to it); else each at least its `least`, the room above that going
 * first to the columns that need least to be whole, so that the fewest are cut and only the longest values.
 */
export function shareText(sizes: ColumnSize[], room: number): number[] {
  const wants = sizes.reduce((sum, size) => sum + size.want, 0);
  if (room >= wants) {
    const spare = room - wants;
    return sizes.map((size) => size.want + (wants > 0 ? Math.floor((spare * size.want) / wants) : 0));
  }
  const widths = sizes.map((size) => size.least);
  let left = room - widths.reduce((sum, width) => sum + width, 0);
  if (left <= 0) return widths;
  const order = sizes
    .map((_, index) => index)
    .sort((a, b) => {
      const more = (index: number) => sizes[index]!.want - sizes[index]!.least;
      return more(a) - more(b);
    });
  for (const [step, index] of order.entries()) {
    const size = sizes[index]!;
    const give = Math.min(size.want - size.least, Math.floor(left / (order.length - step)));
    widths[index] = size.least + give;
    left -= give;
  }
  return widths;
}

/**
 * The columns that fit in `room` px (undefined: not measured yet, all of them), each at the width it gets.
 * The user's `choice` comes first: a column they hid is out, one they brought back stays. While the others
 * need more than the room, or more than one text column would be cut (a wide table), the column of the
 * highest priority number gives way (of two alike, the one further right); a column without a priority never
 * does, so a table narrower still scrolls sideways rather than lose its name, with its pinned columns (the
 * id or name on the left, the actions on the right) pinned only where they cover nothing for good (keptPins).
 * `extra`: the width of columns outside `columns` (the expand column), compact or not. `sizeOf`: what each
 * column needs (measured from its content by FittedTable; by default what it declares).
 */
export function fitColumns<T>(
  columns: ListColumns<T>,
  room: number | undefined,
  extra: (compact: boolean) => number = () => 0,
  choice: ColumnChoice = {},
  sizeOf: SizeOf<T> = declaredSize,
): Fit<T> {
  const compact = room !== undefined && room < COMPACT_BELOW;
  const chosen = (column: ListColumn<T>) => (isOptional(column) ? choice[columnKey(column)] : undefined);
  const shown = columns.filter((column) => chosen(column) !== false);
  const sizes = new Map(columns.map((column) => [column, sizeOf(column, compact)]));
  const size = (column: ListColumn<T>) => sizes.get(column)!;
  const need = () => shown.reduce((sum, column) => sum + size(column).least, extra(compact));
  /** The widths of the shown columns in the room, by shareText for the text ones. */
  const widths = () => {
    const texts = shown.filter(isText);
    const others = shown.filter((column) => !isText(column));
    const fixed = others.reduce((sum, column) => sum + size(column).least, extra(compact));
    const shared = shareText(texts.map(size), room === undefined ? 0 : room - fixed);
    return new Map<ListColumn<T>, number>([
      ...others.map((column) => [column, size(column).least] as const),
      ...texts.map((column, index) => [column, shared[index]!] as const),
    ]);
  };
  const cutTexts = () => {
    const given = widths();
    return shown.filter((column) => isText(column) && given.get(column)! < size(column).want).length;
  };
  if (room !== undefined) {
    const givingWay = shown
      .map((column, index) => ({ column, index, priority: column.priority }))
      .filter(
        (entry): entry is typeof entry & { priority: number } =>
          entry.priority !== undefined && chosen(entry.column) !== true,
      )
      .sort((a, b) => b.priority - a.priority || b.index - a.index);
    const fits = () => need() <= room && (compact || cutTexts() <= 1);
    const gone: Array<ListColumn<T>> = [];
    for (const { column } of givingWay) {
      if (fits()) break;
      shown.splice(shown.indexOf(column), 1);
      gone.push(column);
    }
    // A column that gave way comes back where the room is there after all (a narrower one went after it),
    // the one that gave way last first.
    for (const column of gone.reverse()) {
      const at = shown.findIndex((other) => columns.indexOf(other) > columns.indexOf(column));
      shown.splice(at === -1 ? shown.length : at, 0, column);
      if (!fits()) shown.splice(shown.indexOf(column), 1);
    }
  }
  const given = widths();
  const width = need();
  const pins =
    room !== undefined && width > room
      ? keptPins(shown, room - extra(compact), (column) => size(column).least)
      : null;
  return {
    columns: shown.map((column) => {
      const unpinned = pins !== null && column.fixed !== undefined && !pins.has(column);
      return { ...column, width: given.get(column)!, ...(unpinned ? { fixed: undefined } : {}) };
    }),
    hidden: columns.filter((column) => !shown.includes(column)),
    width,
    compact,
  };
}
