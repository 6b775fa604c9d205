import { and, eq } from 'drizzle-orm';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import { chargers, connectors, landlords } from '../../db/schema/index.ts';
import { BadGateway, Conflict, GatewayTimeout, Invalid, NotFound } from '../../lib/errors.ts';
import { type ChargerCommands, type CommandOutcome, dataTransfer } from '../../ocpp/commands.ts';
import { type DataScope, landlordScope } from '../../plugins/scope.ts';
import type { AuditActor } from '../audit/audit.ts';
import { recordCommand } from './command-audit.ts';

export type BlockerAction = 'open' | 'close';

/** A connector that is not there or outside the caller's scope (also a path id beyond ID_MAX). */
export const CONNECTOR_NOT_FOUND = 'Connector not found';

/**
 * The charger's answer to a command to one charger, or the HTTP error its outcome stands for: offline a 409,
 * no answer in time a 504, a CALLERROR a 502 (the blockers' and the operations' words).
 */
export function commandResponse(
  outcome: CommandOutcome,
  config: Config,
  chargerId: string,
  command: string,
): Record<string, unknown> {
  switch (outcome.status) {
    case 'offline':
      throw new Conflict(`Charger ${chargerId} is offline.`);
    case 'timeout':
      throw new GatewayTimeout(
        `Charger ${chargerId} did not answer the ${command} command within ${config.ocpp.commandTimeoutMs / 1000} s.`,
      );
    case 'error':
      throw new BadGateway(
        `Charger ${chargerId} answered the ${command} command with an error (${outcome.code}).`,
      );
    case 'answered':
      return outcome.response;
  }
}

/**
 * Open/Close blocker: a DataTransfer to the connector's charger (vendorId OCPP_BLOCKER_VENDOR_ID, messageId
 * OpenBlocker/CloseBlocker, data `{"judjodId":…,"connectorId":…}`). 404 outside the scope; 400 without a
 * blocker; 409 offline; 502 refused or answered with an error; 504 no answer in time. Once sent, the command
 * is the connector's audit entry, with the charger's answer.
 */
export async function sendBlocker(
  db: Db,
  commands: ChargerCommands,
  config: Config,
  scope: DataScope,
  connectorId: number,
  action: BlockerAction,
  actor: AuditActor,
): Promise<string> {
  const [row] = await db
    .select({ chargerId: connectors.chargerId, judjodId: connectors.judjodId })
    .from(connectors)
    .innerJoin(chargers, eq(chargers.id, connectors.chargerId))
    .innerJoin(landlords, eq(landlords.id, chargers.landlordId))
    .where(and(eq(connectors.id, connectorId), landlordScope(scope)));
  if (!row) throw new NotFound(CONNECTOR_NOT_FOUND);
  if (row.judjodId === null) throw new Invalid('This connector has no blocker (Judjod Id).');
  const command = `${action} blocker`;
  const messageId = action === 'open' ? 'OpenBlocker' : 'CloseBlocker';
  const outcome = await dataTransfer(commands, row.chargerId, {
    vendorId: config.ocpp.blockerVendorId,
    messageId,
    data: JSON.stringify({ judjodId: row.judjodId, connectorId }),
  });
  await recordCommand(
    db,
    {
      actor,
      entity: 'connector',
      entityId: connectorId,
      command: messageId,
      parameters: { chargerId: row.chargerId, judjodId: row.judjodId },
    },
    outcome,
  );
  const status = String(commandResponse(outcome, config, row.chargerId, command).status);
  if (status !== 'Accepted') {
    throw new BadGateway(`Charger ${row.chargerId} rejected the ${command} command (${status}).`);
  }
  return action === 'open' ? 'Send open blocker successfully!' : 'Send close blocker successfully!';
}
