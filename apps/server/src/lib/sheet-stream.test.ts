import { inflateRawSync } from 'node:zlib';
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import {
  columnLetters,
  escapeCellText,
  type SheetCell,
  SheetStream,
  type SheetStreamOptions,
  sheetName,
} from './sheet-stream.ts';

async function workbookOf(
  rows: SheetCell[][],
  options: SheetStreamOptions & { batch?: number } = {},
  columns = [{ header: 'Text', width: 30 }, { header: 'Number' }, { header: 'Flag' }, { header: 'When' }],
) {
  const sheet = new SheetStream('Report', columns, options);
  const chunks: Buffer[] = [];
  sheet.output.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise((resolve) => sheet.output.on('end', resolve));
  const batch = options.batch ?? 1000;
  for (let i = 0; i < rows.length; i++) {
    sheet.addRow(rows[i]!);
    if ((i + 1) % batch === 0) await sheet.flush();
  }
  await sheet.finish();
  await done;
  const bytes = Buffer.concat(chunks);
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(bytes as never);
  return { workbook, bytes };
}

describe('SheetStream', () => {
  it('writes typed cells exceljs reads back: header in bold, widths, numbers, booleans, dates, empties', async () => {
    const when = new Date('2026-03-14T17:30:45.000Z');
    const { workbook } = await workbookOf([
      ['plain', 12.5, true, when],
      [null, 0, false, undefined],
      ['', -3, null, null],
      ['x', Number.NaN, null, new Date(Number.NaN)],
    ]);
    const sheet = workbook.worksheets[0]!;
    expect(sheet.name).toBe('Report');
    expect(sheet.getRow(1).values).toEqual([undefined, 'Text', 'Number', 'Flag', 'When']);
    expect(sheet.getRow(1).getCell(1).font?.bold).toBe(true);
    expect(sheet.getColumn(1).width).toBe(30);
    expect(sheet.getColumn(2).width).toBe(20);
    expect(sheet.getRow(2).values).toEqual([undefined, 'plain', 12.5, true, when]);
    expect(sheet.getRow(3).values).toEqual([undefined, undefined, 0, false]);
    expect(sheet.getRow(4).values).toEqual([undefined, undefined, -3]);
    // Not a number and an invalid date are left empty, never invalid XML.
    expect(sheet.getRow(5).values).toEqual([undefined, 'x']);
    expect(sheet.rowCount).toBe(5);
  });

  it('keeps any text as it was: entities, Thai, emoji, and formulas stay text in the Text format', async () => {
    const texts = [
      'a & b < c > d "e" \'f\'',
      'สถานีชาร์จ ราชประสงค์',
      'charge ⚡ 🚗',
      '=1+1',
      '+66 81',
      '-5',
      '@SUM(A1)',
    ];
    const { workbook } = await workbookOf(texts.map((text) => [text]));
    const sheet = workbook.worksheets[0]!;
    texts.forEach((text, i) => {
      const cell = sheet.getRow(i + 2).getCell(1);
      expect(cell.value).toBe(text);
      expect(cell.formula).toBeUndefined();
    });
    expect(sheet.getRow(5).getCell(1).numFmt).toBe('@');
    expect(sheet.getRow(2).getCell(1).numFmt).toBeUndefined();
  });

  it("escapes what XML cannot hold with OOXML's _xHHHH_, and a literal escape with _x005F_", () => {
    expect(escapeCellText('plain')).toBe('plain');
    expect(escapeCellText('a\u0001b\u001fc\td\ne')).toBe('a_x0001_b_x001F_c\td\ne');
    expect(escapeCellText('_x0041_')).toBe('_x005F_x0041_');
    expect(escapeCellText('lone \ud800 pair 🚗')).toBe('lone _xD800_ pair 🚗');
    expect(escapeCellText('<&>')).toBe('&lt;&amp;&gt;');
  });

  it('starts a new sheet with the header again past the row limit', async () => {
    const rows = Array.from({ length: 7 }, (_, i) => [`row ${i + 1}`, i + 1]);
    const { workbook } = await workbookOf(rows, { maxRows: 3, batch: 2 });
    expect(workbook.worksheets.map((sheet) => sheet.name)).toEqual(['Report', 'Report (2)', 'Report (3)']);
    const values = workbook.worksheets.map((sheet) =>
      Array.from({ length: sheet.rowCount }, (_, i) => sheet.getRow(i + 1).getCell(2).value),
    );
    expect(values).toEqual([
      ['Number', 1, 2, 3],
      ['Number', 4, 5, 6],
      ['Number', 7],
    ]);
  });

  it('writes a zip whose directory matches its entries (CRC and sizes)', async () => {
    const { bytes } = await workbookOf(Array.from({ length: 3000 }, (_, i) => [`row ${i}`, i, i % 2 === 0]));
    const end = bytes.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
    const count = bytes.readUInt16LE(end + 10);
    let at = bytes.readUInt32LE(end + 16);
    const names: string[] = [];
    for (let n = 0; n < count; n++) {
      expect(bytes.readUInt32LE(at)).toBe(0x02014b50);
      const crc = bytes.readUInt32LE(at + 16);
      const compressed = bytes.readUInt32LE(at + 20);
      const size = bytes.readUInt32LE(at + 24);
      const nameLength = bytes.readUInt16LE(at + 28);
      const local = bytes.readUInt32LE(at + 42);
      const name = bytes.subarray(at + 46, at + 46 + nameLength).toString('utf8');
      names.push(name);
      expect(bytes.readUInt32LE(local)).toBe(0x04034b50);
      const dataStart = local + 30 + bytes.readUInt16LE(local + 26);
      const data = inflateRawSync(bytes.subarray(dataStart, dataStart + compressed));
      expect(data.length).toBe(size);
      const { crc32 } = await import('node:zlib');
      expect(crc32(data)).toBe(crc);
      at += 46 + nameLength;
    }
    expect(names.sort()).toEqual([
      '[Content_Types].xml',
      '_rels/.rels',
      'xl/_rels/workbook.xml.rels',
      'xl/styles.xml',
      'xl/workbook.xml',
      'xl/worksheets/sheet1.xml',
    ]);
  });

  it('keeps every row of a sheet many pieces long, deflated in parallel in reused buffers, in order', async () => {
    // ~60 pieces of 256 KB: more than are deflated at once and than are kept for reuse.
    const count = 40_000;
    const rows = Array.from({ length: count }, (_, i) => [
      `row ${i} ${'ก'.repeat(i % 97)}`,
      i,
      i % 2 === 0,
      null,
    ]);
    const { workbook } = await workbookOf(rows, { batch: 777 });
    const sheet = workbook.worksheets[0]!;
    expect(sheet.rowCount).toBe(count + 1);
    for (const i of [0, 1, 776, 777, 12_345, 29_999, count - 1]) {
      const row = sheet.getRow(i + 2);
      expect([row.getCell(1).value, row.getCell(2).value, row.getCell(3).value]).toEqual([
        `row ${i} ${'ก'.repeat(i % 97)}`,
        i,
        i % 2 === 0,
      ]);
    }
    let sum = 0;
    sheet.eachRow((row, n) => {
      if (n > 1) sum += row.getCell(2).value as number;
    });
    expect(sum).toBe((count * (count - 1)) / 2);
  }, 60_000);

  it('names sheets as Excel allows, and letters columns past Z', () => {
    expect(sheetName('Booking Report')).toBe('Booking Report');
    expect(sheetName('a/b:c?d*e[f]g\\h')).toBe('a b c d e f g h');
    expect(sheetName('x'.repeat(40), ' (2)')).toBe(`${'x'.repeat(27)} (2)`);
    expect(sheetName('///')).toBe('Sheet');
    expect([0, 25, 26, 27, 51, 52, 701, 702].map(columnLetters)).toEqual([
      'A',
      'Z',
      'AA',
      'AB',
      'AZ',
      'BA',
      'ZZ',
      'AAA',
    ]);
  });

  it('an empty workbook still has its sheet and header', async () => {
    const { workbook } = await workbookOf([]);
    expect(workbook.worksheets).toHaveLength(1);
    expect(workbook.worksheets[0]!.getRow(1).getCell(1).value).toBe('Text');
  });
});
