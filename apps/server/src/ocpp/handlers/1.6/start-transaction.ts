import type { StartRequest } from '../../transactions.ts';
import type { CallHandler } from '../context.ts';

/** StartTransaction: the session stored and linked to a booking; a refused tag is asked to stop. */
export const startTransaction: CallHandler = async ({ chargerId, events, guard, stopRefused }, params) => {
  const answer = await events.start(chargerId, params as unknown as StartRequest, guard);
  if (answer.refused) stopRefused(answer.transactionId, answer.idTagStatus);
  const { idTagStatus: status, expiryDate, parentIdTag } = answer;
  return {
    transactionId: answer.transactionId,
    idTagInfo: { status, ...(expiryDate ? { expiryDate } : {}), ...(parentIdTag ? { parentIdTag } : {}) },
  };
};
