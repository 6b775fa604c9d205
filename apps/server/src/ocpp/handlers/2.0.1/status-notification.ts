import { chargerTime } from '../../transactions.ts';
import type { CallHandler } from '../context.ts';

/**
 * 2.0.1's ConnectorStatusEnumType → the back-office's status values. Occupied (a cable in) reads Preparing
 * until the transaction's charging state says more (TransactionEvent).
 */
const STATUS_OF: Record<string, string> = {
  Available: 'AVAILABLE',
  Occupied: 'PREPARING',
  Reserved: 'RESERVED',
  Unavailable: 'UNAVAILABLE',
  Faulted: 'FAULTED',
};

/**
 * StatusNotification (2.0.1): EVSE n's connector is our connector n (docs/ocpp.md). Available is the cable out
 * for the connector's booking, as 1.6's Available is (the charging states come in TransactionEvent).
 */
export const statusNotification: CallHandler = async ({ chargerId, store, events, guard }, params) => {
  const evseId = params.evseId as number;
  if (evseId > 0) {
    const status = String(params.connectorStatus);
    const at = chargerTime(params.timestamp as string | undefined);
    store.status(chargerId, evseId, {
      status: STATUS_OF[status] ?? 'UNKNOWN',
      errorCode: status === 'Faulted' ? 'OtherError' : 'NoError',
      vendorErrorCode: null,
      info: null,
      at,
    });
    if (status === 'Available') {
      await guard('StatusNotification', () =>
        events.connectorStatus(chargerId, { ocppConnectorId: evseId, status, at }),
      );
    }
  }
  return {};
};
