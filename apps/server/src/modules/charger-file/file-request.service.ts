/**
 * Firmware updates and diagnostics requests to one charger (issue 32, section 2). Each is a row of
 * charger_file_requests written with its one-time link before the command goes (in one transaction, which
 * ends before the charger is called), the command's outcome recorded after; the charger's status reports
 * then add steps to it (charger-file-events.ts).
 */
import {
  type BatchResult,
  CHARGER_FILE_MESSAGES,
  type ChargerFileRequest,
  type DiagnosticsBody,
  type DiagnosticsResponse,
  FINAL_STATUSES,
  type FirmwareBody,
  type OperationResponse,
} from '@ev/shared';
import { and, desc, eq, type SQL, sql } from 'drizzle-orm';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import {
  chargerFileRequests,
  chargerFiles,
  chargerFileTokens,
  chargers,
  landlords,
  users,
} from '../../db/schema/index.ts';
import { NotFound } from '../../lib/errors.ts';
import { hashToken, newToken } from '../../lib/tokens.ts';
import {
  type ChargerCommands,
  type CommandOutcome,
  getDiagnostics,
  updateFirmware,
} from '../../ocpp/commands.ts';
import { type DataScope, landlordScope } from '../../plugins/scope.ts';
import type { AuditActor } from '../audit/audit.ts';
import { commandResponse } from '../charger/blocker.service.ts';
import { recordCommand } from '../charger/command-audit.ts';
import { CHARGER_NOT_FOUND } from '../charger/operation.service.ts';
import {
  DIAGNOSTICS_LINK_MS,
  diagnosticsLink,
  FIRMWARE_LINK_MS,
  firmwareLink,
  retriesMs,
} from './file-token.ts';

export interface FileRequestContext {
  db: Db;
  commands: ChargerCommands;
  config: Config;
  scope: DataScope;
  userId: number;
  /** The staff user: a request to one charger is an audit entry with its answer, a brand's batch one entry. */
  actor: AuditActor;
}

/**
 * The command's outcome as recorded: Accepted, NotSupported, Offline, Timeout or Error; or the word of a
 * 2.0.1 charger that did not take it (UpdateFirmware: Rejected, InvalidCertificate…; GetLog: Rejected).
 */
export type RequestAnswer = 'Accepted' | 'NotSupported' | 'Offline' | 'Timeout' | 'Error' | (string & {});

const NOT_SUPPORTED_CODES = new Set(['NotImplemented', 'NotSupported']);

export function answerOf(outcome: CommandOutcome): RequestAnswer {
  switch (outcome.status) {
    case 'answered': {
      // 1.6 answers UpdateFirmware with nothing and GetDiagnostics without a status: taken.
      const status = outcome.response.status;
      return typeof status === 'string' ? status : 'Accepted';
    }
    case 'offline':
      return 'Offline';
    case 'timeout':
      return 'Timeout';
    case 'error':
      return NOT_SUPPORTED_CODES.has(outcome.code) ? 'NotSupported' : 'Error';
  }
}

/** A firmware batch's result for one charger. */
export function batchResultOf(outcome: CommandOutcome): { result: BatchResult; detail: string | null } {
  const answer = answerOf(outcome);
  if (answer === 'Error')
    return { result: 'Rejected', detail: outcome.status === 'error' ? outcome.code : null };
  if (!['Accepted', 'NotSupported', 'Offline', 'Timeout'].includes(answer))
    return { result: 'Rejected', detail: answer === 'Rejected' ? null : answer };
  return { result: answer as BatchResult, detail: null };
}

const r = chargerFileRequests;

/**
 * A request more steps may still come to: sent (no outcome yet), accepted, or unanswered in time (the charger
 * may have taken it all the same), without a final status, and not older than its link could be. A
 * GetDiagnostics accepted without a file name has nothing coming.
 */
export const OPEN_REQUEST: SQL = sql`(${r.answer} is null or ${r.answer} in ('Accepted', 'Timeout'))
  and (${r.kind} = 'firmware' or ${r.answer} is distinct from 'Accepted' or ${r.answerFileName} is not null)
  and (${r.status} is null or not (${r.status} = any(case when ${r.kind} = 'firmware'
    then ${`{${FINAL_STATUSES.firmware.join(',')}}`}::text[] else ${`{${FINAL_STATUSES.diagnostics.join(',')}}`}::text[] end)))
  and coalesce(${r.retrieveAt}, ${r.requestedAt}) > now() - interval '8 days'`;

/** The charger, if it is in the caller's scope (404 otherwise, as for one that does not exist). */
export async function chargerInScope(
  db: Db,
  scope: DataScope,
  chargerId: string,
): Promise<{ id: string; chargerBrandId: number }> {
  const [charger] = await db
    .select({ id: chargers.id, chargerBrandId: chargers.chargerBrandId })
    .from(chargers)
    .innerJoin(landlords, eq(landlords.id, chargers.landlordId))
    .where(and(eq(chargers.id, chargerId), landlordScope(scope)));
  if (!charger) throw new NotFound(CHARGER_NOT_FOUND);
  return charger;
}

/** A complete firmware file (404 'No such firmware file' otherwise). */
export async function firmwareFile(db: Db, fileId: number): Promise<{ id: number; name: string }> {
  const [file] = await db
    .select({ id: chargerFiles.id, name: chargerFiles.name })
    .from(chargerFiles)
    .where(
      and(eq(chargerFiles.id, fileId), eq(chargerFiles.kind, 'firmware'), eq(chargerFiles.complete, true)),
    );
  if (!file) throw new NotFound(CHARGER_FILE_MESSAGES.firmwareNotFound);
  return file;
}

/** Records a request and its link together (same instant: the link's created_at is the request's time). */
async function recordRequest(
  db: Db,
  request: typeof chargerFileRequests.$inferInsert & { requestedAt: Date },
  link: { purpose: 'firmware-download' | 'diagnostics-upload'; fileId: number | null; expiresAt: Date },
): Promise<{ requestId: number; token: string }> {
  const token = newToken();
  const requestId = await db.transaction(async (tx) => {
    const [row] = await tx.insert(chargerFileRequests).values(request).returning({ id: r.id });
    await tx.insert(chargerFileTokens).values({
      tokenHash: hashToken(token),
      purpose: link.purpose,
      chargerId: request.chargerId,
      fileId: link.fileId,
      expiresAt: link.expiresAt,
      createdAt: request.requestedAt,
    });
    return row!.id;
  });
  return { requestId, token };
}

/** Records the outcome; a request the charger did not take ends its link at once. */
async function recordAnswer(
  db: Db,
  requestId: number,
  chargerId: string,
  requestedAt: Date,
  answer: RequestAnswer,
  answerFileName: string | null,
  linkDone: boolean,
): Promise<void> {
  await db.update(r).set({ answer, answerFileName }).where(eq(r.id, requestId));
  if (linkDone) {
    await db
      .update(chargerFileTokens)
      .set({ expiresAt: sql`least(${chargerFileTokens.expiresAt}, now())` })
      .where(and(eq(chargerFileTokens.chargerId, chargerId), eq(chargerFileTokens.createdAt, requestedAt)));
  }
}

export interface FirmwareSend {
  fileId: number;
  fileName: string;
  retrieveAt: Date;
  retries?: number;
  retryInterval?: number;
  jobId?: number | null;
}

/** Sends UpdateFirmware to one charger with a new download link; the outcome is recorded on its request. */
export async function sendFirmware(
  context: Omit<FileRequestContext, 'scope'>,
  chargerId: string,
  send: FirmwareSend,
): Promise<CommandOutcome> {
  const { db, commands, config } = context;
  const requestedAt = new Date();
  const from = Math.max(send.retrieveAt.getTime(), requestedAt.getTime());
  const { requestId, token } = await recordRequest(
    db,
    {
      kind: 'firmware',
      chargerId,
      fileId: send.fileId,
      jobId: send.jobId ?? null,
      requestedBy: context.userId,
      requestedAt,
      retrieveAt: send.retrieveAt,
    },
    {
      purpose: 'firmware-download',
      fileId: send.fileId,
      expiresAt: new Date(from + FIRMWARE_LINK_MS + retriesMs(send.retries, send.retryInterval)),
    },
  );
  const outcome = await updateFirmware(
    commands,
    chargerId,
    {
      location: firmwareLink(config.appUrl, token, send.fileName),
      retrieveDate: send.retrieveAt.toISOString(),
      ...(send.retries !== undefined ? { retries: send.retries } : {}),
      ...(send.retryInterval !== undefined ? { retryInterval: send.retryInterval } : {}),
    },
    // A 2.0.1 charger's FirmwareStatusNotification names this request.
    { hints: { requestId } },
  );
  const answer = answerOf(outcome);
  await recordAnswer(
    db,
    requestId,
    chargerId,
    requestedAt,
    answer,
    null,
    !['Accepted', 'Timeout'].includes(answer),
  );
  return outcome;
}

/**
 * The charger's answer as the API gives it: NotSupported (a CALLERROR NotImplemented or NotSupported), the
 * answer, or the blockers' and operations' 409 offline, 504 no answer, 502 another CALLERROR.
 */
function answered(outcome: CommandOutcome, config: Config, chargerId: string, command: string): boolean {
  if (answerOf(outcome) === 'NotSupported') return false;
  commandResponse(outcome, config, chargerId, command);
  return true;
}

/** POST /api/charger/{id}/firmware. */
export async function updateChargerFirmware(
  context: FileRequestContext,
  chargerId: string,
  body: FirmwareBody,
): Promise<OperationResponse> {
  await chargerInScope(context.db, context.scope, chargerId);
  const file = await firmwareFile(context.db, body.fileId);
  const retrieveAt = body.retrieveDate ? new Date(body.retrieveDate) : new Date();
  const outcome = await sendFirmware(context, chargerId, {
    fileId: file.id,
    fileName: file.name,
    retrieveAt,
    retries: body.retries,
    retryInterval: body.retryInterval,
  });
  // The download link (a one-time token) is not the user's: the file and the date are.
  await recordCommand(
    context.db,
    {
      actor: context.actor,
      entityId: chargerId,
      command: 'UpdateFirmware',
      parameters: { ...body, fileName: file.name, retrieveDate: retrieveAt.toISOString() },
    },
    outcome,
  );
  // 1.6's UpdateFirmware.conf has no field: an answer is the charger's acceptance; 2.0.1 says its word.
  const accepted = answered(outcome, context.config, chargerId, 'update firmware');
  return { status: accepted ? answerOf(outcome) : 'NotSupported' };
}

/** POST /api/charger/{id}/diagnostics. */
export async function requestDiagnostics(
  context: FileRequestContext,
  chargerId: string,
  body: DiagnosticsBody,
): Promise<DiagnosticsResponse> {
  const { db, commands, config } = context;
  await chargerInScope(db, context.scope, chargerId);
  const requestedAt = new Date();
  const { requestId, token } = await recordRequest(
    db,
    { kind: 'diagnostics', chargerId, requestedBy: context.userId, requestedAt },
    {
      purpose: 'diagnostics-upload',
      fileId: null,
      expiresAt: new Date(
        requestedAt.getTime() + DIAGNOSTICS_LINK_MS + retriesMs(body.retries, body.retryInterval),
      ),
    },
  );
  const outcome = await getDiagnostics(
    commands,
    chargerId,
    { location: diagnosticsLink(config.appUrl, token), ...body },
    { hints: { requestId } },
  );
  await recordCommand(
    db,
    { actor: context.actor, entityId: chargerId, command: 'GetDiagnostics', parameters: { ...body } },
    outcome,
  );
  const answer = answerOf(outcome);
  const given = outcome.status === 'answered' ? outcome.response.fileName : undefined;
  const fileName = typeof given === 'string' && given.length > 0 ? given : null;
  // Accepted without a file name: the charger has no diagnostics, and nothing will come to the link.
  const linkDone = answer === 'Accepted' ? fileName === null : answer !== 'Timeout';
  await recordAnswer(db, requestId, chargerId, requestedAt, answer, fileName, linkDone);
  if (!answered(outcome, config, chargerId, 'get diagnostics')) return { status: 'NotSupported' };
  if (answer !== 'Accepted') return { status: answer };
  return fileName ? { status: 'Accepted', fileName } : { status: 'Accepted' };
}

const iso = (at: Date | string | null) => (at === null ? null : new Date(at).toISOString());

/** A charger's latest requests of one kind, newest first, with their steps. */
export async function listRequests(
  db: Db,
  scope: DataScope,
  chargerId: string,
  kind: 'firmware' | 'diagnostics',
  size: number,
): Promise<{ requests: ChargerFileRequest[] }> {
  await chargerInScope(db, scope, chargerId);
  const rows = await db
    .select({
      id: r.id,
      kind: r.kind,
      chargerId: r.chargerId,
      fileId: r.fileId,
      fileName: chargerFiles.name,
      version: chargerFiles.version,
      jobId: r.jobId,
      requestedByEmail: users.email,
      requestedAt: r.requestedAt,
      retrieveAt: r.retrieveAt,
      answer: r.answer,
      answerFileName: r.answerFileName,
      status: r.status,
      statusAt: r.statusAt,
      steps: r.steps,
      open: sql<boolean>`${OPEN_REQUEST}`,
    })
    .from(r)
    .leftJoin(chargerFiles, eq(chargerFiles.id, r.fileId))
    .leftJoin(users, eq(users.id, r.requestedBy))
    .where(and(eq(r.chargerId, chargerId), eq(r.kind, kind)))
    .orderBy(desc(r.id))
    .limit(size);
  return {
    requests: rows.map((row) => ({
      ...row,
      requestedAt: iso(row.requestedAt)!,
      retrieveAt: iso(row.retrieveAt),
      statusAt: iso(row.statusAt),
      steps: ((row.steps as Array<{ status: string; at: string }>) ?? []).map((step) => ({
        status: step.status,
        at: iso(step.at)!,
      })),
      open: Boolean(row.open),
    })),
  };
}

/** The diagnostics request a link was made for (written with it, at the same instant). */
export async function diagnosticsRequestOf(
  db: Db,
  chargerId: string,
  requestedAt: Date,
): Promise<{ id: number; answerFileName: string | null } | undefined> {
  const [row] = await db
    .select({ id: r.id, answerFileName: r.answerFileName })
    .from(r)
    .where(and(eq(r.chargerId, chargerId), eq(r.kind, 'diagnostics'), eq(r.requestedAt, requestedAt)));
  return row;
}

/** The file a charger uploaded for a diagnostics request. */
export async function attachDiagnostics(db: Db, requestId: number, fileId: number): Promise<void> {
  await db.update(r).set({ fileId }).where(eq(r.id, requestId));
}
