import { PassThrough } from 'node:stream';
import { promisify } from 'node:util';
import { constants, crc32, deflateRaw, deflateRawSync } from 'node:zlib';

const deflatePiece = promisify(deflateRaw);

/**
 * A streaming .xlsx writer: one worksheet (or more, past Excel's row limit) of typed cells, written as the
 * rows come, with flat memory. The sheet XML is cut into pieces of ~256 KB, each deflated on its own on the
 * libuv thread pool (ended with a sync flush, so the pieces joined are one deflate stream, as pigz does) while
 * the next rows are built, several at once; the zip around it is written by hand (data descriptors,
 * no zip64: a sheet that would pass 4 GB starts a new sheet, and the archive refuses to pass 4 GB rather than
 * write a file no one can open). exceljs's streaming writer did ~4,000 rows/s of 27 columns; see bench/README.
 *
 * Cells: strings are inline strings (nothing is kept for a shared-string table); text starting with = + - @ is
 * a string cell in the Text format (never a formula, and it stays text when edited); numbers are numbers
 * (NaN and ±Infinity are left empty); booleans; Dates are Excel serial numbers (UTC, as exceljs wrote them) in
 * a `yyyy-mm-dd hh:mm:ss` format; null, undefined and '' leave the cell out.
 */
export type SheetCell = string | number | boolean | Date | null | undefined;

export interface SheetColumn {
  header: string;
  width?: number;
}

export interface SheetStreamOptions {
  /** Data rows a sheet holds before the next one starts (Excel: 1,048,576 rows with the header). */
  maxRows?: number;
  /**
   * Characters of XML a sheet may reach before the next one starts: the zip has no zip64, and a character is
   * at most 3 bytes of UTF-8 (Thai), so the default keeps a sheet under 4 GB.
   */
  maxSheetChars?: number;
  /** Deflate level of the sheets (1: the sheet is repetitive XML, level 1 is ~3x faster than 6, ~20 % larger). */
  level?: number;
}

const EXCEL_MAX_ROWS = 1_048_575;
const MAX_SHEET_CHARS = 1_200_000_000;
const ZIP_LIMIT = 0xffff_ffff;
const STYLE = { header: 1, text: 2, date: 3 } as const;
const FORMULA_START = /^[=+\-@]/;
/** Characters XML 1.0 cannot hold, lone surrogates, and a literal `_xHHHH_` (OOXML's own escape). */
const NEEDS_ESCAPE =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: finding the control characters XML cannot hold is the point
  /[&<>"\u0000-\u0008\u000b\u000c\u000e-\u001f\ud800-\udfff\ufffe\uffff]|_x[0-9a-fA-F]{4}_/;
const XML_ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' };
const ESCAPES =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: as above
  /[&<>"]|[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]|[\ud800-\udbff][\udc00-\udfff]|[\ud800-\udfff]|_(?=x[0-9a-fA-F]{4}_)/g;
const SHEET_BREAK = Symbol('sheet break');
/** Bytes of sheet XML deflated as one piece. */
const PIECE_BYTES = 256 * 1024;
/**
 * Pieces being deflated at once, and bytes the output may hold before the writer waits. A zlib stream instead
 * (createDeflateRaw) deflated 16 KB at a time with a round trip to this thread between each: 50 MB/s, two
 * thirds of the report's time.
 */
const IN_FLIGHT = 8;
const BUFFERED = 4 * 1024 * 1024;
/** Piece buffers kept for reuse. */
const SPARE_PIECES = 16;
/** The last block of a deflate stream: empty, final. */
const FINAL_BLOCK = deflateRawSync(Buffer.alloc(0));
/** Sheet XML waiting to be deflated, and the pooled buffer it lies in (null: not pooled). */
interface Piece {
  bytes: Buffer;
  source: Buffer | null;
}
const hex4 = (code: number) => `_x${code.toString(16).toUpperCase().padStart(4, '0')}_`;

/** Text as cell XML: entities, OOXML `_xHHHH_` for what XML cannot hold, `_x005F_` before a literal escape. */
export function escapeCellText(text: string): string {
  if (!NEEDS_ESCAPE.test(text)) return text;
  return text.replace(ESCAPES, (match) => {
    const entity = XML_ENTITIES[match];
    if (entity) return entity;
    if (match === '_') return '_x005F_';
    if (match.length === 2) return match; // a surrogate pair: one character, fine in XML
    return hex4(match.charCodeAt(0));
  });
}

const escapeAttribute = (text: string) => text.replace(/[&<>"]/g, (c) => XML_ENTITIES[c]!);

/** Column letters: 0 → A, 25 → Z, 26 → AA. */
export function columnLetters(index: number): string {
  let letters = '';
  for (let n = index + 1; n > 0; n = Math.floor((n - 1) / 26)) {
    letters = String.fromCharCode(65 + ((n - 1) % 26)) + letters;
  }
  return letters;
}

/** A worksheet name Excel accepts: no : \ / ? * [ ], at most 31 characters, never empty. */
export function sheetName(name: string, suffix = ''): string {
  const clean = name.replace(/[:\\/?*[\]]/g, ' ').trim() || 'Sheet';
  return clean.slice(0, 31 - suffix.length) + suffix;
}

const XML_HEAD = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';
const MAIN_NS = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const REL_NS = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const PKG_REL_NS = 'http://schemas.openxmlformats.org/package/2006/relationships';

const STYLES_XML =
  `${XML_HEAD}<styleSheet xmlns="${MAIN_NS}">` +
  '<numFmts count="1"><numFmt numFmtId="164" formatCode="yyyy-mm-dd hh:mm:ss"/></numFmts>' +
  '<fonts count="2"><font><sz val="11"/><name val="Calibri"/><family val="2"/></font>' +
  '<font><b/><sz val="11"/><name val="Calibri"/><family val="2"/></font></fonts>' +
  '<fills count="2"><fill><patternFill patternType="none"/></fill><fill><patternFill patternType="gray125"/></fill></fills>' +
  '<borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders>' +
  '<cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs>' +
  '<cellXfs count="4"><xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/>' +
  '<xf numFmtId="0" fontId="1" fillId="0" borderId="0" xfId="0" applyFont="1"/>' +
  '<xf numFmtId="49" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/>' +
  '<xf numFmtId="164" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/></cellXfs>' +
  '<cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0"/></cellStyles>' +
  '</styleSheet>';

interface Entry {
  name: string;
  crc: number;
  compressed: number;
  size: number;
  offset: number;
}

/** DOS date and time of now, for the zip headers. */
function dosStamp(at = new Date()): { time: number; date: number } {
  return {
    time: (at.getHours() << 11) | (at.getMinutes() << 5) | Math.floor(at.getSeconds() / 2),
    date: ((at.getFullYear() - 1980) << 9) | ((at.getMonth() + 1) << 5) | at.getDate(),
  };
}

/** Resolves when the stream drains, or closes (a client gone must not leave the writer waiting). */
function drainedOrClosed(stream: NodeJS.WritableStream & { destroyed?: boolean }): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      stream.off('drain', done);
      stream.off('close', done);
      resolve();
    };
    stream.on('drain', done);
    stream.on('close', done);
  });
}

export class SheetStream {
  /** The .xlsx bytes: pipe or send it. */
  readonly output = new PassThrough({ highWaterMark: BUFFERED });
  private readonly stamp = dosStamp();
  private readonly letters: string[];
  private readonly entries: Entry[] = [];
  private readonly sheets: string[] = [];
  private offset = 0;
  /** Rows and characters of the sheet addRow is filling (flush starts the sheets it planned). */
  private rowInSheet = 0;
  private sheetChars = 0;
  private started = false;
  /**
   * The row XML not yet sent: UTF-8 written row by row into a piece (a string built of thousands of parts
   * cost more to flatten into bytes than to build), then the full pieces and where a new sheet starts.
   */
  private piece: Buffer = Buffer.allocUnsafe(PIECE_BYTES);
  private pieceLength = 0;
  private pending: Array<Piece | typeof SHEET_BREAK> = [];
  /** Pieces of the current sheet being deflated, in order. */
  private inFlight: Array<{ deflated: Promise<Buffer>; source: Buffer | null }> = [];
  /**
   * Piece buffers whose deflate is done, for the next pieces: a new 256 KB buffer a piece churned a gigabyte
   * through memory for a million rows, held until V8 got round to collecting it (70 MB of buffers at any time).
   */
  private spare: Buffer[] = [];
  private current: Entry | null = null;
  private readonly maxRows: number;
  private readonly maxSheetChars: number;

  constructor(
    private readonly name: string,
    private readonly columns: SheetColumn[],
    private readonly options: SheetStreamOptions = {},
  ) {
    this.letters = columns.map((_, index) => columnLetters(index));
    this.maxRows = options.maxRows ?? EXCEL_MAX_ROWS;
    this.maxSheetChars = options.maxSheetChars ?? MAX_SHEET_CHARS;
  }

  /** Adds a data row (one value a column); the text is sent at the next `flush`. */
  addRow(values: readonly SheetCell[]): void {
    if (!this.started || this.rowInSheet >= this.maxRows || this.sheetChars >= this.maxSheetChars) {
      this.spill();
      this.pending.push(SHEET_BREAK);
      this.started = true;
      this.rowInSheet = 0;
      this.sheetChars = 0;
    }
    this.rowInSheet++;
    const r = this.rowInSheet + 1;
    let xml = `<row r="${r}">`;
    for (let i = 0; i < values.length; i++) {
      const value = values[i];
      if (value === null || value === undefined || value === '') continue;
      const ref = this.letters[i]! + r;
      if (typeof value === 'number') {
        if (Number.isFinite(value)) xml += `<c r="${ref}"><v>${value}</v></c>`;
      } else if (typeof value === 'string') {
        const style = FORMULA_START.test(value) ? ` s="${STYLE.text}"` : '';
        xml += `<c r="${ref}"${style} t="inlineStr"><is><t xml:space="preserve">${escapeCellText(value)}</t></is></c>`;
      } else if (typeof value === 'boolean') {
        xml += `<c r="${ref}" t="b"><v>${value ? 1 : 0}</v></c>`;
      } else if (value instanceof Date) {
        const ms = value.getTime();
        if (Number.isFinite(ms))
          xml += `<c r="${ref}" s="${STYLE.date}"><v>${ms / 86_400_000 + 25_569}</v></c>`;
      }
    }
    xml += '</row>';
    this.sheetChars += xml.length;
    // A UTF-16 unit is at most 3 bytes of UTF-8.
    if (this.pieceLength + xml.length * 3 > this.piece.length) {
      this.spill();
      if (xml.length * 3 > this.piece.length) this.piece = Buffer.allocUnsafe(xml.length * 3);
    }
    this.pieceLength += this.piece.write(xml, this.pieceLength, 'utf8');
  }

  private spill(): void {
    if (this.pieceLength === 0) return;
    const source = this.piece.length === PIECE_BYTES ? this.piece : null;
    this.pending.push({ bytes: this.piece.subarray(0, this.pieceLength), source });
    this.piece = this.spare.pop() ?? Buffer.allocUnsafe(PIECE_BYTES);
    this.pieceLength = 0;
  }

  /** Sends the rows added so far; resolves when the client can take more (or is gone). */
  async flush(): Promise<void> {
    this.spill();
    const pending = this.pending;
    this.pending = [];
    for (const piece of pending) {
      if (piece === SHEET_BREAK) await this.nextSheet();
      else await this.writeSheet(piece.bytes, piece.source);
    }
    if (this.output.writableNeedDrain) await drainedOrClosed(this.output);
  }

  /** Ends the workbook: the last sheet, the workbook parts and the zip's directory. */
  async finish(): Promise<void> {
    await this.flush();
    if (!this.started) await this.nextSheet(); // no rows at all: still one sheet with its header
    await this.endSheet();
    const sheetCount = this.sheets.length;
    const sheetList = this.sheets
      .map((name, i) => `<sheet name="${escapeAttribute(name)}" sheetId="${i + 1}" r:id="rId${i + 1}"/>`)
      .join('');
    this.whole(
      '[Content_Types].xml',
      `${XML_HEAD}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">` +
        '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>' +
        '<Default Extension="xml" ContentType="application/xml"/>' +
        '<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>' +
        '<Override PartName="/xl/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/>' +
        Array.from(
          { length: sheetCount },
          (_, i) =>
            `<Override PartName="/xl/worksheets/sheet${i + 1}.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>`,
        ).join('') +
        '</Types>',
    );
    this.whole(
      '_rels/.rels',
      `${XML_HEAD}<Relationships xmlns="${PKG_REL_NS}"><Relationship Id="rId1" Type="${REL_NS}/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
    );
    this.whole(
      'xl/workbook.xml',
      `${XML_HEAD}<workbook xmlns="${MAIN_NS}" xmlns:r="${REL_NS}"><bookViews><workbookView/></bookViews><sheets>${sheetList}</sheets></workbook>`,
    );
    this.whole(
      'xl/_rels/workbook.xml.rels',
      `${XML_HEAD}<Relationships xmlns="${PKG_REL_NS}">` +
        Array.from(
          { length: sheetCount },
          (_, i) =>
            `<Relationship Id="rId${i + 1}" Type="${REL_NS}/worksheet" Target="worksheets/sheet${i + 1}.xml"/>`,
        ).join('') +
        `<Relationship Id="rId${sheetCount + 1}" Type="${REL_NS}/styles" Target="styles.xml"/></Relationships>`,
    );
    this.whole('xl/styles.xml', STYLES_XML);
    this.directory();
    this.output.end();
  }

  private async nextSheet(): Promise<void> {
    await this.endSheet();
    const n = this.sheets.length + 1;
    this.sheets.push(n === 1 ? sheetName(this.name) : sheetName(this.name, ` (${n})`));
    this.current = this.localHeader(`xl/worksheets/sheet${n}.xml`, true);
    this.inFlight = [];
    const cols = this.columns
      .map((c, i) => `<col min="${i + 1}" max="${i + 1}" width="${c.width ?? 20}" customWidth="1"/>`)
      .join('');
    let header = `<row r="1">`;
    this.columns.forEach((column, i) => {
      header += `<c r="${this.letters[i]}1" s="${STYLE.header}" t="inlineStr"><is><t xml:space="preserve">${escapeCellText(column.header)}</t></is></c>`;
    });
    await this.writeSheet(
      `${XML_HEAD}<worksheet xmlns="${MAIN_NS}" xmlns:r="${REL_NS}">` +
        '<sheetViews><sheetView workbookViewId="0"><pane ySplit="1" topLeftCell="A2" activePane="bottomLeft" state="frozen"/></sheetView></sheetViews>' +
        `<sheetFormatPr defaultRowHeight="15"/><cols>${cols}</cols><sheetData>${header}</row>`,
    );
  }

  /** Deflates sheet XML (a piece whose buffer is `source`, given back once deflated, or a string). */
  private async writeSheet(text: string | Buffer, source: Buffer | null = null): Promise<void> {
    const entry = this.current!;
    const bytes = typeof text === 'string' ? Buffer.from(text, 'utf8') : text;
    entry.crc = crc32(bytes, entry.crc);
    entry.size += bytes.length;
    if (entry.size > ZIP_LIMIT) throw new Error('xlsx: a sheet passed 4 GB');
    const level = this.options.level ?? 1;
    this.inFlight.push({
      deflated: deflatePiece(bytes, { level, finishFlush: constants.Z_SYNC_FLUSH }),
      source,
    });
    if (this.inFlight.length >= IN_FLIGHT) await this.sendDeflated(1);
  }

  /** Writes the oldest `count` deflated pieces of the current sheet (all of them by default). */
  private async sendDeflated(count = this.inFlight.length): Promise<void> {
    const entry = this.current!;
    for (const piece of this.inFlight.splice(0, count)) {
      const data = await piece.deflated;
      if (piece.source && this.spare.length < SPARE_PIECES) this.spare.push(piece.source);
      entry.compressed += data.length;
      this.emit(data);
    }
  }

  private async endSheet(): Promise<void> {
    const entry = this.current;
    if (!entry) return;
    await this.writeSheet('</sheetData></worksheet>');
    await this.sendDeflated();
    entry.compressed += FINAL_BLOCK.length;
    this.emit(FINAL_BLOCK);
    this.current = null;
    // The data descriptor: signature, CRC-32, compressed and uncompressed sizes.
    const descriptor = Buffer.alloc(16);
    descriptor.writeUInt32LE(0x08074b50, 0);
    descriptor.writeUInt32LE(entry.crc >>> 0, 4);
    descriptor.writeUInt32LE(entry.compressed, 8);
    descriptor.writeUInt32LE(entry.size, 12);
    this.emit(descriptor);
  }

  /** A small part, deflated whole. */
  private whole(name: string, text: string): void {
    const bytes = Buffer.from(text, 'utf8');
    const data = deflateRawSync(bytes);
    const entry = this.localHeader(name, false, crc32(bytes), data.length, bytes.length);
    this.emit(data);
    entry.compressed = data.length;
  }

  private localHeader(name: string, streamed: boolean, crc = 0, compressed = 0, size = 0): Entry {
    const fileName = Buffer.from(name, 'utf8');
    const header = Buffer.alloc(30);
    header.writeUInt32LE(0x04034b50, 0);
    header.writeUInt16LE(20, 4); // version needed: 2.0 (deflate)
    header.writeUInt16LE(0x0800 | (streamed ? 0x0008 : 0), 6); // UTF-8 names; sizes in a data descriptor
    header.writeUInt16LE(8, 8); // deflate
    header.writeUInt16LE(this.stamp.time, 10);
    header.writeUInt16LE(this.stamp.date, 12);
    header.writeUInt32LE(streamed ? 0 : crc >>> 0, 14);
    header.writeUInt32LE(streamed ? 0 : compressed, 18);
    header.writeUInt32LE(streamed ? 0 : size, 22);
    header.writeUInt16LE(fileName.length, 26);
    header.writeUInt16LE(0, 28);
    const entry: Entry = { name, crc, compressed: 0, size, offset: this.offset };
    this.entries.push(entry);
    this.emit(header);
    this.emit(fileName);
    return entry;
  }

  private directory(): void {
    const start = this.offset;
    for (const entry of this.entries) {
      const fileName = Buffer.from(entry.name, 'utf8');
      const record = Buffer.alloc(46);
      const streamed = entry.name.startsWith('xl/worksheets/');
      record.writeUInt32LE(0x02014b50, 0);
      record.writeUInt16LE(20, 4); // made by: 2.0
      record.writeUInt16LE(20, 6);
      record.writeUInt16LE(0x0800 | (streamed ? 0x0008 : 0), 8);
      record.writeUInt16LE(8, 10);
      record.writeUInt16LE(this.stamp.time, 12);
      record.writeUInt16LE(this.stamp.date, 14);
      record.writeUInt32LE(entry.crc >>> 0, 16);
      record.writeUInt32LE(entry.compressed, 20);
      record.writeUInt32LE(entry.size, 24);
      record.writeUInt16LE(fileName.length, 28);
      record.writeUInt32LE(entry.offset, 42);
      this.emit(record);
      this.emit(fileName);
    }
    const end = Buffer.alloc(22);
    end.writeUInt32LE(0x06054b50, 0);
    end.writeUInt16LE(this.entries.length, 8);
    end.writeUInt16LE(this.entries.length, 10);
    end.writeUInt32LE(this.offset - start, 12);
    end.writeUInt32LE(start, 16);
    this.emit(end);
  }

  private emit(bytes: Buffer): void {
    if (this.offset + bytes.length > ZIP_LIMIT) throw new Error('xlsx: the workbook passed 4 GB');
    this.offset += bytes.length;
    if (!this.output.destroyed) this.output.write(bytes); // a client gone: the caller stops at its next flush
  }
}
