import { DeviceModelReports } from '../../device-model.ts';
import type { CallHandler } from '../context.ts';

/** Reports under way in this process (a charger's parts all come over its one connection). */
const reports = new DeviceModelReports();

/**
 * NotifyReport (2.0.1): a part of the device model asked for by GetBaseReport; the last part (tbc false)
 * replaces the charger's stored configuration (ocpp/device-model.ts). A failure to store is logged and the
 * charger still gets its (empty) answer: the screen keeps the previous report and can ask again.
 */
export const notifyReport: CallHandler = async ({ chargerId, db, log }, params) => {
  try {
    const outcome = await reports.part(db, chargerId, params as never);
    if (outcome === 'dropped')
      log.warn({ chargerId, requestId: params.requestId }, 'OCPP: device model report too large, not stored');
  } catch (error) {
    log.error({ err: error, chargerId }, 'OCPP: storing the device model report failed');
  }
  return {};
};
