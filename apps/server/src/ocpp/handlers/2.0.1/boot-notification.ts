import type { CallHandler } from '../context.ts';

interface ChargingStation {
  model: string;
  vendorName: string;
  serialNumber?: string;
  firmwareVersion?: string;
}

/** BootNotification (2.0.1): the station's facts (kept for the list), accepted with our clock and interval. */
export const bootNotification: CallHandler = ({ chargerId, store, heartbeatIntervalS }, params) => {
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
  return { status: 'Accepted', currentTime: new Date().toISOString(), interval: heartbeatIntervalS };
};
