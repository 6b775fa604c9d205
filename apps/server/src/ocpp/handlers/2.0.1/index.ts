/**
 * OCPP 2.0.1: the actions a charger may call, one file each (issue 33). OcppCentral registers these on a
 * connection that chose 'ocpp2.0.1'; an action not listed here is answered NotImplemented by ocpp-rpc. Each
 * turns the frame into the same charger events as its 1.6 twin (ocpp/events.ts).
 */
import type { CallHandler } from '../context.ts';
import { authorize } from './authorize.ts';
import { bootNotification } from './boot-notification.ts';
import { firmwareStatusNotification, logStatusNotification } from './file-status-notification.ts';
import { meterValues } from './meter-values.ts';
import { notifyEvent, securityEventNotification } from './notify-event.ts';
import { notifyReport } from './notify-report.ts';
import { statusNotification } from './status-notification.ts';
import { transactionEvent } from './transaction-event.ts';

export const OCPP201_HANDLERS: Readonly<Record<string, CallHandler>> = {
  BootNotification: bootNotification,
  Heartbeat: () => ({ currentTime: new Date().toISOString() }),
  StatusNotification: statusNotification,
  NotifyReport: notifyReport,
  FirmwareStatusNotification: firmwareStatusNotification,
  LogStatusNotification: logStatusNotification,
  Authorize: authorize,
  TransactionEvent: transactionEvent,
  MeterValues: meterValues,
  NotifyEvent: notifyEvent,
  SecurityEventNotification: securityEventNotification,
  // A reservation expired or removed at the charger: acknowledged (the frame is in the message log); the
  // booking's own expiry and cancel already end it here, and the connector's status follows by StatusNotification.
  ReservationStatusUpdate: () => ({}),
  // Vendor data is not understood (as over 1.6).
  DataTransfer: () => ({ status: 'UnknownVendorId' }),
};
