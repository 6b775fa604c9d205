/**
 * What a charger said (issue 32, section 3): its message log and its connections, as ocpp/message-log.ts
 * wrote them, read from the database (so any process of a cluster answers for a charger held by another).
 * Each call first finds the charger in the caller's scope (404 outside it, as for a charger that does not
 * exist).
 */
import { Readable } from 'node:stream';
import {
  CHARGER_MESSAGE_TEXT,
  type ChargerConnectionListResponse,
  type ChargerConnectionQuery,
  type ChargerMessage,
  type ChargerMessageListResponse,
  type ChargerMessageQuery,
  csvCell,
  MESSAGE_CSV_HEADER,
  type MessageDownload,
  messageFileName,
} from '@ev/shared';
import { and, count, desc, eq, gt, gte, lte, type SQL, sql } from 'drizzle-orm';
import type { FastifyReply } from 'fastify';
import type { Db } from '../../db/client.ts';
import { chargerConnections, chargerMessages } from '../../db/schema/index.ts';
import { NotFound } from '../../lib/errors.ts';
import { fileTimestamp } from '../../lib/xlsx.ts';
import type { DataScope } from '../../plugins/scope.ts';
import { requireChargerInScope } from './operation.service.ts';

/** Rows a download reads per query. */
const DOWNLOAD_BATCH = 2000;

const m = chargerMessages;
const columns = {
  id: m.id,
  at: m.at,
  direction: m.direction,
  kind: m.kind,
  action: m.action,
  messageId: m.messageId,
  protocol: m.protocol,
  payload: m.payload,
};
type Row = Omit<ChargerMessage, 'at'> & { at: Date };

const messageOf = (row: Row): ChargerMessage => ({ ...row, at: row.at.toISOString() });

function messageFilter(chargerId: string, query: ChargerMessageQuery): SQL | undefined {
  return and(
    eq(m.chargerId, chargerId),
    query.action === undefined ? undefined : eq(m.action, query.action),
    query.direction === undefined ? undefined : eq(m.direction, query.direction),
    query.kind === undefined ? undefined : eq(m.kind, query.kind),
    query.createdAfter === undefined ? undefined : gte(m.at, query.createdAfter),
    query.createdBefore === undefined ? undefined : lte(m.at, query.createdBefore),
    // One process writes a charger's frames at a time, one flush after another: ids grow in the order its
    // frames were committed, so a tail that asks for those after the last id it saw misses none.
    query.afterId === undefined ? undefined : gt(m.id, query.afterId),
  );
}

/** A page of the charger's messages, newest first, and how many match. */
export async function listMessages(
  db: Db,
  scope: DataScope,
  chargerId: string,
  query: ChargerMessageQuery,
): Promise<ChargerMessageListResponse> {
  await requireChargerInScope(db, scope, chargerId);
  const where = messageFilter(chargerId, query);
  const [rows, [counted]] = await Promise.all([
    db
      .select(columns)
      .from(m)
      .where(where)
      .orderBy(desc(m.at), desc(m.id))
      .limit(query.size)
      .offset((query.page - 1) * query.size),
    db.select({ total: count() }).from(m).where(where),
  ]);
  return { total: Number(counted?.total ?? 0), messages: rows.map(messageOf) };
}

const csvLine = (chargerId: string, row: Row) =>
  `${[
    String(row.id),
    row.at.toISOString(),
    chargerId,
    row.direction,
    row.kind,
    row.action ?? '',
    row.messageId,
    row.protocol,
    JSON.stringify(row.payload) ?? 'null',
  ]
    .map(csvCell)
    .join(',')}\r\n`;

const jsonLine = (chargerId: string, row: Row) => `${JSON.stringify({ ...messageOf(row), chargerId })}\n`;

/**
 * `mode=csv|jsonl`: every message matching the filters, oldest first, streamed a batch at a time (the next
 * batch read once the last has drained to the client); 404 when none match.
 */
export async function sendMessageFile(
  db: Db,
  scope: DataScope,
  chargerId: string,
  query: ChargerMessageQuery & { mode: MessageDownload },
  reply: FastifyReply,
): Promise<FastifyReply> {
  await requireChargerInScope(db, scope, chargerId);
  const where = messageFilter(chargerId, query);
  // The cursor is the last row's time as PostgreSQL writes it: a JS Date would lose its microseconds.
  const batch = (after: { at: string; id: number } | null) =>
    db
      .select({ ...columns, cursor: sql<string>`${m.at}::text` })
      .from(m)
      .where(
        and(where, after ? sql`(${m.at}, ${m.id}) > (${after.at}::timestamptz, ${after.id})` : undefined),
      )
      .orderBy(m.at, m.id)
      .limit(DOWNLOAD_BATCH);
  const first = await batch(null);
  if (first.length === 0) throw new NotFound(CHARGER_MESSAGE_TEXT.notFound);
  const line = query.mode === 'csv' ? csvLine : jsonLine;
  async function* lines() {
    if (query.mode === 'csv') yield `${MESSAGE_CSV_HEADER.join(',')}\r\n`;
    let rows = first;
    for (;;) {
      yield rows.map((row) => line(chargerId, row)).join('');
      const last = rows.at(-1);
      if (!last || rows.length < DOWNLOAD_BATCH) return;
      rows = await batch({ at: last.cursor, id: last.id });
      if (rows.length === 0) return;
    }
  }
  return reply
    .header(
      'Content-Type',
      query.mode === 'csv' ? 'text/csv; charset=utf-8' : 'application/x-ndjson; charset=utf-8',
    )
    .header(
      'Content-Disposition',
      `attachment; filename="${messageFileName(chargerId, fileTimestamp(), query.mode)}"`,
    )
    .header('Access-Control-Expose-Headers', 'Content-Disposition')
    .send(Readable.from(lines()));
}

/** A page of the charger's connections and refused attempts, newest first. */
export async function listConnections(
  db: Db,
  scope: DataScope,
  chargerId: string,
  query: ChargerConnectionQuery,
): Promise<ChargerConnectionListResponse> {
  await requireChargerInScope(db, scope, chargerId);
  const c = chargerConnections;
  const where = eq(c.chargerId, chargerId);
  const [rows, [counted]] = await Promise.all([
    db
      .select()
      .from(c)
      .where(where)
      .orderBy(desc(c.connectedAt), desc(c.id))
      .limit(query.size)
      .offset((query.page - 1) * query.size),
    db.select({ total: count() }).from(c).where(where),
  ]);
  return {
    total: Number(counted?.total ?? 0),
    connections: rows.map(({ chargerId: _chargerId, ...row }) => ({
      ...row,
      connectedAt: row.connectedAt.toISOString(),
      disconnectedAt: row.disconnectedAt?.toISOString() ?? null,
    })),
  };
}
