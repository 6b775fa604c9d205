/**
 * Operations on one charger (issue 32): unlock a connector, reset, availability, trigger a message, read and
 * change its configuration, clear its authorization cache. Each finds the charger in the caller's scope (404
 * outside it), checks the connector number against the charger's own, sends one OCPP command through
 * `ChargerCommands` (so it reaches the charger on whichever process holds it) and answers the charger's own
 * status word. Offline is a 409 at once, no answer in time a 504, a CALLERROR a 502, except NotImplemented
 * and NotSupported, which are the charger's way of saying NotSupported and answer so (as the batches do).
 */
import {
  type AvailabilityBody,
  type ConfigurationChangeBody,
  type ConfigurationResponse,
  type DeviceVariable,
  OCPP16_KEY_MAX,
  type OperationResponse,
  type ResetType,
  type TriggerBody,
} from '@ev/shared';
import { and, asc, eq } from 'drizzle-orm';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import { chargers, chargerVariables, connectors, landlords } from '../../db/schema/index.ts';
import { BadGateway, Invalid, NotFound } from '../../lib/errors.ts';
import {
  type ChargerCommands,
  type CommandOutcome,
  changeAvailability,
  changeConfiguration,
  clearCache,
  getBaseReport,
  getConfiguration,
  reset,
  triggerMessage,
  unlockConnector,
} from '../../ocpp/commands.ts';
import { type DataScope, landlordScope } from '../../plugins/scope.ts';
import type { AuditActor } from '../audit/audit.ts';
import { commandResponse } from './blocker.service.ts';
import { recordCommand } from './command-audit.ts';

export const CHARGER_NOT_FOUND = 'Charger not found';

/** The CALLERROR codes by which a charger says it does not do this. */
const NOT_SUPPORTED_CODES = new Set(['NotImplemented', 'NotSupported']);

export interface OperationContext {
  db: Db;
  commands: ChargerCommands;
  config: Config;
  scope: DataScope;
  /** The staff user who sends the command: each one sent is an audit entry with its answer. */
  actor: AuditActor;
}

/** The charger, if it is in the scope (404 otherwise). */
export async function requireChargerInScope(db: Db, scope: DataScope, chargerId: string): Promise<void> {
  const [charger] = await db
    .select({ id: chargers.id })
    .from(chargers)
    .innerJoin(landlords, eq(landlords.id, chargers.landlordId))
    .where(and(eq(chargers.id, chargerId), landlordScope(scope)));
  if (!charger) throw new NotFound(CHARGER_NOT_FOUND);
}

/** The charger's OCPP connector numbers, if the charger is in the scope (404 otherwise). */
export async function chargerInScope(
  context: Pick<OperationContext, 'db' | 'scope'>,
  chargerId: string,
): Promise<number[]> {
  const { db, scope } = context;
  await requireChargerInScope(db, scope, chargerId);
  const rows = await db
    .select({ number: connectors.ocppConnectorId })
    .from(connectors)
    .where(eq(connectors.chargerId, chargerId));
  return rows.map((row) => row.number);
}

function requireConnector(numbers: number[], chargerId: string, connectorId: number): void {
  if (!numbers.includes(connectorId))
    throw new Invalid(`Charger ${chargerId} has no connector ${connectorId}.`);
}

/** The charger's answer; a CALLERROR NotImplemented or NotSupported is its NotSupported. */
export function answered(
  outcome: CommandOutcome,
  context: Pick<OperationContext, 'config'>,
  chargerId: string,
  command: string,
): Record<string, unknown> {
  if (outcome.status === 'error' && NOT_SUPPORTED_CODES.has(outcome.code))
    return outcome.local ? { status: 'NotSupported', detail: outcome.message } : { status: 'NotSupported' };
  return commandResponse(outcome, context.config, chargerId, command);
}

/** What a command asked, as its audit entry names it: OCPP's name of the intent and its parameters. */
interface Asked {
  name: string;
  parameters?: Record<string, unknown>;
}

/**
 * Sends a command and answers the charger's status word (and its detail, where there is one). The entry is
 * written whatever the outcome, before an offline, silent or erring charger becomes the HTTP error.
 */
async function statusOf(
  sent: Promise<CommandOutcome>,
  context: OperationContext,
  chargerId: string,
  command: string,
  asked: Asked,
): Promise<OperationResponse> {
  const outcome = await sent;
  await recordCommand(
    context.db,
    { actor: context.actor, entityId: chargerId, command: asked.name, parameters: asked.parameters },
    outcome,
  );
  const response = answered(outcome, context, chargerId, command);
  return {
    status: String(response.status),
    ...(typeof response.detail === 'string' ? { detail: response.detail } : {}),
  };
}

/**
 * The protocol the charger speaks: that of its last connection, else its setting's (a charger set to 2.0.1
 * that never connected shows a 2.0.1 configuration screen); 1.6 otherwise.
 */
export async function chargerProtocol(db: Db, chargerId: string): Promise<'ocpp1.6' | 'ocpp2.0.1'> {
  const [row] = await db
    .select({ protocol: chargers.protocol, setting: chargers.ocppProtocol })
    .from(chargers)
    .where(eq(chargers.id, chargerId));
  if (row?.protocol === 'ocpp2.0.1' || row?.protocol === 'ocpp1.6') return row.protocol;
  return row?.setting === '2.0.1' ? 'ocpp2.0.1' : 'ocpp1.6';
}

export async function unlock(
  context: OperationContext,
  chargerId: string,
  connectorId: number,
): Promise<OperationResponse> {
  requireConnector(await chargerInScope(context, chargerId), chargerId, connectorId);
  return statusOf(unlockConnector(context.commands, chargerId, connectorId), context, chargerId, 'unlock', {
    name: 'UnlockConnector',
    parameters: { connectorId },
  });
}

export async function resetCharger(
  context: OperationContext,
  chargerId: string,
  type: ResetType,
): Promise<OperationResponse> {
  await chargerInScope(context, chargerId);
  return statusOf(
    reset(context.commands, chargerId, type),
    context,
    chargerId,
    `${type.toLowerCase()} reset`,
    { name: 'Reset', parameters: { type } },
  );
}

export async function availability(
  context: OperationContext,
  chargerId: string,
  body: AvailabilityBody,
): Promise<OperationResponse> {
  const numbers = await chargerInScope(context, chargerId);
  if (body.connectorId !== 0) requireConnector(numbers, chargerId, body.connectorId);
  return statusOf(changeAvailability(context.commands, chargerId, body), context, chargerId, 'availability', {
    name: 'ChangeAvailability',
    parameters: { ...body },
  });
}

export async function trigger(
  context: OperationContext,
  chargerId: string,
  body: TriggerBody,
): Promise<OperationResponse> {
  const numbers = await chargerInScope(context, chargerId);
  if (body.connectorId !== undefined) requireConnector(numbers, chargerId, body.connectorId);
  return statusOf(triggerMessage(context.commands, chargerId, body), context, chargerId, 'trigger', {
    name: 'TriggerMessage',
    parameters: { ...body },
  });
}

export async function readConfiguration(
  context: OperationContext,
  chargerId: string,
): Promise<ConfigurationResponse> {
  await chargerInScope(context, chargerId);
  if ((await chargerProtocol(context.db, chargerId)) === 'ocpp2.0.1') return deviceModel(context, chargerId);
  const response = answered(
    await getConfiguration(context.commands, chargerId),
    context,
    chargerId,
    'get configuration',
  );
  if (response.status === 'NotSupported') {
    throw new BadGateway(`Charger ${chargerId} does not report its configuration (NotSupported).`);
  }
  const keys = Array.isArray(response.configurationKey) ? response.configurationKey : [];
  return {
    protocol: 'ocpp1.6',
    configurationKey: keys.map((entry: { key: string; readonly: boolean; value?: string }) => ({
      key: entry.key,
      readonly: entry.readonly,
      value: entry.value ?? null,
    })),
    unknownKey: Array.isArray(response.unknownKey) ? (response.unknownKey as string[]) : [],
  };
}

/** GetBaseReport's requestId: any int32; the report's parts carry it (ocpp/device-model.ts). */
const reportRequestId = () => Math.floor(Math.random() * 2 ** 31);

/**
 * A 2.0.1 charger's configuration: the device model of its last report, at once (a report takes the charger
 * seconds to minutes, and what it held an hour ago is what an operator wants to see first, even offline). A
 * read asks the charger nothing (a GET stays safe to repeat: a screen polling it must not start a report each
 * time); POST configuration/report asks for one, which the screen does by itself when none is stored yet.
 */
async function deviceModel(context: OperationContext, chargerId: string): Promise<ConfigurationResponse> {
  const variables = await storedVariables(context.db, chargerId);
  return {
    protocol: 'ocpp2.0.1',
    configurationKey: [],
    unknownKey: [],
    variables: variables.map(({ reportedAt: _at, ...variable }) => variable),
    reportedAt: variables[0]?.reportedAt.toISOString() ?? null,
  };
}

async function storedVariables(
  db: Db,
  chargerId: string,
): Promise<Array<DeviceVariable & { reportedAt: Date }>> {
  const v = chargerVariables;
  const rows = await db
    .select()
    .from(v)
    .where(eq(v.chargerId, chargerId))
    .orderBy(
      asc(v.component),
      asc(v.componentInstance),
      asc(v.evseId),
      asc(v.evseConnectorId),
      asc(v.variable),
      asc(v.key),
    );
  return rows.map((row) => {
    const characteristics = (row.characteristics ?? {}) as { dataType?: string; unit?: string };
    return {
      key: row.key,
      component: row.component,
      componentInstance: row.componentInstance,
      evseId: row.evseId,
      evseConnectorId: row.evseConnectorId,
      variable: row.variable,
      variableInstance: row.variableInstance,
      attributeType: row.attributeType,
      value: row.value,
      mutability: row.mutability,
      dataType: characteristics.dataType ?? null,
      unit: characteristics.unit ?? null,
      reportedAt: row.reportedAt,
    };
  });
}

/**
 * POST /api/charger/{id}/configuration/report: GetBaseReport FullInventory. Answers the charger's word
 * (Accepted: the report follows in NotifyReport messages; Rejected, NotSupported, EmptyResultSet); a 1.6
 * charger NotSupported.
 */
export async function requestReport(
  context: OperationContext,
  chargerId: string,
): Promise<OperationResponse> {
  await chargerInScope(context, chargerId);
  return statusOf(
    getBaseReport(context.commands, chargerId, { requestId: reportRequestId(), reportBase: 'FullInventory' }),
    context,
    chargerId,
    'get base report',
    { name: 'GetBaseReport', parameters: { reportBase: 'FullInventory' } },
  );
}

export async function changeKey(
  context: OperationContext,
  chargerId: string,
  body: ConfigurationChangeBody,
): Promise<OperationResponse> {
  await chargerInScope(context, chargerId);
  if (body.key.length > OCPP16_KEY_MAX && (await chargerProtocol(context.db, chargerId)) === 'ocpp1.6')
    throw new Invalid(`key must be at most ${OCPP16_KEY_MAX} characters for an OCPP 1.6 charger.`);
  return statusOf(
    changeConfiguration(context.commands, chargerId, body.key, body.value),
    context,
    chargerId,
    'change configuration',
    // A credential's value (AuthorizationKey, a password variable) is redacted by the entry.
    { name: 'ChangeConfiguration', parameters: { key: body.key, value: body.value } },
  );
}

export async function clearAuthorizationCache(
  context: OperationContext,
  chargerId: string,
): Promise<OperationResponse> {
  await chargerInScope(context, chargerId);
  return statusOf(clearCache(context.commands, chargerId), context, chargerId, 'clear cache', {
    name: 'ClearCache',
  });
}
