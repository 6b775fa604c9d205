import { createHash, timingSafeEqual } from 'node:crypto';
import {
  BATCH_RESULTS,
  type BatchConfiguration,
  type BatchJob,
  type BatchKind,
  type BatchResult,
  type BatchUpdate,
  batchCsv,
  batchCsvName,
  type ListQuery,
} from '@ev/shared';
import { asc, count, desc, eq, inArray, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import {
  batchJobResults,
  batchJobs,
  chargerBrands,
  chargerFiles,
  chargers,
  users,
} from '../../db/schema/index.ts';
import { Forbidden, NotFound } from '../../lib/errors.ts';
import { paging } from '../../lib/list-query.ts';
import {
  type ChargerCommands,
  type CommandOutcome,
  changeConfiguration,
  reset,
} from '../../ocpp/commands.ts';
import { redactPayload } from '../../ocpp/message-frames.ts';
import { type AuditActor, audit } from '../audit/audit.ts';

/** A batch job that is not there (also a path id beyond ID_MAX). */
export const BATCH_JOB_NOT_FOUND = 'Batch job not found';

const digest = (text: string) => createHash('sha256').update(text, 'utf8').digest();

/** The batch token (BATCH_COMMAND_TOKEN), compared in constant time; 403 when off or wrong. */
export function checkBatchToken(configured: string | undefined, given: string): void {
  if (!configured)
    throw new Forbidden('Batch commands are off: BATCH_COMMAND_TOKEN is not set on the server.');
  // Equal-length digests: the comparison takes the same time whatever the token's length or content.
  if (!timingSafeEqual(digest(configured), digest(given)))
    throw new Forbidden('The batch token is not valid.');
}

/** One charger's answer to one command, as a batch result. */
export function resultOf(outcome: CommandOutcome): { result: BatchResult; detail: string | null } {
  switch (outcome.status) {
    case 'offline':
      return { result: 'Offline', detail: null };
    case 'timeout':
      return { result: 'Timeout', detail: null };
    case 'error':
      return {
        result:
          outcome.code === 'NotImplemented' || outcome.code === 'NotSupported' ? 'NotSupported' : 'Rejected',
        // Not sent (a 1.6 key a 2.0.1 charger has no variable for): why, naming the key.
        detail: outcome.local ? outcome.message : outcome.code,
      };
    case 'answered': {
      const status = String(outcome.response.status);
      // A 2.0.1 charger's own word where it differs from the 1.6 one (UnknownVariable for NotSupported).
      const said = typeof outcome.response.detail === 'string' ? outcome.response.detail : null;
      if (status === 'Accepted') return { result: 'Accepted', detail: null };
      // ChangeConfiguration: the value is taken and applies after a reboot.
      if (status === 'RebootRequired') return { result: 'Accepted', detail: status };
      if (status === 'NotSupported') return { result: 'NotSupported', detail: said };
      return { result: 'Rejected', detail: status === 'Rejected' ? null : status };
    }
  }
}

/** Worst first: what a Config All reports for a charger whose keys were answered differently. */
const SEVERITY: BatchResult[] = ['Offline', 'Timeout', 'Rejected', 'NotSupported', 'Accepted'];

async function configure(
  commands: ChargerCommands,
  chargerId: string,
  configurations: BatchConfiguration[],
): Promise<{ result: BatchResult; detail: string | null }> {
  const parts: string[] = [];
  let worst: BatchResult = 'Accepted';
  for (const { key, value } of configurations) {
    const outcome = resultOf(await changeConfiguration(commands, chargerId, key, value));
    parts.push(`${key}=${outcome.detail ?? outcome.result}`);
    if (SEVERITY.indexOf(outcome.result) < SEVERITY.indexOf(worst)) worst = outcome.result;
    // Gone or silent: the other keys would wait just as long.
    if (outcome.result === 'Offline' || outcome.result === 'Timeout') break;
  }
  return { result: worst, detail: parts.join('; ') };
}

/** One charger's outcome in a batch. */
export type BatchOutcome = { result: BatchResult; detail: string | null };

/** A batch's own command (a firmware batch): sends it to one charger, recording what it needs on the way. */
export interface BatchCommand {
  send(chargerId: string, jobId: number): Promise<BatchOutcome>;
  /** The chargers reported Offline at once, without a command (to record them too). */
  offline?(chargerIds: string[], jobId: number): Promise<void>;
}

/** What a batch sends, other than a reset or a configuration, and to which chargers (default every active one). */
export interface BatchTarget {
  chargerIds?: string[];
  command: BatchCommand;
  /** The job's record: a firmware batch's file and brand. */
  job?: { firmwareFileId?: number; chargerBrandId?: number };
  /** What the job's audit entry says was sent with the command (a firmware batch's file, brand and date). */
  parameters?: Record<string, unknown>;
}

/** The OCPP command each kind of batch sends, as its audit entry names it. */
const BATCH_COMMANDS: Record<BatchKind, string> = {
  'hard-reset': 'Reset',
  config: 'ChangeConfiguration',
  firmware: 'UpdateFirmware',
  'local-list': 'SendLocalList',
};

export interface BatchListener {
  update(event: BatchUpdate): void;
  /** The job is finished and its results are in the database. */
  end(): void;
  error(message: string): void;
}

const FLUSH_MS = 250;
const FLUSH_ROWS = 1000;

/**
 * A batch command over every active charger. Offline chargers are reported at once; connected ones are
 * commanded `concurrency` at a time. Results go to batch_job_results as they come; the run goes on to the end
 * whether or not anyone is listening.
 */
export class BatchRun {
  private pending: Array<{ chargerId: string; result: BatchResult; detail: string | null; at: Date }> = [];
  private flushing: Promise<void> = Promise.resolve();
  private timer: NodeJS.Timeout | null = null;
  private listener: BatchListener | null = null;

  private constructor(
    private readonly db: Db,
    private readonly commands: ChargerCommands,
    private readonly log: FastifyBaseLogger,
    readonly jobId: number,
    readonly kind: BatchKind,
    readonly chargerIds: string[],
    private readonly configurations: BatchConfiguration[] | null,
    private readonly concurrency: number,
    private readonly custom: BatchCommand | null = null,
  ) {}

  /**
   * Records the job (every active charger, or the target's) without starting it, and with it the staff
   * user's audit entry (one for the batch: the command, how many chargers, its parameters, the job's id).
   */
  static async create(
    db: Db,
    commands: ChargerCommands,
    log: FastifyBaseLogger,
    config: Config,
    actor: AuditActor,
    kind: BatchKind,
    configurations: BatchConfiguration[] | null,
    target?: BatchTarget,
  ): Promise<BatchRun> {
    const rows = target?.chargerIds
      ? target.chargerIds.map((id) => ({ id }))
      : await db
          .select({ id: chargers.id })
          .from(chargers)
          .where(eq(chargers.active, true))
          .orderBy(asc(chargers.id));
    const job = await db.transaction(async (tx) => {
      const [created] = await tx
        .insert(batchJobs)
        .values({ kind, configurations, createdBy: actor.userId, total: rows.length, ...target?.job })
        .returning({ id: batchJobs.id });
      // Written after the job's row, so the row is not captured: its configurations would show a Config
      // All's AuthorizationKey as sent; the entry's parameters are redacted.
      await audit(tx, actor, {
        entity: 'charger',
        action: 'batch',
        details: {
          command: BATCH_COMMANDS[kind],
          kind,
          jobId: created!.id,
          chargers: rows.length,
          parameters: redactPayload({
            ...(kind === 'hard-reset' ? { type: 'Hard' } : {}),
            ...(configurations ? { configurations } : {}),
            ...target?.parameters,
          }),
        },
      });
      return created;
    });
    return new BatchRun(
      db,
      commands,
      log,
      job!.id,
      kind,
      rows.map((row) => row.id),
      configurations,
      config.batch.concurrency,
      target?.command ?? null,
    );
  }

  get total(): number {
    return this.chargerIds.length;
  }

  /** Runs to the end; `listener` hears each result (it may go away: `detach`). */
  async run(listener: BatchListener): Promise<void> {
    this.listener = listener;
    const keepAlive = setInterval(() => void this.touch(), 20_000);
    try {
      const connected = await this.commands.connected(this.chargerIds);
      const online: string[] = [];
      const offline: string[] = [];
      for (const id of this.chargerIds) {
        if (connected.has(id)) online.push(id);
        else {
          offline.push(id);
          this.record(id, { result: 'Offline', detail: null });
        }
      }
      if (offline.length > 0) await this.custom?.offline?.(offline, this.jobId);
      let next = 0;
      const worker = async () => {
        while (next < online.length) {
          const id = online[next++]!;
          this.record(id, await this.command(id));
        }
      };
      await Promise.all(Array.from({ length: Math.min(this.concurrency, online.length) }, worker));
      await this.flush();
      await this.db
        .update(batchJobs)
        .set({ status: 'finished', finishedAt: sql`now()`, progressAt: sql`now()` })
        .where(eq(batchJobs.id, this.jobId));
      this.listener?.end();
    } catch (error) {
      this.log.error({ err: error, jobId: this.jobId }, 'batch command failed');
      await this.db
        .update(batchJobs)
        .set({ status: 'interrupted', finishedAt: sql`now()` })
        .where(eq(batchJobs.id, this.jobId))
        .catch(() => undefined);
      this.listener?.error('The batch command stopped on a server error.');
    } finally {
      clearInterval(keepAlive);
      this.listener = null;
    }
  }

  /** Nobody listens any more; the run goes on. */
  detach(): void {
    this.listener = null;
  }

  private async command(id: string): Promise<{ result: BatchResult; detail: string | null }> {
    try {
      if (this.custom) return await this.custom.send(id, this.jobId);
      if (this.kind === 'hard-reset') return resultOf(await reset(this.commands, id, 'Hard'));
      return await configure(this.commands, id, this.configurations ?? []);
    } catch (error) {
      return { result: 'Rejected', detail: (error as Error).message };
    }
  }

  private record(
    chargerId: string,
    { result, detail }: { result: BatchResult; detail: string | null },
  ): void {
    this.pending.push({ chargerId, result, detail, at: new Date() });
    this.listener?.update({ id: chargerId, result });
    if (this.pending.length >= FLUSH_ROWS) this.flushInBackground();
    else if (!this.timer) this.timer = setTimeout(() => this.flushInBackground(), FLUSH_MS);
  }

  /**
   * A failed write must not be an unhandled rejection (it would stop the server): the chain stays rejected,
   * so the run's last flush fails and the job ends interrupted with an error event.
   */
  private flushInBackground(): void {
    this.flush().catch(() => undefined);
  }

  private flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const rows = this.pending;
    this.pending = [];
    this.flushing = this.flushing.then(async () => {
      if (rows.length === 0) return;
      // One JSON parameter for the rows: five bound parameters per row cost three times as much to build
      // and bind as the insert itself (bench/ocpp.ts).
      const json = JSON.stringify(
        rows.map((row) => ({
          charger_id: row.chargerId,
          result: row.result,
          detail: row.detail,
          at: row.at.toISOString(),
        })),
      );
      // Results and the job's count in one commit (one log sync).
      await this.db.transaction(async (tx) => {
        await tx.execute(sql`insert into ${batchJobResults} (job_id, charger_id, result, detail, at)
          select ${this.jobId}::int, r.charger_id, r.result, r.detail, r.at
          from json_to_recordset(${json}::json)
            as r(charger_id text, result text, detail text, at timestamptz)`);
        await tx
          .update(batchJobs)
          .set({ done: sql`${batchJobs.done} + ${rows.length}`, progressAt: sql`now()` })
          .where(eq(batchJobs.id, this.jobId));
      });
    });
    return this.flushing;
  }

  private async touch(): Promise<void> {
    await this.db
      .update(batchJobs)
      .set({ progressAt: sql`now()` })
      .where(eq(batchJobs.id, this.jobId))
      .catch(() => undefined);
  }
}

/** A running job whose server stopped: no progress for a minute (a live run writes every 20 s at least). */
const jobStatus = sql<
  BatchJob['status']
>`case when ${batchJobs.status} = 'running' and ${batchJobs.progressAt} < now() - interval '1 minute' then 'interrupted' else ${batchJobs.status} end`;

export async function listBatchJobs(db: Db, query: ListQuery): Promise<{ total: number; jobs: BatchJob[] }> {
  const [{ total } = { total: 0 }] = await db.select({ total: count() }).from(batchJobs);
  const { limit, offset } = paging(query);
  const rows = await db
    .select({
      id: batchJobs.id,
      kind: batchJobs.kind,
      status: jobStatus,
      total: batchJobs.total,
      done: batchJobs.done,
      configurations: batchJobs.configurations,
      firmwareFileName: chargerFiles.name,
      firmwareVersion: chargerFiles.version,
      firmwareBrandName: chargerBrands.name,
      createdByEmail: users.email,
      startedAt: batchJobs.startedAt,
      finishedAt: batchJobs.finishedAt,
    })
    .from(batchJobs)
    .leftJoin(users, eq(users.id, batchJobs.createdBy))
    .leftJoin(chargerFiles, eq(chargerFiles.id, batchJobs.firmwareFileId))
    .leftJoin(chargerBrands, eq(chargerBrands.id, batchJobs.chargerBrandId))
    .orderBy(desc(batchJobs.id))
    .limit(limit)
    .offset(offset);
  const counts = new Map<number, Record<BatchResult, number>>(
    rows.map((row) => [
      row.id,
      Object.fromEntries(BATCH_RESULTS.map((r) => [r, 0])) as Record<BatchResult, number>,
    ]),
  );
  if (rows.length > 0) {
    const tallies = await db
      .select({ jobId: batchJobResults.jobId, result: batchJobResults.result, n: count() })
      .from(batchJobResults)
      .where(inArray(batchJobResults.jobId, [...counts.keys()]))
      .groupBy(batchJobResults.jobId, batchJobResults.result);
    for (const tally of tallies) {
      const entry = counts.get(tally.jobId);
      if (entry && tally.result in entry) entry[tally.result as BatchResult] = tally.n;
    }
  }
  return {
    total,
    jobs: rows.map(({ firmwareFileName, firmwareVersion, firmwareBrandName, ...row }) => ({
      ...row,
      configurations: (row.configurations as BatchConfiguration[] | null) ?? null,
      firmware:
        row.kind === 'firmware'
          ? { fileName: firmwareFileName, version: firmwareVersion, brandName: firmwareBrandName }
          : null,
      startedAt: row.startedAt.toISOString(),
      finishedAt: row.finishedAt?.toISOString() ?? null,
      counts: counts.get(row.id)!,
    })),
  };
}

/** The per-charger results of a job as CSV, with its file name. */
export async function batchJobCsv(db: Db, jobId: number): Promise<{ fileName: string; csv: string }> {
  const [job] = await db
    .select({ kind: batchJobs.kind, startedAt: batchJobs.startedAt })
    .from(batchJobs)
    .where(eq(batchJobs.id, jobId));
  if (!job) throw new NotFound(BATCH_JOB_NOT_FOUND);
  const rows = await db
    .select()
    .from(batchJobResults)
    .where(eq(batchJobResults.jobId, jobId))
    .orderBy(asc(batchJobResults.chargerId));
  const csv = batchCsv(
    rows.map((row) => [row.chargerId, row.result, row.detail ?? '', row.at.toISOString()] as const),
  );
  return { fileName: batchCsvName(job.kind, job.startedAt), csv };
}
