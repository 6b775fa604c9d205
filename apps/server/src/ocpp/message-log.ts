/**
 * The message log (issue 32, section 3; docs/decisions.md, Message log): every OCPP frame both ways of every
 * connection, and each connection and refused attempt, written to charger_messages and charger_connections.
 *
 * Off the hot path: a frame is only pushed onto an in-memory queue as the text that went over the wire. Every
 * FLUSH_MS the queue is parsed (message-frames.ts), each result or error paired with the action of the call
 * it answers, redacted, and written in a few multi-row statements (json_to_recordset, as store.ts). The queue
 * is bounded: past MAX_QUEUED_FRAMES or MAX_QUEUED_CHARS a frame is dropped and counted. Storage is bounded
 * too: rows older than `days` and a charger's rows beyond its newest `maxPerCharger` are deleted in small
 * batches by `prune`, on a timer, in every process (`for update skip locked`: processes never wait on each
 * other's deletes).
 */
import net from 'node:net';
import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/client.ts';
import { frameForLog, type ParsedFrame, storable } from './message-frames.ts';
import { WriteBehind } from './write-behind.ts';

/** How long frames wait in memory before they are written together. */
export const FLUSH_MS = 250;
/** The queue's bounds: past either, frames are dropped (and counted) until a flush empties it. */
export const MAX_QUEUED_FRAMES = 100_000;
export const MAX_QUEUED_CHARS = 64 * 1024 * 1024;
/** Rows per insert statement. */
const CHUNK_ROWS = 1000;
/** Characters of frames per insert statement (a few large frames fill one alone). */
const CHUNK_CHARS = 4 * 1024 * 1024;
/** Results and errors are paired with the calls of a connection still awaiting them: at most this many. */
const PENDING_CALLS = 1000;
/** Rows one delete statement removes; a prune round removes at most PRUNE_ROUND_ROWS. */
const PRUNE_BATCH = 2000;
const PRUNE_ROUND_ROWS = 100_000;
/** How often each process prunes (plus up to 10 % at random, so processes of a cluster spread out). */
export const PRUNE_MS = 60_000;
/** A charger's connections (and refused attempts) kept, whatever their age. */
export const MAX_CONNECTIONS_PER_CHARGER = 1000;
/** A charger refused again within this time is not recorded again (a wrong password retried in a loop). */
export const REFUSED_INTERVAL_MS = 10_000;
/** How often a flush that dropped frames (queue full, failed write) says so in the log. */
const DROP_REPORT_MS = 60_000;

export interface MessageLogBounds {
  /** Rows older than this many days are deleted. */
  days: number;
  /** A charger keeps at most this many of its newest frames. */
  maxPerCharger: number;
}

export interface MessageLogMetrics {
  /** Frames not written: the queue was full, or their write failed. */
  messageLogDropped(reason: 'queue_full' | 'write_failed', frames: number): void;
}

export interface ConnectionFacts {
  chargerId: string;
  /** The process holding it (chargers.connected_node's form). */
  node: string;
  remoteAddress: string | null;
  protocol: string | null;
}

interface QueuedFrame {
  connection: ConnectionLog;
  at: number;
  out: boolean;
  text: string;
}

interface ConnectionRow {
  facts: ConnectionFacts;
  /** An admitted connection's log (a refused attempt has none): its row id is kept there once written. */
  connection?: ConnectionLog;
  connectedAt: Date;
  closedAt?: Date;
  code?: number | null;
  reason?: string | null;
  refusedStatus?: number;
}

/**
 * The client's address: the socket's, or with TRUST_PROXY the first hop of X-Forwarded-For (as Fastify reads
 * request.ip) when it is an IP address.
 */
export function remoteAddressOf(
  handshake: { remoteAddress?: string; headers?: Record<string, string | string[] | undefined> },
  trustProxy: boolean,
): string | null {
  const forwarded = handshake.headers?.['x-forwarded-for'];
  if (trustProxy && typeof forwarded === 'string') {
    const first = forwarded.split(',')[0]?.trim() ?? '';
    if (net.isIP(first)) return first;
  }
  return handshake.remoteAddress ?? null;
}

/** One connection of a charger in the log: its frames, and the calls awaiting an answer (both ways). */
export class ConnectionLog {
  /** The charger's calls we have not answered yet, and ours it has not: message id -> action. */
  private readonly callsIn = new Map<string, string>();
  private readonly callsOut = new Map<string, string>();
  /** Its charger_connections row, once written: its close updates that row. */
  rowId: number | null = null;
  /** Why this process is closing it, when it is (a forced close reports no code of its own). */
  private intended: { code: number; reason: string } | null = null;

  constructor(
    private readonly log: MessageLog,
    readonly facts: ConnectionFacts,
    readonly connectedAt: Date,
  ) {}

  /** A frame the charger sent (`out` false) or we sent. Never throws, never waits. */
  frame(text: unknown, out: boolean): void {
    this.log.enqueue(this, typeof text === 'string' ? text : String(text), out);
  }

  /** This process is about to close the connection, with this code and reason. */
  closing(code: number, reason: string): void {
    this.intended ??= { code, reason };
  }

  /** The socket closed: the code and reason it reported (ours when we forced it shut without a close frame). */
  closed(code: unknown, reason: unknown): void {
    const observed = typeof code === 'number' ? code : null;
    const text = typeof reason === 'string' && reason !== '' ? storable(reason) : null;
    const forced = observed === 1006 || observed === null;
    this.log.closed(
      this,
      forced && this.intended ? this.intended.code : observed,
      text ?? this.intended?.reason ?? null,
    );
  }

  /** The action a frame belongs to: a call's own, or for an answer the call's (forgotten once answered). */
  pair(frame: ParsedFrame, out: boolean): string | null {
    if (frame.kind === 'call') {
      const calls = out ? this.callsOut : this.callsIn;
      calls.set(frame.messageId, frame.action ?? '');
      if (calls.size > PENDING_CALLS) calls.delete(calls.keys().next().value as string);
      return frame.action;
    }
    if (frame.kind === 'malformed') return null;
    const calls = out ? this.callsIn : this.callsOut;
    const action = calls.get(frame.messageId);
    calls.delete(frame.messageId);
    return action || null;
  }
}

/** The database or a transaction of it. */
type Executor = Pick<Db, 'execute'>;

/** Rows a statement reported it changed (node-postgres and PGlite name it differently). */
const changed = (result: unknown) => {
  const r = result as { rowCount?: number | null; affectedRows?: number };
  return Number(r.rowCount ?? r.affectedRows ?? 0);
};

/** PostgreSQL's data exceptions (SQLSTATE class 22): a row it cannot take, not a database that is away. */
function isDataError(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; depth < 4 && current && typeof current === 'object'; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && code.startsWith('22')) return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

/** `= any(these ids)`: looked up in the column's index (store.ts explains why). */
const anyOf = (ids: string[]) =>
  sql`any(array(select json_array_elements_text(${JSON.stringify([...new Set(ids)])}::json)))`;

interface MessageRow {
  c: string;
  t: number;
  d: 'in' | 'out';
  k: string;
  a: string | null;
  m: string;
  p: string;
  j: unknown;
}

export class MessageLog {
  private queue: QueuedFrame[] = [];
  private queuedChars = 0;
  /** Connections opened (or refused) since the last flush, by their log (a refusal: a key of its own). */
  private opened = new Map<object, ConnectionRow>();
  private closes: ConnectionRow[] = [];
  private readonly writes: WriteBehind;
  private pruner: NodeJS.Timeout | null = null;
  private pruning: Promise<unknown> | null = null;
  private readonly dropped = { queue_full: 0, write_failed: 0, reportedAt: 0 };
  /** Rows written per charger since its bound was last checked (messages, connections). */
  private readonly writtenSinceCheck = new Map<string, { messages: number; connections: number }>();
  private readonly lastRefused = new Map<string, number>();

  constructor(
    private readonly db: Db,
    private readonly log: FastifyBaseLogger,
    readonly bounds: MessageLogBounds,
    private readonly metrics: MessageLogMetrics,
    flushMs = FLUSH_MS,
  ) {
    this.writes = new WriteBehind(flushMs, () => this.writePending());
  }

  /** Prunes every PRUNE_MS from now on (the first round soon after the start). */
  start(): void {
    const round = () => {
      this.pruner = setTimeout(
        () => {
          this.pruning = this.prune()
            .catch((error: unknown) => this.log.warn({ err: error }, 'OCPP message log: pruning failed'))
            .finally(() => {
              this.pruning = null;
              if (this.pruner) round();
            });
        },
        PRUNE_MS * (1 + Math.random() / 10),
      );
      this.pruner.unref();
    };
    round();
  }

  /** A charger admitted: its connection row, and the log of its frames. */
  connected(facts: ConnectionFacts): ConnectionLog {
    const connection = new ConnectionLog(this, facts, new Date());
    this.opened.set(connection, { facts, connectedAt: connection.connectedAt, connection });
    this.schedule();
    return connection;
  }

  /**
   * An upgrade of a charger that exists, refused (400 subprotocol, 401 password, 403 inactive). Ids that are
   * nobody's are never recorded (a scanner cannot fill the table), and a charger refused again within
   * REFUSED_INTERVAL_MS is not recorded again.
   */
  refused(facts: ConnectionFacts, status: number, reason: string): void {
    const now = Date.now();
    const last = this.lastRefused.get(facts.chargerId);
    if (last !== undefined && now - last < REFUSED_INTERVAL_MS) return;
    this.lastRefused.set(facts.chargerId, now);
    const at = new Date(now);
    this.opened.set(
      {},
      { facts, connectedAt: at, closedAt: at, code: status, reason, refusedStatus: status },
    );
    this.schedule();
  }

  closed(connection: ConnectionLog, code: number | null, reason: string | null): void {
    const row = {
      facts: connection.facts,
      connection,
      connectedAt: connection.connectedAt,
      closedAt: new Date(),
      code,
      reason,
    };
    // Opened and closed before a flush: one row says both.
    const open = this.opened.get(connection);
    if (open) Object.assign(open, row);
    else this.closes.push(row);
    this.schedule();
  }

  enqueue(connection: ConnectionLog, text: string, out: boolean): void {
    if (this.queue.length >= MAX_QUEUED_FRAMES || this.queuedChars + text.length > MAX_QUEUED_CHARS) {
      this.dropped.queue_full++;
      this.metrics.messageLogDropped('queue_full', 1);
      return;
    }
    this.queue.push({ connection, at: Date.now(), out, text });
    this.queuedChars += text.length;
    this.schedule();
  }

  private schedule(): void {
    this.writes.schedule();
  }

  /** Writes what is queued (after any flush already running). Never rejects. */
  flush(): Promise<void> {
    return this.writes.flush();
  }

  private async writePending(): Promise<void> {
    const frames = this.queue;
    const opened = [...this.opened.values()];
    const closes = this.closes;
    this.queue = [];
    this.queuedChars = 0;
    this.opened = new Map();
    this.closes = [];
    const chunks: MessageRow[][] = [];
    let rows: MessageRow[] = [];
    let chars = 0;
    for (const frame of frames) {
      rows.push(this.rowOf(frame));
      chars += frame.text.length;
      if (rows.length >= CHUNK_ROWS || chars >= CHUNK_CHARS) {
        chunks.push(rows);
        rows = [];
        chars = 0;
      }
    }
    if (rows.length > 0) chunks.push(rows);
    if (opened.length + closes.length + chunks.length === 0) return;
    try {
      // One transaction: the embedded database syncs its log to disk once per flush, not once per statement
      // (a sync blocks the event loop there).
      const written = await this.db.transaction(async (tx) => {
        const connections = opened.length > 0 ? await this.writeOpened(tx, opened) : null;
        if (closes.length > 0) await this.writeCloses(tx, closes);
        for (const chunk of chunks) await this.insert(tx, chunk);
        return connections;
      });
      written?.();
    } catch {
      // Apart, so that what fails costs only itself.
      try {
        if (opened.length > 0) (await this.writeOpened(this.db, opened))();
        if (closes.length > 0) await this.writeCloses(this.db, closes);
      } catch (error) {
        this.log.warn({ err: error }, 'OCPP message log: writing connections failed');
      }
      for (const chunk of chunks) await this.insertApart(chunk);
    }
    this.reportDrops();
  }

  private rowOf({ connection, at, out, text }: QueuedFrame): MessageRow {
    let frame: ParsedFrame;
    try {
      frame = frameForLog(text);
    } catch {
      // Not expected (the parser catches what it reads); still, a frame must never stop the log.
      frame = { kind: 'malformed', messageId: '', action: null, payload: { reason: 'unreadable' } };
    }
    const { chargerId, protocol } = connection.facts;
    const written = this.writtenSinceCheck.get(chargerId);
    if (written) written.messages++;
    else this.writtenSinceCheck.set(chargerId, { messages: 1, connections: 0 });
    return {
      c: chargerId,
      t: at,
      d: out ? 'out' : 'in',
      k: frame.kind,
      a: connection.pair(frame, out),
      m: frame.messageId,
      p: protocol ?? '',
      j: frame.payload,
    };
  }

  private async insert(db: Executor, rows: MessageRow[]): Promise<void> {
    await db.execute(sql`insert into charger_messages
        (charger_id, at, direction, kind, action, message_id, protocol, payload)
      select v.c, to_timestamp(v.t / 1000.0), v.d, v.k, v.a, v.m, v.p, coalesce(v.j, 'null'::jsonb)
      from json_to_recordset(${JSON.stringify(rows)}::json)
        as v(c text, t float8, d text, k text, a text, m text, p text, j jsonb)`);
  }

  /** The rows in a statement of their own; if PostgreSQL refuses one of them, each half again, down to the one. */
  private async insertApart(rows: MessageRow[]): Promise<void> {
    try {
      await this.insert(this.db, rows);
    } catch (error) {
      if (rows.length > 1 && isDataError(error)) {
        const half = Math.ceil(rows.length / 2);
        await this.insertApart(rows.slice(0, half));
        await this.insertApart(rows.slice(half));
        return;
      }
      this.dropped.write_failed += rows.length;
      this.metrics.messageLogDropped('write_failed', rows.length);
      if (Date.now() - this.dropped.reportedAt >= DROP_REPORT_MS) {
        this.log.warn({ err: error, frames: rows.length }, 'OCPP message log: writing frames failed');
      }
    }
  }

  private reportDrops(): void {
    const { queue_full: full, write_failed: failed } = this.dropped;
    if (full + failed === 0 || Date.now() - this.dropped.reportedAt < DROP_REPORT_MS) return;
    this.log.warn(
      { queueFull: full, writeFailed: failed },
      'OCPP message log: frames dropped (not in the log) since the last report',
    );
    this.dropped.queue_full = 0;
    this.dropped.write_failed = 0;
    this.dropped.reportedAt = Date.now();
  }

  /** Writes the connections; answers what tells each its row id, to run once the rows are committed. */
  private async writeOpened(db: Executor, rows: ConnectionRow[]): Promise<() => void> {
    const values = rows.map((row) => {
      const written = this.writtenSinceCheck.get(row.facts.chargerId);
      if (written) written.connections++;
      else this.writtenSinceCheck.set(row.facts.chargerId, { messages: 0, connections: 1 });
      return {
        c: row.facts.chargerId,
        n: row.facts.node,
        r: row.facts.remoteAddress,
        p: row.facts.protocol,
        s: row.connectedAt.toISOString(),
        e: row.closedAt?.toISOString() ?? null,
        code: row.code ?? null,
        reason: row.reason ?? null,
        refused: row.refusedStatus ?? null,
      };
    });
    const inserted = await db.execute(sql`insert into charger_connections (charger_id, node,
        remote_address, protocol, connected_at, disconnected_at, close_code, close_reason, refused_status)
      select v.c, v.n, v.r, v.p, v.s, v.e, v.code, v.reason, v.refused
      from json_to_recordset(${JSON.stringify(values)}::json) as v(c text, n text, r text, p text,
        s timestamptz, e timestamptz, code int, reason text, refused int)
      returning id, charger_id as c, node as n, (extract(epoch from connected_at) * 1000)::float8 as ms`);
    // Each admitted connection learns its row, which its close then updates by id: a join on the charger,
    // node and time planned without statistics (PGlite) compared every pair, seconds for 5,000 closes.
    const key = (chargerId: string, node: string | null, ms: number) =>
      `${chargerId}\u0000${node}\u0000${ms}`;
    const ids = new Map(
      (
        inserted as unknown as {
          rows: Array<{ id: number | string; c: string; n: string | null; ms: number }>;
        }
      ).rows.map((row) => [key(row.c, row.n, Math.round(Number(row.ms))), Number(row.id)]),
    );
    const learn = () => {
      for (const row of rows) {
        if (row.connection && row.refusedStatus === undefined) {
          row.connection.rowId =
            ids.get(key(row.facts.chargerId, row.facts.node, row.connectedAt.getTime())) ?? null;
        }
      }
    };
    // Connections of these chargers still open on another process: it stopped without recording their close,
    // or it is closing one now and records its own close over this. This process records its own.
    const admitted = rows.filter((row) => row.refusedStatus === undefined);
    const [first] = admitted;
    if (!first) return learn;
    const since = new Date(Math.min(...admitted.map((row) => row.connectedAt.getTime()))).toISOString();
    await db.execute(sql`update charger_connections
        set disconnected_at = ${since}::timestamptz, close_reason = 'No close recorded: its server process stopped'
      where charger_id = ${anyOf(admitted.map((row) => row.facts.chargerId))} and disconnected_at is null
        and refused_status is null and connected_at < ${since}::timestamptz
        and node is distinct from ${first.facts.node}`);
    return learn;
  }

  /** Closes by row id (a connection whose row was not written has nothing to close). */
  private async writeCloses(db: Executor, rows: ConnectionRow[]): Promise<void> {
    const values = rows.flatMap((row) =>
      row.connection?.rowId
        ? [
            {
              id: row.connection.rowId,
              e: row.closedAt?.toISOString() ?? null,
              code: row.code ?? null,
              reason: row.reason ?? null,
            },
          ]
        : [],
    );
    if (values.length === 0) return;
    await db.execute(sql`update charger_connections as c
        set disconnected_at = v.e, close_code = v.code, close_reason = v.reason
      from json_to_recordset(${JSON.stringify(values)}::json) as v(id bigint, e timestamptz, code int, reason text)
      where c.id = v.id`);
  }

  /**
   * One round of deletes within the bounds: rows older than `days`, then for each charger that has written
   * a tenth of its bound since its last check, its rows beyond the newest `maxPerCharger` (connections:
   * beyond MAX_CONNECTIONS_PER_CHARGER). Small batches, rows another process is deleting skipped. Answers
   * the rows deleted.
   */
  async prune(): Promise<{ messages: number; connections: number }> {
    const cutoff = new Date(Date.now() - this.bounds.days * 86_400_000).toISOString();
    let budget = PRUNE_ROUND_ROWS;
    const deleted = { messages: 0, connections: 0 };
    const repeat = async (statement: () => Promise<unknown>): Promise<number> => {
      let total = 0;
      while (budget > 0) {
        const n = changed(await statement());
        total += n;
        budget -= n;
        if (n < PRUNE_BATCH) break;
      }
      return total;
    };
    deleted.messages += await repeat(() =>
      this.db.execute(sql`delete from charger_messages where id in (select id from charger_messages
        where at < ${cutoff}::timestamptz order by at limit ${PRUNE_BATCH} for update skip locked)`),
    );
    // An open connection stays, however old.
    deleted.connections += await repeat(() =>
      this.db.execute(sql`delete from charger_connections where id in (select id from charger_connections
        where coalesce(disconnected_at, connected_at) < ${cutoff}::timestamptz
          and (disconnected_at is not null or refused_status is not null)
        limit ${PRUNE_BATCH} for update skip locked)`),
    );
    const { maxPerCharger } = this.bounds;
    const messagesDue = Math.max(1, Math.floor(maxPerCharger / 10));
    const connectionsDue = MAX_CONNECTIONS_PER_CHARGER / 10;
    for (const [chargerId, written] of [...this.writtenSinceCheck]) {
      if (budget <= 0) break;
      if (written.messages >= messagesDue) {
        written.messages = 0;
        deleted.messages += await repeat(() =>
          this.beyondNewest('charger_messages', 'at', chargerId, maxPerCharger),
        );
      }
      if (written.connections >= connectionsDue) {
        written.connections = 0;
        deleted.connections += await repeat(() =>
          this.beyondNewest('charger_connections', 'connected_at', chargerId, MAX_CONNECTIONS_PER_CHARGER),
        );
      }
      if (written.messages === 0 && written.connections === 0) this.writtenSinceCheck.delete(chargerId);
    }
    const now = Date.now();
    for (const [chargerId, at] of this.lastRefused) {
      if (now - at >= REFUSED_INTERVAL_MS) this.lastRefused.delete(chargerId);
    }
    return deleted;
  }

  /** Deletes a batch of the charger's rows older than its newest `keep` (by `time`, then id). */
  private beyondNewest(
    table: 'charger_messages' | 'charger_connections',
    time: 'at' | 'connected_at',
    chargerId: string,
    keep: number,
  ) {
    const [t, at] = [sql.identifier(table), sql.identifier(time)];
    return this.db.execute(sql`delete from ${t} where id in (select id from ${t}
      where charger_id = ${chargerId} and (${at}, id) <= (select ${at}, id from ${t}
        where charger_id = ${chargerId} order by ${at} desc, id desc offset ${keep} limit 1)
      limit ${PRUNE_BATCH} for update skip locked)`);
  }

  /** Stops pruning and writes what is queued. */
  async close(): Promise<void> {
    if (this.pruner) clearTimeout(this.pruner);
    this.pruner = null;
    this.writes.cancel();
    await this.pruning;
    await this.flush();
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The OCPP message log (tests and the bench flush and prune it when they need to). */
    messageLog: MessageLog;
  }
}
