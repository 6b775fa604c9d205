import { type MeterValue, recordMeterValues } from '../../transactions.ts';
import type { CallHandler } from '../context.ts';

/** MeterValues: a session's energy and state of charge, stored, then applied to its booking. */
export const meterValues: CallHandler = async ({ chargerId, db, events, guard }, params) => {
  const reading = await recordMeterValues(
    db,
    chargerId,
    params as { connectorId: number; transactionId?: number; meterValue: MeterValue[] },
  );
  if (reading) await guard('MeterValues', () => events.meterValues(chargerId, reading));
  return {};
};
