import { describe, expect, it } from 'vitest';
import { fitColumns, type ListColumns, TEXT_MIN_WIDTH } from './fit-columns.ts';

type Row = { id: number };
// A site list in small: two ids, a name that always shows, an address and a tag that give way, the switch.
const COLUMNS: ListColumns<Row> = [
  { key: 'id', width: 80, priority: 1 },
  { key: 'name', minWidth: 150 },
  { key: 'address', priority: 3 },
  { key: 'type', width: 100, priority: 2 },
  { key: 'active', fixed: 'right', width: 130, compactWidth: 90 },
];
const keys = (room: number | undefined, extra?: (compact: boolean) => number) =>
  fitColumns(COLUMNS, room, extra).columns.map((column) => column.key);

describe('fitColumns', () => {
  it('shows every column while they fit, before the room is known too', () => {
    expect(keys(undefined)).toEqual(['id', 'name', 'address', 'type', 'active']);
    expect(keys(80 + 150 + TEXT_MIN_WIDTH + 100 + 130)).toEqual(['id', 'name', 'address', 'type', 'active']);
  });

  it('drops the highest priority first, and never a column without one', () => {
    expect(keys(559)).toEqual(['id', 'name', 'type', 'active']);
    expect(keys(480)).toEqual(['id', 'name', 'type', 'active']);
    // Below 480 px the table is compact: the switch is narrower and the name at its least, all fit again.
    expect(keys(479)).toEqual(['id', 'name', 'address', 'type', 'active']);
    // A phone: the name and the switch stay even when they do not fit.
    expect(keys(300)).toEqual(['id', 'name', 'active']);
    expect(keys(269)).toEqual(['name', 'active']);
    expect(keys(100)).toEqual(['name', 'active']);
  });

  it('brings back a column that gave way when a wider one went after it and the room is there', () => {
    // 80 + 150 + 140 + 300 + 130 = 800 > 600: the narrow column (3) goes, then the wide one (2); the narrow
    // one fits again (500).
    const columns: ListColumns<Row> = [
      { key: 'id', width: 80, priority: 1 },
      { key: 'name', minWidth: 150 },
      { key: 'narrow', width: 140, priority: 3 },
      { key: 'wide', width: 300, priority: 2 },
      { key: 'active', width: 130 },
    ];
    const fit = fitColumns(columns, 600);
    expect(fit.columns.map((column) => column.key)).toEqual(['id', 'name', 'narrow', 'active']);
    expect(fit.hidden.map((column) => column.key)).toEqual(['wide']);
    // Without the room for it, it stays out.
    expect(fitColumns(columns, 490).columns.map((column) => column.key)).toEqual(['id', 'name', 'active']);
  });

  it('counts the expand column, compact or not', () => {
    expect(keys(560, () => 0)).toEqual(['id', 'name', 'address', 'type', 'active']);
    expect(keys(560, (compact) => (compact ? 0 : 1))).toEqual(['id', 'name', 'type', 'active']);
    expect(keys(300, (compact) => (compact ? 31 : 0))).toEqual(['name', 'active']);
  });

  it('shares the spare room among the text columns in proportion to their least widths', () => {
    const fit = fitColumns(COLUMNS, 560 + 250);
    expect(fit.columns.map((column) => column.width)).toEqual([80, 300, 200, 100, 130]);
    expect(fit.width).toBe(560);
    expect(fit.compact).toBe(false);
  });

  it('gives a compact table compact widths and text columns their least width', () => {
    const fit = fitColumns(COLUMNS, 300);
    expect(fit.compact).toBe(true);
    expect(fit.width).toBe(80 + TEXT_MIN_WIDTH + 90);
    expect(fit.columns.map((column) => column.width)).toEqual([80, 300 - 80 - 90, 90]);
  });

  it('needs more than its room when the columns that always show do not fit: the table scrolls', () => {
    const fit = fitColumns(COLUMNS, 150);
    expect(fit.width).toBe(TEXT_MIN_WIDTH + 90);
    expect(fit.columns.map((column) => column.width)).toEqual([TEXT_MIN_WIDTH, 90]);
  });

  it("puts the user's choice first: a hidden column is out, a column brought back stays", () => {
    // Hidden by the user although there is room.
    expect(keys(1000, undefined)).toEqual(['id', 'name', 'address', 'type', 'active']);
    expect(fitColumns(COLUMNS, 1000, undefined, { address: false }).columns.map((c) => c.key)).toEqual([
      'id',
      'name',
      'type',
      'active',
    ]);
    // Brought back at 480 px, where it would give way: the type gives way instead.
    const back = fitColumns(COLUMNS, 480, undefined, { address: true });
    expect(back.columns.map((c) => c.key)).toEqual(['id', 'name', 'address', 'active']);
    expect(back.hidden.map((c) => c.key)).toEqual(['type']);
    // The columns that always show can't be hidden.
    expect(fitColumns(COLUMNS, 1000, undefined, { name: false, active: false }).columns).toHaveLength(5);
  });

  it('lets the table scroll when the columns brought back need more than the room', () => {
    const fit = fitColumns(COLUMNS, 400, undefined, { id: true, address: true, type: true });
    expect(fit.columns.map((c) => c.key)).toEqual(['id', 'name', 'address', 'type', 'active']);
    expect(fit.hidden).toEqual([]);
    expect(fit.width).toBe(80 + TEXT_MIN_WIDTH + TEXT_MIN_WIDTH + 100 + 90);
  });
});

describe('fitColumns pins', () => {
  // A booking list in small: the id and name pinned left, the actions right.
  const PINNED: ListColumns<Row> = [
    { key: 'id', width: 60, fixed: 'left' },
    { key: 'name', fixed: 'left' },
    { key: 'duration', width: 90 },
    { key: 'total', width: 116 },
    { key: 'action', width: 200, compactWidth: 104, fixed: 'right' },
  ];
  const pinned = (room: number) =>
    fitColumns(PINNED, room)
      .columns.filter((column) => column.fixed)
      .map((column) => `${column.key}:${column.fixed}`);

  it('keeps every pin while the room left beside them holds the widest column that scrolls', () => {
    // 60 + 100 + 104 pinned, 116 the widest scrolling: 380 px hold it.
    expect(pinned(380)).toEqual(['id:left', 'name:left', 'action:right']);
    // A table that fits keeps its pins too (they change nothing there).
    expect(pinned(2000)).toEqual(['id:left', 'name:left', 'action:right']);
  });

  it('lets the actions go first, then the left pins from the inside, so that no column stays covered', () => {
    // 379 px: the actions would leave 115 px for the 116 px total. They scroll with the row instead.
    expect(pinned(379)).toEqual(['id:left', 'name:left']);
    // Unpinned, the 104 px actions count among the scrolling columns.
    expect(pinned(316)).toEqual(['id:left', 'name:left']);
    expect(pinned(275)).toEqual(['id:left']);
    expect(pinned(175)).toEqual([]);
  });
});
