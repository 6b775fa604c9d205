/**
 * The local authorization list (issue 32 §4; docs/decisions.md, Local authorization list): SendLocalList of
 * the id tags valid at a charger, so members start while it cannot reach us, and GetLocalListVersion.
 *
 * The list is replaced whole (updateType Full) at the charger's last accepted version + 1. A charger takes at
 * most SendLocalListMaxLength entries in one message: a longer list goes as a Full message with the first part,
 * then Differential messages with the rest, each at the next version. More tags than LocalAuthListMaxLength
 * (the list's capacity) are not sent at all (409): a list cut short would leave members out without anyone
 * knowing which. chargers.local_list_version is written for each message the charger answers Accepted.
 */
import type { BatchResult, LocalListSendResponse, LocalListVersionResponse } from '@ev/shared';
import { and, eq, sql } from 'drizzle-orm';
import { chargers } from '../../db/schema/index.ts';
import { AppError, Conflict } from '../../lib/errors.ts';
import {
  getConfiguration,
  getLocalListVersion,
  type LocalListEntry,
  sendLocalList,
} from '../../ocpp/commands.ts';
import { localListEntries } from '../id-tag/local-list.ts';
import { recordCommand } from './command-audit.ts';
import { answered, chargerInScope, type OperationContext } from './operation.service.ts';

/** The charger's configuration keys that bound a list (OCPP 1.6, LocalAuthListManagement profile). */
export const LIST_CAPACITY_KEY = 'LocalAuthListMaxLength';
export const MESSAGE_CAPACITY_KEY = 'SendLocalListMaxLength';

/** More tags than the charger's list holds: nothing was sent. */
export class LocalListTooLong extends Conflict {}

type Context = Omit<OperationContext, 'scope' | 'actor'>;

const positive = (value: string | undefined): number | null => {
  const n = Number(value);
  return value !== undefined && /^\d+$/.test(value.trim()) && n > 0 ? n : null;
};

/** The charger's two capacities, null where it does not report one (or does not do GetConfiguration). */
async function capacities(context: Context, chargerId: string) {
  const response = answered(
    await getConfiguration(context.commands, chargerId, [LIST_CAPACITY_KEY, MESSAGE_CAPACITY_KEY]),
    context,
    chargerId,
    'get configuration',
  );
  const keys = Array.isArray(response.configurationKey)
    ? (response.configurationKey as Array<{ key: string; value?: string }>)
    : [];
  const value = (key: string) => positive(keys.find((entry) => entry.key === key)?.value);
  return { list: value(LIST_CAPACITY_KEY), message: value(MESSAGE_CAPACITY_KEY) };
}

function parts(entries: LocalListEntry[], size: number | null): LocalListEntry[][] {
  if (size === null || entries.length <= size) return [entries];
  const chunks: LocalListEntry[][] = [];
  for (let at = 0; at < entries.length; at += size) chunks.push(entries.slice(at, at + size));
  return chunks;
}

const versionOf = async (context: Context, chargerId: string) => {
  const [row] = await context.db
    .select({ version: chargers.localListVersion, sentAt: chargers.localListSentAt })
    .from(chargers)
    .where(eq(chargers.id, chargerId));
  return { version: row?.version ?? null, sentAt: row?.sentAt ?? null };
};

/**
 * Sends the charger its list (no scope check: the callers do it). Throws as the operations do: offline 409,
 * no answer 504, a CALLERROR 502; LocalListTooLong (409) when the list does not fit.
 */
export async function pushLocalList(context: Context, chargerId: string): Promise<LocalListSendResponse> {
  const entries = await localListEntries(context.db, chargerId);
  const capacity = await capacities(context, chargerId);
  if (capacity.list !== null && entries.length > capacity.list) {
    throw new LocalListTooLong(
      `Charger ${chargerId} holds at most ${capacity.list} id tags (${LIST_CAPACITY_KEY}); ${entries.length} are valid there: nothing was sent.`,
    );
  }
  const previous = (await versionOf(context, chargerId)).version;
  let version = previous ?? 0;
  let accepted: number | null = previous;
  let status = 'Accepted';
  const chunks = parts(entries, capacity.message);
  let messages = 0;
  for (const [index, chunk] of chunks.entries()) {
    version += 1;
    messages += 1;
    const outcome = await sendLocalList(context.commands, chargerId, {
      listVersion: version,
      updateType: index === 0 ? 'Full' : 'Differential',
      ...(chunk.length > 0 ? { localAuthorizationList: chunk } : {}),
    });
    status = String(answered(outcome, context, chargerId, 'send local list').status);
    if (status !== 'Accepted') break;
    accepted = version;
    await context.db
      .update(chargers)
      .set({ localListVersion: version, localListSentAt: sql`now()` })
      .where(and(eq(chargers.id, chargerId), sql`coalesce(${chargers.localListVersion}, 0) < ${version}`));
  }
  return { status, listVersion: accepted, tags: entries.length, messages };
}

/** POST /api/charger/{id}/local-list: the list of the charger in the caller's scope (404 outside it). */
export async function sendChargerLocalList(
  context: OperationContext,
  chargerId: string,
): Promise<LocalListSendResponse> {
  await chargerInScope(context, chargerId);
  const record = { actor: context.actor, entityId: chargerId, command: 'SendLocalList' };
  let sent: LocalListSendResponse;
  try {
    sent = await pushLocalList(context, chargerId);
  } catch (error) {
    // A list that does not fit was not sent: refused, like a charger outside the scope.
    if (!(error instanceof AppError) || error instanceof LocalListTooLong) throw error;
    const answer = { 409: 'Offline', 504: 'Timeout' }[error.statusCode as 409 | 504] ?? 'Error';
    await recordCommand(context.db, record, {
      answer,
      ...(answer === 'Error' ? { error: error.message } : {}),
    });
    throw error;
  }
  const { status, ...counts } = sent;
  await recordCommand(context.db, record, { answer: status, ...counts });
  return sent;
}

/** GET /api/charger/{id}/local-list: GetLocalListVersion, beside the version we last had accepted. */
export async function readLocalListVersion(
  context: Omit<OperationContext, 'actor'>,
  chargerId: string,
): Promise<LocalListVersionResponse> {
  await chargerInScope(context, chargerId);
  const answer = answered(
    await getLocalListVersion(context.commands, chargerId),
    context,
    chargerId,
    'get local list version',
  );
  const sent = await versionOf(context, chargerId);
  const supported = answer.status !== 'NotSupported';
  return {
    status: supported ? 'Accepted' : 'NotSupported',
    listVersion: supported && typeof answer.listVersion === 'number' ? answer.listVersion : null,
    sentVersion: sent.version,
    sentAt: sent.sentAt?.toISOString() ?? null,
  };
}

/** One charger of Send Local List All, as a batch result (the batch reports offline chargers itself). */
export async function localListResult(
  context: Context,
  chargerId: string,
): Promise<{ result: BatchResult; detail: string | null }> {
  try {
    const sent = await pushLocalList(context, chargerId);
    const detail = `version ${sent.listVersion ?? '-'}: ${sent.tags} id tag(s) in ${sent.messages} message(s)`;
    if (sent.status === 'Accepted') return { result: 'Accepted', detail };
    if (sent.status === 'NotSupported') return { result: 'NotSupported', detail: null };
    return { result: 'Rejected', detail: `${sent.status}; ${detail}` };
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    if (error instanceof LocalListTooLong) return { result: 'Rejected', detail: error.message };
    if (error.statusCode === 409) return { result: 'Offline', detail: null };
    if (error.statusCode === 504) return { result: 'Timeout', detail: null };
    return { result: 'Rejected', detail: error.message };
  }
}
