import { isChargerId } from '@ev/shared';
import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/client.ts';
import { chargers, connectors } from '../db/schema/index.ts';
import { WriteBehind } from './write-behind.ts';

/** OCPP 1.6 ChargePointStatus → the back-office's status values (document 2, section 3). */
const STATUS_OF: Record<string, string> = {
  Available: 'AVAILABLE',
  Preparing: 'PREPARING',
  Charging: 'CHARGING',
  SuspendedEV: 'PAUSED',
  SuspendedEVSE: 'PAUSED',
  Finishing: 'FINISHING',
  Reserved: 'RESERVED',
  Unavailable: 'UNAVAILABLE',
  Faulted: 'FAULTED',
};
export const backOfficeStatus = (ocppStatus: string) => STATUS_OF[ocppStatus] ?? 'UNKNOWN';

export interface BootInfo {
  vendor: string;
  model: string;
  serialNumber: string | null;
  firmwareVersion: string | null;
}

export interface StatusReport {
  status: string;
  errorCode: string;
  vendorErrorCode: string | null;
  info: string | null;
  at: Date;
}

/** A status report as queued: with the time we received it (alerts measure from it, not from the charger's). */
type StatusChange = { chargerId: string; number: number; receivedAt: Date } & StatusReport;

interface ChargerChange {
  lastSeenAt?: Date;
  /** A node id when it connected here, null when it went away. */
  connectedNode?: string | null;
  /** The subprotocol of the connection it made here ('ocpp1.6', 'ocpp2.0.1'). */
  protocol?: string;
  /** The node it went away from: connected_node is cleared only while it still names that node. */
  leftNode?: string;
  boot?: BootInfo & { at: Date; heartbeatIntervalS: number };
}

/**
 * Before this time a charger's heartbeat deadline has passed: twice the interval it was given (60 s before its
 * first boot). A charger never seen (last seen null) is never past it.
 */
export const heartbeatDeadline = sql`now() - make_interval(secs => 2 * coalesce(${chargers.heartbeatIntervalS}, 60))`;

/** Rows per statement: each statement is short (PGlite runs it on the server's own thread). */
const CHUNK = 1000;

/**
 * `= any(these ids)`, the ids as one JSON parameter. The planner cannot see how many rows a JSON function
 * yields (it assumes 100) and PGlite keeps no statistics (no autovacuum), so a join on json_to_recordset
 * alone scans the whole chargers table; `column = any(array)` is looked up in the column's index.
 */
const anyOf = (ids: string[]) =>
  sql`any(array(select json_array_elements_text(${JSON.stringify(ids)}::json)))`;

/** How long an admission waits for others to share its query (little next to a WebSocket handshake). */
const ADMISSION_WINDOW_MS = 10;

/** The database or a transaction of it. */
type Executor = Pick<Db, 'execute'>;

export interface Admission {
  active: boolean;
  passwordHash: string | null;
  /** The version it is to be spoken to in: 'auto', '1.6' or '2.0.1' (chargers.ocpp_protocol). */
  ocppProtocol: string;
}

/**
 * What chargers tell us, written to the database. Frequent facts (last seen, connection, boot data, connector
 * statuses) are answered at once and written together every `flushMs` (last value wins per charger or
 * connector), so 10,000 chargers booting at once cost a few statements, not 10,000 round trips.
 */
export class ChargePointStore {
  private chargerChanges = new Map<string, ChargerChange>();
  private statusChanges = new Map<string, StatusChange>();
  private readonly writes: WriteBehind;
  private admissions: Array<{
    chargerId: string;
    resolve: (admission: Admission | null) => void;
    reject: (error: unknown) => void;
  }> = [];

  constructor(
    private readonly db: Db,
    private readonly log: FastifyBaseLogger,
    flushMs = 200,
  ) {
    this.writes = new WriteBehind(flushMs, () => this.writePending());
  }

  private change(chargerId: string): ChargerChange {
    let change = this.chargerChanges.get(chargerId);
    if (!change) {
      change = {};
      this.chargerChanges.set(chargerId, change);
    }
    this.writes.schedule();
    return change;
  }

  seen(chargerId: string, at = new Date()): void {
    this.change(chargerId).lastSeenAt = at;
  }

  connected(chargerId: string, node: string, protocol?: string): void {
    const change = this.change(chargerId);
    change.connectedNode = node;
    if (protocol) change.protocol = protocol;
    change.lastSeenAt = new Date();
  }

  /**
   * The charger's socket on `node` closed. Another process may hold a newer connection of it by now (it
   * reconnected there): connected_node then names that process and stays.
   */
  disconnected(chargerId: string, node: string): void {
    const change = this.change(chargerId);
    change.connectedNode = null;
    change.leftNode = node;
  }

  booted(chargerId: string, boot: BootInfo, heartbeatIntervalS: number): void {
    const at = new Date();
    const change = this.change(chargerId);
    change.boot = { ...boot, at, heartbeatIntervalS };
    change.lastSeenAt = at;
  }

  status(chargerId: string, number: number, report: StatusReport): void {
    this.statusChanges.set(`${number}\u0000${chargerId}`, {
      chargerId,
      number,
      ...report,
      receivedAt: new Date(),
    });
    this.change(chargerId).lastSeenAt = new Date();
  }

  /** Writes what is pending (after any flush already running). */
  flush(): Promise<void> {
    return this.writes.flush();
  }

  private async writePending(): Promise<void> {
    const chargerChanges = [...this.chargerChanges];
    const statusChanges = [...this.statusChanges.values()];
    this.chargerChanges.clear();
    this.statusChanges.clear();
    if (chargerChanges.length === 0 && statusChanges.length === 0) return;
    try {
      // One transaction: a reader sees a flush whole (a charger online with its connectors' statuses), and
      // the database syncs its log once per flush instead of once per statement.
      await this.db.transaction(async (tx) => {
        for (let i = 0; i < chargerChanges.length; i += CHUNK) {
          await this.writeChargers(tx, chargerChanges.slice(i, i + CHUNK));
        }
        for (let i = 0; i < statusChanges.length; i += CHUNK) {
          await this.writeStatuses(tx, statusChanges.slice(i, i + CHUNK));
        }
      });
    } catch (error) {
      // What chargers send is validated before it gets here, but one bad member must never cost every other
      // charger its state: write each change alone, so only the bad one is lost.
      this.log.warn({ err: error }, 'OCPP: writing charger states together failed; writing them one by one');
      await this.writeOneByOne(chargerChanges, statusChanges);
    }
  }

  private async writeOneByOne(
    chargerChanges: Array<[string, ChargerChange]>,
    statusChanges: StatusChange[],
  ): Promise<void> {
    const failed: string[] = [];
    let lastError: unknown = null;
    const attempt = async (chargerId: string, write: () => Promise<void>) => {
      try {
        await write();
      } catch (error) {
        failed.push(chargerId);
        lastError = error;
      }
    };
    for (const change of chargerChanges)
      await attempt(change[0], () => this.writeChargers(this.db, [change]));
    for (const change of statusChanges) {
      await attempt(change.chargerId, () => this.writeStatuses(this.db, [change]));
    }
    if (failed.length > 0) {
      this.log.error(
        { err: lastError, failed: failed.length, chargerIds: [...new Set(failed)].slice(0, 20) },
        'OCPP: writing charger states failed',
      );
    }
  }

  // The rows of each statement go as one JSON parameter (json_to_recordset), not as a parameter per value:
  // building and binding thousands of parameters cost more than the update itself (bench/ocpp.ts). `anyOf`
  // repeats the ids so that the planner looks them up by index instead of scanning the table.
  private async writeChargers(db: Executor, changes: Array<[string, ChargerChange]>): Promise<void> {
    const boots = changes.flatMap(([id, { boot }]) =>
      boot
        ? [
            {
              id,
              vendor: boot.vendor,
              model: boot.model,
              serial: boot.serialNumber,
              firmware: boot.firmwareVersion,
              at: boot.at.toISOString(),
              hb: boot.heartbeatIntervalS,
            },
          ]
        : [],
    );
    if (boots.length > 0) {
      await db.execute(sql`update ${chargers} as c set
          vendor = v.vendor, model = v.model, serial_number = v.serial, firmware_version = v.firmware,
          booted_at = v.at, heartbeat_interval_s = v.hb
        from json_to_recordset(${JSON.stringify(boots)}::json)
          as v(id text, vendor text, model text, serial text, firmware text, at timestamptz, hb int)
        where c.id = v.id and c.id = ${anyOf(boots.map((b) => b.id))}`);
    }
    // connected: 0 = leave as it is, 1 = set to node, 2 = clear (only if still ours).
    const seen = changes.flatMap(([id, change]) =>
      change.lastSeenAt || change.connectedNode !== undefined
        ? [
            {
              id,
              seen: change.lastSeenAt?.toISOString() ?? null,
              mode: change.connectedNode === undefined ? 0 : change.connectedNode === null ? 2 : 1,
              node: change.connectedNode ?? change.leftNode ?? null,
              protocol: change.protocol ?? null,
            },
          ]
        : [],
    );
    if (seen.length > 0) {
      await db.execute(sql`update ${chargers} as c set
          last_seen_at = greatest(c.last_seen_at, v.seen),
          connected_node = case
            when v.mode = 1 then v.node
            when v.mode = 2 and c.connected_node = v.node then null
            else c.connected_node end,
          protocol = coalesce(v.protocol, c.protocol)
        from json_to_recordset(${JSON.stringify(seen)}::json)
          as v(id text, seen timestamptz, mode int, node text, protocol text)
        where c.id = v.id and c.id = ${anyOf(seen.map((row) => row.id))}`);
    }
  }

  private async writeStatuses(db: Executor, changes: StatusChange[]): Promise<void> {
    const rows = changes.map((s) => ({
      charger_id: s.chargerId,
      num: s.number,
      status: s.status,
      error_code: s.errorCode,
      vendor_code: s.vendorErrorCode,
      info: s.info,
      at: s.at.toISOString(),
      received: s.receivedAt.toISOString(),
    }));
    // status_since: when we first received the status the connector is in (our clock); a repeat keeps it.
    await db.execute(sql`update ${connectors} as c set
        status = v.status, error_code = v.error_code, vendor_error_code = v.vendor_code,
        status_info = v.info, status_at = v.at,
        status_since = case when c.status is distinct from v.status or c.status_since is null
          then v.received else c.status_since end
      from json_to_recordset(${JSON.stringify(rows)}::json) as v(charger_id text, num int, status text,
        error_code text, vendor_code text, info text, at timestamptz, received timestamptz)
      where c.charger_id = v.charger_id and c.ocpp_connector_id = v.num
        and c.charger_id = ${anyOf(rows.map((row) => row.charger_id))}`);
  }

  /**
   * Connectors of chargers silent past their heartbeat deadline (twice their interval) become UNAVAILABLE.
   * Chargers never heard from keep what they had.
   */
  async markSilentUnavailable(): Promise<void> {
    await this.db.execute(sql`update ${connectors} set status = 'UNAVAILABLE', status_at = now(), status_since = now()
      from ${chargers}
      where ${chargers.id} = ${connectors.chargerId} and ${connectors.status} <> 'UNAVAILABLE'
        and ${chargers.lastSeenAt} < ${heartbeatDeadline}`);
  }

  /**
   * A charger may connect: it exists and is active; its password hash if it has one. The lookups of chargers
   * connecting within ADMISSION_WINDOW_MS (a reconnect storm) share one query: a query per charger made the
   * database the bottleneck of 10,000 chargers connecting at once (bench/ocpp.ts).
   */
  admission(chargerId: string): Promise<Admission | null> {
    return new Promise((resolve, reject) => {
      if (this.admissions.push({ chargerId, resolve, reject }) === 1) {
        setTimeout(() => void this.admitWaiting(), ADMISSION_WINDOW_MS);
      }
    });
  }

  private async admitWaiting(): Promise<void> {
    const waiting = this.admissions;
    this.admissions = [];
    for (let i = 0; i < waiting.length; i += CHUNK) {
      // An id that can't be a charger's is nobody: it never reaches the shared query.
      const batch = waiting.slice(i, i + CHUNK).filter((w) => {
        if (isChargerId(w.chargerId)) return true;
        w.resolve(null);
        return false;
      });
      if (batch.length === 0) continue;
      try {
        const found = await this.lookUp(batch.map((w) => w.chargerId));
        for (const w of batch) w.resolve(found.get(w.chargerId) ?? null);
      } catch (error) {
        if (batch.length === 1) {
          batch[0]?.reject(error);
          continue;
        }
        // One member must not fail the others: each is looked up alone, and only what fails alone fails.
        this.log.warn({ err: error, chargers: batch.length }, 'OCPP: shared admission failed; one by one');
        for (const w of batch) {
          await this.lookUp([w.chargerId]).then(
            (found) => w.resolve(found.get(w.chargerId) ?? null),
            (alone: unknown) => w.reject(alone),
          );
        }
      }
    }
  }

  private async lookUp(ids: string[]): Promise<Map<string, Admission>> {
    const rows = await this.db
      .select({
        id: chargers.id,
        active: chargers.active,
        passwordHash: chargers.ocppPasswordHash,
        ocppProtocol: chargers.ocppProtocol,
      })
      .from(chargers)
      .where(sql`${chargers.id} = ${anyOf([...new Set(ids)])}`);
    return new Map(rows.map(({ id, ...admission }) => [id, admission]));
  }

  async close(): Promise<void> {
    this.writes.cancel();
    await this.flush();
  }
}
