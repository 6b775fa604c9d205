import type { ChargerEvents } from '../../ocpp/events.ts';
import type { PowerSamples } from './power-samples.ts';

/**
 * The charger events with the power samples added (app.ts): a reading's power and a session's end are queued
 * for the live load chart, then the events go on as before. Queuing never throws and never waits.
 */
export const withPowerSamples = (events: ChargerEvents, samples: PowerSamples): ChargerEvents => ({
  ...events,
  meterValues: async (chargerId, reading) => {
    samples.meterValues(chargerId, reading);
    await events.meterValues(chargerId, reading);
  },
  stopped: async (chargerId, stopped) => {
    samples.stopped(chargerId, stopped);
    await events.stopped(chargerId, stopped);
  },
});
