import { type MeterValue, openTransactionOn, recordMeterValues } from '../../transactions.ts';
import type { CallHandler } from '../context.ts';

/**
 * MeterValues (2.0.1): readings of an EVSE outside TransactionEvent. Kept, and applied to the transaction open
 * on that EVSE as 1.6's MeterValues of a transaction are (its energy register and SoC); EVSE 0 (the main
 * meter) and an EVSE without a transaction are kept with no session.
 */
export const meterValues: CallHandler = async ({ chargerId, db, events, guard }, params) => {
  const evseId = params.evseId as number;
  const transactionId = evseId > 0 ? await openTransactionOn(db, chargerId, evseId) : null;
  const reading = await recordMeterValues(db, chargerId, {
    connectorId: evseId,
    ...(transactionId !== null ? { transactionId } : {}),
    meterValue: params.meterValue as MeterValue[],
  });
  if (reading) await guard('MeterValues', () => events.meterValues(chargerId, reading));
  return {};
};
