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

/** StatusNotification (2.0.1): EVSE n's connector is our connector n (docs/ocpp.md). */
export const statusNotification: CallHandler = ({ chargerId, store }, params) => {
  const evseId = params.evseId as number;
  if (evseId > 0) {
    const status = String(params.connectorStatus);
    store.status(chargerId, evseId, {
      status: STATUS_OF[status] ?? 'UNKNOWN',
      errorCode: status === 'Faulted' ? 'OtherError' : 'NoError',
      vendorErrorCode: null,
      info: null,
      at: chargerTime(params.timestamp as string | undefined),
    });
  }
  return {};
};
