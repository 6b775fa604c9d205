/**
 * The audit entry of a command a staff user sends to one charger (issue 36). A command changes no row, and the
 * charger is never called inside a transaction, so its entry is written alone once the charger answered or
 * did not: what was asked (`command`, OCPP's name of the intent), with what (`parameters`, credentials
 * redacted as the message log redacts them), and the outcome (`answer`: the charger's own word, or Offline,
 * Timeout, Error with the CALLERROR's code). A command refused before anything was sent (outside the scope,
 * a connector the charger lacks, a role that may not) writes nothing.
 */
import type { AuditEntity } from '@ev/shared';
import type { Db } from '../../db/client.ts';
import type { CommandOutcome } from '../../ocpp/commands.ts';
import { redactPayload } from '../../ocpp/message-frames.ts';
import { type AuditActor, audit } from '../audit/audit.ts';

export interface CommandRecord {
  actor: AuditActor;
  /** The charger (its OCPP identity); a blocker's entry is its connector's. */
  entity?: Extract<AuditEntity, 'charger' | 'connector'>;
  entityId: string | number;
  command: string;
  parameters?: Record<string, unknown>;
}

/** The outcome as an entry says it. */
export function commandAnswer(outcome: CommandOutcome): Record<string, unknown> {
  switch (outcome.status) {
    case 'answered': {
      // OCPP 1.6 answers UpdateFirmware with nothing and GetDiagnostics without a status: taken.
      const { status, detail } = outcome.response;
      return {
        answer: typeof status === 'string' ? status : 'Accepted',
        ...(typeof detail === 'string' ? { detail } : {}),
      };
    }
    case 'offline':
      return { answer: 'Offline' };
    case 'timeout':
      return { answer: 'Timeout' };
    case 'error':
      return { answer: 'Error', error: outcome.code, ...(outcome.local ? { detail: outcome.message } : {}) };
  }
}

/** What a caller made of several outcomes (a local list sent in parts): its own answer word. */
export interface CommandAnswer {
  answer: string;
  [detail: string]: unknown;
}

/** Writes the command's entry: `outcome` is the charger's, or the caller's answer of several. */
export async function recordCommand(
  db: Db,
  record: CommandRecord,
  outcome: CommandOutcome | CommandAnswer,
): Promise<void> {
  await audit(db, record.actor, {
    entity: record.entity ?? 'charger',
    entityId: record.entityId,
    action: 'command',
    details: {
      command: record.command,
      parameters: redactPayload(record.parameters ?? {}),
      ...('answer' in outcome ? outcome : commandAnswer(outcome)),
    },
  });
}
