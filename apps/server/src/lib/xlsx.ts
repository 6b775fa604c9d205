import { BANGKOK_OFFSET_MS } from '@ev/shared';
import type { FastifyReply } from 'fastify';
import { NotFound } from './errors.ts';
import { type SheetCell, SheetStream } from './sheet-stream.ts';

export type CellValue = SheetCell;

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
/** Rows added between two flushes, however big the batch (the text waiting to be deflated stays small). */
const FLUSH_ROWS = 1000;
const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** `yyyyMMddHHmmss` in Bangkok time, for file names. */
export function fileTimestamp(at = new Date()): string {
  const local = new Date(at.getTime() + BANGKOK_OFFSET_MS);
  return local.toISOString().replace(/\D/g, '').slice(0, 14);
}

/**
 * Streams the rows as one worksheet with a header row and typed cells (numbers, booleans, dates stay typed;
 * text starting with = + - @ is a text cell in the Text format, never a formula) through SheetStream, a batch
 * at a time: each batch waits for the reply to drain, and a client that went away stops the reading.
 */
export async function sendXlsx<T>(reply: FastifyReply, spec: XlsxExport<T>): Promise<FastifyReply> {
  const size = spec.batchSize ?? BATCH;
  let rows = await spec.batch(0, size, undefined);
  if (rows.length === 0) throw new NotFound(spec.emptyMessage);

  const sheet = new SheetStream(
    spec.name,
    spec.columns.map((column) => ({ header: column.header, width: column.width ?? 20 })),
  );
  const { output } = sheet;
  const values = spec.columns.map((column) => column.value);
  const write = async () => {
    let offset = 0;
    let batch: T[] | null = rows;
    // One array of cells reused for every row (addRow reads it at once).
    const cells: CellValue[] = new Array(values.length);
    while (batch && batch.length > 0) {
      for (let r = 0; r < batch.length; r++) {
        const row = batch[r]!;
        for (let i = 0; i < values.length; i++) cells[i] = values[i]!(row);
        sheet.addRow(cells);
        // Text of at most a thousand rows waits to be deflated (~2.5 MB for the booking report).
        if (r % FLUSH_ROWS === FLUSH_ROWS - 1) {
          await sheet.flush();
          if (output.destroyed) return; // the client went away: stop reading
        }
      }
      const count: number = batch.length;
      const last: T | undefined = batch[count - 1];
      batch = null;
      rows = [];
      // The next batch is read while this one is deflated and sent.
      const next: Promise<T[]> | null = count < size ? null : spec.batch(offset + count, size, last);
      next?.catch(() => undefined); // the client gone before it is awaited: nothing to report
      await sheet.flush();
      if (output.destroyed || !next) break;
      offset += count;
      batch = await next;
    }
    if (output.destroyed) return;
    await sheet.finish();
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
