/**
 * The power sharing's ear on the chargers (ocpp/events.ts): the bookings' events as they are, each followed by
 * a word to the power manager once the bookings are done with it (the session is stored by then), and the
 * connection events of the `power` sub-port. Nothing here waits for the power work.
 */
import type { ChargerEvents } from '../../ocpp/events.ts';
import type { PowerManager } from './power-manager.ts';

export function withPower(events: ChargerEvents, power: PowerManager): ChargerEvents {
  return {
    ...events,
    start: async (chargerId, request, guard) => {
      power.sessionStarting(chargerId, request.connectorId);
      const answer = await events.start(chargerId, request, guard);
      // A refused tag's session is being stopped: it draws nothing to share.
      if (!answer.refused) power.sessionsChanged(chargerId);
      return answer;
    },
    stopped: async (chargerId, stopped) => {
      try {
        await events.stopped(chargerId, stopped);
      } finally {
        if (stopped.wasOpen) power.sessionsChanged(chargerId);
      }
    },
    connectorStatus: async (chargerId, report) => {
      try {
        await events.connectorStatus(chargerId, report);
      } finally {
        power.chargingState(chargerId, report.ocppConnectorId, report.status);
      }
    },
    power: {
      connected: (chargerId, stored) => power.connected(chargerId, stored),
      disconnected: (chargerId, stored) => power.disconnected(chargerId, stored),
      booted: (chargerId) => power.booted(chargerId),
    },
  };
}
