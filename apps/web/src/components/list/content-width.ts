import type { ReactNode } from 'react';
import {
  type ColumnSize,
  declaredSize,
  isText,
  type ListColumn,
  type SizeOf,
  TEXT_MIN_WIDTH,
} from './fit-columns.ts';

/** The width in px of a text in the table's font: its cells' (false) or its headers' (true, bold). */
export type TextWidth = (text: string, strong: boolean) => number;

/** The px a cell draws around its content: the cell's padding on both sides, and its header's sort icon. */
export interface CellChrome {
  /** The cell's padding, left plus right. */
  padding: number;
  /** A sortable header's arrows, beside its title. */
  sorter: number;
}

/** The px around a small link button's text (`Button type="link" size="small"`): padding and border. */
export const LINK_CHROME = 16;
/** The px around a tag's text (antd Tag): padding and border. */
export const TAG_CHROME = 16;
/** The gap between buttons side by side in a cell (the actions' `Flex gap={4}`). */
export const BUTTON_GAP = 4;
/** Sub-pixel rounding between the measure and the browser's layout. */
const SLACK = 2;
/** The least a pinned 'id' of numbers fits: 7 digits (a network with a million bookings). */
const ID_DIGITS = '0000000';
/**
 * What a text column keeps before its '…' when the room is short: about 24 characters of a name or e-mail.
 * Values up to this long show whole on a wide screen.
 */
export const TEXT_KEEPS = 'admin.demo24@example.com';
/** A text column pinned left (the row's name) keeps more: it is what the user recognises the row by. */
const PINNED_TEXT_MAX = 260;

/** The value at a column's dataIndex ('a' or ['a', 'b']). */
function valueAt(row: unknown, dataIndex: unknown): unknown {
  if (dataIndex === undefined || dataIndex === null) return undefined;
  const path: unknown[] = Array.isArray(dataIndex) ? dataIndex : [dataIndex];
  let value = row;
  for (const step of path) value = (value as Record<string, unknown> | null | undefined)?.[String(step)];
  return value;
}

/** The texts a cell of the column shows, side by side: what `textOf` says, or what its render returns. */
export function cellTexts<T>(column: ListColumn<T>, row: T, index: number): string[] {
  if (column.textOf) {
    const texts = column.textOf(row);
    return typeof texts === 'string' ? [texts] : [...texts];
  }
  const value = valueAt(row, column.dataIndex as unknown);
  const shown: ReactNode = column.render
    ? (column.render(value, row, index) as ReactNode)
    : (value as ReactNode);
  return typeof shown === 'string' || typeof shown === 'number' ? [String(shown)] : [];
}

/** A header's text: its title when that is text, else nothing to measure. */
const headerText = <T>(column: ListColumn<T>) =>
  typeof column.title === 'string' || typeof column.title === 'number' ? String(column.title) : '';

/**
 * The sizes of the columns measured on the page's `rows` (FittedTable): a column of a kind that is never
 * cut is as wide as its header and its widest value; a text column wants that much and keeps at least its
 * header and ~24 characters (TEXT_KEEPS); a pinned one up to PINNED_TEXT_MAX. A phone's header may wrap
 * between words. A column with a fixed `width` and no kind keeps it.
 */
export function contentSizeOf<T>(
  rows: readonly T[],
  width: TextWidth,
  chromeOf: (compact: boolean) => CellChrome,
): SizeOf<T> {
  return (column, compact): ColumnSize => {
    const chrome = chromeOf(compact);
    const keeps = width(TEXT_KEEPS, false) + chrome.padding;
    if (column.kind === undefined && !isText(column)) return declaredSize(column, compact);
    const title = headerText(column);
    const words = compact ? title.split(/\s+/) : [title];
    const header =
      Math.max(0, ...words.map((word) => width(word, true))) +
      (column.sorter ? chrome.sorter : 0) +
      chrome.padding;
    const extra = column.chrome ?? 0;
    let widest = 0;
    rows.forEach((row, index) => {
      const texts = cellTexts(column, row, index);
      if (texts.length === 0) return;
      const line =
        texts.reduce((sum, text) => sum + width(text, false) + extra, 0) + BUTTON_GAP * (texts.length - 1);
      widest = Math.max(widest, line);
    });
    if (
      column.kind === 'id' &&
      column.fixed === 'left' &&
      rows.some((row) => typeof valueAt(row, column.dataIndex as unknown) === 'number')
    ) {
      widest = Math.max(widest, width(ID_DIGITS, false) + extra);
    }
    const want = Math.ceil(Math.max(header, widest + chrome.padding) + SLACK);
    if (!isText(column)) return { least: want, want };
    const cap = column.fixed === 'left' ? Math.max(keeps, PINNED_TEXT_MAX) : keeps;
    const least = compact
      ? Math.min(want, column.fixed === 'left' ? cap : TEXT_MIN_WIDTH)
      : Math.max(Math.ceil(header + SLACK), Math.min(want, Math.ceil(cap)));
    return { least, want };
  };
}

/** A text measure on a canvas of its own, in the given font family at 14 px, remembered per text. */
export function canvasTextWidth(fontFamily: string, fontSize = 14): TextWidth {
  const context = document.createElement('canvas').getContext('2d');
  const known = new Map<string, number>();
  return (text, strong) => {
    const key = `${strong ? 1 : 0}${text}`;
    let measured = known.get(key);
    if (measured === undefined) {
      if (!context) return text.length * fontSize * 0.6;
      context.font = `${strong ? 600 : 400} ${fontSize}px ${fontFamily}`;
      measured = context.measureText(text).width;
      known.set(key, measured);
    }
    return measured;
  };
}
