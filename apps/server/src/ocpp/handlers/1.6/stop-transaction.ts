import { stopTransaction as closeSession } from '../../transactions.ts';
import type { CallHandler } from '../context.ts';

/** StopTransaction: the session closed, then its booking; an unknown id is accepted so the charger clears its queue. */
export const stopTransaction: CallHandler = async ({ chargerId, db, events, guard, log }, params) => {
  const stopped = await closeSession(db, chargerId, params as Parameters<typeof closeSession>[2]);
  if (stopped) await guard('StopTransaction', () => events.stopped(chargerId, stopped));
  else log.warn({ chargerId, transactionId: params.transactionId }, 'OCPP: unknown transaction');
  return { idTagInfo: { status: 'Accepted' } };
};
