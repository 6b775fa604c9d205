import { PassThrough } from 'node:stream';
import ExcelJS from 'exceljs';
import type { FastifyReply } from 'fastify';
import { NotFound } from './errors.ts';

export type CellValue = string | number | boolean | Date | null;

export interface XlsxColumn<T> {
  header: string;
  width?: number;
  value: (row: T) => CellValue;
}

export interface XlsxExport<T> {
  /** The worksheet, and the file `{name}_{timestamp}.xlsx` unless fileName is given. */
  name: string;
  fileName?: string;
  columns: XlsxColumn<T>[];
  /**
   * Reads one batch of rows in the list's order: by offset (the list's own query), or after `last`, the
   * previous batch's last row (keyset paging, for exports of millions of rows).
   */
  batch: (offset: number, limit: number, last: T | undefined) => Promise<T[]>;
  /** Rows per batch (2000 by default). */
  batchSize?: number;
  /** The 404 message when nothing matches. */
  emptyMessage: string;
}

const BATCH = 2000;
const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
/** Text that a spreadsheet could take for a formula. */
const FORMULA_START = /^[=+\-@]/;
const TEXT_FORMAT = '@';

/** Resolves when the stream drains or closes (a client that went away must not leave the export waiting). */
function drainedOrClosed(stream: PassThrough): Promise<void> {
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

/** `yyyyMMddHHmmss` in Bangkok time, for file names. */
export function fileTimestamp(at = new Date()): string {
  const local = new Date(at.getTime() + 7 * 3600_000);
  return local.toISOString().replace(/\D/g, '').slice(0, 14);
}

/**
 * Streams the rows as one worksheet with a header row and typed cells (numbers, booleans, dates stay
 * typed). Text starting with = + - @ is stored as a text cell in the Text format, never as a formula.
 * The writer has no backpressure of its own: every batch waits for the reply to drain.
 */
export async function sendXlsx<T>(reply: FastifyReply, spec: XlsxExport<T>): Promise<FastifyReply> {
  const size = spec.batchSize ?? BATCH;
  let rows = await spec.batch(0, size, undefined);
  if (rows.length === 0) throw new NotFound(spec.emptyMessage);

  const output = new PassThrough();
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: output, useStyles: true });
  const sheet = workbook.addWorksheet(spec.name);
  sheet.columns = spec.columns.map((column) => ({ header: column.header, width: column.width ?? 20 }));
  sheet.getRow(1).font = { bold: true };
  sheet.getRow(1).commit();

  const write = async () => {
    let offset = 0;
    while (rows.length > 0) {
      for (const row of rows) {
        const line = sheet.addRow(spec.columns.map((column) => column.value(row)));
        line.eachCell((cell) => {
          if (typeof cell.value === 'string' && FORMULA_START.test(cell.value)) cell.numFmt = TEXT_FORMAT;
        });
        line.commit();
      }
      if (output.writableNeedDrain) await drainedOrClosed(output);
      if (output.destroyed) return; // the client went away: stop reading
      if (rows.length < size) break;
      offset += rows.length;
      rows = await spec.batch(offset, size, rows.at(-1));
    }
    sheet.commit();
    await workbook.commit();
  };
  write().catch((error: unknown) => {
    reply.log.error({ err: error }, 'xlsx export failed');
    output.destroy(error as Error);
  });

  return reply
    .header('Content-Type', XLSX_TYPE)
    .header(
      'Content-Disposition',
      `attachment; filename="${spec.fileName ?? spec.name}_${fileTimestamp()}.xlsx"`,
    )
    .send(output);
}
