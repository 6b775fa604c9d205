/**
 * OCPP 1.6J: the actions a charger may call, one file each. OcppCentral registers every one on each
 * connection; an action not listed here is answered NotImplemented by ocpp-rpc.
 */
import type { CallHandler } from '../context.ts';
import { authorize } from './authorize.ts';
import { bootNotification } from './boot-notification.ts';
import { diagnosticsStatusNotification, firmwareStatusNotification } from './file-status-notification.ts';
import { heartbeat } from './heartbeat.ts';
import { meterValues } from './meter-values.ts';
import { startTransaction } from './start-transaction.ts';
import { statusNotification } from './status-notification.ts';
import { stopTransaction } from './stop-transaction.ts';

export const OCPP16_HANDLERS: Readonly<Record<string, CallHandler>> = {
  BootNotification: bootNotification,
  Heartbeat: heartbeat,
  StatusNotification: statusNotification,
  Authorize: authorize,
  StartTransaction: startTransaction,
  MeterValues: meterValues,
  StopTransaction: stopTransaction,
  // Vendor data is not understood.
  DataTransfer: () => ({ status: 'UnknownVendorId' }),
  DiagnosticsStatusNotification: diagnosticsStatusNotification,
  FirmwareStatusNotification: firmwareStatusNotification,
};
