import { describe, expect, it } from 'vitest';
import { cellTexts, contentSizeOf, TEXT_KEEPS, type TextWidth } from './content-width.ts';
import { fitColumns, type ListColumns, shareText } from './fit-columns.ts';

type Row = { id: number; name: string; status: string; actions: string[] };
/** 10 px a character, 12 in bold: easy sums. */
const width: TextWidth = (text, strong) => text.length * (strong ? 12 : 10);
const chrome = () => ({ padding: 16, sorter: 16 });
const ROWS: Row[] = [
  { id: 7, name: 'Asok', status: 'Paid', actions: ['Pay'] },
  {
    id: 20026,
    name: 'Golden Lotus Charging Hub Chiang Mai Old Town',
    status: 'Charging',
    actions: ['Stop', 'Delete'],
  },
];

describe('contentSizeOf', () => {
  const sizeOf = contentSizeOf(ROWS, width, chrome);

  it('makes an id as wide as its widest value and its sortable header, 7 digits at least when pinned', () => {
    // 'ID' bold 24 + sorter 16 + padding 16 = 56; '20026' 50 + 16 = 66; pinned: 7 digits 70 + 16 = 86.
    expect(sizeOf({ key: 'id', dataIndex: 'id', title: 'ID', sorter: true, kind: 'id' }, false)).toEqual({
      least: 68,
      want: 68,
    });
    expect(
      sizeOf({ key: 'id', dataIndex: 'id', title: 'ID', sorter: true, kind: 'id', fixed: 'left' }, false),
    ).toEqual({ least: 88, want: 88 });
    expect(sizeOf({ key: 'id', dataIndex: 'id', title: 'Identifier', kind: 'id' }, false).want).toBe(
      10 * 12 + 16 + 2,
    );
  });

  it('measures the texts a cell draws side by side, with their chrome and gaps', () => {
    const actions = {
      key: 'a',
      title: 'A',
      kind: 'label',
      textOf: (row: Row) => row.actions,
      chrome: 16,
    } as const;
    // 'Stop' 40 + 16, 'Delete' 60 + 16, one gap of 4, padding 16, slack 2.
    expect(sizeOf(actions, false)).toEqual({ least: 154, want: 154 });
    expect(cellTexts(actions, ROWS[1]!, 1)).toEqual(['Stop', 'Delete']);
  });

  it('lets a text column want its longest value but keep only ~24 characters when short of room', () => {
    const size = sizeOf({ key: 'name', dataIndex: 'name', title: 'Site' }, false);
    expect(size.want).toBe(45 * 10 + 16 + 2);
    expect(size.least).toBe(TEXT_KEEPS.length * 10 + 16);
    // A phone keeps a dozen characters, a pinned name more.
    expect(sizeOf({ key: 'name', dataIndex: 'name', title: 'Site' }, true).least).toBe(100);
    expect(sizeOf({ key: 'name', dataIndex: 'name', title: 'Site', fixed: 'left' }, true).least).toBe(260);
  });

  it('reads a rendered string, and keeps a fixed width where a column declares one', () => {
    const status = {
      key: 's',
      dataIndex: 'status',
      title: 'S',
      kind: 'label',
      render: (s: string) => `[${s}]`,
    } as const;
    expect(sizeOf(status, false).want).toBe(10 * 10 + 16 + 2);
    expect(sizeOf({ key: 'switch', title: 'On', width: 130, compactWidth: 92 }, true)).toEqual({
      least: 92,
      want: 92,
    });
  });
});

describe('shareText', () => {
  it('gives every column what it wants and shares the rest in proportion', () => {
    expect(
      shareText(
        [
          { least: 100, want: 100 },
          { least: 100, want: 300 },
        ],
        600,
      ),
    ).toEqual([150, 450]);
  });

  it('cuts only the longest when short of room, never below the least', () => {
    // 120 wanted by the first is given whole; the second gets the rest.
    expect(
      shareText(
        [
          { least: 100, want: 120 },
          { least: 150, want: 400 },
        ],
        400,
      ),
    ).toEqual([120, 280]);
    expect(
      shareText(
        [
          { least: 100, want: 120 },
          { least: 150, want: 400 },
        ],
        200,
      ),
    ).toEqual([100, 150]);
  });
});

describe('fitColumns by content', () => {
  const columns: ListColumns<Row> = [
    { key: 'id', dataIndex: 'id', title: 'ID', kind: 'id', fixed: 'left' },
    { key: 'name', dataIndex: 'name', title: 'Site' },
    { key: 'other', dataIndex: 'name', title: 'Also', priority: 1 },
    { key: 'status', dataIndex: 'status', title: 'Status', kind: 'label', priority: 2 },
  ];
  const sizeOf = contentSizeOf(ROWS, width, chrome);

  it('gives way rather than cut two text columns on a wide screen', () => {
    // Everything whole: 88 + 468 + 468 + 98.
    expect(fitColumns(columns, 1122, undefined, {}, sizeOf).hidden).toEqual([]);
    const whole = fitColumns(columns, 1200, undefined, {}, sizeOf);
    expect(whole.columns.map((column) => column.key)).toEqual(['id', 'name', 'other', 'status']);
    // Both names would be cut at 800 px: the columns give way by priority (the status first, then the second
    // name) until only one would be; then the status comes back, as the room is there after all, and the first
    // name is whole.
    const narrower = fitColumns(columns, 800, undefined, {}, sizeOf);
    expect(narrower.columns.map((column) => column.key)).toEqual(['id', 'name', 'status']);
    expect(narrower.hidden.map((column) => column.key)).toEqual(['other']);
    expect(narrower.columns.find((column) => column.key === 'name')?.width).toBeGreaterThanOrEqual(468);
  });
});
