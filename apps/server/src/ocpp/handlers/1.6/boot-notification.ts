import type { CallHandler } from '../context.ts';

/** BootNotification: what the charger is (kept for the list), accepted with our clock and heartbeat interval. */
export const bootNotification: CallHandler = ({ chargerId, store, events, heartbeatIntervalS }, params) => {
  store.booted(
    chargerId,
    {
      vendor: String(params.chargePointVendor),
      model: String(params.chargePointModel),
      serialNumber: (params.chargePointSerialNumber as string | undefined) ?? null,
      firmwareVersion: (params.firmwareVersion as string | undefined) ?? null,
    },
    heartbeatIntervalS,
  );
  // The power sharing sends its safe default profile (after this answer: the work starts on a later turn).
  events.power?.booted(chargerId);
  return { status: 'Accepted', currentTime: new Date().toISOString(), interval: heartbeatIntervalS };
};
