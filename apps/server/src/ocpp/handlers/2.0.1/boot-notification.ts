import type { CallHandler } from '../context.ts';

interface ChargingStation {
  model: string;
  vendorName: string;
  serialNumber?: string;
  firmwareVersion?: string;
}

/** BootNotification (2.0.1): the station's facts (kept for the list), accepted with our clock and interval. */
export const bootNotification: CallHandler = ({ chargerId, store, events, heartbeatIntervalS }, params) => {
  const station = params.chargingStation as ChargingStation;
  store.booted(
    chargerId,
    {
      vendor: station.vendorName,
      model: station.model,
      serialNumber: station.serialNumber ?? null,
      firmwareVersion: station.firmwareVersion ?? null,
    },
    heartbeatIntervalS,
  );
  // The power sharing sends its safe default profile (after this answer: the work starts on a later turn).
  events.power?.booted(chargerId);
  return { status: 'Accepted', currentTime: new Date().toISOString(), interval: heartbeatIntervalS };
};
