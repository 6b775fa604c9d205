/**
 * Commands to an OCPP 2.0.1 charger (issue 33). The back office asks for intents in one shape, 1.6's (ocpp/
 * commands.ts: unlock connector 2, reset softly, start for this tag); on a 2.0.1 connection the process
 * holding the charger turns each into its 2.0.1 frame here and the answer back into the shape callers read,
 * the charger's own status word unchanged. Callers never learn the version: a command reaches either kind
 * through the same ChargerCommands and the cluster bus.
 *
 * Connectors: our connector number n is the charger's EVSE n, connector 1 on it (docs/ocpp.md).
 */
import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { chargingSessions } from '../../db/schema/index.ts';
import type { CommandAction } from '../commands.ts';
import { DEVICE_MODEL_TRANSLATIONS } from './ocpp201/device-model.ts';
import { OPERATION_TRANSLATIONS } from './ocpp201/operations.ts';
import { type Ocpp201Translation, same, type Translate, type Translations } from './ocpp201/types.ts';

export type { Ocpp201Command, Ocpp201Translation, Unsupported } from './ocpp201/types.ts';

/** 1.6's TriggerMessage names, where 2.0.1 calls the message otherwise. */
const TRIGGERED_AS: Record<string, string> = { DiagnosticsStatusNotification: 'LogStatusNotification' };

const TRANSLATIONS: Translations = {
  ...DEVICE_MODEL_TRANSLATIONS,
  ...OPERATION_TRANSLATIONS,
  Reset: (_db, _id, { type }) => ({
    action: 'Reset',
    // Hard: at once, sessions or not; Soft: when idle (2.0.1 may answer Scheduled).
    params: { type: type === 'Hard' ? 'Immediate' : 'OnIdle' },
    answer: same,
  }),
  UnlockConnector: (_db, _id, { connectorId }) => ({
    action: 'UnlockConnector',
    params: { evseId: connectorId, connectorId: 1 },
    answer: same,
  }),
  ChangeAvailability: (_db, _id, { connectorId, type }) => ({
    action: 'ChangeAvailability',
    params: {
      operationalStatus: type,
      ...(connectorId === 0 ? {} : { evse: { id: connectorId } }),
    },
    answer: same,
  }),
  TriggerMessage: (_db, _id, { requestedMessage, connectorId }) => ({
    action: 'TriggerMessage',
    params: {
      requestedMessage: TRIGGERED_AS[String(requestedMessage)] ?? requestedMessage,
      ...(typeof connectorId === 'number' && connectorId > 0
        ? { evse: { id: connectorId, connectorId: 1 } }
        : {}),
    },
    answer: same,
  }),
  ClearCache: () => ({ action: 'ClearCache', params: {}, answer: same }),
  DataTransfer: (_db, _id, params) => ({ action: 'DataTransfer', params, answer: same }),
  RemoteStartTransaction: (_db, _id, { connectorId, idTag, remoteStartId }) => ({
    action: 'RequestStartTransaction',
    params: {
      evseId: connectorId,
      idToken: { idToken: idTag, type: 'Central' },
      // Ties the charger's TransactionEvent to this request (the caller's booking, when it gives one).
      remoteStartId: typeof remoteStartId === 'number' ? remoteStartId : Math.floor(Math.random() * 2 ** 31),
    },
    answer: same,
  }),
  RemoteStopTransaction: async (db, chargerId, { transactionId }) => {
    // Callers name our session (1.6's integer transactionId); a 2.0.1 charger knows its own string id.
    const [session] = await db
      .select({ ref: chargingSessions.transactionRef, chargerId: chargingSessions.chargerId })
      .from(chargingSessions)
      .where(eq(chargingSessions.id, Number(transactionId)));
    if (!session?.ref || session.chargerId !== chargerId) {
      return { unsupported: `No OCPP 2.0.1 transaction ${String(transactionId)} on this charger` };
    }
    return { action: 'RequestStopTransaction', params: { transactionId: session.ref }, answer: same };
  },
};

/** The 2.0.1 frame of an intent, or why it is not sent. */
export async function toOcpp201Command(
  db: Db,
  chargerId: string,
  action: CommandAction,
  params: Record<string, unknown>,
): Promise<Ocpp201Translation> {
  const translate: Translate | undefined = TRANSLATIONS[action];
  if (!translate) return { unsupported: `${action} is not supported over OCPP 2.0.1 yet` };
  return translate(db, chargerId, params);
}
