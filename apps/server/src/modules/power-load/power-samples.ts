/**
 * The power samples of limited sites (issue 34; docs/decisions.md, Power within a site's limit): what each
 * connector drew, from its charger's meter values, for the site's live load chart (site-power.ts).
 *
 * Off the hot path: a reading is only pushed onto an in-memory queue (ChargerEvents.meterValues is awaited by
 * the charger's call); every FLUSH_MS the queue is written in one statement per CHUNK_ROWS. Whether each
 * charger stands at a site with a limit comes from the power sharing's snapshot (modules/power/charger-sites.ts,
 * handed in as `LimitedSites`): readings of chargers known to stand at a site without one are dropped before
 * they are queued; a charger the snapshot does not know yet (created since) is queued; the insert checks the
 * limit again, so a stale snapshot never stores a sample of a site without one. A failure is logged, never
 * thrown at the charger.
 */
import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/client.ts';
import type { MeterReading, StoppedSession } from '../../ocpp/transactions.ts';
import { WriteBehind } from '../../ocpp/write-behind.ts';

/** How long queued samples wait before they are written together. */
export const FLUSH_MS = 500;
/** Samples kept: the chart shows the last hour; a little more is kept for what came late. */
export const KEEP_MS = 3 * 60 * 60_000;
/** How far back a charger's time may put a sample: older readings are taken as this old. */
export const SAMPLE_PAST_MS = 60 * 60_000;
/** How often the old samples are deleted. */
export const PRUNE_MS = 5 * 60_000;
/** Past this many queued samples, the oldest are dropped (the database is away; the chart shows a gap). */
const MAX_QUEUED = 50_000;
const CHUNK_ROWS = 1000;
const PRUNE_BATCH = 10_000;

/**
 * A sample's time: the charger's (a reading queued while offline happened then), bounded to the last hour and
 * our clock. A charger's clock is evidence, not truth (ARCHITECTURE.md): a time ahead of ours is now, one more
 * than an hour old is an hour old (the chart shows the last hour; a sample from the past would vanish, one from
 * the future would hide the next ones).
 */
export function sampleTime(at: Date, now: Date): Date {
  const time = at.getTime();
  if (!Number.isFinite(time) || time > now.getTime()) return now;
  const earliest = now.getTime() - SAMPLE_PAST_MS;
  return time < earliest ? new Date(earliest) : at;
}

interface Queued {
  /** The order received: ties in time keep it (a session's 0 at its end after its last reading). */
  o: number;
  chargerId: string;
  /** The session (its connector and site are found when written). */
  s: number;
  /** Milliseconds since the epoch. */
  t: number;
  w: number;
}

/** Which chargers stand at a limited site (ChargerSites of the power sharing). */
export interface LimitedSites {
  /** True only when the charger is known, from a recent snapshot, to stand at a site without a limit. */
  knownUnlimited(chargerId: string): boolean;
  /** Whether each known charger stands at a site with a limit. */
  limitedChargers(): Promise<Map<string, boolean>>;
}

export class PowerSamples {
  private queue: Queued[] = [];
  private order = 0;
  private dropped = 0;
  private readonly writer: WriteBehind;

  constructor(
    private readonly db: Db,
    private readonly log: FastifyBaseLogger,
    private readonly sites: LimitedSites,
    private readonly options: {
      flushMs?: number;
      /**
       * Samples of these sites were written: their cars' draws may free power (a tapering car, site-decision.ts).
       * Called after the write; must not throw.
       */
      written?: (landlordIds: number[]) => void;
    } = {},
  ) {
    this.writer = new WriteBehind(options.flushMs ?? FLUSH_MS, () => this.write());
  }

  /** A session's reading (ChargerEvents.meterValues): its power, if it tells one, at its bounded time. */
  meterValues(chargerId: string, reading: MeterReading, now = new Date()): void {
    if (reading.powerW === null) return;
    this.record(chargerId, reading.sessionId, sampleTime(reading.at, now), reading.powerW);
  }

  /** A session ended (ChargerEvents.stopped): its connector draws 0 from then, so the chart drops. */
  stopped(chargerId: string, stopped: StoppedSession, now = new Date()): void {
    if (!stopped.wasOpen) return;
    this.record(chargerId, stopped.sessionId, sampleTime(stopped.stop.at, now), 0);
  }

  /** Writes what is queued now (tests, and the close). */
  flush(): Promise<void> {
    return this.writer.flush();
  }

  /** Writes what is queued and stops. */
  async close(): Promise<void> {
    this.writer.cancel();
    await this.flush();
  }

  private record(chargerId: string, sessionId: number, at: Date, powerW: number): void {
    try {
      if (this.sites.knownUnlimited(chargerId)) return;
      if (this.queue.length >= MAX_QUEUED) {
        this.queue.shift();
        this.dropped++;
      }
      this.queue.push({ o: this.order++, chargerId, s: sessionId, t: at.getTime(), w: powerW });
      this.writer.schedule();
    } catch (error) {
      this.log.error({ err: error, chargerId }, 'power samples: a reading was not queued');
    }
  }

  private async write(): Promise<void> {
    if (this.dropped > 0) {
      this.log.warn({ dropped: this.dropped }, 'power samples: queue full, the oldest were dropped');
      this.dropped = 0;
    }
    if (this.queue.length === 0) return;
    const batch = this.queue;
    this.queue = [];
    try {
      const limited = await this.sites.limitedChargers();
      const rows = batch.filter((row) => limited.get(row.chargerId) !== false);
      const sites = new Set<number>();
      for (let i = 0; i < rows.length; i += CHUNK_ROWS) {
        const written = await this.insert(
          rows.slice(i, i + CHUNK_ROWS).map(({ o, s, t, w }) => ({ o, s, t, w })),
        );
        for (const id of written) sites.add(id);
      }
      if (sites.size > 0) this.options.written?.([...sites]);
    } catch (error) {
      this.log.error({ err: error, samples: batch.length }, 'power samples: writing failed, samples lost');
    }
  }

  /**
   * The session names its connector and, through its charger, its site; only a site with a limit keeps it.
   * Answers the sites that got samples.
   */
  private async insert(rows: Array<Pick<Queued, 'o' | 's' | 't' | 'w'>>): Promise<number[]> {
    if (rows.length === 0) return [];
    const result = await this.db.execute(sql`with written as (
      insert into power_samples (landlord_id, connector_id, at, power_w)
      select ch.landlord_id, cs.connector_id, to_timestamp(v.t / 1000.0), v.w
      from json_to_recordset(${JSON.stringify(rows)}::json) as v(o int, s int, t float8, w int)
      join charging_sessions cs on cs.id = v.s
      join chargers ch on ch.id = cs.charger_id
      join landlords l on l.id = ch.landlord_id
      where l.max_power_kw is not null and cs.connector_id is not null
      order by v.o
      returning landlord_id)
      select distinct landlord_id from written`);
    const found = (result as unknown as { rows?: Array<{ landlord_id: number }> }).rows ?? [];
    return found.map((row) => Number(row.landlord_id));
  }
}

/**
 * Deletes the samples older than KEEP_MS before `now`, in batches (rows another process is deleting are
 * skipped: every process prunes); answers how many.
 */
export async function prunePowerSamples(db: Db, now = Date.now()): Promise<number> {
  const cutoff = new Date(now - KEEP_MS).toISOString();
  let deleted = 0;
  for (;;) {
    const rows = await db.execute(sql`delete from power_samples where id in
      (select id from power_samples where at < ${cutoff}::timestamptz limit ${PRUNE_BATCH}
        for update skip locked)`);
    const count = rowCount(rows);
    deleted += count;
    if (count < PRUNE_BATCH) return deleted;
  }
}

/** Rows of an execute() result, whichever driver answered (pg: rowCount; PGlite: affectedRows). */
function rowCount(result: unknown): number {
  const r = result as { rowCount?: number | null; affectedRows?: number };
  return Number(r.rowCount ?? r.affectedRows ?? 0);
}
