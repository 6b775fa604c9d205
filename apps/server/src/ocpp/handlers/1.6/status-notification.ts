import { backOfficeStatus } from '../../store.ts';
import { chargerTime } from '../../transactions.ts';
import type { CallHandler } from '../context.ts';

/** The statuses that mean something to a booking: the cable out, the EV paused, charging again. */
const FOR_BOOKINGS = new Set(['Available', 'SuspendedEV', 'Charging']);

/** StatusNotification: a connector's status, stored; connector 0 is the charger as a whole. */
export const statusNotification: CallHandler = async ({ chargerId, store, events, guard }, params) => {
  const number = params.connectorId as number;
  // Connector 0 is the charger as a whole: its connectors report their own statuses.
  if (number > 0) {
    const at = chargerTime(params.timestamp as string | undefined);
    const status = String(params.status);
    store.status(chargerId, number, {
      status: backOfficeStatus(status),
      errorCode: String(params.errorCode),
      vendorErrorCode: (params.vendorErrorCode as string | undefined) ?? null,
      info: (params.info as string | undefined) ?? null,
      at,
    });
    if (FOR_BOOKINGS.has(status)) {
      await guard('StatusNotification', () =>
        events.connectorStatus(chargerId, { ocppConnectorId: number, status, at }),
      );
    }
  }
  return {};
};
